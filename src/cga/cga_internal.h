/* Cellular GA internals: the population layout shared by the GLSL passes and their C twins,
 * the pass numbers that key the random stream, the uniform block, the engine object and its
 * ops table (one per backend: fragment.c, compute.c, cpu.c). */
#ifndef GLEVO_CGA_INTERNAL_H
#define GLEVO_CGA_INTERNAL_H

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

typedef struct cga_gpu cga_gpu;
typedef struct glevo_cga glevo_cga;

/* One per backend (DE's shape): the engine behind glevo_cga. */
typedef struct cga_engine_ops {
    glevo_status (*create)(glevo_cga *cga);
    /* One generation at cga->generation (the random stream is already set to it). */
    glevo_status (*generation)(glevo_cga *cga);
    /* Best-so-far record (a small readback on the GPU). */
    glevo_status (*read_record)(glevo_cga *cga, float *record);
    glevo_status (*read)(glevo_cga *cga, float *genes, float *fitness);
    glevo_status (*write)(glevo_cga *cga, const float *genes);
    /* A checkpoint's state back in place: the population, its last fitness and the
     * best-so-far record (src/cga/checkpoint.c). */
    glevo_status (*restore)(glevo_cga *cga, const float *genes, const float *fitness,
                            const float *record);
    void (*destroy)(glevo_cga *cga);
    /* Migration (glevo_cga_evaluate, _read_cells, _write_cells): the fitness of the current
     * genes into the fitness store, and the genes of a few cells (cells[i] = y * width + x,
     * `dim` floats each) read or written without touching the rest of the population. */
    glevo_status (*evaluate)(glevo_cga *cga);
    glevo_status (*read_cells)(glevo_cga *cga, int count, const int *cells, float *genes);
    glevo_status (*write_cells)(glevo_cga *cga, int count, const int *cells, const float *genes);
    /* Optional (compute): several generations at once, at most n; *done says how many. */
    glevo_status (*generations)(glevo_cga *cga, int n, int *done);
} cga_engine_ops;

extern const cga_engine_ops cga_fragment_ops, cga_compute_ops, cga_cpu_ops, cga_sga_ops;

struct glevo_cga {
    glevo_cga_params params;      /* with defaults filled in */
    const cga_engine_ops *ops;
    cga_layout layout;
    glevo_rng_source rng;
    cga_mutation mutation;
    long long generation, evaluations;
    size_t gene_floats;
    float *record;        /* best-so-far record (CPU engines; GPU copy read on demand) */
    float *genes;         /* initial population; the CPU engines' current one */
    /* CPU engines */
    float *selected, *crossed, *points, *fitness;
    double *cumulative;   /* standard GA roulette */
    /* GPU engines (gpu.c; fragment.c and compute.c run the generations) */
    cga_gpu *gpu;
    unsigned long long context; /* the GL context it was created on (gpu_context_serial) */
};

/* GLEVO_OK for the CPU engines, and for GPU engines whose context is current on this thread;
 * every public entry that reaches the GPU asks first (gpu_context_check). */
glevo_status cga_gl_ready(const glevo_cga *cga, const char *function);
#define CGA_GL_READY(cga)                                                                       \
    do {                                                                                        \
        glevo_status gl_ready_ = cga_gl_ready(cga, __func__);                                   \
        if (gl_ready_) return gl_ready_;                                                        \
    } while (0)

/* Shared by the two GPU drivers (gpu.c). */
glevo_status cga_gpu_create(glevo_cga *cga, bool compute);
void cga_gpu_destroy(glevo_cga *cga);
glevo_status cga_gpu_read_record(glevo_cga *cga, float *record);
glevo_status cga_gpu_read(glevo_cga *cga, float *genes, float *fitness);
glevo_status cga_gpu_write(glevo_cga *cga, const float *genes);
glevo_status cga_gpu_read_cells(glevo_cga *cga, int count, const int *cells, float *genes);
glevo_status cga_gpu_write_cells(glevo_cga *cga, int count, const int *cells, const float *genes);
glevo_status cga_gpu_restore(glevo_cga *cga, const float *genes, const float *fitness,
                             const float *record);
void cga_gpu_uniforms(const glevo_cga *cga, cga_uniforms *u);
/* The block overrides' ranges (block.c; what the GPU allows is checked at create). */
glevo_status cga_block_params_check(const glevo_cga_params *p);
unsigned cga_gpu_texture(const glevo_cga *cga, glevo_cga_stage stage, int index);
/* Reads one stage for tests: genes-shaped for population/selected/crossed, W*H floats for
 * fitness; CGA_STAGE_POINTS gives the crossover-point textures; CGA_STAGE_RECORD the record.
 * The compute backend has the population, fitness and record only. */
enum { CGA_STAGE_POINTS = 100, CGA_STAGE_RECORD = 101 };
glevo_status cga_gpu_read_stage(glevo_cga *cga, int stage, float *out);

#endif
