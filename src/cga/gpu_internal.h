/* The cellular GA's GPU state, shared by its two drivers (gpu.c builds it, fragment.c and
 * compute.c run generations on it), and the slots of each program's texture-unit table. */
#ifndef GLEVO_CGA_GPU_INTERNAL_H
#define GLEVO_CGA_GPU_INTERNAL_H

#include "cga/cga_internal.h"
#include "gl/gpgpu.h"
#include "reduce/reduce.h"

#define MAX_TEX (GLEVO_CGA_MAX_DIM / 4)

/* Slots, in the order of the tables in gpu.c. */
enum { FITNESS_GENES = 0 };
enum { KEEP_REDUCED = 0, KEEP_RECORD = 1, KEEP_GENES = 2 };
enum { SELECT_FITNESS = 0, SELECT_GENES = 1, SELECT_RANDOM = 1 + MAX_TEX };
enum { XPOINTS_RANDOM = 0 };
enum { CROSSOVER_GENES = 0, CROSSOVER_POINTS = MAX_TEX };
enum { MUTATE_GENES = 0, MUTATE_RANDOM = MAX_TEX };

struct cga_gpu {
    bool compute;
    gpu_program fitness, select, xpoints, crossover, mutate, keep_best, evolve;
    gpu_texture current[MAX_TEX], selected[MAX_TEX], crossed[MAX_TEX], points[MAX_TEX];
    gpu_texture fitness_tex, random_table;
    gpu_texture partial; /* compute: one best texel per 16 x 16 work-group of the fitness */
    gpu_texture record[2];
    int record_index;
    gpu_reducer reducer;
};

#endif
