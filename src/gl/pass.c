/* A pass: bind the targets as one FBO (cached per target set), bind inputs to texture units
 * under their sampler names, set uniforms, draw one full-screen triangle. GL errors are
 * checked once per pass and reported with the pass name. */
#include <stdio.h>
#include <string.h>

#include "gl/context_internal.h"
#include "gl/gpgpu.h"

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

glevo_status gpu_check(const char *where)
{
    GLenum e = glGetError();
    if (e == GL_NO_ERROR) return GLEVO_OK;
    while (glGetError() != GL_NO_ERROR) {
    }
    return glevo_fail(GLEVO_ERR_GL, "%s: %s (0x%x)", where, gl_error_name(e), e);
}

void gpu_finish(void) { glFinish(); }

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
    for (int k = 0; k < 8; ++k)
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

void gpu_pass_input(gpu_pass *p, const char *sampler_name, const gpu_texture *t)
{
    p->inputs[p->input_count] = t;
    p->input_names[p->input_count] = sampler_name;
    p->input_count++;
}

void gpu_pass_target(gpu_pass *p, gpu_texture *t) { p->targets[p->target_count++] = t; }

static GLint location(gpu_pass *p, const char *name)
{
    gpu_program *prog = p->program;
    for (int i = 0; i < prog->cache_count; ++i)
        if (!strcmp(prog->cache[i].name, name))
            return prog->cache[i].loc;
    GLint loc = glGetUniformLocation(prog->id, name);
    if (prog->cache_count < (int)(sizeof prog->cache / sizeof prog->cache[0])) {
        snprintf(prog->cache[prog->cache_count].name, sizeof prog->cache[0].name, "%s", name);
        prog->cache[prog->cache_count].loc = loc;
        prog->cache_count++;
    }
    return loc;
}

glevo_status gpu_pass_begin(gpu_pass *p)
{
    if (p->target_count < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "pass %s has no render target", p->name);
    for (int k = 1; k < p->target_count; ++k)
        if (p->targets[k]->width != p->targets[0]->width ||
            p->targets[k]->height != p->targets[0]->height)
            return glevo_fail(GLEVO_ERR_INVALID, "pass %s: render targets differ in size",
                              p->name);
    gpu_fbo_for(p->targets, p->target_count);
    if (p->w == 0) {
        p->w = p->targets[0]->width;
        p->h = p->targets[0]->height;
    }
    glViewport(p->x, p->y, p->w, p->h);
    glUseProgram(p->program->id);
    for (int i = 0; i < p->input_count; ++i) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, p->inputs[i]->id);
        glUniform1i(location(p, p->input_names[i]), i);
    }
    return GLEVO_OK;
}

void gpu_uniform_1f(gpu_pass *p, const char *n, float v) { glUniform1f(location(p, n), v); }
void gpu_uniform_2f(gpu_pass *p, const char *n, float a, float b)
{
    glUniform2f(location(p, n), a, b);
}
void gpu_uniform_4f(gpu_pass *p, const char *n, float a, float b, float c, float d)
{
    glUniform4f(location(p, n), a, b, c, d);
}
void gpu_uniform_1i(gpu_pass *p, const char *n, int v) { glUniform1i(location(p, n), v); }
void gpu_uniform_2i(gpu_pass *p, const char *n, int a, int b)
{
    glUniform2i(location(p, n), a, b);
}
void gpu_uniform_1ui(gpu_pass *p, const char *n, uint32_t v) { glUniform1ui(location(p, n), v); }
void gpu_uniform_2ui(gpu_pass *p, const char *n, uint32_t a, uint32_t b)
{
    glUniform2ui(location(p, n), a, b);
}
void gpu_uniform_4ui(gpu_pass *p, const char *n, const uint32_t v[4])
{
    glUniform4ui(location(p, n), v[0], v[1], v[2], v[3]);
}
void gpu_uniform_1fv(gpu_pass *p, const char *n, int count, const float *v)
{
    glUniform1fv(location(p, n), count, v);
}
void gpu_uniform_1iv(gpu_pass *p, const char *n, int count, const int *v)
{
    glUniform1iv(location(p, n), count, v);
}
void gpu_uniform_key(gpu_pass *p, uint32_t seed, uint32_t stream)
{
    gpu_uniform_2ui(p, "u_key", seed, stream);
}

glevo_status gpu_pass_draw(gpu_pass *p)
{
    if (gl_current->debug) gl_debug_set_pass(p->name);
    bool profiling = gpu_profile_enabled();
    if (profiling) gpu_profile_begin(p->name);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (profiling) gpu_profile_end();
    return gpu_check(p->name);
}
