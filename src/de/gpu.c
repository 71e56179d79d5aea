/* What differential evolution's two GPU drivers share: the texture layout (P individuals per
 * row of an R32F population texture, RG32F fitness), ping-pong pairs, the bounds texture, the
 * min/max reducer (fragment passes or compute dispatches), the first evaluation and every
 * readback. fragment.c and compute.c only order the work of a generation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/gpu_internal.h"
#include "glevo/context.h"

/* OpenGL 4.1 guarantees 16384 x 16384 textures; staying inside keeps every GL 4.1 device. */
#define DE_MAX_TEXTURE 16384

const gpu_slot de_samplers[] = {{"t_population", 0}, {"t_bounds", 0}, {"t_best", 0},
                                {"t_fitness", 0}, {"t_choice", 0}, {0}};
static const gpu_slot evaluate_images[] = {{"i_fitness", 0}, {0}};

bool de_uses_best(const de_config *c)
{
    return c->strategy == GLEVO_DE_BEST_1_BIN || c->strategy == GLEVO_DE_CURRENT_TO_BEST_1_BIN;
}

de_uniforms de_gpu_uniforms(const glevo_de *de, uint32_t g)
{
    const de_config *c = &de->c;
    const de_gpu *e = de->impl;
    return (de_uniforms){.key = {c->seed, GLEVO_DE_STREAM}, .generation = g, .np = c->np,
                         .dim = c->dim, .per_row = e->per_row, .F = c->F, .CR = c->CR,
                         .shift_add = c->shift_add};
}

void de_gpu_program_desc(const glevo_de *de, gpu_program_desc *d, char *defines, size_t size,
                         const char **aliases)
{
    de_shader_defines(&de->c, defines, size);
    aliases[0] = "problem";
    aliases[1] = de->c.problem->snippet;
    aliases[2] = NULL;
    *d = (gpu_program_desc){.defines = defines, .aliases = aliases, .samplers = de_samplers,
                            .uniform_size = sizeof(de_uniforms)};
}

glevo_status de_gpu_reduce_best(glevo_de *de)
{
    de_gpu *e = de->impl;
    return gpu_reduce(&e->reducer,
                      de->c.problem->direction == GLEVO_MAXIMIZE ? REDUCE_MAX : REDUCE_MIN,
                      &e->fit[e->cur], 0, &e->best);
}

glevo_status de_gpu_generation_begin(glevo_de *de, uint32_t g, de_uniforms *u)
{
    *u = de_gpu_uniforms(de, g);
    return de_uses_best(&de->c) ? de_gpu_reduce_best(de) : GLEVO_OK;
}

void de_gpu_bind_current(glevo_de *de, gpu_pass *p)
{
    de_gpu *e = de->impl;
    gpu_pass_input(p, SLOT_POPULATION, &e->pop[e->cur]);
    gpu_pass_input(p, SLOT_FITNESS, &e->fit[e->cur]);
    gpu_pass_input(p, SLOT_BOUNDS, &e->bounds);
    if (de_uses_best(&de->c)) gpu_pass_input(p, SLOT_BEST, e->best);
}

glevo_status de_gpu_init(glevo_de *de, const float *y)
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
    de_uniforms u = de_gpu_uniforms(de, 0);
    gpu_pass_input(&p, SLOT_POPULATION, &e->pop[e->cur]);
    gpu_pass_uniforms(&p, &u, sizeof u);
    if (!e->compute) {
        gpu_pass_target(&p, &e->fit[e->cur]);
        return gpu_pass_draw(&p);
    }
    gpu_pass_image(&p, 0, &e->fit[e->cur], GPU_WRITE_ONLY);
    p.groups[0] = gpu_groups(e->per_row, 8);
    p.groups[1] = gpu_groups(e->rows, 8);
    return gpu_pass_dispatch(&p);
}

glevo_status de_gpu_best(glevo_de *de, float *y, float *fitness)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    float b[4];
    glevo_status st = de_gpu_reduce_best(de);
    if (st == GLEVO_OK) st = gpu_texture_read(e->best, b);
    if (st != GLEVO_OK) return st;
    int i = (int)b[2] * e->per_row + (int)b[1];
    if (i < 0 || i >= c->np) i = 0; /* all NaN: any individual is as good */
    *fitness = b[0];
    return gpu_texture_read_rect(&e->pop[e->cur], (i % e->per_row) * c->dim, i / e->per_row,
                                 c->dim, 1, y);
}

glevo_status de_gpu_population(glevo_de *de, float *y, float *fitness)
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

glevo_status de_gpu_restore(glevo_de *de, const float *y, const float *fitness)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    glevo_status st = de->ops->init(de, y);
    float *f2 = malloc(sizeof(float) * 2 * (size_t)e->per_row * (size_t)e->rows);
    if (!st && !f2) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    /* Only the fitness (red) of the current texture is read by the next generation. */
    if (!st) st = gpu_texture_read(&e->fit[e->cur], f2);
    if (!st) {
        for (int i = 0; i < c->np; ++i) f2[2 * i] = fitness[i], f2[2 * i + 1] = 0.0f;
        st = gpu_texture_upload(&e->fit[e->cur], f2);
    }
    free(f2);
    return st;
}

