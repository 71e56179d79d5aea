/* Where each kind of pass runs (glevo_context_sm_usage, glevo info): one probe body
 * (shaders/common/sm_probe.glsl) drawn as a render pass and dispatched as a compute pass, each
 * invocation writing the multiprocessor it ran on; the host counts the distinct ones. Found
 * because the fragment evaluator ran the compute kernel's interpreter ~30x slower on the
 * H200 whatever its layout: pixel shading there runs on 4 of 132 multiprocessors. */
#include <stdlib.h>
#include <string.h>

#include "core/args.h"
#include "gl/context_internal.h"
#include "gl/gpgpu.h"

#define PROBE_SIDE 512
#define PROBE_MAX_SMS 4096 /* gl_SMIDNV values counted; larger ones are ignored */

static const gpu_slot probe_image[] = {{"i_sm", 0}, {0}};

/* Distinct multiprocessor ids in the .x of n texels. */
static int count_sms(const uint32_t *texels, size_t n)
{
    unsigned char seen[PROBE_MAX_SMS] = {0};
    int count = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t id = texels[4 * i];
        if (id < PROBE_MAX_SMS && !seen[id]) seen[id] = 1, count++;
    }
    return count;
}

/* One probe pass (compute or fragment) into target; its distinct ids in *sms and the GPU's
 * count in *sm_count. */
static glevo_status probe(bool compute, gpu_texture *target, uint32_t *texels, int *sms,
                          int *sm_count)
{
    gpu_program prog = {0};
    gpu_program_desc d = {.name = compute ? "gl.sm_probe_compute" : "gl.sm_probe",
                          .defines = "#define SM_PROBE_WORK 256\n"};
    if (compute) {
        d.compute = "common/sm_probe.glsl";
        d.images = probe_image;
    } else {
        d.fragment = "common/sm_probe.glsl";
    }
    glevo_status st = gpu_program_build(&prog, &d);
    if (!st) {
        gpu_pass pass = {.name = d.name, .program = &prog};
        if (compute) {
            gpu_pass_image(&pass, 0, target, GPU_WRITE_ONLY);
            pass.groups[0] = pass.groups[1] = PROBE_SIDE / 8;
            pass.groups[2] = 1;
            st = gpu_pass_dispatch(&pass);
        } else {
            gpu_pass_target(&pass, target);
            st = gpu_pass_draw(&pass);
        }
    }
    if (!st) st = gpu_texture_read(target, texels);
    if (!st) {
        *sms = count_sms(texels, (size_t)PROBE_SIDE * PROBE_SIDE);
        *sm_count = (int)texels[1];
    }
    gpu_program_destroy(&prog);
    return st;
}

glevo_status glevo_context_sm_usage(glevo_context *ctx, glevo_sm_usage *out)
{
    ARG_NOT_NULL(ctx);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_status st = glevo_context_make_current(ctx);
    if (st || !ctx->limits.sm_ids) return st;
    uint32_t *texels = malloc((size_t)PROBE_SIDE * PROBE_SIDE * 4 * sizeof *texels);
    if (!texels) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the multiprocessor probe");
    gpu_texture target = {0};
    st = gpu_texture_create(&target, PROBE_SIDE, PROBE_SIDE, GPU_RGBA32UI, NULL);
    if (!st) st = probe(false, &target, texels, &out->fragment_sms, &out->sm_count);
    if (!st && ctx->limits.compute)
        st = probe(true, &target, texels, &out->compute_sms, &out->sm_count);
    gpu_texture_destroy(&target);
    free(texels);
    out->reported = !st;
    if (st) out->sm_count = out->fragment_sms = out->compute_sms = 0;
    return st;
}
