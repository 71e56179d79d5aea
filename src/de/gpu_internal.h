/* Differential evolution's GPU state, shared by its two drivers (gpu.c builds it and owns
 * uploads, the first evaluation and readbacks; fragment.c and compute.c run generations on
 * it), and the slots of the texture-unit table every DE program shares. */
#ifndef GLEVO_DE_GPU_INTERNAL_H
#define GLEVO_DE_GPU_INTERNAL_H

#include "de/de_internal.h"
#include "gl/gpgpu.h"
#include "reduce/reduce.h"

/* Slots of de_samplers (gpu.c), the table shaders/de/common.glsl declares. */
enum { SLOT_POPULATION, SLOT_BOUNDS, SLOT_BEST, SLOT_FITNESS, SLOT_CHOICE };
extern const gpu_slot de_samplers[];

typedef struct de_gpu {
    bool compute;
    int per_row, rows;              /* P individuals per texture row */
    gpu_program evaluate;
    gpu_program trial, select;      /* fragment driver */
    gpu_program evolve;             /* compute driver: one generation a dispatch */
    gpu_program resident;           /* compute driver: K generations a dispatch, or id 0 */
    int evolve_local, evolve_group; /* invocations and individuals of an evolve work-group */
    int resident_local;
    gpu_texture pop[2], fit[2], bounds;
    gpu_texture choice;             /* fragment: RGBA32UI (r1, r2, r3, jrand | L << 16) */
    int cur;                        /* index of the current population/fitness */
    gpu_reducer reducer;
    bool have_reducer;
    const gpu_texture *best;        /* 1x1 reduction result for best/1 strategies */
} de_gpu;

bool de_uses_best(const de_config *c);
de_uniforms de_gpu_uniforms(const glevo_de *de, uint32_t g);
/* The layout, textures, bounds, reducer and evaluate program for either driver; the driver
 * builds its own generation programs afterwards. On failure everything is released. */
glevo_status de_gpu_create(glevo_de *de, bool compute, const de_engine_ops *ops);
/* Fills `defines` and `aliases` (problem snippet) for a DE program. */
void de_gpu_program_desc(const glevo_de *de, gpu_program_desc *d, char *defines, size_t size,
                         const char **aliases);
/* The best individual of the current fitness (reduction) into e->best, on the GPU. */
glevo_status de_gpu_reduce_best(glevo_de *de);
/* A generation's start in either driver: the best/1 reduction of the current fitness when the
 * strategy needs it, and the uniform block of generation g. */
glevo_status de_gpu_generation_begin(glevo_de *de, uint32_t g, de_uniforms *u);
/* Binds what a generation reads first: the current population and fitness, the bounds and,
 * for best/1 strategies, the reduced best (de_gpu_reduce_best). */
void de_gpu_bind_current(glevo_de *de, gpu_pass *p);
glevo_status de_gpu_init(glevo_de *de, const float *y);
glevo_status de_gpu_best(glevo_de *de, float *y, float *fitness);
glevo_status de_gpu_population(glevo_de *de, float *y, float *fitness);
/* A checkpoint's population and fitness: the driver's init (population upload, padding
 * fitness as the worst value), then the stored fitness over the live texels. */
glevo_status de_gpu_restore(glevo_de *de, const float *y, const float *fitness);
void de_gpu_destroy(glevo_de *de);
glevo_status de_gpu_read_fitness(glevo_de *de, float *fitness);
glevo_status de_gpu_read_genes(glevo_de *de, int count, const int *index, float *y);
glevo_status de_gpu_write_genes(glevo_de *de, int count, const int *index, const float *y,
                                const float *fitness);

#endif
