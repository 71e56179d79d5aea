/* BuildDSM's natural log, identical on the CPU and in shaders/dsmga/mi_log.glsl (Cephes logf:
 * x = m 2^e with m in [sqrt(1/2), sqrt(2)), a degree-9 polynomial in m - 1, ln 2 in two
 * parts; within about 1 ulp of ln x). The driver's log() is not logf: NVIDIA's differs in the
 * last bit often enough to change rounded mutual-information values, and with them the
 * linkage sets, so lossless runs on the H100 left the CPU's path (spin glass, 2026-11-23).
 * With this twin, and the products and the 1/n factor kept exact or IEEE-rounded on both
 * sides, the GPU's DSM equals the CPU's bit for bit. This file is compiled in ISO C mode
 * (CMAKE_C_EXTENSIONS OFF), so GCC fuses no multiply-add here, matching the shader's
 * `precise`. The constants are the shader's bits as hexadecimal float literals (exact). */
#ifndef GLEVO_DSMGA_MI_LOG_H
#define GLEVO_DSMGA_MI_LOG_H

#include <stdint.h>
#include <string.h>

/* ln x for finite normal x > 0 (BuildDSM's arguments are counts >= 1). */
static inline float dsm_log(float x)
{
    /* frexpf by hand (x is normal and positive): m in [0.5, 1), x = m 2^e. A libm call here
     * would make the CPU baseline twice as slow as with logf. */
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)(u >> 23) - 126;
    u = (u & 0x007fffffu) | 0x3f000000u;
    float m, f;
    memcpy(&m, &u, sizeof m);
    if (m < 0x1.6a09e6p-1f) { /* sqrt(1/2) */
        e -= 1;
        f = (m + m) - 1.0f;
    } else {
        f = m - 1.0f;
    }
    float z = f * f;
    float p = 0x1.204376p-4f;
    p = p * f - 0x1.d7a370p-4f;
    p = p * f + 0x1.de4a34p-4f;
    p = p * f - 0x1.fcba9ep-4f;
    p = p * f + 0x1.23d37ep-3f;
    p = p * f - 0x1.555ca0p-3f;
    p = p * f + 0x1.999d58p-3f;
    p = p * f - 0x1.fffff8p-3f;
    p = p * f + 0x1.555554p-2f;
    float fe = (float)e;
    float y = (f * z) * p;
    y = y + -0x1.bd0106p-13f * fe; /* ln 2, low part */
    y = y - 0.5f * z;
    float r = f + y;
    r = r + 0x1.63p-1f * fe; /* ln 2, high part: 0.693359375 */
    return r;
}

#endif
