/* glevo_context: create (EGL headless or GLFW window), describe (a device's too), destroy.
 * The shared part after a context is current: GLEW loading, the entry-point check, the empty
 * VAO that core profiles require for attribute-less full-screen draws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"
#include "core/args.h"
#include "core/memory.h"

glevo_status glevo_context_create(const glevo_context_params *params, glevo_context **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
    glevo_context_params defaults = {0};
    if (!params) params = &defaults;
    *out = NULL;
    if (params->device_plus_one < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_context_params.device_plus_one %d is "
                          "negative", params->device_plus_one);
    struct glevo_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory creating a GL context");
    static _Atomic unsigned long long serials;
    ctx->serial = ++serials;
    ctx->profile = params->profile;
    ctx->log = params->log;
    ctx->log_user = params->log_user;
    const char *env_debug = getenv("GLEVO_GL_DEBUG");
    ctx->debug = params->debug || (env_debug && *env_debug == '1');
    glevo_status st = params->window ? glfw_context_open(ctx, params)
                                     : egl_context_open(ctx, params->device_plus_one);
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

static void query_limits(struct glevo_context *ctx)
{
    gpu_limits *l = &ctx->limits;
    glGetIntegerv(GL_MAJOR_VERSION, &ctx->gl_major);
    glGetIntegerv(GL_MINOR_VERSION, &ctx->gl_minor);
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &l->max_texture_size);
    glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &l->max_texture_units);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    if (renderer && strstr(renderer, "llvmpipe")) {
        l->max_loop_iterations = 65535;
        l->max_texture_bytes = 3LL << 29; /* 1.5 GiB: gpgpu.h */
    }
    l->software = ctx->software || (renderer && (strstr(renderer, "llvmpipe") ||
                                                 strstr(renderer, "softpipe")));
    GLint extensions = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &extensions);
    for (GLint i = 0; i < extensions; ++i) {
        const char *e = (const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && !strcmp(e, "GL_KHR_shader_subgroup")) {
            /* GL_SUBGROUP_SIZE_KHR, _SUPPORTED_STAGES_KHR, _SUPPORTED_FEATURES_KHR (GLEW
             * may predate the extension); the compute stage (GL_COMPUTE_SHADER_BIT) and
             * the basic feature (bit 0) */
            GLint size = 0, stages = 0, features = 0;
            glGetIntegerv(0x9532, &size);
            glGetIntegerv(0x9533, &stages);
            glGetIntegerv(0x9534, &features);
            if ((stages & 0x20) && (features & 1)) l->subgroup_size = size;
            l->subgroup_shuffle = l->subgroup_size && (features & 0x10); /* _FEATURE_SHUFFLE_BIT */
        }
        if (e && !strcmp(e, "GL_NV_shader_thread_group")) l->sm_ids = true;
        if (e && !strcmp(e, "GL_NVX_gpu_memory_info")) {
            GLint kib = 0; /* GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX */
            glGetIntegerv(0x9049, &kib);
            l->device_memory = (long long)kib * 1024;
        }
    }
    l->compute = (ctx->gl_major > 4 || (ctx->gl_major == 4 && ctx->gl_minor >= 3)) &&
                 glDispatchCompute && glBindImageTexture && glMemoryBarrier;
    if (!l->compute) return;
    glGetIntegerv(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &l->max_compute_texture_units);
    for (GLuint i = 0; i < 3; ++i)
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &l->max_work_group_size[i]);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l->max_work_group_invocations);
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &l->max_shared_bytes);
    for (GLuint i = 0; i < 3; ++i)
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &l->max_work_group_count[i]);
}

glevo_status gl_context_finish_setup(struct glevo_context *ctx)
{
    glewExperimental = GL_TRUE;
    GLenum glew = glewInit();
    /* Debian's GLEW is built for GLX: under EGL without X it returns
     * GLEW_ERROR_NO_GLX_DISPLAY yet has loaded the entry points (docs/performance.md, "The machines"). */
    bool headless = ctx->window == NULL;
    if (glew != GLEW_OK && !(glew == GLEW_ERROR_NO_GLX_DISPLAY && headless))
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
        {(const void *)glBindBufferRange, "glBindBufferRange"},
        {(const void *)glUniformBlockBinding, "glUniformBlockBinding"},
    };
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; ++i)
        if (!needed[i].fn)
            return glevo_fail(GLEVO_ERR_GL, "OpenGL entry point %s is missing", needed[i].name);
    query_limits(ctx);
    if (ctx->gl_major < 4 || (ctx->gl_major == 4 && ctx->gl_minor < 1))
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "OpenGL %d.%d is too old: glevo needs 4.1 core",
                          ctx->gl_major, ctx->gl_minor);
    if (ctx->debug) gl_debug_enable();
    glGenVertexArrays(1, &ctx->empty_vao);
    glBindVertexArray(ctx->empty_vao);
    glGenBuffers(1, &ctx->uniform_ring);
    glBindBuffer(GL_UNIFORM_BUFFER, ctx->uniform_ring);
    glBufferData(GL_UNIFORM_BUFFER, UNIFORM_RING_BYTES, NULL, GL_STREAM_DRAW);
    glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &ctx->uniform_align);
    if (ctx->uniform_align < 16) ctx->uniform_align = 16;
    /* Render targets hold data, not colours: no clamping, no blending, no dithering. */
    glDisable(GL_DITHER);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    return gpu_check("context set-up");
}

