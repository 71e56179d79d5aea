/* Counter-based random numbers (Philox4x32-10, Salmon et al. 2011), the C twin of
 * shaders/rng/philox.glsl. Keyed by (seed, stream), counted by four 32-bit words; the
 * library's convention for the counter is (texel, generation, pass, draw), so a GPU pass
 * and its CPU twin draw identical numbers for the same texel. */
#ifndef GLEVO_RNG_H
#define GLEVO_RNG_H

#include "glevo/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glevo_u32x4 { uint32_t v[4]; } glevo_u32x4;

/* Philox4x32 with 10 rounds: counter (c0..c3) under key (k0, k1). */
GLEVO_API glevo_u32x4 glevo_philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                             uint32_t k0, uint32_t k1);

/* A uniform float in [0, 1) from the top 24 bits of x: exactly representable, so GLSL's
 * float(x >> 8u) * (1.0 / 16777216.0) gives the same value bit for bit. */
GLEVO_API float glevo_rng_u01(uint32_t x);

/* Uniform integer in [0, n) from x by the top-bits multiply (no modulo bias worth
 * mentioning for n << 2^32), identical to rng_below() in GLSL. */
GLEVO_API uint32_t glevo_rng_below(uint32_t x, uint32_t n);

/* The 2008 scheme: a side×side texture of uniform floats (side = 1024 in the paper),
 * read at per-pass random offsets. Fills `out` (side*side floats) from the seed. */
GLEVO_API void glevo_rng_texture_fill(float *out, int side, uint32_t seed);

#ifdef __cplusplus
}
#endif
#endif
