/* The compute driver's blocked path (temporal blocking): one dispatch of shaders/cga/block.glsl
 * runs up to `depth` generations, work-groups of a tile each with its halo in shared memory,
 * beside one group that folds the block before's bests into the best-so-far record and groups
 * that draw the next block's flips. One
 * dispatch for `depth` generations where the one-generation path (compute.c) issues three a
 * generation: below ~300x300 cells that path sits on the cost of issuing dispatches (~11 us
 * each on the H100), not on the arithmetic.
 *
 * Each generation's interior fitness stays in shared memory and its genes go to a history
 * buffer; the generations' bests are reduced once a block, and folded into the record by one
 * more group of the next block's dispatch, all generations at once (shaders/cga/block.glsl
 * says why), or by a dispatch of that group alone where a stretch of generations ends.
 *
 * The plan (tile, depth, invocations) is chosen here once, at create: from the overrides in
 * glevo_cga_params (checked against this GPU's shared memory and, on llvmpipe, its loop
 * limit) or by the rule measured on the H100 (docs/performance-history.md, 2026-11-25). The path is
 * off for the texture RNG (its table offsets are drawn by the host each generation) and for
 * more than 6 gene textures (the kernel writes two images more than the genes, and a compute
 * shader has 8). */
#include <stdio.h>
#include <string.h>

#include "cga/gpu_internal.h"

#define MAX_DEPTH 64
#define MAX_LOCAL 1024
#define GEN_SLOTS_MAX 64 /* invocations a generation in block.glsl's end reductions, at most */

static int radius(glevo_cga_neighbourhood n) { return n == GLEVO_NEIGHBOURHOOD_MOORE5 ? 2 : 1; }
static int neighbours(glevo_cga_neighbourhood n)
{
    return n == GLEVO_NEIGHBOURHOOD_MOORE5 ? 25 : n == GLEVO_NEIGHBOURHOOD_VON_NEUMANN ? 5 : 9;
}

/* The largest region of the kernel (the tile and `depth` halos) and its largest pair set
 * (the tile and depth - 1 halos); resident: the grid. */
static long long region_cells(const cga_layout *l, const cga_block_plan *b)
{
    if (b->resident) return (long long)l->width * l->height;
    return (long long)(b->tile[0] + 4 * b->depth) * (b->tile[1] + 2 * radius(l->neighbourhood) * b->depth);
}
static long long region_pairs(const cga_layout *l, const cga_block_plan *b)
{
    if (b->resident) return (long long)l->width / 2 * l->height;
    int d = b->depth - 1;
    return (long long)(b->tile[0] / 2 + 2 * d) * (b->tile[1] + 2 * radius(l->neighbourhood) * d);
}

/* Invocations a group: a power of two, one for each pair of the largest generation, at least
 * 64, at most MAX_LOCAL. */
static int plan_local(long long pairs, const gpu_limits *g)
{
    int local = 64;
    while (local < pairs && local * 2 <= MAX_LOCAL && local * 2 <= g->max_work_group_invocations)
        local *= 2;
    return local;
}

/* The cells of a group's interior: its tile (resident: the grid). */
static long long tile_cells(const cga_block_plan *b) { return (long long)b->tile[0] * b->tile[1]; }

/* Shared bytes of block.glsl: genes and fitness of the region, the interior's fitness
 * history, the end reductions, the fold's genes and skip mutation's table (cga/mutate.glsl). */
static long long plan_shared(const cga_layout *l, const cga_mutation *m, const cga_block_plan *b)
{
    return region_cells(l, b) * (16LL * l->textures + 4) + 4LL * b->depth * tile_cells(b) +
           16LL * b->depth * b->gen_slots + 16LL * b->depth * l->textures + 16 +
           (m->mode == GLEVO_MUTATION_SKIP ? 96 * 4 : 0);
}

/* Bytes of the genes' history: two halves of every group's interior, generation and gene
 * texture. */
static long long plan_history(const cga_layout *l, const cga_block_plan *b)
{
    return 2LL * b->groups[0] * b->groups[1] * b->depth * tile_cells(b) * l->textures * 16;
}

