/* The cellular GA's GPU state, shared by its two drivers (gpu.c builds it, fragment.c and
 * compute.c run generations on it), and the slots of each program's texture-unit table. */
#ifndef GLEVO_CGA_GPU_INTERNAL_H
#define GLEVO_CGA_GPU_INTERNAL_H

#include "cga/engine_internal.h"
#include "gl/gpgpu.h"
#include "reduce/reduce.h"

#define MAX_TEX (GLEVO_CGA_MAX_DIM / 4)
/* Cells a side of the compute fitness dispatch's work-group (16 x 16 invocations, 2 x 2 cells
 * each: shaders/cga/fitness.glsl); each group's best is one texel of `partial`. */
#define CGA_FITNESS_SPAN 32

/* Slots, in the order of the tables in gpu.c. */
enum { FITNESS_GENES = 0 };
enum { KEEP_REDUCED = 0, KEEP_RECORD = 1, KEEP_GENES = 2 };
enum { SELECT_FITNESS = 0, SELECT_GENES = 1, SELECT_RANDOM = 1 + MAX_TEX };
enum { XPOINTS_RANDOM = 0 };
enum { CROSSOVER_GENES = 0, CROSSOVER_POINTS = MAX_TEX };
enum { MUTATE_GENES = 0, MUTATE_RANDOM = MAX_TEX };

/* The blocked path's shape (src/cga/block.c): tiles of tile[0] x tile[1] cells, up to `depth`
 * generations a dispatch, `local` invocations a group each evolving up to `pairs` pairs a
 * generation, groups[0] x groups[1] groups. on = false: the one-generation path; resident:
 * one group holds the whole torus (tile = the grid), no halos. */
typedef struct cga_block_plan {
    bool on, resident;
    int tile[2], depth, local, pairs, groups[2];
    int gen_slots; /* invocations a generation in the block's end reductions */
} cga_block_plan;

struct cga_gpu {
    bool compute;
    gpu_program fitness, select, xpoints, crossover, mutate, keep_best, evolve;
    gpu_texture current[MAX_TEX], selected[MAX_TEX], crossed[MAX_TEX], points[MAX_TEX];
    gpu_texture fitness_tex, random_table;
    gpu_texture partial; /* compute: one best texel per 16 x 16 work-group of the fitness */
    /* compute, the fused one-generation kernel (compute.c; built where it fits), whether it
     * scores the children, the other fitness texture it writes theirs into; two halves of
     * bests_half groups' best texels and genes (its tiles' or the fitness dispatch's) */
    bool fused, score_children;
    gpu_program evolve_fit;
    gpu_texture fitness_next;
    gpu_buffer evolve_bests;
    int bests_half;
    gpu_texture record[2];
    int record_index;
    /* Migration (migrants.c): built on the first use, so runs without islands never pay. */
    gpu_program migrants;
    gpu_buffer candidates;
    gpu_reducer reducer;
    /* The blocked path (block.c): its kernel, the groups' bests and their genes' history. */
    cga_block_plan block_plan;
    gpu_program block;
    gpu_buffer bests, history, flips;
    /* The last block's generations and first generation, not yet folded into the record (0:
     * none), and the half of bests and history the next block writes; the generations whose
     * flips are drawn, from flips_from, in the half the next block reads. */
    int block_unfolded, block_half, flips_drawn, flips_half;
    uint32_t block_unfolded_from, flips_from;
};

/* The gene textures' format: R32F / RG32F where dim is 1 / 2, else RGBA32F. */
gpu_format cga_gene_format(const cga_layout *l);
/* The #defines every cGA program is built with (gene textures and their image format,
 * dimension, neighbourhood, pass numbers, random source, mutation mode, direction);
 * snprintf's count. */
int cga_gpu_defines(const glevo_cga *cga, char *out, size_t size);
/* block.c: the plan from the params and this GPU (an override it cannot run is
 * GLEVO_ERR_INVALID naming the limit), the programs and buffers, the generations the next
 * dispatch runs of n still to go, and one block of `steps` generations that draws the flips
 * of the next block's next_steps (its bests are folded into the record by the next block, or
 * at once where next_steps is 0: the record is then complete). */
glevo_status cga_block_plan_make(const glevo_cga *cga, cga_block_plan *out);
glevo_status cga_block_create(glevo_cga *cga);
int cga_block_generations(const glevo_cga *cga, int n);
glevo_status cga_block_run(glevo_cga *cga, int steps, int next_steps);
/* One dispatch of the blocked kernel that does nothing (compute.c's warm_up). */
glevo_status cga_block_warm_up(glevo_cga *cga);

/* The emigrant candidates of the fitness store as it is (no evaluation; migrants.c): chunks
 * of `chunk` cells (1..CGA_MIGRANTS_CHUNK), the order of `maximize`. cells/fitness hold
 * cga_gpu_candidate_count(cga, m, chunk) entries, laid out as glevo_cga_candidates says. */
#define CGA_MIGRANTS_CHUNK 4096
int cga_gpu_candidate_count(const glevo_cga *cga, int m, int chunk);
glevo_status cga_gpu_candidates(glevo_cga *cga, int m, int chunk, bool maximize, int *cells,
                                float *fitness);

#endif
