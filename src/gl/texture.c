/* Float and integer textures as data arrays: nearest sampling, no mipmaps, read with
 * texelFetch. RGBA32F holds four genes per texel, as on the 2008 GeForce. */
#include <stdio.h>
#include <string.h>

#include "gl/context_internal.h"

typedef struct format_desc { GLenum internal, format, type; int channels; } format_desc;

static format_desc describe(gpu_format f)
{
    switch (f) {
    case GPU_RGBA32F: return (format_desc){GL_RGBA32F, GL_RGBA, GL_FLOAT, 4};
    case GPU_R32F: return (format_desc){GL_R32F, GL_RED, GL_FLOAT, 1};
    case GPU_RG32F: return (format_desc){GL_RG32F, GL_RG, GL_FLOAT, 2};
    case GPU_R32UI: return (format_desc){GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 1};
    case GPU_RGBA32UI: return (format_desc){GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 4};
    }
    return (format_desc){GL_RGBA32F, GL_RGBA, GL_FLOAT, 4};
}

int gpu_format_channels(gpu_format f) { return describe(f).channels; }
size_t gpu_format_texel_bytes(gpu_format f) { return (size_t)describe(f).channels * 4; }

/* The client format of a float host array of `channels` channels a texel. */
static GLenum float_format(int channels)
{
    return channels == 1 ? GL_RED : channels == 2 ? GL_RG : GL_RGBA;
}

/* Channels a texel has in t's host arrays (a texture made by hand counts as not narrow). */
static int host_channels_of(const gpu_texture *t)
{
    return t->host_channels ? t->host_channels : describe(t->format).channels;
}

glevo_status gpu_texture_create(gpu_texture *t, int w, int h, gpu_format f, const void *data)
{
    return gpu_texture_create_narrow(t, w, h, f, describe(f).channels, data);
}

glevo_status gpu_texture_create_narrow(gpu_texture *t, int w, int h, gpu_format f,
                                       int host_channels, const void *data)
{
    memset(t, 0, sizeof *t);
    format_desc d = describe(f);
    if (host_channels != d.channels && (d.type != GL_FLOAT || host_channels != 4))
        return glevo_fail(GLEVO_ERR_INVALID, "a texture of %d channels cannot have host "
                          "texels of %d", d.channels, host_channels);
    int max_size = gpu_context_limits()->max_texture_size;
    if (w < 1 || h < 1 || w > max_size || h > max_size)
        return glevo_fail(GLEVO_ERR_INVALID, "texture size %dx%d is outside 1..%d", w, h,
                          max_size);
    glGenTextures(1, &t->id);
    glBindTexture(GL_TEXTURE_2D, t->id);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)d.internal, w, h, 0, d.format, d.type, NULL);
    t->width = w;
    t->height = h;
    t->format = f;
    t->host_channels = host_channels;
    glevo_status st = gpu_check("texture create");
    if (st != GLEVO_OK) {
        gpu_texture_destroy(t);
        return glevo_fail(st, "could not create a %dx%d texture (out of GPU memory?): %s", w, h,
                          glevo_last_error());
    }
    if (data) return gpu_texture_upload(t, data);
    /* glTexImage2D(NULL) leaves contents undefined: clear, so no texel ever holds garbage. */
    return gpu_texture_clear(t);
}

void gpu_texture_destroy(gpu_texture *t)
{
    if (t->id) gpu_fbo_forget(t->id);
    if (t->id) glDeleteTextures(1, &t->id);
    t->id = 0;
}

/* Uploads go through a pixel-unpack buffer: the host copy is a plain buffer write and the
 * texel conversion happens on the GPU. From client memory, NVIDIA's driver converted R32UI
 * texels on the CPU at about 0.5 GB/s (134 KB took ~0.3 ms on the H100: most of DSMGA-II's
 * BuildDSM time per generation). The buffer is orphaned at every upload, so no upload waits
 * for draws still reading the last one. */
glevo_status gpu_texture_upload_rect(gpu_texture *t, int x, int y, int w, int h,
                                     const void *data)
{
    struct glevo_context *ctx = gl_current;
    format_desc d = describe(t->format);
    if (host_channels_of(t) != d.channels) {
        d.format = float_format(host_channels_of(t)); /* GL drops the channels it does not store */
        d.channels = host_channels_of(t);
    }
    gpu_fence_compute_writes();
    size_t bytes = (size_t)w * (size_t)h * (size_t)d.channels * 4;
    if (!ctx->unpack_buffer) glGenBuffers(1, &ctx->unpack_buffer);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ctx->unpack_buffer);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)bytes, data, GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_2D, t->id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, w, h, d.format, d.type, (const void *)0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    return gpu_check("texture upload");
}

glevo_status gpu_texture_upload(gpu_texture *t, const void *data)
{
    return gpu_texture_upload_rect(t, 0, 0, t->width, t->height, data);
}

glevo_status gpu_texture_read_rect(const gpu_texture *t, int x, int y, int w, int h, void *out)
{
    /* Read through a framebuffer: glGetTexImage is not in GLES, and this keeps one path. */
    gpu_fence_compute_writes();
    gpu_texture *target = (gpu_texture *)t;
    GLuint fbo = gpu_fbo_for(&target, 1);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    format_desc d = describe(t->format);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    int host = host_channels_of(t);
    glReadPixels(x, y, w, h, host != d.channels ? float_format(host) : d.format, d.type, out);
    /* GL fills a channel the texture lacks with 0, alpha with 1: the host layout holds 0. */
    float *texels = out;
    for (size_t i = 0; host != d.channels && i < (size_t)w * (size_t)h; ++i)
        for (int c = d.channels; c < host; ++c) texels[i * (size_t)host + (size_t)c] = 0.0f;
    /* A context lost to a reset (e.g. a driver watchdog on a long draw) leaves the buffer
     * unwritten without any other error: check here, where results come back. */
    GLenum reset = glGetGraphicsResetStatus ? glGetGraphicsResetStatus() : GL_NO_ERROR;
    if (reset != GL_NO_ERROR) {
        while (glGetError() != GL_NO_ERROR) {
        }
        return glevo_fail(GLEVO_ERR_GL, "texture readback: the GL context was lost (reset status "
                          "0x%x)", reset);
    }
    return gpu_check("texture readback");
}

glevo_status gpu_texture_read(const gpu_texture *t, void *out)
{
    return gpu_texture_read_rect(t, 0, 0, t->width, t->height, out);
}
