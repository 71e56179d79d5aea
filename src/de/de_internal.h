/* Internal to src/de: the resolved configuration shared by both engines, the engine handle,
 * and the per-gene helpers (C twins of shaders/de/trial.glsl and select.glsl). */
#ifndef GLEVO_DE_INTERNAL_H
#define GLEVO_DE_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "de/de_stream.h"
#include "glevo/de.h"

typedef struct de_config {
    const glevo_problem *problem;
    int dim, np;
    float F, CR;
    glevo_de_strategy strategy;
    long long max_evals;
    uint32_t seed;
    bool shifted;
    double *shift;     /* o (dim doubles; zeros when not shifted) */
    float shift_add;   /* p->shift_add when shifted, else 0: z = y + shift_add */
    float *lo, *hi;    /* per-gene bounds in y = x - o coordinates (float) */
    float *init_lo, *init_hi;
    int check_every;
    double target_efv;
} de_config;

typedef struct de_engine_ops {
    /* Evaluates the uploaded/initial population y (np x dim floats). */
    glevo_status (*init)(glevo_de *de, const float *y);
    glevo_status (*generation)(glevo_de *de, uint32_t g);
    /* Best individual: y (dim floats) and its float fitness. */
    glevo_status (*best)(glevo_de *de, float *y, float *fitness);
    glevo_status (*population)(glevo_de *de, float *y, float *fitness);
    void (*destroy)(glevo_de *de);
} de_engine_ops;

struct glevo_de {
    de_config c;
    glevo_backend backend;
    const de_engine_ops *ops;
    void *impl;
    long long evaluations, generations;
    bool target_reached;
    double seconds;
    char renderer[256];
};

extern const de_engine_ops de_cpu_ops;
extern const de_engine_ops de_gpu_ops;
glevo_status de_cpu_create(glevo_de *de);
glevo_status de_gpu_create(glevo_de *de);

/* Mutant gene j (float, the same operation order as trial.glsl's `precise` expressions). */
static inline float de_mutant_gene(const de_config *c, const float *y, uint32_t i,
                                   de_indices r, uint32_t best, int j)
{
    int D = c->dim;
    float F = c->F;
    switch (c->strategy) {
    case GLEVO_DE_BEST_1_BIN:
        return y[best * D + j] + F * (y[r.r1 * D + j] - y[r.r2 * D + j]);
    case GLEVO_DE_CURRENT_TO_BEST_1_BIN: {
        float xi = y[i * D + j];
        return (xi + F * (y[best * D + j] - xi)) + F * (y[r.r1 * D + j] - y[r.r2 * D + j]);
    }
    case GLEVO_DE_RAND_1_BIN:
    case GLEVO_DE_RAND_1_EXP:
    default:
        return y[r.r1 * D + j] + F * (y[r.r2 * D + j] - y[r.r3 * D + j]);
    }
}

/* Exponential crossover length L in 1..D: offsets 0..L-1 from jrand come from the mutant. */
static inline int de_exp_length(const de_config *c, uint32_t i, uint32_t g)
{
    int L = 1;
    while (L < c->dim && de_stream_u01(c->seed, i, g, DE_PASS_CROSS, (uint32_t)L) < c->CR) ++L;
    return L;
}

/* Does gene j come from the mutant? exp_len is de_exp_length's value (exp strategy only). */
static inline bool de_from_mutant(const de_config *c, uint32_t i, uint32_t g, de_indices r,
                                  int exp_len, int j)
{
    if (c->strategy == GLEVO_DE_RAND_1_EXP)
        return (int)(((uint32_t)j + (uint32_t)c->dim - r.jrand) % (uint32_t)c->dim) < exp_len;
    return (uint32_t)j == r.jrand || de_stream_u01(c->seed, i, g, DE_PASS_CROSS, (uint32_t)j) < c->CR;
}

/* Trial gene j: mutant gene (repaired when outside the domain) or the target's own. */
static inline float de_trial_gene(const de_config *c, const float *y, uint32_t i, uint32_t g,
                                  de_indices r, uint32_t best, int exp_len, int j)
{
    if (!de_from_mutant(c, i, g, r, exp_len, j)) return y[i * (uint32_t)c->dim + (uint32_t)j];
    float v = de_mutant_gene(c, y, i, r, best, j);
    if (!(v >= c->lo[j] && v <= c->hi[j])) {
        float u = de_stream_u01(c->seed, i, g, DE_PASS_BOUND, (uint32_t)j);
        v = c->lo[j] + u * (c->hi[j] - c->lo[j]);
    }
    return v;
}

/* Selection: the trial replaces the target when at least as good (NaN never does). */
static inline bool de_accept(const de_config *c, float trial, float target)
{
    return c->problem->direction == GLEVO_MAXIMIZE ? trial >= target : trial <= target;
}

/* Index of the best fitness (ties: lowest index; NaN never wins unless all are NaN), the
 * twin of the GPU reduction. */
static inline uint32_t de_best_index(const de_config *c, const float *fit)
{
    uint32_t best = 0;
    for (uint32_t k = 1; k < (uint32_t)c->np; ++k) {
        float a = fit[k], b = fit[best];
        if (isnan(b) && !isnan(a)) best = k;
        else if (!isnan(a) && (c->problem->direction == GLEVO_MAXIMIZE ? a > b : a < b))
            best = k;
    }
    return best;
}

#endif