/* Bytes of the flips: two halves of every cell's, generation and gene texture. */
static long long plan_flips(const cga_layout *l, const cga_block_plan *b)
{
    return 2LL * l->width * l->height * b->depth * l->textures * 16;
}

/* Rows of groups that draw the flips of `steps` generations (items of a cell, generation and
 * gene texture, about one an invocation). */
static int flip_rows(const cga_layout *l, const cga_block_plan *b, int steps)
{
    long long items = (long long)l->width * l->height * l->textures * steps;
    long long per_row = (long long)b->groups[0] * b->local;
    long long rows = (items + per_row - 1) / per_row;
    long long most = gpu_context_limits()->max_work_group_count[1] - b->groups[1] - 1;
    return (int)(rows < most ? rows : most);
}

/* An upper bound of the loop iterations one invocation runs in a dispatch of `depth`
 * generations (llvmpipe cuts an invocation's loops short after gpu_limits.max_loop_iterations
 * in all, without an error: gpgpu.h). Constant-count loops that the compiler unrolls (Philox's
 * rounds) are not counted, as DE's resident kernel does; the others are, at their worst. */
static long long plan_loops(const cga_layout *l, const cga_mutation *m, const cga_block_plan *b)
{
    long long cells = (region_cells(l, b) + b->local - 1) / b->local;
    long long t = l->textures, n = 4LL * l->bits, mutate;
    if (m->mode == GLEVO_MUTATION_SKIP) {
        int search = 0;
        while ((1LL << search) < n) ++search;
        mutate = (n + 1) + n * search;
    } else {
        mutate = l->bits * 5LL + 1;
    }
    /* The flips' groups: their items an invocation. */
    long long items = (long long)l->width * l->height * t * b->depth;
    long long per_pass = (long long)flip_rows(l, b, b->depth) * b->groups[0] * b->local;
    long long draws = (items + per_pass - 1) / per_pass * (mutate + 4);
    long long inner = (tile_cells(b) + b->gen_slots - 1) / b->gen_slots;
    long long groups = ((long long)b->groups[0] * b->groups[1] + b->gen_slots - 1) / b->gen_slots;
    long long pair = 2 * 4LL * neighbours(l->neighbourhood) + t * 12;
    long long step = cells * (1 + 6 * t) + b->pairs * (pair + 2 * t + 2) + 4;
    long long ends = 2 * (8 + (b->depth * (1 + t) + b->local - 1) / b->local) + inner + groups +
                     (long long)b->depth * 2;
    return cells * t * 5 + 16 + (long long)b->depth * step + ends + draws;
}

static void plan_fill(const cga_layout *l, const cga_mutation *m, cga_block_plan *b)
{
    const gpu_limits *g = gpu_context_limits();
    b->resident = false;
    cga_block_plan whole = *b;
    whole.resident = true;
    if (region_cells(l, b) >= region_cells(l, &whole) && plan_shared(l, m, &whole) <= g->max_shared_bytes) {
        b->resident = true;
        b->tile[0] = l->width, b->tile[1] = l->height;
    }
    long long pairs = region_pairs(l, b);
    b->local = plan_local(pairs, g);
    b->pairs = (int)((pairs + b->local - 1) / b->local);
    /* The largest power of two of invocations a generation (at most GEN_SLOTS_MAX) that the
     * group's invocations hold for every generation of a block at once. */
    b->gen_slots = 1;
    while (b->gen_slots * 2 <= GEN_SLOTS_MAX && b->gen_slots * 2 * b->depth <= b->local) b->gen_slots *= 2;
    b->groups[0] = (l->width + b->tile[0] - 1) / b->tile[0];
    b->groups[1] = (l->height + b->tile[1] - 1) / b->tile[1];
}

