/* The cellular GA as compute dispatches (the compute driver). The plain path: three a
 * generation where the fragment driver draws about 11 passes. The fitness with the first level
 * of the best-of-generation reduction (shaders/cga/fitness.glsl), the rest of the reduction
 * with the history best (keep_best.glsl), then one fused dispatch for selection, crossover and
 * mutation (evolve.glsl) that writes the next population into the other gene set. The
 * fitness texture keeps the population's before the variation step, as the fragment driver's
 * does, so both backends report the same statistics.
 *
 * The fused path (evolve.glsl built with EVOLVE_FIT, where its images fit: up to 6 gene
 * textures): its dispatch also folds a generation's bests into the record (no keep_best
 * dispatch) and, with per-bit mutation, scores the children, so that a stretch of generations
 * is one fitness dispatch and one dispatch a generation (fused_generations); the blocked path
 * (block.c) is the third, for small grids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/gpu_internal.h"

#define LOCAL 8 /* evolve.glsl's work-groups: 8 x 8 pairs (fitness.glsl's: CGA_FITNESS_SPAN) */

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

/* A pass's name for --profile: create's warm-up dispatches (u_evolve.x = -1, warm_up below)
 * are counted apart from the run's. */
static const char *pass_name(const cga_uniforms *u, const char *name)
{
    return u->evolve[0] < 0 ? "cga.warm_up" : name;
}

/* The fitness of the current genes, each work-group's best (of CGA_FITNESS_SPAN^2 cells) into
 * `partial` and, with the best's genes, into half `half` of the bests (the fused kernel's
 * fold reads those). */
static glevo_status fitness_dispatch(glevo_cga *cga, cga_uniforms *u, int half)
{
    cga_gpu *g = cga->gpu;
    u->evolve[2] = half;
    u->evolve[3] = g->bests_half;
    gpu_pass fit = {.name = pass_name(u, "cga.fitness"), .program = &g->fitness};
    gpu_pass_inputs(&fit, FITNESS_GENES, g->current, cga->layout.textures);
    gpu_pass_image(&fit, 0, &g->fitness_tex, GPU_WRITE_ONLY);
    gpu_pass_image(&fit, 1, &g->partial, GPU_WRITE_ONLY);
    gpu_pass_buffer(&fit, 0, &g->evolve_bests);
    /* 16 x 16 invocations a group, 2 x 2 cells each */
    return dispatch(cga, &fit, u, -1, (cga->layout.width + 1) / 2, (cga->layout.height + 1) / 2, 16);
}

/* The record after this generation's fitness dispatch: the best of its groups' bests. */
static glevo_status keep_best_dispatch(glevo_cga *cga, const cga_uniforms *u)
{
    cga_gpu *g = cga->gpu;
    gpu_pass keep = {.name = pass_name(u, "cga.keep_best"), .program = &g->keep_best};
    gpu_pass_input(&keep, KEEP_REDUCED, &g->partial);
    gpu_pass_input(&keep, KEEP_RECORD, &g->record[g->record_index]);
    gpu_pass_inputs(&keep, KEEP_GENES, g->current, cga->layout.textures);
    gpu_pass_image(&keep, 0, &g->record[1 - g->record_index], GPU_WRITE_ONLY);
    glevo_status st = dispatch(cga, &keep, u, -1, 1, 1, 1);
    if (!st) g->record_index = 1 - g->record_index;
    return st;
}

static void swap_genes(cga_gpu *g, int textures)
{
    for (int t = 0; t < textures; ++t) {
        gpu_texture swap = g->current[t];
        g->current[t] = g->selected[t];
        g->selected[t] = swap;
    }
}

/* The plain evolve dispatch: the current genes' children into `selected`. */
static glevo_status evolve_dispatch(glevo_cga *cga, const cga_uniforms *u)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    gpu_pass evolve = {.name = pass_name(u, "cga.evolve"), .program = &g->evolve};
    gpu_pass_input(&evolve, SELECT_FITNESS, &g->fitness_tex);
    gpu_pass_inputs(&evolve, SELECT_GENES, g->current, l->textures);
    for (int t = 0; t < l->textures; ++t) gpu_pass_image(&evolve, t, &g->selected[t], GPU_WRITE_ONLY);
    return dispatch(cga, &evolve, u, SELECT_RANDOM, l->width / 2, l->height, LOCAL);
}

static glevo_status compute_generation(glevo_cga *cga)
{
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    glevo_status st = fitness_dispatch(cga, &u, 0);
    if (!st) st = keep_best_dispatch(cga, &u);
    if (!st) st = evolve_dispatch(cga, &u);
    if (!st) swap_genes(cga->gpu, cga->layout.textures);
    return st;
}

/* The fused kernel's dispatch (u->evolve says what it folds and scores): the current genes'
 * children into `selected`, the record into the other record texture. */
