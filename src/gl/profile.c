/* --profile: GPU time per pass through GL_TIME_ELAPSED queries. Results are collected only
 * when the query pool fills or the table is printed, so profiling adds no sync per pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"
#include "gl/gpgpu.h"
#include "core/args.h"

bool gpu_profile_enabled(void) { return gl_current && gl_current->profile; }

static int entry_for(struct glevo_context *ctx, const char *name)
{
    for (int i = 0; i < ctx->profile_count; ++i)
        if (!strcmp(ctx->profile_entries[i].name, name)) return i;
    if (ctx->profile_count == PROFILE_MAX_PASSES) return PROFILE_MAX_PASSES - 1;
    snprintf(ctx->profile_entries[ctx->profile_count].name,
             sizeof ctx->profile_entries[0].name, "%s", name);
    return ctx->profile_count++;
}

void profile_resolve(struct glevo_context *ctx)
{
    for (int i = 0; i < ctx->query_count; ++i) {
        if (ctx->query_entry[i] < 0) continue;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(ctx->queries[i], GL_QUERY_RESULT, &ns);
        ctx->profile_entries[ctx->query_entry[i]].total_ms += (double)ns * 1e-6;
        ctx->profile_entries[ctx->query_entry[i]].draws++;
        ctx->query_entry[i] = -1;
    }
}

static int free_query(struct glevo_context *ctx)
{
    for (int i = 0; i < ctx->query_count; ++i)
        if (ctx->query_entry[i] < 0) return i;
    if (ctx->query_count < PROFILE_MAX_QUERIES) {
        glGenQueries(1, &ctx->queries[ctx->query_count]);
        ctx->query_entry[ctx->query_count] = -1;
        return ctx->query_count++;
    }
    profile_resolve(ctx);
    return 0;
}

void gpu_profile_begin(const char *pass_name)
{
    struct glevo_context *ctx = gl_current;
    int q = free_query(ctx);
    ctx->query_entry[q] = entry_for(ctx, pass_name);
    glBeginQuery(GL_TIME_ELAPSED, ctx->queries[q]);
    ctx->query_open = true;
}

void gpu_profile_end(void)
{
    if (!gl_current->query_open) return;
    glEndQuery(GL_TIME_ELAPSED);
    gl_current->query_open = false;
}

/* The table goes to `stdio_file`, or to the context's log callback when it is NULL (the
 * library itself never writes to stderr). */
void glevo_context_print_profile(glevo_context *ctx, void *stdio_file)
{
    ARG_NOT_NULL_OR(ctx, );
    if (!ctx->profile) return;
    profile_resolve(ctx);
    char *text = NULL;
    size_t size = 0;
    FILE *out = stdio_file ? stdio_file : open_memstream(&text, &size);
    if (!out) return;
    double total = 0;
    for (int i = 0; i < ctx->profile_count; ++i) total += ctx->profile_entries[i].total_ms;
    fprintf(out, "%-28s %10s %12s %10s %7s\n", "pass", "draws", "total ms", "us/draw", "share");
    for (int i = 0; i < ctx->profile_count; ++i) {
        profile_entry *e = &ctx->profile_entries[i];
        fprintf(out, "%-28s %10lld %12.3f %10.2f %6.1f%%\n", e->name, e->draws, e->total_ms,
                e->draws ? e->total_ms * 1e3 / (double)e->draws : 0.0,
                total > 0 ? 100.0 * e->total_ms / total : 0.0);
    }
    fprintf(out, "%-28s %10s %12.3f\n", "all passes", "", total);
    if (stdio_file) return;
    fclose(out);
    struct glevo_context *previous = gl_current;
    gl_current = ctx;
    gpu_log(GLEVO_LOG_INFO, "%s", text);
    gl_current = previous;
    free(text);
}
