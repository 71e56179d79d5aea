/* DSMGA-II model building in fragment passes (Li & Yu 2017 §4–5): FastCounting rows uploaded
 * to an R32UI texture, BuildDSM into an R32F ell×ell texture that stays on the GPU, then
 * FindClique as ell-1 steps of pick (a two-level argmax: blocks of 32 genes, then one fragment
 * per start gene) + update (one fragment per start gene × gene); lossy adds a donor-mask update. Only the ILS comes back. C twins:
 * dsm.c, clique.c. */
#include <stdlib.h>
#include <string.h>

#include "dsmga_internal.h"
#include "gl/gpgpu.h"

/* Genes per fragment in the first half of the pick reduction. */
#define CLIQUE_BLOCK 32

struct glevo_dsm_gpu {
    int ell, n, words;
    gpu_texture rows, pop, dsm, conn[2], prio, ils, mask[2], part;
    gpu_program build, init, mask_init, pick_partial, pick, update, mask_update;
    int blocks; /* genes per pick_partial fragment: CLIQUE_BLOCK */
    uint32_t *ils_host;
};

void glevo_dsm_gpu_destroy(glevo_dsm_gpu *g)
{
    if (!g) return;
    gpu_texture *tex[] = {&g->rows, &g->pop, &g->dsm, &g->conn[0], &g->conn[1], &g->prio,
                          &g->ils, &g->mask[0], &g->mask[1], &g->part};
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; ++i)
        if (tex[i]->id) gpu_texture_destroy(tex[i]);
    gpu_program *prog[] = {&g->build, &g->init, &g->mask_init, &g->pick_partial, &g->pick, &g->update,
                           &g->mask_update};
    for (size_t i = 0; i < sizeof prog / sizeof prog[0]; ++i)
        if (prog[i]->id) gpu_program_destroy(prog[i]);
    free(g->ils_host);
    free(g);
}

