/* The cellular GA as compute dispatches (the compute driver): three a generation where the
 * fragment driver draws about 11 passes. The fitness with the first level of the best-of-
 * generation reduction (shaders/cga/fitness.glsl), the rest of the reduction with the history
 * best (keep_best.glsl), then one fused dispatch for selection, crossover and mutation
 * (evolve.glsl) that writes the next population into the other gene set. The
 * fitness texture keeps the population's before the variation step, as the fragment driver's
 * does, so both backends report the same statistics. */
#include "cga/gpu_internal.h"

#define LOCAL 8 /* evolve.glsl's work-groups: 8 x 8 pairs (fitness.glsl's are 16 x 16 cells) */

static glevo_status dispatch(glevo_cga *cga, gpu_pass *p, const cga_uniforms *u,
                             int random_slot, long long nx, long long ny, int local)
{
    if (random_slot >= 0 && cga->params.rng == GLEVO_RNG_TEXTURE)
        gpu_pass_input(p, random_slot, &cga->gpu->random_table);
    gpu_pass_uniforms(p, u, sizeof *u);
    p->groups[0] = gpu_groups(nx, local);
    p->groups[1] = gpu_groups(ny, local);
    return gpu_pass_dispatch(p);
}

static glevo_status fitness_dispatch(glevo_cga *cga, const cga_uniforms *u)
{
    cga_gpu *g = cga->gpu;
    gpu_pass fit = {.name = "cga.fitness", .program = &g->fitness};
    gpu_pass_inputs(&fit, FITNESS_GENES, g->current, cga->layout.textures);
    gpu_pass_image(&fit, 0, &g->fitness_tex, GPU_WRITE_ONLY);
    gpu_pass_image(&fit, 1, &g->partial, GPU_WRITE_ONLY);
    return dispatch(cga, &fit, u, -1, cga->layout.width, cga->layout.height, 16);
}

static glevo_status compute_generation(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    int m = l->textures;
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    glevo_status st;

    if ((st = fitness_dispatch(cga, &u))) return st;

    gpu_pass keep = {.name = "cga.keep_best", .program = &g->keep_best};
    gpu_pass_input(&keep, KEEP_REDUCED, &g->partial);
    gpu_pass_input(&keep, KEEP_RECORD, &g->record[g->record_index]);
    gpu_pass_inputs(&keep, KEEP_GENES, g->current, m);
    gpu_pass_image(&keep, 0, &g->record[1 - g->record_index], GPU_WRITE_ONLY);
    if ((st = dispatch(cga, &keep, &u, -1, 1, 1, 1))) return st;
    g->record_index = 1 - g->record_index;

    gpu_pass evolve = {.name = "cga.evolve", .program = &g->evolve};
    gpu_pass_input(&evolve, SELECT_FITNESS, &g->fitness_tex);
    gpu_pass_inputs(&evolve, SELECT_GENES, g->current, m);
    for (int t = 0; t < m; ++t) gpu_pass_image(&evolve, t, &g->selected[t], GPU_WRITE_ONLY);
    if ((st = dispatch(cga, &evolve, &u, SELECT_RANDOM, l->width / 2, l->height, LOCAL)))
        return st;
    for (int t = 0; t < m; ++t) {
        gpu_texture swap = g->current[t];
        g->current[t] = g->selected[t];
        g->selected[t] = swap;
    }
    return GLEVO_OK;
}

/* For migration: the fitness of the current genes (the generation's first dispatch alone;
 * the partial reduction it also writes is rewritten by the next generation before use). */
static glevo_status compute_evaluate(glevo_cga *cga)
{
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    return fitness_dispatch(cga, &u);
}

/* The blocked path (block.c) where the plan has it, else one generation. */
static glevo_status compute_generations(glevo_cga *cga, int n, int *done)
{
    if (!cga->gpu->block_plan.on) {
        *done = 1;
        return compute_generation(cga);
    }
    *done = cga_block_generations(cga, n);
    /* The next block of the stretch of n (none: the record is complete where it ends, and
     * the caller reads it there). */
    int next = *done < n ? cga_block_generations(cga, n - *done) : 0;
    return cga_block_run(cga, *done, next);
}

static glevo_status compute_create(glevo_cga *cga)
{
    glevo_status st = cga_gpu_create(cga, true);
    if (!st) st = cga_block_plan_make(cga, &cga->gpu->block_plan);
    if (!st && cga->gpu->block_plan.on) st = cga_block_create(cga);
    return st;
}

const cga_engine_ops cga_compute_ops = {compute_create, compute_generation, cga_gpu_read_record,
                                        cga_gpu_read, cga_gpu_write, cga_gpu_restore,
                                        cga_gpu_destroy, compute_evaluate, cga_gpu_read_cells,
                                        cga_gpu_write_cells, compute_generations};
