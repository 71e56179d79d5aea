/* The cellular GA's passes and their C twins (shaders/cga/), what both sides share: the
 * population layout, the pass numbers that key the random stream, the mutation parameters and
 * the uniform block. Nothing here knows the engine (engine_internal.h). */
#ifndef GLEVO_CGA_PASSES_H
#define GLEVO_CGA_PASSES_H

#include "glevo/cga.h"
#include "glevo/rng_source.h"

/* Counter word 2 of every random draw: which pass draws (docs/architecture.md, "Counter-based
 * randomness"). Word 0 is the texel, word 1 the generation, word 3 the draw. Injected into the
 * shaders as PASS_SELECT etc. by gpu.c, so C and GLSL cannot disagree. */
enum { CGA_PASS_INIT = 0, CGA_PASS_SELECT = 1, CGA_PASS_XPOINTS = 2, CGA_PASS_MUTATE = 3 };

/* Layout: gene j of the cell (x, y) is channel j % 4 of texture j / 4; arrays of genes hold
 * textures one after the other, each width*height RGBA texels, row-major. */
typedef struct cga_layout {
    int width, height, dim, textures, bits;
    float lower, step;  /* x = lower + gene * step (float, as the shader computes it) */
    float sign;         /* +1 maximise, -1 minimise: selection works on sign * f */
    glevo_cga_neighbourhood neighbourhood;
} cga_layout;

static inline size_t cga_texel(const cga_layout *l, int t, int x, int y)
{
    return (((size_t)t * l->height + (size_t)y) * l->width + (size_t)x) * 4;
}

/* Neighbourhood offsets in the order both twins scan them (the roulette's order). */
int cga_neighbourhood_offsets(glevo_cga_neighbourhood n, int offsets[][2]);

/* C twins of the shaders in shaders/cga/. `points` holds textures of (width/2) x height texels. */
void cga_init_cpu(const cga_layout *l, uint32_t seed, float *genes);
void cga_fitness_cpu(const cga_layout *l, const glevo_problem *p, const float *genes,
                     float *fitness);
void cga_select_cpu(const cga_layout *l, const glevo_rng_source *rng, const float *fitness,
                    const float *genes, float *out);
void cga_crossover_points_cpu(const cga_layout *l, const glevo_rng_source *rng, float pc,
                              float *points);
void cga_crossover_cpu(const cga_layout *l, const float *genes, const float *points, float *out);
/* Mutation parameters both twins see: with skip sampling, flip_cdf[k - 1] = 1 - (1 - pm)^k is
 * the probability that the next flip lies within k bits (computed once on the host). */
#define CGA_MAX_GENE_BITS 96
typedef struct cga_mutation {
    glevo_cga_mutation mode;
    float pm;
    float flip_cdf[CGA_MAX_GENE_BITS];
    /* The GPU's first guess of a skip (shaders/cga/mutate.glsl): log2(1 - pm); compares
     * decide the gap, so a poor guess costs time, never a different bit. */
    float log2_keep;
} cga_mutation;
void cga_mutation_init(cga_mutation *m, glevo_cga_mutation mode, double pm);
void cga_mutate_cpu(const cga_layout *l, const glevo_rng_source *rng, const cga_mutation *m,
                    const float *genes, float *out);
/* Best-so-far record: texel 0 = (value, x, y, generation + 1; 0 = empty), then the genes of
 * that individual, one RGBA texel per gene texture. */
void cga_keep_best_cpu(const cga_layout *l, const float reduced[4], const float *genes,
                       long long generation, float *record);

/* The block pass_uniforms of shaders/cga/common.glsl (std140; every cGA pass reads it). */
typedef struct cga_uniforms {
    uint32_t rng_offset[4];
    int32_t grid[2];
    uint32_t key[2];
    int32_t bits;
    uint32_t generation;
    float lower, step, sign, generation_plus_one, pc, pm;
    float flip_cdf[CGA_MAX_GENE_BITS];
    /* blocked kernel (src/cga/block.c): generations, groups x, groups y, 0; then tile rows
     * this dispatch, the half of the bests and history it writes, the generations it folds
     * into the record (those of the dispatch before) and their first generation; then 0, the
     * half of the flips it draws, the generations it draws them for and their first */
    int32_t block[12];
    /* fused one-generation kernel (src/cga/compute.c): the bests it folds into the record (0
     * none, 1 the tiles' of the dispatch before, 2 the fitness dispatch's), whether it scores
     * the children, the half of the bests it (or the fitness dispatch) writes, entries a half */
    int32_t evolve[4];
    float skip[4]; /* skip mutation: log2(1 - pm) for its gap's first guess, 0, 0, 0 */
} cga_uniforms;

#endif
