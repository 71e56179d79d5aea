/* DSMGA-II model building in fragment passes (the fragment driver) (Li & Yu 2017 §4–5):
 * FastCounting rows packed from the population's bytes (one fragment per word and gene) into an
 * R32UI texture, BuildDSM into an R32F ell×ell texture that stays on the GPU, then
 * FindClique as ell-1 steps of pick (a two-level argmax: blocks of 32 genes, then one fragment
 * per start gene) + update (one fragment per start gene × gene); lossy adds a donor-mask
 * update. Only the ILS comes back. C twins: population.c (glevo_dsm_pack), dsm.c, clique.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsmga/model_internal.h"

/* Genes per fragment in the first half of the pick reduction. */
#define CLIQUE_BLOCK 32

static void fragment_destroy(glevo_dsm_gpu *g)
{
    if (!g) return;
    gpu_texture *tex[] = {&g->dsm, &g->conn[0], &g->conn[1], &g->prio, &g->ils, &g->mask[0],
                          &g->mask[1], &g->part};
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; ++i)
        if (tex[i]->id) gpu_texture_destroy(tex[i]);
    gpu_program *prog[] = {&g->pack, &g->build, &g->init, &g->mask_init, &g->pick_partial, &g->pick,
                           &g->update, &g->mask_update};
    for (size_t i = 0; i < sizeof prog / sizeof prog[0]; ++i)
        if (prog[i]->id) gpu_program_destroy(prog[i]);
}

static glevo_status build(gpu_program *p, const char *name, const char *file)
{
    char defines[128];
    snprintf(defines, sizeof defines, "#define CLIQUE_PASS_TIE %uu\n#define CLIQUE_PASS_REP %uu\n",
             CLIQUE_PASS_TIE, CLIQUE_PASS_REP);
    return gpu_program_build(p, &(gpu_program_desc){.name = name, .fragment = file,
                                                    .defines = defines, .samplers = dsm_samplers,
                                                    .uniform_size = sizeof(dsm_uniforms)});
}

