/* The one GL context current on this thread (gl_current, glevo's one hidden global) and what
 * reads it alone: the log sink that writes through it, its limits and its pending GL error.
 * Below everything else in src/gl, which reads them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gl/context_internal.h"

_Thread_local struct glevo_context *gl_current;

void gpu_log(int level, const char *fmt, ...)
{
    struct glevo_context *ctx = gl_current;
    if (!ctx || !ctx->log) return;
    char message[16384];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    size_t n = strlen(message);
    while (n > 0 && message[n - 1] == '\n') message[--n] = '\0';
    ctx->log(ctx->log_user, (glevo_log_level)level, message);
}

const gpu_limits *gpu_context_limits(void)
{
    static const gpu_limits none = {0};
    return gl_current ? &gl_current->limits : &none;
}

const char *gl_error_name(GLenum e)
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
