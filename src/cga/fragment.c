/* The cellular GA as render passes (the fragment driver; paper §2.6, Steps 1-9): fitness,
 * reduction and history best, then selection, crossover points, crossover and mutation, each
 * its own pass into its own texture set, so every stage stays visible to the demo's pass
 * inspector at no extra pass. */
#include "cga/gpu_internal.h"

static glevo_status run(glevo_cga *cga, gpu_pass *p, const cga_uniforms *u, int random_slot)
{
    if (random_slot >= 0 && cga->params.rng == GLEVO_RNG_TEXTURE)
        gpu_pass_input(p, random_slot, &cga->gpu->random_table);
    gpu_pass_uniforms(p, u, sizeof *u);
    return gpu_pass_draw(p);
}

static glevo_status fitness_pass(glevo_cga *cga, const cga_uniforms *u)
{
    gpu_pass fit = {.name = "cga.fitness", .program = &cga->gpu->fitness};
    gpu_pass_inputs(&fit, FITNESS_GENES, cga->gpu->current, cga->layout.textures);
    gpu_pass_target(&fit, &cga->gpu->fitness_tex);
    return run(cga, &fit, u, -1);
}

static glevo_status fragment_generation(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    int m = cga->layout.textures;
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    glevo_status st;

    if ((st = fitness_pass(cga, &u))) return st;

    const gpu_texture *reduced;
    st = gpu_reduce(&g->reducer, cga->layout.sign > 0 ? REDUCE_MAX : REDUCE_MIN, &g->fitness_tex,
                    0, &reduced);
    if (st) return st;
    gpu_pass keep = {.name = "cga.keep_best", .program = &g->keep_best};
    gpu_pass_input(&keep, KEEP_REDUCED, reduced);
    gpu_pass_input(&keep, KEEP_RECORD, &g->record[g->record_index]);
    gpu_pass_inputs(&keep, KEEP_GENES, g->current, m);
    gpu_pass_target(&keep, &g->record[1 - g->record_index]);
    if ((st = run(cga, &keep, &u, -1))) return st;
    g->record_index = 1 - g->record_index;

    gpu_pass sel = {.name = "cga.select", .program = &g->select};
    gpu_pass_input(&sel, SELECT_FITNESS, &g->fitness_tex);
    gpu_pass_inputs(&sel, SELECT_GENES, g->current, m);
    gpu_pass_targets(&sel, g->selected, m);
    if ((st = run(cga, &sel, &u, SELECT_RANDOM))) return st;

    gpu_pass pts = {.name = "cga.crossover_points", .program = &g->xpoints};
    gpu_pass_targets(&pts, g->points, m);
    if ((st = run(cga, &pts, &u, XPOINTS_RANDOM))) return st;

    gpu_pass cross = {.name = "cga.crossover", .program = &g->crossover};
    gpu_pass_inputs(&cross, CROSSOVER_GENES, g->selected, m);
    gpu_pass_inputs(&cross, CROSSOVER_POINTS, g->points, m);
    gpu_pass_targets(&cross, g->crossed, m);
    if ((st = run(cga, &cross, &u, -1))) return st;

    gpu_pass mut = {.name = "cga.mutate", .program = &g->mutate};
    gpu_pass_inputs(&mut, MUTATE_GENES, g->crossed, m);
    gpu_pass_targets(&mut, g->current, m);
    return run(cga, &mut, &u, MUTATE_RANDOM);
}

/* For migration: the fitness of the current genes (the generation's first pass alone). */
static glevo_status fragment_evaluate(glevo_cga *cga)
{
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    return fitness_pass(cga, &u);
}

static glevo_status fragment_create(glevo_cga *cga) { return cga_gpu_create(cga, false); }

const cga_engine_ops cga_fragment_ops = {fragment_create, fragment_generation,
                                         cga_gpu_read_record, cga_gpu_read, cga_gpu_write,
                                         cga_gpu_restore, cga_gpu_destroy, fragment_evaluate,
                                         cga_gpu_read_cells, cga_gpu_write_cells, NULL};
