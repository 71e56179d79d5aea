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
    int32_t bits_width; /* texels a row of the population bytes texture (pack) */
} dsm_uniforms;

/* Every model program shares this table (shaders/dsmga/common.glsl declares them all). */
static const gpu_slot dsm_samplers[] = {{"t_rows", 0}, {"t_dsm", 0}, {"t_pop", 0}, {"t_mask", 0},
                                        {"t_ils", 0},  {"t_conn", 0}, {"t_prio", 0}, {"t_part", 0},
                                        {"t_bits", 0}, {0}};
enum { DSM_SLOT_ROWS, DSM_SLOT_DSM, DSM_SLOT_POP, DSM_SLOT_MASK, DSM_SLOT_ILS, DSM_SLOT_CONN,
       DSM_SLOT_PRIO, DSM_SLOT_PART, DSM_SLOT_BITS };

/* Texels a row of the population bytes texture at most: 4096 × max_texture_size (≥ 16384)
 * words hold any population up to 256 MiB. */
#define DSM_BITS_WIDTH 4096

typedef struct dsm_model_ops dsm_model_ops;

struct glevo_dsm_gpu {
    const dsm_model_ops *ops;
    unsigned long long context; /* the GL context it was created on (gpu_context_serial) */
    glevo_backend backend;
    int ell, n, words;
    /* Created by model.c for both drivers: the population bytes as R32UI words (bits), the
     * FastCounting rows of the selection (rows, BuildDSM) and of the population (pop, lossy). */
    gpu_texture bits, rows, pop;
    uint32_t *bits_tail; /* the bytes of the texture's last, partial row, zero-padded */
    gpu_texture dsm, conn[2], prio, ils, mask[2], part;
    gpu_program pack, build, init, mask_init, pick_partial, pick, update, mask_update;
    int blocks; /* genes per pick_partial fragment */
    uint32_t *ils_host;
    /* Where clique put column t (1..last) of set s: ils_host[s * ils_row + (t-1) * ils_col]. */
    size_t ils_row, ils_col;
    bool ils_whole;        /* clique read every set, whole, straight into the caller's ils */
    gpu_buffer buffers[4]; /* compute driver's storage */
    gpu_program kernels[4];
    int lossy_columns;     /* compute: ILS columns the next lossy readback fetches first */
};

struct dsm_model_ops {
    /* Builds the driver's programs and textures (model.c has made bits, rows and pop). */
    glevo_status (*create)(glevo_dsm_gpu *g);
    /* FastCounting rows of the bytes in g->bits into `rows` (g->rows or g->pop): one fragment
     * or invocation per (word, gene), shaders/dsmga/pack.glsl. */
    glevo_status (*pack)(glevo_dsm_gpu *g, gpu_texture *rows);
    /* BuildDSM from g->rows, the DSM stays on the GPU; ends with a GPU sync, so host timers
     * charge BuildDSM and not what follows. */
    glevo_status (*build)(glevo_dsm_gpu *g);
    glevo_status (*read)(glevo_dsm_gpu *g, float *mi);
    /* Runs FindClique (lossy: donors from g->pop) and reads columns 1..*last of the ILS back
     * into g->ils_host, laid out as g->ils_row and g->ils_col say (fragment: row s at
     * ils_host[s * last]); CLIQUE_END where a lossy set ended. Or, setting g->ils_whole, reads
     * every set (lossless: all ell genes) straight into ils (ell × ell). */
    glevo_status (*clique)(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                           int *last);
    /* Releases what create made. */
    void (*destroy)(glevo_dsm_gpu *g);
};

extern const dsm_model_ops dsm_fragment_ops, dsm_compute_ops;

/* The block for g; cp NULL for BuildDSM. Both drivers fill it (inline here, so that they
 * need nothing of model.c, which picks them). */
static inline dsm_uniforms dsm_uniforms_for(const glevo_dsm_gpu *g, const glevo_clique_params *cp)
{
    dsm_uniforms u = {.n = g->n, .words = g->words, .ell = g->ell,
                      .inv_n = 1.0f / (float)g->n, /* the CPU twin's rounding of 1/n */
                      .bits_width = g->bits.width};
    if (cp) {
        u.key[0] = cp->seed;
        u.key[1] = CLIQUE_STREAM;
        u.generation = cp->generation;
        u.lossy = cp->lossy ? 1 : 0;
    }
    return u;
}

#endif
