/* Batches of program builds (gpu_program_batch_begin/end): the builds of a batch are started
 * (compile and link issued) and checked later, so that a driver that offers
 * GL_KHR_parallel_shader_compile builds them together on its threads, not one after another.
 * A GP run's create builds five programs of 0.04-0.8 s each on the H200 when the shader cache
 * is cold (docs/performance.md, first run). A pending program is checked at the batch's end
 * or at its first use (gpu_program_ready, from the passes), whichever comes first; several
 * programs of the batch with one composed text share one build, as program_cache.c's do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"

typedef struct pending_program {
    gpu_program **targets;  /* who asked for it: filled at the check */
    int target_count, target_cap;
    gpu_program_desc desc;  /* what the checks compare with: its tables copied */
    gpu_slot *tables[3];
    shader_text texts[2];
    GLuint shaders[2];
    int stages;
    char *key;
    double t0;
} pending_program;

/* A copy of a slot table that outlives the caller's (names included); NULL for none. */
static gpu_slot *copy_slots(const gpu_slot *t, bool *ok)
{
    if (!t) return NULL;
    int n = 0;
    while (t[n].name) n++;
    gpu_slot *c = calloc((size_t)n + 1, sizeof *c);
    for (int i = 0; c && i < n; ++i) {
        c[i] = t[i];
        c[i].name = strdup(t[i].name);
        if (!c[i].name) *ok = false;
    }
    if (!c) *ok = false;
    return c;
}

static void free_slots(gpu_slot *t)
{
    for (int i = 0; t && t[i].name; ++i) free((char *)t[i].name);
    free(t);
}

static void free_pending(pending_program *e)
{
    for (int i = 0; i < 3; ++i) free_slots(e->tables[i]);
    for (int i = 0; i < e->stages; ++i) shader_text_free(&e->texts[i]);
    free(e->targets);
    free(e->key);
    free(e);
}

static bool add_target(pending_program *e, gpu_program *p)
{
    if (e->target_count == e->target_cap) {
        int cap = e->target_cap ? 2 * e->target_cap : 4;
        gpu_program **t = realloc(e->targets, (size_t)cap * sizeof *t);
        if (!t) return false;
        e->targets = t, e->target_cap = cap;
    }
    e->targets[e->target_count++] = p;
    p->pending = true;
    return true;
}

static void remove_entry(struct glevo_context *ctx, int i)
{
    ctx->pending[i] = ctx->pending[--ctx->pending_count];
}

