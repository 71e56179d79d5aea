/* Constant fitting on the GPU (const_fit_gpu.c drives shaders/gp/const_fit.glsl): the compute
 * backend's resident programs fitted in place, the same bits as the host's const_opt.c. */
#ifndef GLEVO_GP_CONST_FIT_GPU_H
#define GLEVO_GP_CONST_FIT_GPU_H

#include "gl/gpgpu.h"
#include "gp/breed/resident.h"

typedef struct gp_const_fitter {
    /* The build with derivatives by GP_FIT_THETA constants (made at the first run). */
    gpu_program build;
    int warps;              /* programs a work-group (subgroups of GP_FIT_LANES) */
    gpu_buffer data;        /* y, then each variable's cases */
    /* Claimed programs (shaders/gp/const_fit.glsl, GP_FIT_CLAIM): the shader's counter and the
     * claims made so far, where the driver lets an invocation loop on (no loop limit). */
    bool claim;
    gpu_buffer claims;
    uint32_t claimed;
    int cases, cap;
    uint32_t mask;
    int fits; /* programs a generation fits, about (the build's choice: const_fit_gpu.c) */
    int max_groups; /* claiming work-groups a dispatch, at most */
} gp_const_fitter;

/* Whether the pass can fit P's runs on d on this context: programs of at most GP_FIT_MAX_CAP
 * codes (read into shared memory), and, where a driver cuts long shader loops short
 * (llvmpipe), walks that cannot reach its limit. Other runs are left to the host twin (the
 * same constants, slower). */
#define GP_FIT_MAX_CAP 1024
bool gp_const_fitter_fits(const glevo_gp_params *P, const glevo_gp_data *d);
glevo_status gp_const_fitter_create(gp_const_fitter *f, const glevo_gp_data *d, int cap,
                                    uint32_t mask, int fits);
/* Fits the chosen programs (gp_const_fit_chosen) of r's current generation, in place. */
glevo_status gp_const_fitter_run(gp_const_fitter *f, gp_resident *r, const glevo_gp_params *P,
                                 int generation);
/* The fitting program built now (else at the first gp_const_fitter_run). */
glevo_status gp_const_fitter_prebuild(gp_const_fitter *f);
void gp_const_fitter_destroy(gp_const_fitter *f);

#endif
