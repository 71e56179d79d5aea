/* The GPU's streaming multiprocessors, where the driver tells (GL_NV_shader_thread_group's
 * gl_SMCountNV, read once per context by a one-invocation dispatch): a kernel whose
 * work-groups wait on each other must not launch more groups than can run at once, and one
 * group per multiprocessor always can (a group never needs more than one). 0 where unknown
 * (other vendors, llvmpipe): such kernels then run with one group. */
#include <string.h>

#include "gl/context_internal.h"

static bool has_extension(const char *name)
{
    GLint n = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &n);
    for (GLint i = 0; i < n; ++i) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && !strcmp(e, name)) return true;
    }
    return false;
}

static int query(void)
{
    if (!gpu_context_limits()->compute || !has_extension("GL_NV_shader_thread_group")) return 0;
    static const gpu_slot buffers[] = {{"sm_out", 0}, {0}};
    gpu_program prog;
    gpu_buffer out;
    uint32_t count = 0;
    if (gpu_program_build(&prog, &(gpu_program_desc){.name = "gl.sm_count",
                                                      .compute = "common/sm_count.glsl",
                                                      .buffers = buffers}))
        return 0;
    glevo_status st = gpu_buffer_create(&out, 16, NULL);
    if (!st) {
        gpu_pass pass = {.name = "gl.sm_count", .program = &prog};
        gpu_pass_buffer(&pass, 0, &out);
        pass.groups[0] = 1;
        st = gpu_pass_dispatch(&pass);
        if (!st) st = gpu_buffer_read(&out, 0, sizeof count, &count);
        gpu_buffer_destroy(&out);
    }
    gpu_program_destroy(&prog);
    return st || count > 65535 ? 0 : (int)count;
}

int gpu_sm_count(void)
{
    struct glevo_context *ctx = gl_current;
    if (!ctx) return 0;
    if (!ctx->sm_count_known) {
        ctx->sm_count = query();
        ctx->sm_count_known = true;
    }
    return ctx->sm_count;
}
