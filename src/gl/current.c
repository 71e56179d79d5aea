/* The one GL context current on this thread (gl_current, glevo's one hidden global) and the
 * log sink that writes through it: below everything else in src/gl, which reads them. */
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