/* Whether the plan fits this GPU; the reason otherwise (for the overrides' error). */
static bool plan_fits(const cga_layout *l, const cga_mutation *m, const cga_block_plan *b,
                      char *why, size_t size)
{
    const gpu_limits *g = gpu_context_limits();
    long long shared = plan_shared(l, m, b);
    if (shared > g->max_shared_bytes) {
        snprintf(why, size, "its region of %lld cells needs %lld bytes of shared memory, "
                 "this GPU offers %d", region_cells(l, b), shared, g->max_shared_bytes);
        return false;
    }
    long long loops = plan_loops(l, m, b);
    if (g->max_loop_iterations > 0 && loops > g->max_loop_iterations) {
        snprintf(why, size, "an invocation may run up to %lld loop iterations, this GPU's "
                 "driver stops at %lld", loops, g->max_loop_iterations);
        return false;
    }
    long long groups = (long long)b->groups[0] * b->groups[1];
    /* The rows: the tiles', the fold's and at least one of the flips'. */
    if (b->groups[0] > g->max_work_group_count[0] || b->groups[1] + 2 > g->max_work_group_count[1] ||
        2 * groups * b->depth * 16 > (1LL << 30)) {
        snprintf(why, size, "%dx%d work-groups exceed this GPU's dispatch", b->groups[0],
                 b->groups[1]);
        return false;
    }
    if (plan_history(l, b) > (1LL << 30) || plan_flips(l, b) > (1LL << 30)) {
        snprintf(why, size, "the history of its generations' genes and their flips need %lld "
                 "and %lld bytes, the kernel takes 1 GiB each at most", plan_history(l, b),
                 plan_flips(l, b));
        return false;
    }
    return true;
}

/* The rule measured on the H100 (docs/performance-history.md, 2026-11-25; camel, per-bit, Moore):
 * the fewer cells, the deeper the blocks pay, as the launches they save are the cost there;
 * the redundant halo work grows with depth. Above 512 x 512 cells the one-generation path
 * was faster (1000 x 1000: 0.127 s against 0.130 s at 32x16 tiles, depth 2): none (depth 0). */
static void plan_auto(const cga_layout *l, cga_block_plan *b)
{
    long long cells = (long long)l->width * l->height;
    /* A software renderer (llvmpipe, the one with a loop limit) has no launch cost to save and
     * pays the halo's redundant work in CPU time: 64x64 x 60 took 4.5 s blocked, 0.12 s not. */
    if (gpu_context_limits()->max_loop_iterations > 0) {
        b->depth = 0;
    } else if (cells <= 80 * 80) {
        b->tile[0] = 16, b->tile[1] = 8, b->depth = 4;    /* 64x64 x 200: 1.6 ms (one: 9.0) */
    } else if (cells <= 160 * 160) {
        b->tile[0] = 16, b->tile[1] = 16, b->depth = 8;   /* 100x100 x 1000: 5.8 ms (one: 37) */
    } else if (cells <= 512 * 512 && l->neighbourhood == GLEVO_NEIGHBOURHOOD_MOORE5) {
        /* The halo of radius 2 is the larger part of a 32x16 tile's region (40x24 cells);
         * 32x32 (40x40) halves it. 316x316 x 1000 on the H200: 17.7 ms, 21.1 at 32x16
         * (docs/performance-history.md, "2026-11-28: moore5's tiles, the group reduction by keys"). Moore and von Neumann: no gain (16.1,
         * 15.7 ms at 32x32 depth 3 against 16.0, 15.8). */
        b->tile[0] = 32, b->tile[1] = 32, b->depth = 2;
    } else if (cells <= 512 * 512) {
        b->tile[0] = 32, b->tile[1] = 16, b->depth = 2;   /* 316x316 x 1000: 17 ms (one: 44) */
    } else {
        b->depth = 0;
    }
}

