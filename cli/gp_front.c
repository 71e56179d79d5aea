/* The front a `glevo gp` model is picked from (--json "front"), as PySR's hall of fame lists
 * it: of the last generation's programs (a portfolio's main search) and the run's printed
 * model (another search's, or the result's linear layer), the reported models that no other
 * beats in both size and training error, smallest first. The run reports the one of least
 * error; the front shows what simpler models cost. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_front.h"

typedef struct ranked { int size; double error; int index; } ranked;

static int by_nodes(const void *a, const void *b)
{
    const gp_front_entry *x = a, *y = b;
    return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

static int by_size_then_error(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    if (x->error != y->error) return x->error < y->error ? -1 : 1;
    return x->index - y->index;
}

/* Indices of the programs on the (size, error) front of n: ascending size, each strictly
 * better in error than every smaller one. Returns how many (into idx). */
static int front_of(const int *size, const double *error, int n, int *idx)
{
    ranked *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    int m = 0;
    if (!order) return 0;
    for (int i = 0; i < n; ++i) order[i] = (ranked){size[i], isnan(error[i]) ? INFINITY : error[i], i};
    qsort(order, (size_t)n, sizeof *order, by_size_then_error);
    double best = INFINITY;
    for (int k = 0; k < n; ++k)
        if (isfinite(order[k].error) && order[k].error < best) {
            best = order[k].error;
            idx[m++] = order[k].index;
        }
    free(order);
    return m;
}

glevo_status gp_front_build(const glevo_gp *gp, const glevo_gp_data *data,
                            const glevo_gp_result *reported, gp_front *out)
{
    memset(out, 0, sizeof *out);
    const glevo_gp_programs *pop = glevo_gp_population(gp, NULL);
    int n = glevo_gp_programs_count(pop);
    double *error = malloc((size_t)(n > 0 ? n : 1) * sizeof *error);
    int *size = malloc((size_t)(n > 0 ? n : 1) * sizeof *size);
    int *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    glevo_status st = error && size && idx ? glevo_gp_read_errors(gp, error)
                                           : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n && !st; ++i) glevo_gp_programs_codes(pop, i, &size[i]);
    /* The programs' front first, then their models (a model is built only for those). */
    int m = st ? 0 : front_of(size, error, n, idx);
    out->entries = calloc((size_t)m + 1, sizeof *out->entries);
    if (!st && !out->entries) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int k = 0; k < m && !st; ++k) {
        glevo_gp_result r;
        if ((st = glevo_gp_model(glevo_gp_params_of(gp), data, pop, idx[k], &r))) break;
        out->entries[k] = (gp_front_entry){r.best_nodes, r.best_error, r.best_sexpr, r.best_infix};
        r.best_sexpr = r.best_infix = NULL;
        glevo_gp_result_free(&r);
        out->count = k + 1;
    }
    /* The reported model among them: another search's, or the linear layer's sum, where that
     * is what the run printed. */
    if (!st && reported && reported->best_sexpr) {
        gp_front_entry *e = &out->entries[out->count];
        *e = (gp_front_entry){reported->best_nodes, reported->best_error,
                              strdup(reported->best_sexpr), strdup(reported->best_infix)};
        if (e->sexpr && e->infix) out->count++;
        else st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory"), free(e->sexpr), free(e->infix);
    }
    /* The models' own front: simplification can make a larger program the smaller model. */
    int kept = 0;
    for (int k = 0; k < out->count; ++k) {
        bool beaten = false;
        for (int j = 0; j < out->count && !beaten; ++j)
            beaten = j != k && out->entries[j].nodes <= out->entries[k].nodes &&
                     out->entries[j].error <= out->entries[k].error &&
                     (out->entries[j].nodes < out->entries[k].nodes ||
                      out->entries[j].error < out->entries[k].error || j < k);
        if (beaten) {
            free(out->entries[k].sexpr), free(out->entries[k].infix);
            out->entries[k].sexpr = out->entries[k].infix = NULL;
        }
    }
    for (int k = 0; k < out->count; ++k)
        if (out->entries[k].sexpr) out->entries[kept++] = out->entries[k];
    out->count = kept;
    qsort(out->entries, (size_t)kept, sizeof *out->entries, by_nodes); /* no two of one size */
    free(error), free(size), free(idx);
    if (st) gp_front_free(out);
    return st;
}

void gp_front_free(gp_front *f)
{
    for (int k = 0; k < f->count; ++k) free(f->entries[k].sexpr), free(f->entries[k].infix);
    free(f->entries);
    memset(f, 0, sizeof *f);
}

void gp_front_json(json_writer *w, const gp_front *f)
{
    json_begin_array(w, "front");
    for (int k = 0; k < f->count; ++k) {
        json_begin_object(w, NULL);
        json_int(w, "nodes", f->entries[k].nodes);
        json_number(w, "error", f->entries[k].error);
        json_string(w, "program", f->entries[k].sexpr);
        json_string(w, "infix", f->entries[k].infix);
        json_end_object(w);
    }
    json_end_array(w);
}