glevo_status glevo_dsm_gpu_create(int ell, int n, glevo_dsm_gpu **out)
{
    *out = NULL;
    if (ell < 1 || n < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "GPU model: ell %d and n %d must be positive", ell, n);
    glevo_dsm_gpu *g = calloc(1, sizeof *g);
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the GPU model");
    g->ell = ell;
    g->n = n;
    g->words = glevo_dsm_words(n);
    g->ils_host = malloc((size_t)ell * ell * sizeof *g->ils_host);
    glevo_status st = g->ils_host ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the ILS");
    if (st == GLEVO_OK) st = gpu_texture_create(&g->rows, g->words, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->pop, g->words, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->dsm, ell, ell, GPU_R32F, NULL);
    for (int k = 0; k < 2 && st == GLEVO_OK; ++k) {
        st = gpu_texture_create(&g->conn[k], ell, ell, GPU_R32UI, NULL);
        if (st == GLEVO_OK) st = gpu_texture_create(&g->mask[k], g->words, ell, GPU_R32UI, NULL);
    }
    if (st == GLEVO_OK) st = gpu_texture_create(&g->prio, ell, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->ils, ell, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_program_build(&g->build, "dsmga/build_dsm.glsl", NULL, NULL);
    if (st == GLEVO_OK) st = gpu_program_build(&g->init, "dsmga/clique_init.glsl", NULL, NULL);
    if (st == GLEVO_OK) st = gpu_program_build(&g->mask_init, "dsmga/clique_mask_init.glsl", NULL, NULL);
    g->blocks = (ell + CLIQUE_BLOCK - 1) / CLIQUE_BLOCK;
    if (st == GLEVO_OK) st = gpu_texture_create(&g->part, g->blocks, ell, GPU_RGBA32UI, NULL);
    if (st == GLEVO_OK)
        st = gpu_program_build(&g->pick_partial, "dsmga/clique_pick_partial.glsl", NULL, NULL);
    if (st == GLEVO_OK) st = gpu_program_build(&g->pick, "dsmga/clique_pick.glsl", NULL, NULL);
    if (st == GLEVO_OK) st = gpu_program_build(&g->update, "dsmga/clique_update.glsl", NULL, NULL);
    if (st == GLEVO_OK)
        st = gpu_program_build(&g->mask_update, "dsmga/clique_mask_update.glsl", NULL, NULL);
    if (st != GLEVO_OK) {
        glevo_dsm_gpu_destroy(g);
        return st;
    }
    *out = g;
    return GLEVO_OK;
}

glevo_status glevo_dsm_gpu_build(glevo_dsm_gpu *g, const uint32_t *rows)
{
    glevo_status st = gpu_texture_upload(&g->rows, rows);
    if (st != GLEVO_OK) return st;
    gpu_pass p = {.name = "dsmga.build_dsm", .program = &g->build};
    gpu_pass_input(&p, "t_rows", &g->rows);
    gpu_pass_target(&p, &g->dsm);
    if ((st = gpu_pass_begin(&p)) != GLEVO_OK) return st;
    gpu_uniform_1i(&p, "u_n", g->n);
    gpu_uniform_1f(&p, "u_inv_n", 1.0f / (float)g->n); /* the CPU twin's rounding of 1/n */
    gpu_uniform_1i(&p, "u_words", g->words);
    st = gpu_pass_draw(&p);
    /* One sync a generation (~30 us) so that host timers charge BuildDSM, not FindClique. */
    gpu_finish();
    return st;
}

glevo_status glevo_dsm_gpu_read(glevo_dsm_gpu *g, float *mi) { return gpu_texture_read(&g->dsm, mi); }

static void clique_uniforms(gpu_pass *p, const glevo_clique_params *cp)
{
    gpu_uniform_key(p, cp->seed, CLIQUE_STREAM);
    gpu_uniform_1ui(p, "u_generation", cp->generation);
}

/* True when every set has ended at column `step` (lossy: stop issuing passes). */
static glevo_status all_ended(glevo_dsm_gpu *g, int step, bool *ended)
{
    glevo_status st = gpu_texture_read_rect(&g->ils, step, 0, 1, g->ell, g->ils_host);
    if (st != GLEVO_OK) return st;
    *ended = true;
    for (int s = 0; s < g->ell && *ended; ++s) *ended = g->ils_host[s] == CLIQUE_END;
    return GLEVO_OK;
}

glevo_status glevo_dsm_gpu_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                                  int32_t *len)
{
    int ell = g->ell;
    glevo_status st;
    if (cp->lossy && cp->pop_n != g->n)
        return glevo_fail(GLEVO_ERR_INVALID, "lossy FindClique: population of %d, model built for %d",
                          cp->pop_n, g->n);
    {
        gpu_pass p = {.name = "dsmga.clique_init", .program = &g->init};
        gpu_pass_input(&p, "t_dsm", &g->dsm);
        gpu_pass_target(&p, &g->conn[0]);
        gpu_pass_target(&p, &g->prio);
        if ((st = gpu_pass_begin(&p)) != GLEVO_OK) return st;
        clique_uniforms(&p, cp);
        if ((st = gpu_pass_draw(&p)) != GLEVO_OK) return st;
    }
    if (cp->lossy) {
        if ((st = gpu_texture_upload(&g->pop, cp->pop_rows)) != GLEVO_OK) return st;
        gpu_pass p = {.name = "dsmga.clique_mask_init", .program = &g->mask_init};
        gpu_pass_input(&p, "t_pop", &g->pop);
        gpu_pass_target(&p, &g->mask[0]);
        if ((st = gpu_pass_begin(&p)) != GLEVO_OK) return st;
        clique_uniforms(&p, cp);
        gpu_uniform_1i(&p, "u_n", g->n);
        gpu_uniform_1i(&p, "u_words", g->words);
        if ((st = gpu_pass_draw(&p)) != GLEVO_OK) return st;
    }
    int cur = 0, mcur = 0, last = ell - 1;
    for (int t = 1; t < ell; ++t) {
        gpu_pass part = {.name = "dsmga.clique_pick_partial", .program = &g->pick_partial};
        gpu_pass_input(&part, "t_conn", &g->conn[cur]);
        gpu_pass_input(&part, "t_prio", &g->prio);
        gpu_pass_target(&part, &g->part);
        if ((st = gpu_pass_begin(&part)) != GLEVO_OK) return st;
        gpu_uniform_1i(&part, "u_ell", ell);
        gpu_uniform_1i(&part, "u_block", CLIQUE_BLOCK);
        if ((st = gpu_pass_draw(&part)) != GLEVO_OK) return st;

        gpu_pass pick = {.name = "dsmga.clique_pick", .program = &g->pick, .x = t, .y = 0, .w = 1, .h = ell};
        gpu_pass_input(&pick, "t_part", &g->part);
        gpu_pass_input(&pick, "t_mask", &g->mask[mcur]);
        gpu_pass_input(&pick, "t_pop", &g->pop);
        gpu_pass_target(&pick, &g->ils);
        if ((st = gpu_pass_begin(&pick)) != GLEVO_OK) return st;
        clique_uniforms(&pick, cp);
        gpu_uniform_1i(&pick, "u_blocks", g->blocks);
        gpu_uniform_1i(&pick, "u_n", g->n);
        gpu_uniform_1i(&pick, "u_words", g->words);
        gpu_uniform_1i(&pick, "u_lossy", cp->lossy ? 1 : 0);
        if ((st = gpu_pass_draw(&pick)) != GLEVO_OK) return st;
        if (t == ell - 1) break;
        /* Lossy sets are short: look at steps 2, 4, 8, ... and every 32nd whether all ended. */
        if (cp->lossy && ((t & (t - 1)) == 0 || t % 32 == 0)) {
            bool ended;
            if ((st = all_ended(g, t, &ended)) != GLEVO_OK) return st;
            if (ended) {
                last = t;
                break;
            }
        }
        gpu_pass up = {.name = "dsmga.clique_update", .program = &g->update};
        gpu_pass_input(&up, "t_conn", &g->conn[cur]);
        gpu_pass_input(&up, "t_ils", &g->ils);
        gpu_pass_input(&up, "t_dsm", &g->dsm);
        gpu_pass_target(&up, &g->conn[1 - cur]);
        if ((st = gpu_pass_begin(&up)) != GLEVO_OK) return st;
        gpu_uniform_1i(&up, "u_step", t);
        if ((st = gpu_pass_draw(&up)) != GLEVO_OK) return st;
        cur = 1 - cur;
        if (cp->lossy) {
            gpu_pass mu = {.name = "dsmga.clique_mask_update", .program = &g->mask_update};
            gpu_pass_input(&mu, "t_mask", &g->mask[mcur]);
            gpu_pass_input(&mu, "t_ils", &g->ils);
            gpu_pass_input(&mu, "t_pop", &g->pop);
            gpu_pass_target(&mu, &g->mask[1 - mcur]);
            if ((st = gpu_pass_begin(&mu)) != GLEVO_OK) return st;
            clique_uniforms(&mu, cp);
            gpu_uniform_1i(&mu, "u_n", g->n);
            gpu_uniform_1i(&mu, "u_step", t);
            if ((st = gpu_pass_draw(&mu)) != GLEVO_OK) return st;
            mcur = 1 - mcur;
        }
    }
    /* Columns 1..last are written; column 0 is the start gene itself. */
    if (last >= 1) {
        st = gpu_texture_read_rect(&g->ils, 1, 0, last, ell, g->ils_host);
        if (st != GLEVO_OK) return st;
    }
    for (int s = 0; s < ell; ++s) {
        int32_t *set = ils + (size_t)s * ell;
        set[0] = s;
        int size = 1;
        while (size <= last && g->ils_host[(size_t)s * last + size - 1] != CLIQUE_END) {
            set[size] = (int32_t)g->ils_host[(size_t)s * last + size - 1];
            ++size;
        }
        len[s] = size;
        for (int t = size; t < ell; ++t) set[t] = -1;
    }
    return GLEVO_OK;
}