glevo_status cga_block_plan_make(const glevo_cga *cga, cga_block_plan *out)
{
    const glevo_cga_params *p = &cga->params;
    const cga_layout *l = &cga->layout;
    memset(out, 0, sizeof *out);
    bool depth_given = p->block_depth > 0, tile_given = p->block_tile[0] || p->block_tile[1];
    if (p->block_depth == GLEVO_ZERO) {
        if (tile_given)
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.block_tile %dx%d: the "
                              "blocked kernel is off (block_depth 0)", p->block_tile[0],
                              p->block_tile[1]);
        return GLEVO_OK;
    }
    const char *off = p->rng == GLEVO_RNG_TEXTURE ? "the texture random source draws its table "
                      "offsets on the host each generation"
                      : l->textures + 2 > GPU_MAX_IMAGES ? "dim above 24 needs more images than "
                      "a compute shader has" : NULL;
    if (off && (depth_given || tile_given))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.block_depth %d: the blocked "
                          "kernel is not available (%s)", p->block_depth, off);
    if (off) return GLEVO_OK;
    cga_block_plan b;
    memset(&b, 0, sizeof b);
    plan_auto(l, &b);
    if (b.depth == 0 && !depth_given && !tile_given) return GLEVO_OK;
    if (b.depth == 0) b.tile[0] = 16, b.tile[1] = 8, b.depth = 1; /* an override on a big grid */
    if (depth_given) b.depth = p->block_depth;
    if (tile_given) b.tile[0] = p->block_tile[0], b.tile[1] = p->block_tile[1];
    char why[256];
    if (depth_given || tile_given) {
        plan_fill(l, &cga->mutation, &b);
        if (!plan_fits(l, &cga->mutation, &b, why, sizeof why))
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.block_depth %d with "
                              "glevo_cga_params.block_tile %dx%d: %s", b.depth, b.tile[0], b.tile[1], why);
    } else {
        /* The rule's depth, less where this GPU cannot hold it; none at all: the
         * one-generation path. */
        for (; b.depth >= 1; --b.depth) {
            plan_fill(l, &cga->mutation, &b);
            if (plan_fits(l, &cga->mutation, &b, why, sizeof why)) break;
        }
        if (b.depth < 1) return GLEVO_OK;
    }
    *out = b;
    out->on = true;
    return GLEVO_OK;
}

glevo_status cga_block_params_check(const glevo_cga_params *p)
{
    if (p->block_depth < GLEVO_ZERO || p->block_depth > MAX_DEPTH)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.block_depth %d is outside 0..%d",
                          p->block_depth == GLEVO_ZERO ? 0 : p->block_depth, MAX_DEPTH);
    bool tile_given = p->block_tile[0] || p->block_tile[1];
    if (tile_given && (p->block_tile[0] < 2 || p->block_tile[0] % 2 || p->block_tile[1] < 1 ||
                       p->block_tile[0] > 1024 || p->block_tile[1] > 1024))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.block_tile %dx%d: the width must "
                          "be even and 2..1024, the height 1..1024", p->block_tile[0],
                          p->block_tile[1]);
    return GLEVO_OK;
}

glevo_status cga_block_create(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    const cga_block_plan *b = &g->block_plan;
    char defines[768];
    int n = cga_gpu_defines(cga, defines, sizeof defines);
    snprintf(defines + n, sizeof defines - (size_t)n,
             "#define BLOCK_TILE_X %d\n#define BLOCK_TILE_Y %d\n#define BLOCK_DEPTH %d\n"
             "#define BLOCK_RADIUS %d\n#define BLOCK_LOCAL %d\n#define BLOCK_PAIRS %d\n"
             "#define GEN_SLOTS %d\n%s",
             b->tile[0], b->tile[1], b->depth, radius(l->neighbourhood), b->local, b->pairs,
             b->gen_slots, b->resident ? "#define BLOCK_RESIDENT 1\n" : "");
    const char *aliases[] = {"problem", cga->params.problem->snippet, NULL};
    const gpu_slot samplers[] = {{"t_genes", l->textures}, {0}};
    const gpu_slot images[] = {{"i_fitness", 0}, {"i_genes", l->textures}, {"i_record", 0}, {0}};
    const gpu_slot buffers[] = {{"block_bests", 0}, {"block_history", 0}, {"block_flips", 0}, {0}};
    gpu_program_desc d = {.name = "cga.block", .compute = "cga/block.glsl", .defines = defines,
                          .aliases = aliases, .samplers = samplers, .images = images,
                          .buffers = buffers, .uniform_size = sizeof(cga_uniforms)};
    glevo_status st = gpu_program_build(&g->block, &d);
    /* Two halves of a best texel per group and generation. */
    size_t entries = 2 * (size_t)b->groups[0] * b->groups[1] * (size_t)b->depth;
    if (!st) st = gpu_buffer_create(&g->bests, entries * 16, NULL);
    if (!st) st = gpu_buffer_create(&g->history, (size_t)plan_history(l, b), NULL);
    if (!st) st = gpu_buffer_create(&g->flips, (size_t)plan_flips(l, b), NULL);
    return st;
}

