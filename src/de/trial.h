/* C twin of shaders/de/trial.glsl and the gene functions of shaders/de/common.glsl: mutant,
 * crossover decision, bound repair and trial gene for one gene of one individual, in the same
 * float operations as the shaders' `precise` expressions. Static inline (not trial.c) because
 * the CPU engine calls them once per gene and is itself measured against the GPU. */
#ifndef GLEVO_DE_TRIAL_H
#define GLEVO_DE_TRIAL_H

#include "de/de_internal.h"

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

#endif