bool program_batch_defer(struct glevo_context *ctx, gpu_program *p, const gpu_program_desc *d,
                         shader_text *texts, int stages, const GLuint *shaders, char *key,
                         double t0)
{
    if (!ctx || ctx->batch_depth == 0) return false;
    if (ctx->pending_count == ctx->pending_cap) {
        int cap = ctx->pending_cap ? 2 * ctx->pending_cap : 16;
        pending_program **grown = realloc(ctx->pending, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        ctx->pending = grown, ctx->pending_cap = cap;
    }
    pending_program *e = calloc(1, sizeof *e);
    if (!e) return false;
    bool ok = true;
    e->desc = *d;
    e->desc.samplers = e->tables[0] = copy_slots(d->samplers, &ok);
    e->desc.images = e->tables[1] = copy_slots(d->images, &ok);
    e->desc.buffers = e->tables[2] = copy_slots(d->buffers, &ok);
    e->desc.defines = NULL, e->desc.aliases = NULL; /* composed already */
    e->desc.name = NULL, e->desc.compute = e->desc.fragment = e->desc.vertex = NULL;
    if (!ok || !add_target(e, p)) {
        e->stages = 0; /* the texts stay the caller's */
        free_pending(e);
        p->pending = false;
        return false;
    }
    memcpy(e->texts, texts, (size_t)stages * sizeof *texts);
    memcpy(e->shaders, shaders, (size_t)stages * sizeof *shaders);
    e->stages = stages, e->key = key, e->t0 = t0;
    ctx->pending[ctx->pending_count++] = e;
    return true;
}

bool program_batch_join(struct glevo_context *ctx, const char *key, gpu_program *p)
{
    for (int i = 0; ctx && i < ctx->pending_count; ++i) {
        pending_program *e = ctx->pending[i];
        if (strcmp(e->key, key)) continue;
        gpu_program *first = e->targets[0];
        if (!add_target(e, p)) return false;
        p->id = first->id, p->uniform_size = first->uniform_size;
        return true;
    }
    return false;
}

/* Checks entry i's build, fills every program that asked for it, and forgets the entry. */
static glevo_status finish_entry(struct glevo_context *ctx, int i)
{
    pending_program *e = ctx->pending[i];
    remove_entry(ctx, i);
    gpu_program *first = e->targets[0];
    glevo_status st = program_finish(first, &e->desc, e->texts, e->stages, e->shaders, false,
                                     e->key, e->t0, false);
    e->stages = 0; /* program_finish freed the texts */
    for (int k = 1; k < e->target_count; ++k) {
        gpu_program *p = e->targets[k];
        *p = *first;
        /* The others share the cached program as program_cache_find's users do. */
        if (!st) {
            gpu_program shared;
            program_cache_find(ctx, e->key, &shared);
        }
    }
    free_pending(e);
    return st;
}

static int find_entry(const struct glevo_context *ctx, GLuint id)
{
    for (int i = 0; i < ctx->pending_count; ++i)
        if (ctx->pending[i]->targets[0]->id == id) return i;
    return -1;
}

glevo_status gpu_program_ready(gpu_program *p)
{
    if (!p->pending) return GLEVO_OK;
    struct glevo_context *ctx = (struct glevo_context *)p->context;
    int i = ctx ? find_entry(ctx, p->id) : -1;
    if (i < 0) { /* a copy of a program that was checked since */
        p->pending = false;
        return GLEVO_OK;
    }
    pending_program *e = ctx->pending[i];
    bool asked = false;
    for (int k = 0; k < e->target_count; ++k) asked |= e->targets[k] == p;
    glevo_status st = finish_entry(ctx, i);
    if (!asked) p->pending = false, p->id = st ? 0 : p->id;
    return st;
}

void program_batch_drop(struct glevo_context *ctx, gpu_program *p)
{
    int i = find_entry(ctx, p->id);
    p->pending = false;
    if (i < 0) return;
    pending_program *e = ctx->pending[i];
    int k = 0;
    while (k < e->target_count && e->targets[k] != p) k++;
    if (k == e->target_count) return;
    memmove(&e->targets[k], &e->targets[k + 1], (size_t)(e->target_count - k - 1) * sizeof *e->targets);
    if (--e->target_count > 0) return;
    remove_entry(ctx, i);
    for (int s = 0; s < e->stages; ++s) glDeleteShader(e->shaders[s]);
    glDeleteProgram(p->id);
    free_pending(e);
}

void gpu_program_batch_begin(void)
{
    if (!gl_current) return;
    if (gl_current->batch_depth++ == 0) {
        /* Let the driver use its threads (its default may be none). */
        if (GLEW_KHR_parallel_shader_compile) glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu);
        else if (GLEW_ARB_parallel_shader_compile) glMaxShaderCompilerThreadsARB(0xFFFFFFFFu);
    }
}

glevo_status gpu_program_batch_end(void)
{
    struct glevo_context *ctx = gl_current;
    if (!ctx || ctx->batch_depth == 0 || --ctx->batch_depth > 0) return GLEVO_OK;
    glevo_status first = GLEVO_OK;
    char why[1024] = "";
    /* In the order they were asked for: the first failure is the one reported. */
    while (ctx->pending_count > 0) {
        int oldest = 0;
        for (int i = 1; i < ctx->pending_count; ++i)
            if (ctx->pending[i]->t0 < ctx->pending[oldest]->t0) oldest = i;
        glevo_status st = finish_entry(ctx, oldest);
        if (st && !first) {
            first = st;
            snprintf(why, sizeof why, "%s", glevo_last_error());
        }
    }
    return first ? glevo_fail(first, "%s", why) : GLEVO_OK;
}

void program_batch_free(struct glevo_context *ctx)
{
    /* The context's programs and shaders die with it (and the engines that asked for them
     * may be gone already: they are not touched). */
    for (int i = 0; i < ctx->pending_count; ++i) free_pending(ctx->pending[i]);
    free(ctx->pending);
    ctx->pending = NULL;
    ctx->pending_count = ctx->pending_cap = ctx->batch_depth = 0;
}
