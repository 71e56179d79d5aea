/* The fragment driver (render-to-texture, the 2008 way): bind the targets as one FBO (cached
 * per target set), the inputs and the uniform block (bind.c), set viewport and blending from
 * the pass, draw one full-screen triangle. GL errors are checked once per pass and reported
 * with the pass name. */
#include <string.h>

#include "gl/context_internal.h"

/* FBOs are cached by their attachment list: re-attaching every pass costs validation work
 * in drivers, and ping-pong reuses the same few combinations every generation. */
GLuint gpu_fbo_for(gpu_texture *const *targets, int count)
{
    struct glevo_context *ctx = gl_current;
    fbo_entry *victim = &ctx->fbos[0];
    ctx->fbo_clock++;
    for (int i = 0; i < FBO_CACHE_SIZE; ++i) {
        fbo_entry *e = &ctx->fbos[i];
        if (e->fbo && e->count == count) {
            int same = 1;
            for (int k = 0; k < count && same; ++k) same = e->attachments[k] == targets[k]->id;
            if (same) {
                e->last_use = ctx->fbo_clock;
                glBindFramebuffer(GL_FRAMEBUFFER, e->fbo);
                return e->fbo;
            }
        }
        if (!e->fbo || e->last_use < victim->last_use) victim = e;
    }
    if (!victim->fbo) glGenFramebuffers(1, &victim->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, victim->fbo);
    GLenum buffers[GPU_MAX_TARGETS];
    for (int k = 0; k < GPU_MAX_TARGETS; ++k)
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)k, GL_TEXTURE_2D,
                               k < count ? targets[k]->id : 0, 0);
    for (int k = 0; k < count; ++k) {
        buffers[k] = GL_COLOR_ATTACHMENT0 + (GLenum)k;
        victim->attachments[k] = targets[k]->id;
    }
    glDrawBuffers(count, buffers);
    victim->count = count;
    victim->last_use = ctx->fbo_clock;
    return victim->fbo;
}

/* A deleted texture's id can be reused by GL: forget cached FBOs that mention it. */
void gpu_fbo_forget(GLuint texture)
{
    struct glevo_context *ctx = gl_current;
    if (!ctx) return;
    for (int i = 0; i < FBO_CACHE_SIZE; ++i) {
        fbo_entry *e = &ctx->fbos[i];
        for (int k = 0; k < e->count; ++k)
            if (e->fbo && e->attachments[k] == texture) {
                glDeleteFramebuffers(1, &e->fbo);
                memset(e, 0, sizeof *e);
                break;
            }
    }
}

glevo_status gpu_texture_clear(gpu_texture *t)
{
    gpu_fence_compute_writes();
    gpu_texture *targets[1] = {t};
    gpu_fbo_for(targets, 1);
    if (t->format == GPU_R32UI || t->format == GPU_RGBA32UI) {
        const GLuint zero[4] = {0, 0, 0, 0};
        glClearBufferuiv(GL_COLOR, 0, zero);
    } else {
        const GLfloat zero[4] = {0, 0, 0, 0};
        glClearBufferfv(GL_COLOR, 0, zero);
    }
    return gpu_check("texture clear");
}

glevo_status gpu_pass_draw(gpu_pass *p)
{
    if (p->program && p->program->compute)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s: a compute program cannot be drawn",
                          p->name);
    if (p->target_count < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s has no render target", p->name);
    for (int k = 0; k < p->target_count; ++k)
        if (!p->targets[k] || p->targets[k]->width != p->targets[0]->width ||
            p->targets[k]->height != p->targets[0]->height)
            return glevo_fail(GLEVO_ERR_INVALID, "pass %s: render target %d is missing or "
                              "differs in size from target 0", p->name, k);
    glevo_status st = gpu_bind_common(p);
    if (st) return st;
    gpu_fbo_for(p->targets, p->target_count);
    if (p->w == 0) {
        p->x = p->y = 0;
        p->w = p->targets[0]->width;
        p->h = p->targets[0]->height;
    }
    glViewport(p->x, p->y, p->w, p->h);
    if (p->blend == GPU_BLEND_ADD) {
        glBlendFunc(GL_ONE, GL_ONE);
        glBlendEquation(GL_FUNC_ADD);
        glEnable(GL_BLEND);
    }
    if (gl_current->debug) gl_debug_set_pass(p->name);
    bool profiling = gpu_profile_enabled();
    if (profiling) gpu_profile_begin(p->name);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (profiling) gpu_profile_end();
    if (p->blend != GPU_BLEND_NONE) glDisable(GL_BLEND);
    return gpu_check(p->name);
}
