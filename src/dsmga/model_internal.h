/* The DSMGA-II GPU model builder behind glevo_dsm_gpu: state shared by its two drivers
 * (fragment.c: passes; compute.c: dispatches), the uniform block and texture-unit table of
 * shaders/dsmga/common.glsl, and the ops table model.c dispatches through. */
#ifndef GLEVO_DSMGA_MODEL_INTERNAL_H
#define GLEVO_DSMGA_MODEL_INTERNAL_H

#include "dsmga/dsmga_internal.h"
#include "gl/gpgpu.h"
#include "glevo/backend.h"

/* The block pass_uniforms of shaders/dsmga/common.glsl (std140). */
typedef struct dsm_uniforms {
    uint32_t key[2], generation;
    int32_t n, words, ell, block, blocks, step, lossy;
    float inv_n;
    uint32_t pad;
} dsm_uniforms;

/* Every model program shares this table (shaders/dsmga/common.glsl declares them all). */
static const gpu_slot dsm_samplers[] = {{"t_rows", 0}, {"t_dsm", 0}, {"t_pop", 0}, {"t_mask", 0},
                                        {"t_ils", 0},  {"t_conn", 0}, {"t_prio", 0}, {"t_part", 0},
                                        {0}};
enum { DSM_SLOT_ROWS, DSM_SLOT_DSM, DSM_SLOT_POP, DSM_SLOT_MASK, DSM_SLOT_ILS, DSM_SLOT_CONN,
       DSM_SLOT_PRIO, DSM_SLOT_PART };

typedef struct dsm_model_ops dsm_model_ops;

struct glevo_dsm_gpu {
    const dsm_model_ops *ops;
    glevo_backend backend;
    int ell, n, words;
    gpu_texture rows, pop, dsm, conn[2], prio, ils, mask[2], part;
    gpu_program build, init, mask_init, pick_partial, pick, update, mask_update;
    int blocks; /* genes per pick_partial fragment */
    uint32_t *ils_host;
    /* Where read_ils put column t (1..last) of set s: ils_host[s * ils_row + (t-1) * ils_col]. */
    size_t ils_row, ils_col;
    gpu_buffer buffers[4]; /* compute driver's storage */
    gpu_program kernels[4];
};

struct dsm_model_ops {
    glevo_status (*create)(glevo_dsm_gpu *g);
    /* FastCounting rows in, the DSM stays on the GPU; ends with a GPU sync, so host timers
     * charge BuildDSM and not what follows. */
    glevo_status (*build)(glevo_dsm_gpu *g, const uint32_t *rows);
    glevo_status (*read)(glevo_dsm_gpu *g, float *mi);
    /* Runs FindClique; *last = the last ILS column written (columns 1..last). */
    glevo_status (*clique)(glevo_dsm_gpu *g, const glevo_clique_params *cp, int *last);
    /* Columns 1..last of the ILS into out, laid out as g->ils_row and g->ils_col say (set by
     * clique or read_ils; fragment: row s at out[s * last]); CLIQUE_END where a lossy set
     * ended. */
    glevo_status (*read_ils)(glevo_dsm_gpu *g, int last, uint32_t *out);
    void (*destroy)(glevo_dsm_gpu *g);
};

extern const dsm_model_ops dsm_fragment_ops, dsm_compute_ops;

/* The block for g; cp NULL for BuildDSM. */
dsm_uniforms dsm_uniforms_for(const glevo_dsm_gpu *g, const glevo_clique_params *cp);

#endif
