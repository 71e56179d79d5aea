/* Programs shared within a context: a pass program is compiled and linked once per composed
 * text, however many engines ask for it (a GP portfolio's searches each have an evaluator and
 * a breeder, and built the same programs four or five times; a cold compile on NVIDIA is
 * 0.3-1 s a program). Keyed by the pass name and the whole composed source, so two programs
 * share only when the driver would be given the same text. Also the context's record of what
 * it built and how long each build took (glevo_context_builds, `glevo bench compile`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"
#include "core/args.h"

bool program_cache_find(struct glevo_context *ctx, const char *key, gpu_program *p)
{
    for (int i = 0; i < ctx->program_count; ++i)
        if (!strcmp(ctx->programs[i].key, key)) {
            *p = ctx->programs[i].program;
            ctx->programs[i].refs++;
            return true;
        }
    return false;
}

/* Room for one more element in *items (count used of *cap, doubling); false when out of
 * memory, *items unchanged. */
static bool room_for_one(void **items, int count, int *cap, size_t size)
{
    if (count < *cap) return true;
    int grown = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, (size_t)grown * size);
    if (!p) return false;
    *items = p;
    *cap = grown;
    return true;
}

void program_build_record(struct glevo_context *ctx, const char *name, double seconds)
{
    if (!room_for_one((void **)&ctx->builds, ctx->build_count, &ctx->build_cap,
                      sizeof *ctx->builds))
        return;
    glevo_program_build *r = &ctx->builds[ctx->build_count++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->seconds = seconds;
}

void program_cache_add(struct glevo_context *ctx, const char *key, const gpu_program *p)
{
    if (!room_for_one((void **)&ctx->programs, ctx->program_count, &ctx->program_cap,
                      sizeof *ctx->programs))
        return;
    char *k = strdup(key);
    if (!k) return;
    ctx->programs[ctx->program_count++] = (program_cache_entry){k, *p, 1};
}

bool program_cache_release(struct glevo_context *ctx, GLuint id)
{
    for (int i = 0; i < ctx->program_count; ++i) {
        program_cache_entry *e = &ctx->programs[i];
        if (e->program.id != id) continue;
        if (--e->refs > 0) return true;
        free(e->key);
        *e = ctx->programs[--ctx->program_count];
        return false;
    }
    return false;
}

void program_cache_free(struct glevo_context *ctx)
{
    /* The context's programs die with it; only the keys are ours. */
    for (int i = 0; i < ctx->program_count; ++i) free(ctx->programs[i].key);
    free(ctx->programs);
    free(ctx->builds);
    ctx->programs = NULL;
    ctx->builds = NULL;
    ctx->program_count = ctx->program_cap = ctx->build_count = ctx->build_cap = 0;
}

int glevo_context_builds(const glevo_context *ctx, glevo_program_build *out, int capacity)
{
    if (!ctx) ctx = gl_current;
    if (!ctx) return 0;
    for (int i = 0; out && i < ctx->build_count && i < capacity; ++i) out[i] = ctx->builds[i];
    return ctx->build_count;
}
