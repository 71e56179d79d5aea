/* What both drivers share (sokol's sg_bindings + sg_apply_uniforms): inputs bound by slot to
 * the texture units the program build resolved, the uniform block streamed through the
 * context's ring, and the memory barrier a compute dispatch leaves pending. Counts are checked
 * here, so a wrong slot or block size is an error naming the pass, never a write out of
 * bounds or a silently ignored uniform. */
#include <stdio.h>
#include <string.h>

#include "gl/context_internal.h"

/* A fence and a client wait rather than glFinish: the wait returns as soon as the GPU has
 * passed the fence (drivers may let glFinish sleep or yield longer), and it flushes first. */
void gpu_finish(void)
{
    gpu_fence_compute_writes();
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!fence) {
        glFinish();
        return;
    }
    GLenum r;
    do
        r = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000ull);
    while (r == GL_TIMEOUT_EXPIRED);
    glDeleteSync(fence);
}

int gpu_groups(long long n, int local) { return (int)((n + local - 1) / local); }

void gpu_fence_compute_writes(void)
{
    struct glevo_context *ctx = gl_current;
    if (!ctx || !ctx->barrier_pending) return;
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_PIXEL_BUFFER_BARRIER_BIT);
    ctx->barrier_pending = false;
}

/* The first binding error of a pass is kept and reported by its draw or dispatch. */
static void bind_error(gpu_pass *p, const char *what)
{
    if (!p->error) p->error = what;
}

void gpu_pass_input(gpu_pass *p, int slot, const gpu_texture *t)
{
    if (slot < 0 || slot >= GPU_MAX_INPUTS) {
        bind_error(p, "input slot outside 0..31");
        return;
    }
    p->inputs[slot] = t;
}

void gpu_pass_inputs(gpu_pass *p, int first_slot, const gpu_texture *t, int count)
{
    for (int i = 0; i < count; ++i) gpu_pass_input(p, first_slot + i, &t[i]);
}

void gpu_pass_target(gpu_pass *p, gpu_texture *t)
{
    if (p->target_count >= GPU_MAX_TARGETS) {
        bind_error(p, "more than 8 render targets");
        return;
    }
    p->targets[p->target_count++] = t;
}

void gpu_pass_targets(gpu_pass *p, gpu_texture *t, int count)
{
    for (int i = 0; i < count; ++i) gpu_pass_target(p, &t[i]);
}

void gpu_pass_image(gpu_pass *p, int slot, gpu_texture *t, gpu_access access)
{
    if (slot < 0 || slot >= GPU_MAX_IMAGES) {
        bind_error(p, "image slot outside 0..7");
        return;
    }
    p->targets[slot] = t;
    p->access[slot] = access;
    if (slot >= p->target_count) p->target_count = slot + 1;
}

void gpu_pass_buffer(gpu_pass *p, int slot, gpu_buffer *b)
{
    if (slot < 0 || slot >= GPU_MAX_BUFFERS) {
        bind_error(p, "buffer slot outside 0..7");
        return;
    }
    p->buffers[slot] = b;
}

void gpu_pass_uniforms(gpu_pass *p, const void *block, size_t size)
{
    p->uniforms = block;
    p->uniform_size = size;
}

/* Copies the block to the ring's next aligned offset and binds that range to binding 0. */
static glevo_status bind_uniforms(gpu_pass *p)
{
    struct glevo_context *ctx = gl_current;
    size_t want = p->program->uniform_size;
    if (p->uniform_size != want)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s: uniform block of %zu bytes given, the "
                          "program's pass_uniforms has %zu", p->name, p->uniform_size, want);
    if (!want) return GLEVO_OK;
    size_t align = (size_t)ctx->uniform_align;
    size_t at = (ctx->uniform_head + align - 1) / align * align;
    glBindBuffer(GL_UNIFORM_BUFFER, ctx->uniform_ring);
    if (at + want > UNIFORM_RING_BYTES) {
        glBufferData(GL_UNIFORM_BUFFER, UNIFORM_RING_BYTES, NULL, GL_STREAM_DRAW);
        at = 0;
    }
    glBufferSubData(GL_UNIFORM_BUFFER, (GLintptr)at, (GLsizeiptr)want, p->uniforms);
    glBindBufferRange(GL_UNIFORM_BUFFER, 0, ctx->uniform_ring, (GLintptr)at, (GLsizeiptr)want);
    ctx->uniform_head = at + want;
    return GLEVO_OK;
}

glevo_status gpu_bind_common(gpu_pass *p)
{
    if (!p->program || !p->program->id)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s has no program", p->name);
    if (p->error) return glevo_fail(GLEVO_ERR_INVALID, "pass %s: %s", p->name, p->error);
    /* A program of a batch is checked at its first use (program_batch.c). */
    if (p->program->pending && p->program->context == gl_current) {
        glevo_status st = gpu_program_ready(p->program);
        if (st) return st;
    }
    /* GL names belong to the context they were made on, and a context is current on one
     * thread at a time: an engine stepped on another thread is refused here, not drawn with
     * names that mean nothing there (or crash the driver). */
    if (p->program->context != gl_current)
        return glevo_fail(GLEVO_ERR_GL, "pass %s: %s", p->name,
                          gl_current ? "the GL context current on this thread is not the one its "
                                       "engine was made on (glevo_context_make_current)"
                                     : "no glevo GL context is current on this thread (a context "
                                       "is current on one thread at a time: call "
                                       "glevo_context_make_current on this thread first)");
    gpu_fence_compute_writes();
    glUseProgram(p->program->id);
    for (int i = 0; i < p->program->sampler_units; ++i) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, p->inputs[i] ? p->inputs[i]->id : 0);
    }
    for (int i = p->program->sampler_units; i < GPU_MAX_INPUTS; ++i)
        if (p->inputs[i])
            return glevo_fail(GLEVO_ERR_INVALID, "pass %s: input slot %d is beyond the "
                              "program's %d sampler units", p->name, i,
                              p->program->sampler_units);
    return bind_uniforms(p);
}