void gl_context_release_objects(struct glevo_context *ctx)
{
    for (int i = 0; i < FBO_CACHE_SIZE; ++i)
        if (ctx->fbos[i].fbo) glDeleteFramebuffers(1, &ctx->fbos[i].fbo);
    if (ctx->query_count) glDeleteQueries(ctx->query_count, ctx->queries);
    if (ctx->empty_vao) glDeleteVertexArrays(1, &ctx->empty_vao);
    if (ctx->uniform_ring) glDeleteBuffers(1, &ctx->uniform_ring);
    if (ctx->unpack_buffer) glDeleteBuffers(1, &ctx->unpack_buffer);
    program_batch_free(ctx);
    program_cache_free(ctx);
}

void glevo_context_destroy(glevo_context *ctx)
{
    if (!ctx) return;
    if (ctx->platform) {
        ctx->platform->make_current(ctx);
        gl_current = ctx;
        gl_context_release_objects(ctx);
        ctx->platform->close(ctx);
    }
    gl_current = NULL;
    free(ctx);
}

glevo_status glevo_context_make_current(glevo_context *ctx)
{
    glevo_clear_error();
    ARG_NOT_NULL(ctx);
    glevo_status st = ctx->platform->make_current(ctx);
    if (st == GLEVO_OK) gl_current = ctx;
    return st;
}

void glevo_context_swap(glevo_context *ctx)
{
    ARG_NOT_NULL_OR(ctx, );
    if (ctx) ctx->platform->swap(ctx);
}

static void copy_gl_string(char *dst, size_t size, GLenum name)
{
    const char *s = (const char *)glGetString(name);
    snprintf(dst, size, "%s", s ? s : "?");
}

const char *glevo_context_renderer(const glevo_context *ctx)
{
    if (!gl_current) return "none"; /* no context current: GL cannot be asked */
    (void)ctx;
    const char *s = (const char *)glGetString(GL_RENDERER);
    return s ? s : "?";
}

void glevo_context_describe(const glevo_context *ctx, glevo_device_info *out)
{
    ARG_NOT_NULL_OR(ctx, );
    ARG_NOT_NULL_OR(out, );
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

void glevo_context_features(const glevo_context *ctx, glevo_features *out)
{
    ARG_NOT_NULL_OR(out, );
    memset(out, 0, sizeof *out);
    if (!ctx) ctx = gl_current;
    if (!ctx) return;
    const gpu_limits *l = &ctx->limits;
    out->gl_major = ctx->gl_major;
    out->gl_minor = ctx->gl_minor;
    out->compute = l->compute;
    out->software = l->software;
    out->max_texture_size = l->max_texture_size;
    glGetIntegerv(GL_MAX_DRAW_BUFFERS, &out->max_draw_buffers);
    if (!l->compute) return;
    for (int i = 0; i < 3; ++i) {
        out->max_work_group_size[i] = l->max_work_group_size[i];
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, (GLuint)i, &out->max_work_group_count[i]);
    }
    out->max_work_group_invocations = l->max_work_group_invocations;
    out->max_shared_bytes = l->max_shared_bytes;
    GLint64 ssbo = 0; /* 64-bit: NVIDIA reports the whole video memory's worth */
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &ssbo);
    out->max_ssbo_bytes = (long long)ssbo;
    out->subgroup_size = l->subgroup_size;
}

unsigned long long gpu_context_serial(void) { return gl_current ? gl_current->serial : 0; }

glevo_status gpu_context_check(unsigned long long serial, const char *function)
{
    if (gl_current && gl_current->serial == serial) return GLEVO_OK;
    /* GLEVO_ERR_GL and the words of the pass-level check (bind.c), which this one precedes. */
    return glevo_fail(GLEVO_ERR_GL, "%s: %s", function,
                      gl_current ? "the GL context current on this thread is not the one this "
                                   "engine was made on (it was destroyed, or another is current: "
                                   "glevo_context_make_current)"
                                 : "no glevo GL context is current on this thread (its context "
                                   "was destroyed, or this is another thread: call "
                                   "glevo_context_make_current on this thread first)");
}

glevo_status gpu_memory_check(double bytes, double largest_texture, const char *request)
{
    const gpu_limits *l = gpu_context_limits();
    char need[32], have[32];
    if (l->max_texture_bytes > 0 && largest_texture > (double)l->max_texture_bytes) {
        memory_format(largest_texture, need, sizeof need);
        memory_format((double)l->max_texture_bytes, have, sizeof have);
        return glevo_fail(GLEVO_ERR_INVALID, "%s needs textures of %s, above the %s one texture "
                          "may hold on this renderer", request, need, have);
    }
    if (l->software) return memory_check_host(bytes, request);
    if (l->device_memory <= 0 || bytes <= (double)l->device_memory) return GLEVO_OK;
    memory_format(bytes, need, sizeof need);
    memory_format((double)l->device_memory, have, sizeof have);
    return glevo_fail(GLEVO_ERR_INVALID, "%s needs %s of GPU memory, above the %s the device "
                      "reports free (GL_NVX_gpu_memory_info)", request, need, have);
}

void *glevo_context_window(glevo_context *ctx) {
    ARG_NOT_NULL_OR(ctx, NULL);
    return ctx->window;
}

void glevo_context_finish(glevo_context *ctx)
{
    if (!ctx) ctx = gl_current;
    if (ctx) gpu_finish();
}

glevo_status glevo_egl_device_describe(int index, glevo_device_info *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    out->index = index;
    glevo_status st = egl_device_identify(index, out);
    if (st) return st;
    glevo_context *ctx = NULL;
    glevo_context_params params = {.device_plus_one = index + 1};
    glevo_context *previous = gl_current;
    st = glevo_context_create(&params, &ctx);
    if (st != GLEVO_OK) {
        snprintf(out->error, sizeof out->error, "%s", glevo_last_error());
        return GLEVO_OK; /* listed, but not usable */
    }
    glevo_context_describe(ctx, out);
    glevo_context_destroy(ctx);
    if (previous) glevo_context_make_current(previous);
    return GLEVO_OK;
}
