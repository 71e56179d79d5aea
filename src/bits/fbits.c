/* C twin of shaders/bits/fbits.glsl: the 2008 paper's bit emulation in float arithmetic.
 * GLSL's mod(x, y) is x - y * floor(x / y); it is spelled out here so both sides perform
 * the same float operations (fmodf would be exact too, but a different computation). */
#include "glevo/bits.h"

#include <math.h>

static float glsl_mod(float x, float y) { return x - y * floorf(x / y); }

float glevo_fbit_get(float v, int i) { return glsl_mod(floorf(v / ldexpf(1.0f, i)), 2.0f); }

float glevo_fbit_set(float v, int i, float b)
{
    return v + (b - glevo_fbit_get(v, i)) * ldexpf(1.0f, i);
}

float glevo_fbit_flip(float v, int i)
{
    return v + (1.0f - 2.0f * glevo_fbit_get(v, i)) * ldexpf(1.0f, i);
}

float glevo_fbits_low(float v, int p) { return glsl_mod(v, ldexpf(1.0f, p)); }

float glevo_fbits_splice(float low_from, float high_from, int p)
{
    return glevo_fbits_low(low_from, p) + (high_from - glevo_fbits_low(high_from, p));
}
