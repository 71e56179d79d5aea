/* The fragment driver: two fused passes per generation (shaders/de/trial.glsl, select.glsl),
 * ping-ponging an R32F population texture and an RG32F fitness texture; best/1 strategies
 * add a GPU min/max reduction per generation whose 1x1 result the passes read, so no
 * generation ever waits for the host. Best-so-far is read back only when asked (every K
 * generations for target checks, and at the end). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "glevo/context.h"
#include "gl/gpgpu.h"
#include "reduce/reduce.h"

/* OpenGL 4.1 guarantees 16384 x 16384 textures; staying inside keeps every GL 4.1 device. */
#define DE_MAX_TEXTURE 16384

/* The texture-unit table every DE program shares (shaders/de/common.glsl declares them all). */
static const gpu_slot de_samplers[] = {{"t_population", 0}, {"t_bounds", 0}, {"t_best", 0},
                                       {"t_fitness", 0}, {"t_choice", 0}, {0}};
enum { SLOT_POPULATION, SLOT_BOUNDS, SLOT_BEST, SLOT_FITNESS, SLOT_CHOICE };

typedef struct de_gpu {
    int per_row, rows;              /* P individuals per texture row */
    gpu_program evaluate, trial, select;
    gpu_texture pop[2], fit[2], bounds;
    gpu_texture choice;             /* RGBA32UI per individual: (r1, r2, r3, jrand | L << 16) */
    int cur;                        /* index of the current population/fitness */
    gpu_reducer reducer;
    bool have_reducer;
    const gpu_texture *best;        /* 1x1 reduction result for best/1 strategies */
} de_gpu;

static bool uses_best(const de_config *c)
{
    return c->strategy == GLEVO_DE_BEST_1_BIN || c->strategy == GLEVO_DE_CURRENT_TO_BEST_1_BIN;
}

static de_uniforms uniforms(const glevo_de *de, uint32_t g)
{
    const de_config *c = &de->c;
    const de_gpu *e = de->impl;
    return (de_uniforms){.key = {c->seed, GLEVO_DE_STREAM}, .generation = g, .np = c->np,
                         .dim = c->dim, .per_row = e->per_row, .F = c->F, .CR = c->CR,
                         .shift_add = c->shift_add};
}

static glevo_status gpu_init(glevo_de *de, const float *y)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    size_t n = (size_t)e->per_row * (size_t)e->rows * (size_t)c->dim;
    float *padded = calloc(n, sizeof(float));
    if (!padded) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    /* Row-major texture rows hold P consecutive individuals: the host array maps directly. */
    memcpy(padded, y, sizeof(float) * (size_t)c->np * (size_t)c->dim);
    glevo_status st = gpu_texture_upload(&e->pop[e->cur], padded);
    free(padded);
    if (st != GLEVO_OK) return st;
    gpu_pass p = {.name = "de.evaluate", .program = &e->evaluate};
    de_uniforms u = uniforms(de, 0);
    gpu_pass_input(&p, SLOT_POPULATION, &e->pop[e->cur]);
    gpu_pass_target(&p, &e->fit[e->cur]);
    gpu_pass_uniforms(&p, &u, sizeof u);
    return gpu_pass_draw(&p);
}

static glevo_status gpu_generation(glevo_de *de, uint32_t g)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    int cur = e->cur, nxt = 1 - e->cur;
    glevo_status st;
    if (uses_best(c)) {
        st = gpu_reduce(&e->reducer,
                        c->problem->direction == GLEVO_MAXIMIZE ? REDUCE_MAX : REDUCE_MIN,
                        &e->fit[cur], 0, &e->best);
        if (st != GLEVO_OK) return st;
    }
    de_uniforms u = uniforms(de, g);
    gpu_pass t = {.name = "de.trial", .program = &e->trial};
    gpu_pass_input(&t, SLOT_POPULATION, &e->pop[cur]);
    gpu_pass_input(&t, SLOT_FITNESS, &e->fit[cur]);
    gpu_pass_input(&t, SLOT_BOUNDS, &e->bounds);
    if (uses_best(c)) gpu_pass_input(&t, SLOT_BEST, e->best);
    gpu_pass_target(&t, &e->fit[nxt]);
    gpu_pass_target(&t, &e->choice);
    gpu_pass_uniforms(&t, &u, sizeof u);
    st = gpu_pass_draw(&t);
    if (st != GLEVO_OK) return st;

    gpu_pass s = {.name = "de.select", .program = &e->select};
    gpu_pass_input(&s, SLOT_POPULATION, &e->pop[cur]);
    gpu_pass_input(&s, SLOT_FITNESS, &e->fit[nxt]);
    gpu_pass_input(&s, SLOT_CHOICE, &e->choice);
    gpu_pass_input(&s, SLOT_BOUNDS, &e->bounds);
    if (uses_best(c)) gpu_pass_input(&s, SLOT_BEST, e->best);
    gpu_pass_target(&s, &e->pop[nxt]);
    gpu_pass_uniforms(&s, &u, sizeof u);
    st = gpu_pass_draw(&s);
    if (st != GLEVO_OK) return st;
    e->cur = nxt;
    return GLEVO_OK;
}

