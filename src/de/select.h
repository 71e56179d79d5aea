/* C twin of shaders/de/select.glsl's acceptance rule and of the best-individual reduction
 * (shaders/reduce/best.glsl) as the DE engines use them. Static inline, as trial.h. */
#ifndef GLEVO_DE_SELECT_H
#define GLEVO_DE_SELECT_H

#include "de/de_internal.h"

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
