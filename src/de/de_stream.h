/* The random stream of differential evolution, in one place: which Philox counter words the
 * GPU passes (shaders/de/stream.glsl, the GLSL twin of this file) and the CPU engine
 * (de_cpu.c) turn into r1, r2, r3, jrand, crossover uniforms and bound repairs. Both sides
 * call philox4x32(counter, key) with key = (seed, GLEVO_DE_STREAM) and
 *
 *   init     gene j of individual i:   counter (i, 0, DE_PASS_INIT,  j / 4), word j % 4 -> u01
 *   indices  generation g >= 1:         counter (i, g, DE_PASS_INDEX, 0)
 *              word 0 -> r1 in [0, NP-1) skipping i
 *              word 1 -> r2 in [0, NP-2) skipping {i, r1}
 *              word 2 -> r3 in [0, NP-3) skipping {i, r1, r2}
 *              word 3 -> jrand in [0, D)
 *            "skipping" = draw t = rng_below(word, NP - k), then for each excluded index e in
 *            ascending order: if (t >= e) ++t. Exactly uniform over the allowed indices, no
 *            rejection loop, so GLSL needs no loop bound and both sides agree by construction.
 *   crossover uniform m:                counter (i, g, DE_PASS_CROSS, m / 4), word m % 4 -> u01
 *            bin: gene j comes from the mutant iff j == jrand or u_j < CR (m = j);
 *            exp: gene at offset k = (j - jrand) mod D comes from the mutant iff
 *                 u_1 < CR, ..., u_k < CR (m = offset; offset 0 = jrand always).
 *   bound repair of gene j:             counter (i, g, DE_PASS_BOUND, j / 4), word j % 4 -> u01
 *            a trial gene outside [lower, upper] is re-drawn uniformly in [lower, upper].
 *
 * Genes are stored relative to the shift vector, y = x - o (float), so z = y + shift_add:
 * fp32 then keeps full precision near the optimum (|o| ~ 90 would leave 8e-6 steps there,
 * i.e. error values ~1e-9..1e-8 from rounding alone at D = 100). DE is translation
 * invariant, so this changes only rounding, not the algorithm. */
#ifndef GLEVO_DE_STREAM_H
#define GLEVO_DE_STREAM_H

#include <stdint.h>

#include "glevo/rng.h"

#define GLEVO_DE_STREAM 0xDEu
#define DE_PASS_INIT 1u
#define DE_PASS_INDEX 2u
#define DE_PASS_CROSS 3u
#define DE_PASS_BOUND 4u

typedef struct de_indices {
    uint32_t r1, r2, r3, jrand;
} de_indices;

static inline uint32_t de_skip(uint32_t t, const uint32_t *sorted, int n)
{
    for (int k = 0; k < n; ++k)
        if (t >= sorted[k]) ++t;
    return t;
}

/* Requires np >= 4. */
static inline de_indices de_stream_indices(uint32_t seed, uint32_t i, uint32_t g, uint32_t np,
                                           uint32_t dim)
{
    glevo_u32x4 w = glevo_philox4x32(i, g, DE_PASS_INDEX, 0, seed, GLEVO_DE_STREAM);
    de_indices r;
    uint32_t ex[3] = {i, 0, 0};
    r.r1 = de_skip(glevo_rng_below(w.v[0], np - 1), ex, 1);
    ex[0] = i < r.r1 ? i : r.r1;
    ex[1] = i < r.r1 ? r.r1 : i;
    r.r2 = de_skip(glevo_rng_below(w.v[1], np - 2), ex, 2);
    /* insert r2 into the sorted pair */
    uint32_t a = ex[0], b = ex[1], c = r.r2;
    if (c < b) {
        uint32_t t = b;
        b = c;
        c = t;
    }
    if (b < a) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    ex[0] = a;
    ex[1] = b;
    ex[2] = c;
    r.r3 = de_skip(glevo_rng_below(w.v[2], np - 3), ex, 3);
    r.jrand = glevo_rng_below(w.v[3], dim);
    return r;
}

static inline float de_stream_u01(uint32_t seed, uint32_t i, uint32_t g, uint32_t pass,
                                  uint32_t m)
{
    glevo_u32x4 w = glevo_philox4x32(i, g, pass, m / 4u, seed, GLEVO_DE_STREAM);
    return glevo_rng_u01(w.v[m % 4u]);
}

#endif