static glevo_status evolve_fit_dispatch(glevo_cga *cga, const cga_uniforms *u)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    int m = l->textures;
    gpu_pass pass = {.name = pass_name(u, "cga.evolve_fit"), .program = &g->evolve_fit};
    gpu_pass_input(&pass, 0, &g->fitness_tex);
    gpu_pass_inputs(&pass, 1, g->current, m);
    gpu_pass_input(&pass, 1 + m, &g->record[g->record_index]);
    for (int t = 0; t < m; ++t) gpu_pass_image(&pass, t, &g->selected[t], GPU_WRITE_ONLY);
    gpu_pass_image(&pass, m, &g->fitness_next, GPU_WRITE_ONLY);
    gpu_pass_image(&pass, m + 1, &g->record[1 - g->record_index], GPU_WRITE_ONLY);
    gpu_pass_buffer(&pass, 0, &g->evolve_bests);
    if (cga->params.rng == GLEVO_RNG_TEXTURE) gpu_pass_input(&pass, 2 + m, &g->random_table);
    gpu_pass_uniforms(&pass, u, sizeof *u);
    pass.groups[0] = gpu_groups(l->width / 2, LOCAL) + 1; /* the column past: the fold */
    pass.groups[1] = gpu_groups(l->height, LOCAL);
    return gpu_pass_dispatch(&pass);
}

/* Generations a fused stretch runs at most: the host's interrupt check and the progress
 * callback come between stretches. */
#define FUSED_STRETCH 64

/* Up to n generations on the fused path, as the plain path runs them one by one. Where the
 * kernel scores the children (per-bit mutation), a stretch starts with a fitness dispatch and
 * then takes one dispatch a generation, each folding the bests of the one before (the first:
 * the fitness dispatch's); the last scores nothing, so the fitness store ends with the last
 * generation's before variation. Otherwise every generation is a fitness dispatch and one of
 * the kernel that folds its bests (no keep_best dispatch). */
static glevo_status fused_generations(glevo_cga *cga, int n, int *done)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    int m = l->textures;
    if (n > FUSED_STRETCH) n = FUSED_STRETCH;
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < n && !st; ++i) {
        long long generation = cga->generation + i;
        glevo_rng_source_set_generation(&cga->rng, (uint32_t)generation);
        cga_uniforms u;
        cga_gpu_uniforms(cga, &u);
        u.generation_plus_one = (float)(generation + 1);
        bool from_fitness = i == 0 || !g->score_children, fit = g->score_children && i < n - 1;
        int half = i & 1; /* the half the children's bests go to; the fold reads the other */
        if (from_fitness && (st = fitness_dispatch(cga, &u, 1 - half))) break;
        u.evolve[0] = from_fitness ? 2 : 1, u.evolve[1] = fit, u.evolve[2] = half;
        u.evolve[3] = g->bests_half;
        if ((st = evolve_fit_dispatch(cga, &u))) break;
        swap_genes(g, m);
        g->record_index = 1 - g->record_index;
        if (fit) {
            gpu_texture swap = g->fitness_tex;
            g->fitness_tex = g->fitness_next;
            g->fitness_next = swap;
        }
    }
    *done = n;
    return st;
}

/* Builds the fused kernel where it fits and no blocked plan runs instead. It scores the
 * children with per-bit mutation (1000 generations at 10^6 cells on the H100: 107.0 ms against
 * 128.4 on the plain path; docs/performance-history.md, "2026-11-26: the cGA's one-generation path"), and with skip
 * mutation where the genes are one texture of at most 2^20 cells or three textures and more:
 * camel at 1000x1000 50.5 ms against 59.9 with the fitness dispatch scoring them, rastrigin
 * 10-D 111 against 141, sphere 24-D 195 against 287 (679 against 982 at 2000x2000); camel
 * at 1200x1200 to 2000x2000 was faster with the fitness dispatch (1400x1400 98.9 against
 * 124.9 ms, 2000x2000 177.7 against 244.0), and two textures past 2^20 cells were not
 * measured (docs/performance-history.md, "2026-11-26: skip mutation's children scored in the fused kernel"). Smaller grids run blocked there. For measuring and the tests: GLEVO_CGA_FUSED=0
 * keeps the plain path, =1 has the kernel score the children, =fitness the fitness dispatch. */
static bool kernel_scores_children(const glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    return cga->mutation.mode == GLEVO_MUTATION_PER_BIT ||
           (long long)l->width * l->height <= (1LL << 20) || l->textures >= 3;
}

