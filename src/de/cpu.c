/* The CPU engine: the paper's sequential DE (sDE, Qin et al. 2012 section 2) built from the
 * C twins of the two fused passes (trial.h, select.h), drawing the same Philox stream as the GPU engine. Float
 * arithmetic throughout, the same operations as shaders/de/trial.glsl and select.glsl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "de/select.h"
#include "de/trial.h"

typedef struct de_cpu {
    float *y, *fit;        /* current population and fitness */
    float *next, *next_fit;
    float *trial, *z;
} de_cpu;

static glevo_status cpu_init(glevo_de *de, const float *y)
{
    de_cpu *e = de->impl;
    const de_config *c = &de->c;
    size_t D = (size_t)c->dim;
    memcpy(e->y, y, sizeof(float) * D * (size_t)c->np);
    for (size_t i = 0; i < (size_t)c->np; ++i) {
        for (size_t j = 0; j < D; ++j) e->z[j] = e->y[i * D + j] + c->shift_add;
        e->fit[i] = glevo_problem_eval_float(c->problem, e->z, c->dim);
    }
    return GLEVO_OK;
}

static void cpu_generation(glevo_de *de, uint32_t g)
{
    de_cpu *e = de->impl;
    const de_config *c = &de->c;
    int D = c->dim;
    uint32_t best = c->strategy == GLEVO_DE_BEST_1_BIN ||
                            c->strategy == GLEVO_DE_CURRENT_TO_BEST_1_BIN
                        ? de_best_index(c, e->fit)
                        : 0;
    for (uint32_t i = 0; i < (uint32_t)c->np; ++i) {
        de_indices r = de_stream_indices(c->seed, i, g, (uint32_t)c->np, (uint32_t)D);
        int L = c->strategy == GLEVO_DE_RAND_1_EXP ? de_exp_length(c, i, g) : 0;
        for (int j = 0; j < D; ++j) {
            e->trial[j] = de_trial_gene(c, e->y, i, g, r, best, L, j);
            e->z[j] = e->trial[j] + c->shift_add;
        }
        float ft = glevo_problem_eval_float(c->problem, e->z, D);
        float *dst = &e->next[(size_t)i * (size_t)D];
        if (de_accept(c, ft, e->fit[i])) {
            memcpy(dst, e->trial, sizeof(float) * (size_t)D);
            e->next_fit[i] = ft;
        } else {
            memcpy(dst, &e->y[(size_t)i * (size_t)D], sizeof(float) * (size_t)D);
            e->next_fit[i] = e->fit[i];
        }
    }
    float *t = e->y;
    e->y = e->next;
    e->next = t;
    t = e->fit;
    e->fit = e->next_fit;
    e->next_fit = t;
}

static glevo_status cpu_generations(glevo_de *de, uint32_t g, uint32_t count)
{
    for (uint32_t k = 0; k < count; ++k) cpu_generation(de, g + k);
    return GLEVO_OK;
}

static glevo_status cpu_best(glevo_de *de, float *y, float *fitness)
{
    de_cpu *e = de->impl;
    uint32_t b = de_best_index(&de->c, e->fit);
    memcpy(y, &e->y[(size_t)b * (size_t)de->c.dim], sizeof(float) * (size_t)de->c.dim);
    *fitness = e->fit[b];
    return GLEVO_OK;
}

static glevo_status cpu_population(glevo_de *de, float *y, float *fitness)
{
    de_cpu *e = de->impl;
    memcpy(y, e->y, sizeof(float) * (size_t)de->c.np * (size_t)de->c.dim);
    memcpy(fitness, e->fit, sizeof(float) * (size_t)de->c.np);
    return GLEVO_OK;
}

static glevo_status cpu_restore(glevo_de *de, const float *y, const float *fitness)
{
    de_cpu *e = de->impl;
    memcpy(e->y, y, sizeof(float) * (size_t)de->c.np * (size_t)de->c.dim);
    memcpy(e->fit, fitness, sizeof(float) * (size_t)de->c.np);
    return GLEVO_OK;
}

static void cpu_destroy(glevo_de *de)
{
    de_cpu *e = de->impl;
    if (!e) return;
    free(e->y);
    free(e->fit);
    free(e->next);
    free(e->next_fit);
    free(e->trial);
    free(e->z);
    free(e);
    de->impl = NULL;
}

static glevo_status cpu_read_fitness(glevo_de *de, float *fitness)
{
    de_cpu *e = de->impl;
    memcpy(fitness, e->fit, sizeof(float) * (size_t)de->c.np);
    return GLEVO_OK;
}

static glevo_status cpu_read_genes(glevo_de *de, int count, const int *index, float *y)
{
    de_cpu *e = de->impl;
    size_t D = (size_t)de->c.dim;
    for (int k = 0; k < count; ++k)
        memcpy(y + (size_t)k * D, &e->y[(size_t)index[k] * D], sizeof(float) * D);
    return GLEVO_OK;
}

static glevo_status cpu_write_genes(glevo_de *de, int count, const int *index, const float *y,
                                    const float *fitness)
{
    de_cpu *e = de->impl;
    size_t D = (size_t)de->c.dim;
    for (int k = 0; k < count; ++k) {
        memcpy(&e->y[(size_t)index[k] * D], y + (size_t)k * D, sizeof(float) * D);
        e->fit[index[k]] = fitness[k];
    }
    return GLEVO_OK;
}

static const de_engine_ops cpu_ops = {cpu_init, cpu_generations, cpu_best, cpu_population,
                                      cpu_restore, cpu_destroy, cpu_read_fitness, cpu_read_genes,
                                      cpu_write_genes};

glevo_status de_cpu_create(glevo_de *de)
{
    const de_config *c = &de->c;
    size_t n = (size_t)c->np * (size_t)c->dim;
    de_cpu *e = calloc(1, sizeof *e);
    de->impl = e;
    de->ops = &cpu_ops;
    snprintf(de->renderer, sizeof de->renderer, "cpu");
    snprintf(de->engine, sizeof de->engine, "cpu");
    if (e) {
        e->y = malloc(n * sizeof(float));
        e->next = malloc(n * sizeof(float));
        e->fit = malloc((size_t)c->np * sizeof(float));
        e->next_fit = malloc((size_t)c->np * sizeof(float));
        e->trial = malloc((size_t)c->dim * sizeof(float));
        e->z = malloc((size_t)c->dim * sizeof(float));
    }
    if (!e || !e->y || !e->next || !e->fit || !e->next_fit || !e->trial || !e->z) {
        cpu_destroy(de);
        de->ops = NULL;
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a DE population of %d x %d",
                          c->np, c->dim);
    }
    return GLEVO_OK;
}
