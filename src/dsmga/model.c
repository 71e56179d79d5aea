/* glevo_dsm_gpu: the GPU model builder's public face. Checks, picks the driver (fragment
 * passes or compute dispatches), loads FastCounting rows (uploaded, or packed on the GPU from
 * the population's uploaded bytes) and turns the ILS columns a driver reads back into the
 * linkage sets glevo_find_clique_cpu gives. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsmga/model_internal.h"
#include "core/args.h"

/* The population bytes texture (DSM_BITS_WIDTH words a row at most) and the two FastCounting
 * row textures, shared by both drivers. */
static glevo_status create_textures(glevo_dsm_gpu *g)
{
    long long words = ((long long)g->n * g->ell + 3) / 4;
    int width = words < DSM_BITS_WIDTH ? (int)words : DSM_BITS_WIDTH;
    long long height = (words + width - 1) / width;
    if (height > gpu_context_limits()->max_texture_size)
        return glevo_fail(GLEVO_ERR_INVALID, "GPU model: a population of %d x %d bytes does not "
                          "fit a %d x %d texture", g->n, g->ell, width,
                          gpu_context_limits()->max_texture_size);
    g->bits_tail = calloc((size_t)width, sizeof *g->bits_tail);
    if (!g->bits_tail) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the GPU model");
    glevo_status st = gpu_texture_create(&g->bits, width, (int)height, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->rows, g->words, g->ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->pop, g->words, g->ell, GPU_R32UI, NULL);
    return st;
}

/* n × ell bytes into g->bits as they lie in memory, 4 a texel: the texture rows they fill
 * straight from the caller's memory, the last partial row (or every row, when the bytes are
 * not 4-aligned as GL wants words) through g->bits_tail. No host pack, no full copy. */
static glevo_status upload_bits(glevo_dsm_gpu *g, const uint8_t *bits)
{
    size_t bytes = (size_t)g->n * (size_t)g->ell, row_bytes = (size_t)g->bits.width * 4;
    size_t full = (uintptr_t)bits % 4 ? 0 : bytes / row_bytes;
    glevo_status st = GLEVO_OK;
    if (full) st = gpu_texture_upload_rect(&g->bits, 0, 0, g->bits.width, (int)full, bits);
    for (size_t y = full; st == GLEVO_OK && y * row_bytes < bytes; ++y) {
        size_t left = bytes - y * row_bytes, take = left < row_bytes ? left : row_bytes;
        g->bits_tail[(take - 1) / 4] = 0; /* the last word's bytes past the population */
        memcpy(g->bits_tail, bits + y * row_bytes, take);
        st = gpu_texture_upload_rect(&g->bits, 0, (int)y, (int)((take + 3) / 4), 1, g->bits_tail);
    }
    return st;
}

/* Every entry that reaches the GPU first checks that the model's context is current here. */
#define DSM_GL_READY(g)                                                                         \
    do {                                                                                        \
        glevo_status gl_ready_ = gpu_context_check((g)->context, __func__);                     \
        if (gl_ready_) return gl_ready_;                                                        \
    } while (0)

glevo_status glevo_dsm_gpu_create(int ell, int n, glevo_backend backend, glevo_dsm_gpu **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
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
    g->context = gpu_context_serial();
    g->ops = backend == GLEVO_BACKEND_COMPUTE ? &dsm_compute_ops : &dsm_fragment_ops;
    g->ell = ell;
    g->n = n;
    g->words = glevo_dsm_words(n);
    g->ils_host = malloc((size_t)ell * ell * sizeof *g->ils_host);
    st = g->ils_host ? create_textures(g) : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the ILS");
    if (st == GLEVO_OK) st = g->ops->create(g);
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
    gpu_texture *tex[] = {&g->bits, &g->rows, &g->pop};
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; ++i)
        if (tex[i]->id) gpu_texture_destroy(tex[i]);
    free(g->bits_tail);
    free(g->ils_host);
    free(g);
}

glevo_status glevo_dsm_gpu_build(glevo_dsm_gpu *g, const uint32_t *rows)
{
    glevo_clear_error();
    ARG_NOT_NULL(g);
    DSM_GL_READY(g);
    ARG_NOT_NULL(rows);
    glevo_status st = gpu_texture_upload(&g->rows, rows);
    return st == GLEVO_OK ? g->ops->build(g) : st;
}

glevo_status glevo_dsm_gpu_build_bits(glevo_dsm_gpu *g, const uint8_t *bits)
{
    glevo_clear_error();
    ARG_NOT_NULL(g);
    DSM_GL_READY(g);
    ARG_NOT_NULL(bits);
    glevo_status st = upload_bits(g, bits);
    if (st == GLEVO_OK) st = g->ops->pack(g, &g->rows);
    return st == GLEVO_OK ? g->ops->build(g) : st;
}

glevo_status glevo_dsm_gpu_read(glevo_dsm_gpu *g, float *mi) {
    glevo_clear_error();
    ARG_NOT_NULL(g);
    DSM_GL_READY(g);
    ARG_NOT_NULL(mi);
    return g->ops->read(g, mi);
}

glevo_status glevo_dsm_gpu_read_rows(glevo_dsm_gpu *g, uint32_t *rows, uint32_t *pop_rows)
{
    glevo_clear_error();
    ARG_NOT_NULL(g);
    DSM_GL_READY(g);
    glevo_status st = rows ? gpu_texture_read(&g->rows, rows) : GLEVO_OK;
    if (st == GLEVO_OK && pop_rows) st = gpu_texture_read(&g->pop, pop_rows);
    return st;
}

glevo_status glevo_dsm_gpu_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                                  int32_t *len)
{
    glevo_clear_error();
    ARG_NOT_NULL(g);
    DSM_GL_READY(g);
    ARG_NOT_NULL(cp);
    ARG_NOT_NULL(ils);
    ARG_NOT_NULL(len);
    int ell = g->ell, last = 0;
    glevo_status st = GLEVO_OK;
    if (cp->lossy) {
        if (cp->pop_n != g->n)
            return glevo_fail(GLEVO_ERR_INVALID, "lossy FindClique: population of %d, model "
                              "built for %d", cp->pop_n, g->n);
        if (!cp->pop_bits && !cp->pop_rows)
            return glevo_fail(GLEVO_ERR_INVALID, "lossy FindClique: glevo_clique_params.pop_bits "
                              "and pop_rows are both NULL");
        if (cp->pop_bits) {
            st = upload_bits(g, cp->pop_bits);
            if (st == GLEVO_OK) st = g->ops->pack(g, &g->pop);
        } else {
            st = gpu_texture_upload(&g->pop, cp->pop_rows);
        }
    }
    /* Columns 1..last come back; column 0 is the start gene itself. */
    g->ils_whole = false;
    if (st == GLEVO_OK) st = g->ops->clique(g, cp, ils, &last);
    if (st != GLEVO_OK) return st;
    if (g->ils_whole) {
        for (int s = 0; s < ell; ++s) len[s] = ell;
        return GLEVO_OK;
    }
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
        if (!cp->sets_only)
            for (int t = size; t < ell; ++t) set[t] = -1;
    }
    return GLEVO_OK;
}
