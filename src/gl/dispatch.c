/* The compute driver (GL 4.3 kernels, the 2012 way): the same inputs and uniform block as a
 * fragment pass (bind.c), outputs as images and shader-storage buffers, then
 * glDispatchCompute. Whatever it wrote is fenced by one memory barrier before the next pass,
 * upload or readback touches it (rlgl's rlComputeShaderDispatch; sokol's
 * _sg_gl_handle_memory_barriers). */
#include "gl/context_internal.h"

static GLenum image_format(gpu_format f)
{
    switch (f) {
    case GPU_RGBA32F: return GL_RGBA32F;
    case GPU_R32F: return GL_R32F;
    case GPU_RG32F: return GL_RG32F;
    case GPU_R32UI: return GL_R32UI;
    case GPU_RGBA32UI: return GL_RGBA32UI;
    }
    return GL_RGBA32F;
}

static GLenum access_mode(gpu_access a)
{
    return a == GPU_READ_ONLY ? GL_READ_ONLY : a == GPU_WRITE_ONLY ? GL_WRITE_ONLY : GL_READ_WRITE;
}

glevo_status gpu_pass_dispatch(gpu_pass *p)
{
    const gpu_limits *l = gpu_context_limits();
    if (!l->compute)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "pass %s: this context has no compute shaders "
                          "(GL 4.3)", p->name);
    if (p->program && !p->program->compute)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s: a fragment program cannot be "
                          "dispatched", p->name);
    for (int i = 0; i < 3; ++i)
        if (p->groups[i] < (i ? 0 : 1))
            return glevo_fail(GLEVO_ERR_INVALID, "pass %s: %d work-groups along axis %d",
                              p->name, p->groups[i], i);
    glevo_status st = gpu_bind_common(p);
    if (st) return st;
    const gpu_program *prog = p->program;
    if (p->target_count > prog->image_units)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s: %d images bound, the program has %d "
                          "image units", p->name, p->target_count, prog->image_units);
    for (int i = 0; i < prog->image_units; ++i) {
        const gpu_texture *t = p->targets[i];
        if (t)
            glBindImageTexture((GLuint)i, t->id, 0, GL_FALSE, 0, access_mode(p->access[i]),
                               image_format(t->format));
    }
    for (int i = 0; i < prog->buffer_units; ++i)
        if (p->buffers[i])
            glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)i, p->buffers[i]->id);
    for (int i = prog->buffer_units; i < GPU_MAX_BUFFERS; ++i)
        if (p->buffers[i])
            return glevo_fail(GLEVO_ERR_INVALID, "pass %s: buffer slot %d is beyond the "
                              "program's %d buffers", p->name, i, prog->buffer_units);
    if (gl_current->debug) gl_debug_set_pass(p->name);
    bool profiling = gpu_profile_enabled();
    if (profiling) gpu_profile_begin(p->name);
    glDispatchCompute((GLuint)p->groups[0], (GLuint)(p->groups[1] ? p->groups[1] : 1),
                      (GLuint)(p->groups[2] ? p->groups[2] : 1));
    if (profiling) gpu_profile_end();
    gl_current->barrier_pending = true;
    return gpu_check(p->name);
}