static glevo_status fragment_create(glevo_dsm_gpu *g)
{
    int ell = g->ell;
    glevo_status st = gpu_texture_create(&g->dsm, ell, ell, GPU_R32F, NULL);
    for (int k = 0; k < 2 && st == GLEVO_OK; ++k) {
        st = gpu_texture_create(&g->conn[k], ell, ell, GPU_R32UI, NULL);
        if (st == GLEVO_OK) st = gpu_texture_create(&g->mask[k], g->words, ell, GPU_R32UI, NULL);
    }
    if (st == GLEVO_OK) st = gpu_texture_create(&g->prio, ell, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->ils, ell, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = build(&g->pack, "dsmga.pack", "dsmga/pack.glsl");
    if (st == GLEVO_OK) st = build(&g->build, "dsmga.build_dsm", "dsmga/build_dsm.glsl");
    if (st == GLEVO_OK) st = build(&g->init, "dsmga.clique_init", "dsmga/clique_init.glsl");
    if (st == GLEVO_OK)
        st = build(&g->mask_init, "dsmga.clique_mask_init", "dsmga/clique_mask_init.glsl");
    g->blocks = (ell + CLIQUE_BLOCK - 1) / CLIQUE_BLOCK;
    if (st == GLEVO_OK) st = gpu_texture_create(&g->part, g->blocks, ell, GPU_RGBA32UI, NULL);
    if (st == GLEVO_OK)
        st = build(&g->pick_partial, "dsmga.clique_pick_partial", "dsmga/clique_pick_partial.glsl");
    if (st == GLEVO_OK) st = build(&g->pick, "dsmga.clique_pick", "dsmga/clique_pick.glsl");
    if (st == GLEVO_OK) st = build(&g->update, "dsmga.clique_update", "dsmga/clique_update.glsl");
    if (st == GLEVO_OK)
        st = build(&g->mask_update, "dsmga.clique_mask_update", "dsmga/clique_mask_update.glsl");
    return st;
}

static glevo_status fragment_pack(glevo_dsm_gpu *g, gpu_texture *rows)
{
    gpu_pass p = {.name = "dsmga.pack", .program = &g->pack};
    dsm_uniforms u = dsm_uniforms_for(g, NULL);
    gpu_pass_input(&p, DSM_SLOT_BITS, &g->bits);
    gpu_pass_target(&p, rows);
    gpu_pass_uniforms(&p, &u, sizeof u);
    return gpu_pass_draw(&p);
}

static glevo_status fragment_build(glevo_dsm_gpu *g)
{
    gpu_pass p = {.name = "dsmga.build_dsm", .program = &g->build};
    dsm_uniforms u = dsm_uniforms_for(g, NULL);
    gpu_pass_input(&p, DSM_SLOT_ROWS, &g->rows);
    gpu_pass_target(&p, &g->dsm);
    gpu_pass_uniforms(&p, &u, sizeof u);
    glevo_status st = gpu_pass_draw(&p);
    /* One sync a generation (~30 us) so that host timers charge BuildDSM, not FindClique. */
    gpu_finish();
    return st;
}

static glevo_status fragment_read(glevo_dsm_gpu *g, float *mi) { return gpu_texture_read(&g->dsm, mi); }

/* True when every set has ended at column `step` (lossy: stop issuing passes). */
static glevo_status all_ended(glevo_dsm_gpu *g, int step, bool *ended)
{
    glevo_status st = gpu_texture_read_rect(&g->ils, step, 0, 1, g->ell, g->ils_host);
    if (st != GLEVO_OK) return st;
    *ended = true;
    for (int s = 0; s < g->ell && *ended; ++s) *ended = g->ils_host[s] == CLIQUE_END;
    return GLEVO_OK;
}

static glevo_status fragment_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                                    int *last_out)
{
    (void)ils; /* the ILS texture is column t, row s: its columns come back to ils_host */
    int ell = g->ell;
    glevo_status st;
    dsm_uniforms u = dsm_uniforms_for(g, cp);
    u.block = CLIQUE_BLOCK;
    u.blocks = g->blocks;
    {
        gpu_pass p = {.name = "dsmga.clique_init", .program = &g->init};
        gpu_pass_input(&p, DSM_SLOT_DSM, &g->dsm);
        gpu_pass_target(&p, &g->conn[0]);
        gpu_pass_target(&p, &g->prio);
        gpu_pass_uniforms(&p, &u, sizeof u);
        if ((st = gpu_pass_draw(&p)) != GLEVO_OK) return st;
    }
    if (cp->lossy) {
        gpu_pass p = {.name = "dsmga.clique_mask_init", .program = &g->mask_init};
        gpu_pass_input(&p, DSM_SLOT_POP, &g->pop);
        gpu_pass_target(&p, &g->mask[0]);
        gpu_pass_uniforms(&p, &u, sizeof u);
        if ((st = gpu_pass_draw(&p)) != GLEVO_OK) return st;
    }
    int cur = 0, mcur = 0, last = ell - 1;
    for (int t = 1; t < ell; ++t) {
        u.step = t;
        gpu_pass part = {.name = "dsmga.clique_pick_partial", .program = &g->pick_partial};
        gpu_pass_input(&part, DSM_SLOT_CONN, &g->conn[cur]);
        gpu_pass_input(&part, DSM_SLOT_PRIO, &g->prio);
        gpu_pass_target(&part, &g->part);
        gpu_pass_uniforms(&part, &u, sizeof u);
        if ((st = gpu_pass_draw(&part)) != GLEVO_OK) return st;

        gpu_pass pick = {.name = "dsmga.clique_pick", .program = &g->pick, .x = t, .y = 0, .w = 1, .h = ell};
        gpu_pass_input(&pick, DSM_SLOT_PART, &g->part);
        gpu_pass_input(&pick, DSM_SLOT_MASK, &g->mask[mcur]);
        gpu_pass_input(&pick, DSM_SLOT_POP, &g->pop);
        gpu_pass_target(&pick, &g->ils);
        gpu_pass_uniforms(&pick, &u, sizeof u);
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
        gpu_pass_input(&up, DSM_SLOT_CONN, &g->conn[cur]);
        gpu_pass_input(&up, DSM_SLOT_ILS, &g->ils);
        gpu_pass_input(&up, DSM_SLOT_DSM, &g->dsm);
        gpu_pass_target(&up, &g->conn[1 - cur]);
        gpu_pass_uniforms(&up, &u, sizeof u);
        if ((st = gpu_pass_draw(&up)) != GLEVO_OK) return st;
        cur = 1 - cur;
        if (cp->lossy) {
            gpu_pass mu = {.name = "dsmga.clique_mask_update", .program = &g->mask_update};
            gpu_pass_input(&mu, DSM_SLOT_MASK, &g->mask[mcur]);
            gpu_pass_input(&mu, DSM_SLOT_ILS, &g->ils);
            gpu_pass_input(&mu, DSM_SLOT_POP, &g->pop);
            gpu_pass_target(&mu, &g->mask[1 - mcur]);
            gpu_pass_uniforms(&mu, &u, sizeof u);
            if ((st = gpu_pass_draw(&mu)) != GLEVO_OK) return st;
            mcur = 1 - mcur;
        }
    }
    *last_out = last;
    g->ils_row = (size_t)last;
    g->ils_col = 1;
    return last >= 1 ? gpu_texture_read_rect(&g->ils, 1, 0, last, ell, g->ils_host) : GLEVO_OK;
}

const dsm_model_ops dsm_fragment_ops = {fragment_create, fragment_pack, fragment_build,
                                        fragment_read, fragment_clique, fragment_destroy};
