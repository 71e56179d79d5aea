/* Cellular GA internals: the engine object and its ops table (one per backend: fragment.c,
 * compute.c, cpu.c), and what the two GPU drivers share (gpu.c); the passes' own vocabulary
 * is passes.h. */
#ifndef GLEVO_CGA_ENGINE_INTERNAL_H
#define GLEVO_CGA_ENGINE_INTERNAL_H

#include "cga/passes.h"

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
