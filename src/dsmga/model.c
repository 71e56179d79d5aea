/* glevo_dsm_gpu: the GPU model builder's public face. Checks, picks the driver (fragment
 * passes or compute dispatches) and turns the ILS columns a driver reads back into the
 * linkage sets glevo_find_clique_cpu gives. */
#include <stdlib.h>
#include <string.h>

#include "dsmga/model_internal.h"

dsm_uniforms dsm_uniforms_for(const glevo_dsm_gpu *g, const glevo_clique_params *cp)
{
    dsm_uniforms u = {.n = g->n, .words = g->words, .ell = g->ell,
                      .inv_n = 1.0f / (float)g->n}; /* the CPU twin's rounding of 1/n */
    if (cp) {
        u.key[0] = cp->seed;
        u.key[1] = CLIQUE_STREAM;
        u.generation = cp->generation;
        u.lossy = cp->lossy ? 1 : 0;
    }
    return u;
}

glevo_status glevo_dsm_gpu_create(int ell, int n, glevo_backend backend, glevo_dsm_gpu **out)
{
    *out = NULL;
    if (ell < 1 || n < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "GPU model: ell %d and n %d must be positive", ell, n);
    backend = glevo_backend_resolve(backend);
    if (backend == GLEVO_BACKEND_CPU)
        return glevo_fail(GLEVO_ERR_INVALID, "GPU model: backend cpu has no GPU model (use "
                          "glevo_dsm_mi_cpu and glevo_find_clique_cpu)");
    glevo_status st = glevo_backend_check(backend, "GPU model backend");
    if (st != GLEVO_OK) return st;
    glevo_dsm_gpu *g = calloc(1, sizeof *g);
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the GPU model");
    g->backend = backend;
    g->ops = backend == GLEVO_BACKEND_COMPUTE ? &dsm_compute_ops : &dsm_fragment_ops;
    g->ell = ell;
    g->n = n;
    g->words = glevo_dsm_words(n);
    g->ils_host = malloc((size_t)ell * ell * sizeof *g->ils_host);
    st = g->ils_host ? g->ops->create(g)
                     : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the ILS");
    if (st != GLEVO_OK) {
        glevo_dsm_gpu_destroy(g);
        return st;
    }
    *out = g;
    return GLEVO_OK;
}

void glevo_dsm_gpu_destroy(glevo_dsm_gpu *g)
{
    if (!g) return;
    g->ops->destroy(g);
    free(g->ils_host);
    free(g);
}

glevo_status glevo_dsm_gpu_build(glevo_dsm_gpu *g, const uint32_t *rows)
{
    return g->ops->build(g, rows);
}

glevo_status glevo_dsm_gpu_read(glevo_dsm_gpu *g, float *mi) { return g->ops->read(g, mi); }

glevo_status glevo_dsm_gpu_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                                  int32_t *len)
{
    int ell = g->ell, last = 0;
    if (cp->lossy && cp->pop_n != g->n)
        return glevo_fail(GLEVO_ERR_INVALID, "lossy FindClique: population of %d, model built for %d",
                          cp->pop_n, g->n);
    glevo_status st = g->ops->clique(g, cp, &last);
    /* Columns 1..last are written; column 0 is the start gene itself. */
    if (st == GLEVO_OK && last >= 1) st = g->ops->read_ils(g, last, g->ils_host);
    if (st != GLEVO_OK) return st;
    for (int s = 0; s < ell; ++s) {
        int32_t *set = ils + (size_t)s * ell;
        set[0] = s;
        int size = 1;
        const uint32_t *row = g->ils_host + (size_t)s * g->ils_row;
        while (size <= last && row[(size_t)(size - 1) * g->ils_col] != CLIQUE_END) {
            set[size] = (int32_t)row[(size_t)(size - 1) * g->ils_col];
            ++size;
        }
        len[s] = size;
        for (int t = size; t < ell; ++t) set[t] = -1;
    }
    return GLEVO_OK;
}