static glevo_status gpu_best(glevo_de *de, float *y, float *fitness)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    const gpu_texture *result;
    glevo_status st = gpu_reduce(&e->reducer,
                                 c->problem->direction == GLEVO_MAXIMIZE ? REDUCE_MAX : REDUCE_MIN,
                                 &e->fit[e->cur], 0, &result);
    float b[4];
    if (st == GLEVO_OK) st = gpu_texture_read(result, b);
    if (st != GLEVO_OK) return st;
    int i = (int)b[2] * e->per_row + (int)b[1];
    if (i < 0 || i >= c->np) i = 0; /* all NaN: any individual is as good */
    *fitness = b[0];
    return gpu_texture_read_rect(&e->pop[e->cur], (i % e->per_row) * c->dim, i / e->per_row,
                                 c->dim, 1, y);
}

static glevo_status gpu_population(glevo_de *de, float *y, float *fitness)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    size_t slots = (size_t)e->per_row * (size_t)e->rows;
    float *all = malloc(sizeof(float) * slots * (size_t)c->dim);
    float *f2 = malloc(sizeof(float) * slots * 2);
    glevo_status st = all && f2 ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (st == GLEVO_OK) st = gpu_texture_read(&e->pop[e->cur], all);
    if (st == GLEVO_OK) st = gpu_texture_read(&e->fit[e->cur], f2);
    if (st == GLEVO_OK) {
        memcpy(y, all, sizeof(float) * (size_t)c->np * (size_t)c->dim);
        for (int i = 0; i < c->np; ++i) fitness[i] = f2[2 * i];
    }
    free(all);
    free(f2);
    return st;
}

static void gpu_destroy(glevo_de *de)
{
    de_gpu *e = de->impl;
    if (!e) return;
    gpu_program_destroy(&e->evaluate);
    gpu_program_destroy(&e->trial);
    gpu_program_destroy(&e->select);
    for (int k = 0; k < 2; ++k) {
        gpu_texture_destroy(&e->pop[k]);
        gpu_texture_destroy(&e->fit[k]);
    }
    gpu_texture_destroy(&e->bounds);
    gpu_texture_destroy(&e->choice);
    if (e->have_reducer) gpu_reducer_destroy(&e->reducer);
    free(e);
    de->impl = NULL;
}

static const de_engine_ops fragment_ops = {gpu_init, gpu_generation, gpu_best, gpu_population,
                                           gpu_destroy};

/* P individuals per row: about square in texels (P*D ~ NP/P), within the 4.1 size limit. */
static int choose_per_row(int np, int dim)
{
    int p = (int)ceil(sqrt((double)np / (double)dim));
    int min_p = (np + DE_MAX_TEXTURE - 1) / DE_MAX_TEXTURE;
    if (p < min_p) p = min_p;
    if (p < 1) p = 1;
    if (p > np) p = np;
    return p;
}

glevo_status de_fragment_create(glevo_de *de)
{
    const de_config *c = &de->c;
    de_gpu *e = calloc(1, sizeof *e);
    if (!e) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    de->impl = e;
    de->ops = &fragment_ops;
    e->per_row = choose_per_row(c->np, c->dim);
    e->rows = (c->np + e->per_row - 1) / e->per_row;
    /* jrand and the exp length share a 32-bit word as 16-bit halves in the choice texture. */
    if ((long long)e->per_row * c->dim > DE_MAX_TEXTURE || e->rows > DE_MAX_TEXTURE ||
        c->dim > 65535) {
        gpu_destroy(de);
        de->ops = NULL;
        return glevo_fail(GLEVO_ERR_UNSUPPORTED,
                          "DE population %d x %d does not fit %d x %d textures", c->np, c->dim,
                          DE_MAX_TEXTURE, DE_MAX_TEXTURE);
    }
    snprintf(de->renderer, sizeof de->renderer, "%s", glevo_context_renderer(NULL));

    char defines[256];
    de_shader_defines(c, defines, sizeof defines);
    const char *aliases[] = {"problem", c->problem->snippet, NULL};
    gpu_program_desc d = {.name = "de.evaluate", .fragment = "de/evaluate.glsl",
                          .defines = defines, .aliases = aliases, .samplers = de_samplers,
                          .uniform_size = sizeof(de_uniforms)};
    glevo_status st = gpu_program_build(&e->evaluate, &d);
    d.name = "de.trial", d.fragment = "de/trial.glsl";
    if (st == GLEVO_OK) st = gpu_program_build(&e->trial, &d);
    d.name = "de.select", d.fragment = "de/select.glsl";
    if (st == GLEVO_OK) st = gpu_program_build(&e->select, &d);
    int W = e->per_row * c->dim;
    for (int k = 0; k < 2 && st == GLEVO_OK; ++k) {
        st = gpu_texture_create(&e->pop[k], W, e->rows, GPU_R32F, NULL);
        if (st == GLEVO_OK) st = gpu_texture_create(&e->fit[k], e->per_row, e->rows, GPU_RG32F, NULL);
    }
    if (st == GLEVO_OK)
        st = gpu_texture_create(&e->choice, e->per_row, e->rows, GPU_RGBA32UI, NULL);
    if (st == GLEVO_OK) {
        float *b = malloc(sizeof(float) * 2 * (size_t)c->dim);
        if (!b) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        else {
            for (int j = 0; j < c->dim; ++j) {
                b[2 * j] = c->lo[j];
                b[2 * j + 1] = c->hi[j];
            }
            st = gpu_texture_create(&e->bounds, c->dim, 1, GPU_RG32F, b);
            free(b);
        }
    }
    if (st == GLEVO_OK) {
        st = gpu_reducer_create(&e->reducer, e->per_row, e->rows, false);
        e->have_reducer = st == GLEVO_OK;
    }
    if (st != GLEVO_OK) {
        gpu_destroy(de);
        de->ops = NULL;
    }
    return st;
}
