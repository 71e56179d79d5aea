/* BuildDSM's natural log, identical on the CPU and in shaders/dsmga/mi_log.glsl (Cephes logf:
 * x = m 2^e with m in [sqrt(1/2), sqrt(2)), a degree-9 polynomial in m - 1, ln 2 in two
 * parts; within about 1 ulp of ln x). The driver's log() is not logf: NVIDIA's differs in the
 * last bit often enough to change rounded mutual-information values, and with them the
 * linkage sets, so lossless runs on the H100 left the CPU's path (spin glass, 2026-11-23).
 * With this twin, and the products and the 1/n factor kept exact or IEEE-rounded on both
 * sides, the GPU's DSM equals the CPU's bit for bit. This file is compiled in ISO C mode
 * (CMAKE_C_EXTENSIONS OFF), so GCC fuses no multiply-add here, matching the shader's
 * `precise`. */
#ifndef GLEVO_DSMGA_MI_LOG_H
#define GLEVO_DSMGA_MI_LOG_H

#include <stdint.h>
#include <string.h>

static inline float dsm_float_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ln x for finite normal x > 0 (BuildDSM's arguments are counts >= 1). */
static inline float dsm_log(float x)
{
    /* frexpf by hand (x is normal and positive): m in [0.5, 1), x = m 2^e. A libm call here
     * would make the CPU baseline twice as slow as with logf. */
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)(u >> 23) - 126;
    float m = dsm_float_bits((u & 0x007fffffu) | 0x3f000000u), f;
    if (m < dsm_float_bits(0x3f3504f3u)) { /* sqrt(1/2) */
        e -= 1;
        f = (m + m) - 1.0f;
    } else {
        f = m - 1.0f;
    }
    float z = f * f;
    float p = dsm_float_bits(0x3d9021bbu);
    p = p * f + dsm_float_bits(0xbdebd1b8u);
    p = p * f + dsm_float_bits(0x3def251au);
    p = p * f + dsm_float_bits(0xbdfe5d4fu);
    p = p * f + dsm_float_bits(0x3e11e9bfu);
    p = p * f + dsm_float_bits(0xbe2aae50u);
    p = p * f + dsm_float_bits(0x3e4cceacu);
    p = p * f + dsm_float_bits(0xbe7ffffcu);
    p = p * f + dsm_float_bits(0x3eaaaaaau);
    float fe = (float)e;
    float y = (f * z) * p;
    y = y + dsm_float_bits(0xb95e8083u) * fe; /* ln 2, low part */
    y = y - 0.5f * z;
    float r = f + y;
    r = r + dsm_float_bits(0x3f318000u) * fe; /* ln 2, high part: 0.693359375 */
    return r;
}

#endif