/* Migration: the fitness texture is small (one texel per individual), an individual's genes
 * are dim texels of one row, so a migration moves a few texels, never the population. */
glevo_status de_gpu_read_fitness(glevo_de *de, float *fitness)
{
    de_gpu *e = de->impl;
    float *f2 = malloc(sizeof(float) * 2 * (size_t)e->per_row * (size_t)e->rows);
    if (!f2) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = gpu_texture_read(&e->fit[e->cur], f2);
    for (int i = 0; i < de->c.np && st == GLEVO_OK; ++i) fitness[i] = f2[2 * i];
    free(f2);
    return st;
}

glevo_status de_gpu_read_genes(glevo_de *de, int count, const int *index, float *y)
{
    de_gpu *e = de->impl;
    int D = de->c.dim;
    glevo_status st = GLEVO_OK;
    for (int k = 0; k < count && st == GLEVO_OK; ++k)
        st = gpu_texture_read_rect(&e->pop[e->cur], (index[k] % e->per_row) * D,
                                   index[k] / e->per_row, D, 1, y + (size_t)k * (size_t)D);
    return st;
}

/* The fitness texel's second channel is the last trial's accept flag, which only the
 * generation's own trial step writes and reads: 0, as after the first evaluation. */
glevo_status de_gpu_write_genes(glevo_de *de, int count, const int *index, const float *y,
                                const float *fitness)
{
    de_gpu *e = de->impl;
    int D = de->c.dim;
    glevo_status st = GLEVO_OK;
    for (int k = 0; k < count && st == GLEVO_OK; ++k) {
        int i = index[k];
        st = gpu_texture_upload_rect(&e->pop[e->cur], (i % e->per_row) * D, i / e->per_row, D,
                                     1, y + (size_t)k * (size_t)D);
        if (st == GLEVO_OK) {
            float f[2] = {fitness[k], 0.0f};
            st = gpu_texture_upload_rect(&e->fit[e->cur], i % e->per_row, i / e->per_row, 1, 1, f);
        }
    }
    return st;
}

void de_gpu_destroy(glevo_de *de)
{
    de_gpu *e = de->impl;
    if (!e) return;
    gpu_program_destroy(&e->evaluate);
    gpu_program_destroy(&e->trial);
    gpu_program_destroy(&e->select);
    gpu_program_destroy(&e->evolve);
    gpu_program_destroy(&e->resident);
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

static glevo_status create_textures(glevo_de *de)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    int W = e->per_row * c->dim;
    glevo_status st = GLEVO_OK;
    for (int k = 0; k < 2 && st == GLEVO_OK; ++k) {
        st = gpu_texture_create(&e->pop[k], W, e->rows, GPU_R32F, NULL);
        if (st == GLEVO_OK) st = gpu_texture_create(&e->fit[k], e->per_row, e->rows, GPU_RG32F, NULL);
    }
    if (st == GLEVO_OK && !e->compute)
        st = gpu_texture_create(&e->choice, e->per_row, e->rows, GPU_RGBA32UI, NULL);
    if (st != GLEVO_OK) return st;
    float *b = malloc(sizeof(float) * 2 * (size_t)c->dim);
    if (!b) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int j = 0; j < c->dim; ++j) {
        b[2 * j] = c->lo[j];
        b[2 * j + 1] = c->hi[j];
    }
    st = gpu_texture_create(&e->bounds, c->dim, 1, GPU_RG32F, b);
    free(b);
    return st;
}

glevo_status de_gpu_create(glevo_de *de, bool compute, const de_engine_ops *ops)
{
    const de_config *c = &de->c;
    de_gpu *e = calloc(1, sizeof *e);
    if (!e) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    de->impl = e;
    de->ops = ops;
    e->compute = compute;
    e->per_row = choose_per_row(c->np, c->dim);
    e->rows = (c->np + e->per_row - 1) / e->per_row;
    glevo_status st = GLEVO_OK;
    /* jrand and the exp length share a 32-bit word as 16-bit halves of a choice. */
    if ((long long)e->per_row * c->dim > DE_MAX_TEXTURE || e->rows > DE_MAX_TEXTURE ||
        c->dim > 65535)
        st = glevo_fail(GLEVO_ERR_UNSUPPORTED,
                        "DE population %d x %d does not fit %d x %d textures", c->np, c->dim,
                        DE_MAX_TEXTURE, DE_MAX_TEXTURE);
    snprintf(de->renderer, sizeof de->renderer, "%s", glevo_context_renderer(NULL));

    char defines[256];
    const char *aliases[3];
    gpu_program_desc d;
    de_gpu_program_desc(de, &d, defines, sizeof defines, aliases);
    d.name = "de.evaluate";
    if (compute) {
        d.compute = "de/evaluate.glsl";
        d.images = evaluate_images;
    } else {
        d.fragment = "de/evaluate.glsl";
    }
    if (st == GLEVO_OK) st = gpu_program_build(&e->evaluate, &d);
    if (st == GLEVO_OK) st = create_textures(de);
    if (st == GLEVO_OK) {
        st = gpu_reducer_create(&e->reducer, e->per_row, e->rows, compute);
        e->have_reducer = st == GLEVO_OK;
    }
    if (st != GLEVO_OK) {
        de_gpu_destroy(de);
        de->ops = NULL;
    }
    return st;
}
