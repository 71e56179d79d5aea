/* A held-out data set's columns matched to the training set's by name (glevo_gp_data_align):
 * models name the training columns, and a test file with the same columns in another order
 * scored an exact model at R^2 -0.9985 when matched by position. */
#include <stdlib.h>
#include <string.h>

#include "gp/gp_internal.h"
#include "core/args.h"

static int column_of(const glevo_gp_data *d, const char *name)
{
    for (int v = 0; v < d->vars; ++v)
        if (!strcmp(d->names[v], name)) return v;
    return -1;
}

glevo_status glevo_gp_data_align(const glevo_gp_data *like, const glevo_gp_data *d,
                                 glevo_gp_data **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(like);
    ARG_NOT_NULL(d);
    ARG_NOT_NULL(out);
    *out = NULL;
    if (strcmp(like->names[like->vars], d->names[d->vars]))
        return glevo_fail(GLEVO_ERR_INVALID, "the target is '%s' here, '%s' in the training "
                          "data", d->names[d->vars], like->names[like->vars]);
    for (int v = 0; v < d->vars; ++v)
        if (column_of(like, d->names[v]) < 0)
            return glevo_fail(GLEVO_ERR_INVALID, "column '%s' is not an input of the training "
                              "data", d->names[v]);
    int *from = malloc(((size_t)like->vars + 1) * sizeof *from);
    if (!from) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int v = 0; v < like->vars; ++v)
        if ((from[v] = column_of(d, like->names[v])) < 0) {
            free(from);
            return glevo_fail(GLEVO_ERR_INVALID, "input column '%s' of the training data is "
                              "missing", like->names[v]);
        }
    /* Same names, as many: a permutation. */
    float *x = malloc(((size_t)like->vars * (size_t)d->cases + 1) * sizeof *x);
    glevo_status st = x ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int v = 0; v < like->vars && !st; ++v)
        memcpy(x + (size_t)v * d->cases, d->x + (size_t)from[v] * d->cases,
               (size_t)d->cases * sizeof *x);
    if (!st) st = gp_data_create(like->vars, d->cases, x, d->y, false, out);
    for (int v = 0; !st && v <= like->vars; ++v) {
        char *name = strdup(like->names[v]);
        if (!name) {
            glevo_gp_data_destroy(*out);
            *out = NULL;
            st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
            break;
        }
        free((*out)->names[v]);
        (*out)->names[v] = name;
    }
    free(x);
    free(from);
    return st;
}
