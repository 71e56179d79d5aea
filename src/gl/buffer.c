/* Shader-storage buffers for the compute driver: plain GL buffer objects, uploaded and read
 * back like textures (readback fenced after compute writes).
 *
 * Zeros are uploaded, never written with glClearBufferData: on the H100 (NVIDIA 580.159.04)
 * a glBufferSubData issued right after glClearBufferData on the same buffer was lost (the
 * clear landed after it), so a planted buffer read back as zeros and gp_breed_in's "no bad
 * program" -1 became 0 (every GPU fitness pass then reported program 1's run marks wrong).
 * Uploads are ordered among themselves on every driver. */
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"

glevo_status gpu_buffer_create(gpu_buffer *b, size_t size, const void *data)
{
    memset(b, 0, sizeof *b);
    if (size == 0) size = 16;
    glGenBuffers(1, &b->id);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->id);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)size, data, GL_DYNAMIC_COPY);
    b->size = size;
    glevo_status st = gpu_check("buffer create");
    if (st) {
        gpu_buffer_destroy(b);
        return glevo_fail(st, "could not create a buffer of %zu bytes (out of GPU memory?): %s",
                          size, glevo_last_error());
    }
    /* Like textures, a new buffer never holds garbage. */
    return data ? GLEVO_OK : gpu_buffer_clear(b);
}

void gpu_buffer_destroy(gpu_buffer *b)
{
    if (b->id) glDeleteBuffers(1, &b->id);
    b->id = 0;
    b->size = 0;
}

glevo_status gpu_buffer_upload(gpu_buffer *b, size_t offset, size_t size, const void *data)
{
    if (offset + size > b->size)
        return glevo_fail(GLEVO_ERR_INVALID, "buffer upload of %zu bytes at %zu: the buffer "
                          "has %zu", size, offset, b->size);
    gpu_fence_compute_writes();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->id);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, data);
    return gpu_check("buffer upload");
}

glevo_status gpu_buffer_clear(gpu_buffer *b)
{
    enum { CHUNK = 1 << 20 };
    size_t chunk = b->size < CHUNK ? b->size : CHUNK;
    void *zeros = calloc(1, chunk);
    if (!zeros) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory clearing a GPU buffer");
    gpu_fence_compute_writes();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->id);
    for (size_t at = 0; at < b->size; at += chunk)
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)at,
                        (GLsizeiptr)(b->size - at < chunk ? b->size - at : chunk), zeros);
    free(zeros);
    return gpu_check("buffer clear");
}

glevo_status gpu_buffer_read(const gpu_buffer *b, size_t offset, size_t size, void *out)
{
    if (offset + size > b->size)
        return glevo_fail(GLEVO_ERR_INVALID, "buffer read of %zu bytes at %zu: the buffer has "
                          "%zu", size, offset, b->size);
    gpu_fence_compute_writes();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, b->id);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)offset, (GLsizeiptr)size, out);
    GLenum reset = glGetGraphicsResetStatus ? glGetGraphicsResetStatus() : GL_NO_ERROR;
    if (reset != GL_NO_ERROR)
        return glevo_fail(GLEVO_ERR_GL, "buffer readback: the GL context was lost (reset status "
                          "0x%x)", reset);
    return gpu_check("buffer readback");
}
