/* Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11), the C twin of shaders/rng/philox.glsl; same constants, same round order. */
#include "glevo/rng.h"
#include "core/args.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u /* golden ratio */
#define PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */

glevo_u32x4 glevo_philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                             uint32_t k1)
{
    for (int round = 0; round < 10; ++round) {
        uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)PHILOX_M1 * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    glevo_u32x4 out = {{c0, c1, c2, c3}};
    return out;
}

float glevo_rng_u01(uint32_t x) { return (float)(x >> 8) * (1.0f / 16777216.0f); }

uint32_t glevo_rng_below(uint32_t x, uint32_t n)
{
    /* GLSL twin: umulExtended(x, n, hi, lo) and keep hi. */
    return (uint32_t)(((uint64_t)x * n) >> 32);
}

void glevo_rng_texture_fill(float *out, int side, uint32_t seed)
{
    ARG_NOT_NULL_OR(out, );
    for (int i = 0; i < side * side; i += 4) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 0xC0FFEEu, 0, 0, seed, 0x2008u);
        for (int k = 0; k < 4 && i + k < side * side; ++k) out[i + k] = glevo_rng_u01(r.v[k]);
    }
}