static glevo_status fused_create(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    const char *knob = getenv("GLEVO_CGA_FUSED");
    if (g->block_plan.on || l->textures > 6 || (knob && strcmp(knob, "0") == 0))
        return GLEVO_OK;
    g->score_children = knob && strcmp(knob, "1") == 0        ? true
                        : knob && strcmp(knob, "fitness") == 0 ? false
                                                               : kernel_scores_children(cga);
    char defines[600];
    int n = cga_gpu_defines(cga, defines, sizeof defines);
    /* Its groups' bests by subgroup shuffles where the GPU offers subgroups of 32 with them:
     * 105.3 against 107.1 us a generation at 10^6 cells on the H100 (in the 256- and
     * 1024-invocation groups of fitness and keep_best they were slower: 26.2 against 19.5 and
     * 17.9 against 13.5 us). GLEVO_CGA_SHUFFLE=0 keeps the shared-memory tree. */
    const gpu_limits *lim = gpu_context_limits();
    const char *tree = getenv("GLEVO_CGA_SHUFFLE");
    bool shuffles = lim->subgroup_size == 32 && lim->subgroup_shuffle &&
                    !(tree && strcmp(tree, "0") == 0);
    snprintf(defines + n, sizeof defines - (size_t)n, "#define EVOLVE_FIT 1\n%s",
             shuffles ? "#define REDUCE_SUBGROUP 32\n" : "");
    const char *aliases[] = {"problem", cga->params.problem->snippet, NULL};
    const gpu_slot samplers[] = {{"t_fitness", 0}, {"t_genes", l->textures}, {"t_record", 0},
                                 {"t_random_table", 0}, {0}};
    const gpu_slot images[] = {{"i_genes", l->textures}, {"i_fitness", 0}, {"i_record", 0}, {0}};
    const gpu_slot buffers[] = {{"evolve_bests", 0}, {0}};
    gpu_program_desc d = {.name = "cga.evolve_fit", .compute = "cga/evolve.glsl",
                          .defines = defines, .aliases = aliases, .samplers = samplers,
                          .images = images, .buffers = buffers,
                          .uniform_size = sizeof(cga_uniforms)};
    glevo_status st = gpu_program_build(&g->evolve_fit, &d);
    if (!st) st = gpu_texture_create(&g->fitness_next, l->width, l->height, GPU_R32F, NULL);
    g->fused = !st;
    return st;
}

/* Two halves of a best texel and its genes per work-group, of the fused kernel's tiles or the
 * fitness dispatch's groups (the fitness dispatch always writes them). */
static glevo_status bests_create(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    int tiles = gpu_groups(l->width / 2, LOCAL) * gpu_groups(l->height, LOCAL);
    int fitness = gpu_groups(l->width, CGA_FITNESS_SPAN) * gpu_groups(l->height, CGA_FITNESS_SPAN);
    g->bests_half = tiles > fitness ? tiles : fitness;
    return gpu_buffer_create(&g->evolve_bests, 2 * (size_t)g->bests_half * (1 + (size_t)l->textures) * 16,
                             NULL);
}

/* For migration: the fitness of the current genes (the generation's first dispatch alone;
 * the partial reduction it also writes is rewritten by the next generation before use). */
static glevo_status compute_evaluate(glevo_cga *cga)
{
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    return fitness_dispatch(cga, &u, 0);
}

/* Each kernel the run will dispatch, once, doing nothing (u_evolve.x = -1; the blocked
 * kernel: a dispatch of no generations), so that the driver's work at a program's first use
 * is done by create and not inside the first generation. Programs NVIDIA 580 loads from its
 * shader disk cache cost a process ~1.5 ms at their first dispatches on the H100 (64x64 x 200
 * took 2.8-3.5 ms a process with the cache, 1.35-1.54 ms without; docs/performance-history.md,
 * "2026-11-26: the cGA's one-generation path"). The whole process takes as long as before. */
static glevo_status warm_up(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    u.evolve[0] = -1;
    glevo_status st = fitness_dispatch(cga, &u, 0);
    u.evolve[0] = -1; /* fitness_dispatch sets the half only */
    if (!st && g->block_plan.on) st = cga_block_warm_up(cga);
    else if (!st && g->fused) st = evolve_fit_dispatch(cga, &u);
    else if (!st) {
        st = keep_best_dispatch(cga, &u);
        g->record_index = 1 - g->record_index; /* it wrote nothing */
        if (!st) st = evolve_dispatch(cga, &u);
    }
    gpu_finish(); /* nothing of create's left for the first generation to wait on */
    return st;
}

/* The blocked path (block.c) where the plan has it, else one generation. */
static glevo_status compute_generations(glevo_cga *cga, int n, int *done)
{
    if (!cga->gpu->block_plan.on) {
        if (cga->gpu->fused) return fused_generations(cga, n, done);
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
    if (!st) st = bests_create(cga);
    if (!st) st = fused_create(cga);
    if (!st) st = warm_up(cga);
    return st;
}

const cga_engine_ops cga_compute_ops = {compute_create, compute_generation, cga_gpu_read_record,
                                        cga_gpu_read, cga_gpu_write, cga_gpu_restore,
                                        cga_gpu_destroy, compute_evaluate, cga_gpu_read_cells,
                                        cga_gpu_write_cells, compute_generations};
