/* Internal to src/de: the resolved configuration shared by every engine, the engine handle,
 * the uniform block of the GPU passes and the ops table (one per backend: fragment.c,
 * compute.c, cpu.c). The passes' C twins are trial.h and select.h. */
#ifndef GLEVO_DE_INTERNAL_H
#define GLEVO_DE_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "de/de_stream.h"
#include "glevo/de.h"

typedef struct de_config {
    const glevo_problem *problem;
    int dim, np;
    float F, CR;
    glevo_de_strategy strategy;
    glevo_de_kernel kernel;
    long long max_evals;
    uint32_t seed;
    bool shifted;
    double *shift;     /* o (dim doubles; zeros when not shifted) */
    float shift_add;   /* p->shift_add when shifted, else 0: z = y + shift_add */
    float *lo, *hi;    /* per-gene bounds in y = x - o coordinates (float) */
    float *init_lo, *init_hi;
    int check_every;
    double target_efv;
    glevo_de_progress_fn progress;
    void *progress_user;
} de_config;

typedef struct de_engine_ops {
    /* Evaluates the uploaded/initial population y (np x dim floats). */
    glevo_status (*init)(glevo_de *de, const float *y);
    /* Advances `count` >= 1 generations, the first numbered g. The front door never lets one
     * call cross a best-so-far check or the evaluation budget, so an engine may run them all
     * in one dispatch (the resident compute kernel). */
    glevo_status (*generations)(glevo_de *de, uint32_t g, uint32_t count);
    /* Best individual: y (dim floats) and its float fitness. */
    glevo_status (*best)(glevo_de *de, float *y, float *fitness);
    glevo_status (*population)(glevo_de *de, float *y, float *fitness);
    /* A checkpoint's population and fitness back in place (src/de/checkpoint.c). */
    glevo_status (*restore)(glevo_de *de, const float *y, const float *fitness);
    void (*destroy)(glevo_de *de);
    /* Migration (glevo_de_read_fitness, _read_genes, _write_genes): the current fitness (np
     * floats), the genes y of a few individuals (dim floats each), and a few individuals set
     * with their fitness, without touching the rest of the population. */
    glevo_status (*read_fitness)(glevo_de *de, float *fitness);
    glevo_status (*read_genes)(glevo_de *de, int count, const int *index, float *y);
    glevo_status (*write_genes)(glevo_de *de, int count, const int *index, const float *y,
                                const float *fitness);
} de_engine_ops;

/* The block pass_uniforms of shaders/de/common.glsl (std140). */
typedef struct de_uniforms {
    uint32_t key[2], generation;
    int32_t np, dim, per_row;
    float F, CR, shift_add;
    uint32_t generations; /* generations of one dispatch (the resident compute kernel) */
    uint32_t pad[2];
} de_uniforms;

struct glevo_de {
    de_config c;
    glevo_backend backend;
    const de_engine_ops *ops;
    void *impl;
    long long evaluations, generations;
    bool target_reached;
    double seconds;
    char renderer[256];
    char engine[32];   /* glevo_de_result.engine */
    unsigned long long context; /* GPU engines: the GL context they were created on */
};

/* GLEVO_OK for the CPU engine, and for GPU engines whose context is current on this thread;
 * every public entry that reaches the GPU asks first (gpu_context_check). */
glevo_status de_gl_ready(const glevo_de *de, const char *function);
#define DE_GL_READY(de)                                                                         \
    do {                                                                                        \
        glevo_status gl_ready_ = de_gl_ready(de, __func__);                                     \
        if (gl_ready_) return gl_ready_;                                                        \
    } while (0)

/* The defines every GPU program of DE is built with: strategy, direction, and the pass numbers
 * of the random stream from de_stream.h (so GLSL counts with C's numbers). */
void de_shader_defines(const de_config *c, char *out, size_t size);

/* The engine for params with no population yet (glevo_de_create draws and evaluates one; a
 * checkpoint load restores one). */
glevo_status de_engine_new(const glevo_de_params *params, glevo_de **out);

glevo_status de_cpu_create(glevo_de *de);
glevo_status de_fragment_create(glevo_de *de);
glevo_status de_compute_create(glevo_de *de);

/* The configuration of params: defaults filled in, checked, shift and bounds allocated
 * (params.c); de_config_free releases it. */
glevo_status de_config_resolve(const glevo_de_params *in, de_config *c);
void de_config_free(de_config *c);

#endif
