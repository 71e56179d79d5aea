/* glevo_context: create (EGL headless or GLFW window), describe, destroy. The shared part
 * after a context is current: GLEW loading, the entry-point check, the empty VAO that core
 * profiles require for attribute-less full-screen draws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"

_Thread_local struct glevo_context *gl_current;

glevo_status glevo_context_create(const glevo_context_params *params, glevo_context **out)
{
    glevo_context_params defaults = {0};
    if (!params) params = &defaults;
    *out = NULL;
    struct glevo_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory creating a GL context");
    ctx->profile = params->profile;
    int device_plus_one = params->device_plus_one ? params->device_plus_one
                                                  : (params->device > 0 ? params->device + 1 : 0);
    const char *env_debug = getenv("GLEVO_GL_DEBUG");
    ctx->debug = params->debug || (env_debug && *env_debug == '1');
    glevo_status st = params->window ? glfw_context_open(ctx, params)
                                     : egl_context_open(ctx, device_plus_one);
    if (st != GLEVO_OK) {
        free(ctx);
        return st;
    }
    gl_current = ctx;
    st = gl_context_finish_setup(ctx);
    if (st != GLEVO_OK) {
        glevo_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return GLEVO_OK;
}

glevo_status gl_context_finish_setup(struct glevo_context *ctx)
{
    glewExperimental = GL_TRUE;
    GLenum glew = glewInit();
    /* Debian's GLEW is built for GLX: under EGL without X it returns
     * GLEW_ERROR_NO_GLX_DISPLAY yet has loaded the entry points (DESIGN.md, measured facts). */
    if (glew != GLEW_OK && !(glew == GLEW_ERROR_NO_GLX_DISPLAY && !ctx->is_window))
        return glevo_fail(GLEVO_ERR_GL, "GLEW could not load OpenGL entry points (code %u: %s)",
                          glew, (const char *)glewGetErrorString(glew));
    while (glGetError() != GL_NO_ERROR) {
    }
    const struct { const void *fn; const char *name; } needed[] = {
        {(const void *)glGenFramebuffers, "glGenFramebuffers"},
        {(const void *)glCreateShader, "glCreateShader"},
        {(const void *)glGenVertexArrays, "glGenVertexArrays"},
        {(const void *)glDrawBuffers, "glDrawBuffers"},
        {(const void *)glTexImage2D, "glTexImage2D"},
        {(const void *)glGenQueries, "glGenQueries"},
        {(const void *)glUniform1ui, "glUniform1ui"},
    };
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; ++i)
        if (!needed[i].fn)
            return glevo_fail(GLEVO_ERR_GL, "OpenGL entry point %s is missing", needed[i].name);
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major < 4 || (major == 4 && minor < 1))
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "OpenGL %d.%d is too old: glevo needs 4.1 core",
                          major, minor);
    if (ctx->debug) gl_debug_enable();
    glGenVertexArrays(1, &ctx->empty_vao);
    glBindVertexArray(ctx->empty_vao);
    /* Render targets hold data, not colours: no clamping, no blending, no dithering. */
    glDisable(GL_DITHER);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    return GLEVO_OK;
}

void gl_context_release_objects(struct glevo_context *ctx)
{
    for (int i = 0; i < FBO_CACHE_SIZE; ++i)
        if (ctx->fbos[i].fbo) glDeleteFramebuffers(1, &ctx->fbos[i].fbo);
    if (ctx->query_count) glDeleteQueries(ctx->query_count, ctx->queries);
    if (ctx->empty_vao) glDeleteVertexArrays(1, &ctx->empty_vao);
}

void glevo_context_destroy(glevo_context *ctx)
{
    if (!ctx) return;
    gl_current = ctx;
    gl_context_release_objects(ctx);
    if (ctx->is_window)
        glfw_context_close(ctx);
    else
        egl_context_close(ctx);
    gl_current = NULL;
    free(ctx);
}

glevo_status glevo_context_make_current(glevo_context *ctx)
{
    if (ctx->is_window) {
        extern void glfw_make_current(struct glevo_context *);
        glfw_make_current(ctx);
    } else if (!eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx->egl_context)) {
        return glevo_fail(GLEVO_ERR_GL, "eglMakeCurrent failed (0x%x)", eglGetError());
    }
    gl_current = ctx;
    return GLEVO_OK;
}

static void copy_gl_string(char *dst, size_t size, GLenum name)
{
    const char *s = (const char *)glGetString(name);
    snprintf(dst, size, "%s", s ? s : "?");
}

const char *glevo_context_renderer(const glevo_context *ctx)
{
    (void)ctx;
    const char *s = (const char *)glGetString(GL_RENDERER);
    return s ? s : "?";
}

void glevo_context_describe(const glevo_context *ctx, glevo_device_info *out)
{
    memset(out, 0, sizeof *out);
    out->index = ctx->device_index;
    snprintf(out->name, sizeof out->name, "%s", ctx->device_name);
    out->software = ctx->software;
    copy_gl_string(out->vendor, sizeof out->vendor, GL_VENDOR);
    copy_gl_string(out->renderer, sizeof out->renderer, GL_RENDERER);
    copy_gl_string(out->gl_version, sizeof out->gl_version, GL_VERSION);
    copy_gl_string(out->glsl_version, sizeof out->glsl_version, GL_SHADING_LANGUAGE_VERSION);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &out->max_texture_size);
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &out->max_draw_buffers);
    out->usable = true;
}

void *glevo_context_window(glevo_context *ctx) { return ctx->is_window ? ctx->window : NULL; }

void glevo_context_finish(glevo_context *ctx)
{
    if (ctx) glFinish();
}
