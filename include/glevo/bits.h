/* Float-coded bit operations: 24-bit unsigned integers held exactly in fp32 and read and
 * written with float arithmetic only, as the 2008 GeForce 6 required (Li, Chi, Wan 2008, §3).
 * C twin of shaders/bits/fbits.glsl: same formulas, same float operations. Every value and
 * intermediate is an integer below 2^24 or such an integer divided by a power of two, so each
 * operation is exact in IEEE single precision. Bit indices are 0..23. */
#ifndef GLEVO_BITS_H
#define GLEVO_BITS_H

#include "glevo/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLEVO_FBITS_MAX 24

GLEVO_API float glevo_fbit_get(float v, int i);          /* bit i of v: 0.0 or 1.0 */
GLEVO_API float glevo_fbit_set(float v, int i, float b); /* v with bit i set to b (0 or 1) */
GLEVO_API float glevo_fbit_flip(float v, int i);         /* v with bit i inverted */
GLEVO_API float glevo_fbits_low(float v, int p);         /* bits 0..p-1 of v (p in 0..24) */
/* Bits 0..p-1 from `low_from`, bits p.. from `high_from`: single-point crossover at p. */
GLEVO_API float glevo_fbits_splice(float low_from, float high_from, int p);

#ifdef __cplusplus
}
#endif
#endif