int cga_block_generations(const glevo_cga *cga, int n)
{
    int depth = cga->gpu->block_plan.depth;
    int blocks = (n + depth - 1) / depth; /* balanced: 25 at depth 8 runs 7, 6, 6, 6 */
    return (n + blocks - 1) / blocks;
}

/* One dispatch: `steps` generations on the tiles (none: 0), by the row past them the fold of
 * the block before, and by the rows past that the flips of `draw` generations from draw_from. */
static glevo_status block_dispatch(glevo_cga *cga, int steps, int draw, uint32_t draw_from)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    const cga_block_plan *b = &g->block_plan;
    int tile_rows = steps ? b->groups[1] : 0, rows = draw ? flip_rows(l, b, draw) : 0;
    cga_uniforms u;
    cga_gpu_uniforms(cga, &u);
    int32_t block[12] = {steps, b->groups[0], b->groups[1], 0,
                         tile_rows, g->block_half, g->block_unfolded, (int32_t)g->block_unfolded_from,
                         0, 1 - g->flips_half, draw, (int32_t)draw_from};
    memcpy(u.block, block, sizeof block);

    /* A dispatch with nothing to do is create's warm-up (--profile counts it apart). */
    bool idle = !steps && !draw && !g->block_unfolded;
    gpu_pass run = {.name = idle ? "cga.warm_up" : "cga.block", .program = &g->block};
    gpu_pass_inputs(&run, 0, g->current, l->textures);
    gpu_pass_image(&run, 0, &g->fitness_tex, GPU_WRITE_ONLY);
    for (int t = 0; t < l->textures; ++t) gpu_pass_image(&run, 1 + t, &g->selected[t], GPU_WRITE_ONLY);
    gpu_pass_image(&run, 1 + l->textures, &g->record[g->record_index], GPU_READ_WRITE);
    gpu_pass_buffer(&run, 0, &g->bests);
    gpu_pass_buffer(&run, 1, &g->history);
    gpu_pass_buffer(&run, 2, &g->flips);
    gpu_pass_uniforms(&run, &u, sizeof u);
    run.groups[0] = tile_rows || rows ? b->groups[0] : 1;
    run.groups[1] = tile_rows + 1 + rows;
    glevo_status st = gpu_pass_dispatch(&run);
    if (st) return st;
    g->block_unfolded = 0;
    if (draw) {
        g->flips_half = 1 - g->flips_half;
        g->flips_drawn = draw;
        g->flips_from = draw_from;
    }
    return GLEVO_OK;
}

glevo_status cga_block_warm_up(glevo_cga *cga)
{
    return block_dispatch(cga, 0, 0, 0); /* no generations, nothing to fold, no flips */
}

glevo_status cga_block_run(glevo_cga *cga, int steps, int next_steps)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    uint32_t from = (uint32_t)cga->generation;
    glevo_status st = GLEVO_OK;
    /* A stretch's first block: its flips drawn first, by a dispatch of their own. */
    if (g->flips_from != from || g->flips_drawn < steps) st = block_dispatch(cga, 0, steps, from);
    if (!st) st = block_dispatch(cga, steps, next_steps, from + (uint32_t)steps);
    if (st) return st;
    g->flips_drawn = next_steps; /* 0: none drawn for what follows */
    for (int t = 0; t < l->textures; ++t) {
        gpu_texture swap = g->current[t];
        g->current[t] = g->selected[t];
        g->selected[t] = swap;
    }
    g->block_unfolded = steps;
    g->block_unfolded_from = from;
    g->block_half = 1 - g->block_half;
    /* The stretch ends: its last block's bests folded now, so the record is complete. */
    return next_steps ? GLEVO_OK : block_dispatch(cga, 0, 0, 0);
}
