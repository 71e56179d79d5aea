/* --split (issue 26): a random train/test split of one dataset, by the run's seed (Philox, a
 * Fisher-Yates shuffle of the case indices), so that a run with --split is reproducible; and
 * the stride samples the result's model is screened and pruned on. */
#include <stdlib.h>
#include <string.h>

#include "glevo/rng.h"
#include "core/args.h"
#include "gp/gp_internal.h"

static glevo_status part(const glevo_gp_data *d, const int *idx, int n, glevo_gp_data **out)
{
    float *x = malloc((size_t)d->vars * n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    glevo_status st = x && y ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a split");
    for (int c = 0; c < n && !st; ++c) {
        y[c] = d->y[idx[c]];
        for (int v = 0; v < d->vars; ++v) x[(size_t)v * n + c] = d->x[(size_t)v * d->cases + idx[c]];
    }
    if (!st) st = glevo_gp_data_create(d->vars, n, x, y, out);
    for (int v = 0; v <= d->vars && !st; ++v) {
        if (!d->names[v]) continue;
        free((*out)->names[v]);
        (*out)->names[v] = strdup(d->names[v]);
        if (!(*out)->names[v]) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a split");
    }
    free(x);
    free(y);
    return st;
}

glevo_status gp_data_stride_sample(const glevo_gp_data *d, int most, glevo_gp_data **out)
{
    *out = NULL;
    int n = d->cases < most ? d->cases : most, step = d->cases / n;
    int *idx = malloc((size_t)n * sizeof *idx);
    if (!idx) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a sample of the data");
    for (int c = 0; c < n; ++c) idx[c] = c * step;
    glevo_status st = part(d, idx, n, out);
    free(idx);
    return st;
}

glevo_status glevo_gp_data_split(const glevo_gp_data *d, double fraction, uint32_t seed,
                                 glevo_gp_data **train, glevo_gp_data **test)
{
    glevo_clear_error();
    ARG_NOT_NULL(train);
    ARG_NOT_NULL(test);
    *train = *test = NULL;
    ARG_NOT_NULL(d);
    ARG_FINITE(fraction);
    int nt = (int)(fraction * d->cases + 0.5);
    if (!(fraction > 0 && fraction < 1) || nt < 1 || nt >= d->cases)
        return glevo_fail(GLEVO_ERR_INVALID, "split fraction %g leaves no case on one side of %d",
                          fraction, d->cases);
    int *idx = malloc((size_t)d->cases * sizeof *idx);
    if (!idx) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a split");
    for (int c = 0; c < d->cases; ++c) idx[c] = c;
    for (int c = d->cases - 1; c > 0; --c) {
        uint32_t r = glevo_philox4x32((uint32_t)c, 0x53504c54u /* "SPLT" */, 0, 0, seed, 26).v[0];
        int j = (int)glevo_rng_below(r, (uint32_t)c + 1);
        int t = idx[c];
        idx[c] = idx[j];
        idx[j] = t;
    }
    glevo_status st = part(d, idx + nt, d->cases - nt, train);
    if (!st) st = part(d, idx, nt, test);
    if (st) {
        glevo_gp_data_destroy(*train);
        glevo_gp_data_destroy(*test);
        *train = *test = NULL;
    }
    free(idx);
    return st;
}
