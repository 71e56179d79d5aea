/* glevo's GP arithmetic that is not a single IEEE operation: sine, cosine and protected
 * division, defined so that the CPU interpreter and the shader (shaders/gp/math.glsl, the
 * twin, statement for statement) compute bit-identical results on every input:
 *
 *   x = k * pi/2 + r, k the integer nearest x * 2/pi (ties to even). For |x| < 2^20 r comes
 *   from a two-part Cody-Waite reduction in double (k * P1 exact); above, from x * 2/pi taken
 *   exactly from 192 bits of 2/pi in 32-bit integer words (Payne-Hanek), 62 fraction bits,
 *   scaled by pi/2 in double. r is rounded once to float, then sin and cos are Cephes'
 *   single-precision minimax polynomials on [-pi/4, pi/4] evaluated in float, in the order
 *   written (no contraction into FMA: this file is compiled in ISO C mode, where GCC and clang
 *   do not contract, and the shader marks every step `precise`). Accuracy: within ~1 ulp of
 *   the true sine and cosine for every finite float; inf and NaN give NaN.
 *   Protected division: 1 when |b| < 1e-6, else a / b correctly rounded (the shader divides in
 *   double and rounds to float: the quotient of two floats never lies within 2^-49 relative of
 *   a float rounding boundary, so double precision decides the rounding exactly).
 *
 * Why not the platform's sinf: NVIDIA's sin() is a hardware approximation and glibc's sinf is
 * correctly rounded; they differ in the last bits, and random GP programs amplify last-bit
 * differences (sin of a quotient by a small number) into different errors. */
#ifndef GLEVO_GP_MATH_H
#define GLEVO_GP_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define GP_INV_PIO2 0x1.45f306dc9c883p-1 /* 2/pi rounded to double */
#define GP_PIO2 0x1.921fb54442d18p+0     /* pi/2 rounded to double */
#define GP_PIO2_1 0x1.921fb544p+0        /* pi/2's first 33 bits: k * P1 exact for |k| < 2^20 */
#define GP_PIO2_1T 0x1.0b4611a626331p-34 /* pi/2 - P1 rounded to double */
#define GP_ROUND_MAGIC 0x1.8p52          /* (t + M) - M rounds t to an integer, ties to even */

/* x * 2/pi mod 4 for |x| >= 2^20 (x finite), exactly to 62 fraction bits. */
static inline float gp_reduce_large(float x, uint32_t *quadrant)
{
    /* 2/pi * 2^192 truncated, least significant word first. */
    static const uint32_t two_over_pi[6] = {0x3c439041u, 0xdb629599u, 0xf534ddc0u,
                                            0xfc2757d1u, 0x4e441529u, 0xa2f9836eu};
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)(u >> 23 & 0xffu);          /* |x| = ix * 2^(e - 158) */
    uint32_t ix = (u << 8) | 0x80000000u;
    uint32_t w[7], carry = 0;
    for (int i = 0; i < 6; ++i) {
        uint64_t p = (uint64_t)two_over_pi[i] * ix + carry;
        w[i] = (uint32_t)p;
        carry = (uint32_t)(p >> 32);
    }
    w[6] = carry;
    /* |x| * 2/pi = (ix * W) * 2^(e - 350): bits [shift, shift + 64) of the product are
     * |x| * 2/pi mod 4 with 62 fraction bits. e in [147, 254] gives shift in [34, 141]. */
    int shift = 288 - e, j = shift >> 5, b = shift & 31;
    uint32_t lo = w[j], hi = w[j + 1];
    if (b != 0) {
        lo = lo >> b | hi << (32 - b);
        hi = hi >> b | w[j + 2] << (32 - b);
    }
    uint32_t n = hi >> 30;
    uint32_t fh = hi << 2 | lo >> 30, fl = lo << 2; /* fraction, 64 bits */
    int neg = (fh >> 31) != 0;
    if (neg) { /* fraction >= 1/2: round to the next quadrant, r = -(1 - fraction) */
        n += 1u;
        fh = ~fh;
        fl = ~fl + 1u;
        if (fl == 0u) fh += 1u;
    }
    double m = (double)fh * 0x1p-32 + (double)fl * 0x1p-64;
    double r = m * GP_PIO2;
    if (neg) r = -r;
    if (x < 0.0f) {
        r = -r;
        n = 0u - n;
    }
    *quadrant = n & 3u;
    return (float)r;
}

/* x = k * pi/2 + r; returns r (|r| <= ~pi/4) and k mod 4. inf and NaN give NaN. */
static inline float gp_reduce(float x, uint32_t *quadrant)
{
    if (fabsf(x) < 0x1p20f) {
        double xd = (double)x;
        double t = xd * GP_INV_PIO2;
        double k = (t + GP_ROUND_MAGIC) - GP_ROUND_MAGIC;
        double r = (xd - k * GP_PIO2_1) - k * GP_PIO2_1T;
        *quadrant = (uint32_t)(int32_t)k & 3u;
        return (float)r;
    }
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u >> 23 & 0xffu) == 0xffu) {
        *quadrant = 0;
        return NAN;
    }
    return gp_reduce_large(x, quadrant);
}

/* Cephes sinf/cosf minimax polynomials on [-pi/4, pi/4] (-1.9515295891e-4, 8.3321608736e-3,
 * -1.6666654611e-1; 2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2), written
 * as the floats they round to. */
#define GP_S3 (-0x1.9943f2p-13f)
#define GP_S2 0x1.11073cp-7f
#define GP_S1 (-0x1.555546p-3f)
#define GP_C3 0x1.99eb9cp-16f
#define GP_C2 (-0x1.6c0c34p-10f)
#define GP_C1 0x1.55554ap-5f
static inline float gp_poly_sin(float r)
{
    float z = r * r;
    return ((GP_S3 * z + GP_S2) * z + GP_S1) * z * r + r;
}

static inline float gp_poly_cos(float r)
{
    float z = r * r;
    return ((GP_C3 * z + GP_C2) * z + GP_C1) * z * z - 0.5f * z + 1.0f;
}

/* sin(r + n * pi/2) from the two polynomials. */
static inline float gp_quadrant(float r, uint32_t n)
{
    float s = gp_poly_sin(r), c = gp_poly_cos(r);
    float v = (n & 1u) ? c : s;
    return (n & 2u) ? -v : v;
}

static inline float gp_sin(float x)
{
    uint32_t n;
    float r = gp_reduce(x, &n);
    return gp_quadrant(r, n);
}

static inline float gp_cos(float x)
{
    uint32_t n;
    float r = gp_reduce(x, &n);
    return gp_quadrant(r, n + 1u);
}

static inline float gp_div(float a, float b)
{
    return fabsf(b) < 1e-6f ? 1.0f : a / b;
}

/* ---- symbolic-regression primitives (issue 26): exp, protected log, sqrt, pow, tanh and the
 * analytic quotient, from IEEE float + - * and integer bit operations only (Cephes' float
 * expf/logf/tanhf polynomials, evaluated in the order written), so that the shader computes
 * the same bits. Definitions (what the GP operators mean):
 *   exp(a)    e^a; +inf above 88.7228 (float overflow), 0 below -87 (never a subnormal: GPUs
 *             may flush those), NaN for NaN. Within ~1 ulp of e^a elsewhere.
 *   log(a)    ln|a| (protected): 0 where |a| < 1e-6 (the protected division's threshold),
 *             +inf for infinite a, NaN for NaN. Within ~1 ulp of ln|a|.
 *   sqrt(a)   sqrt(|a|), correctly rounded (the shader corrects a double-precision root with
 *             exact midpoint tests).
 *   pow(a, b) exp(b * log(a)) with the protected log above: |a|^b, 1 where |a| < 1e-6.
 *             Relative error grows with |b ln|a|| (about |b ln|a|| * 2^-24).
 *   tanh(a)   Cephes tanhf: an odd polynomial below 0.625, 1 - 2 / (e^(2|a|) + 1) above,
 *             +-1 beyond 44.36. Within ~2 ulp.
 *   aq(a, b)  the analytic quotient (Ni, Drieberg & Rockett 2013): a / sqrt(1 + b*b), the
 *             root and the quotient correctly rounded; 0 when b*b overflows.
 *   square(a) a*a, cube(a) (a*a)*a, abs(a) |a|. */
#define GP_PROTECT_EPS 1e-6f
#define GP_LOG2EF 0x1.715476p+0f
#define GP_LN2_HI 0.693359375f      /* ln 2 = GP_LN2_HI + GP_LN2_LO (Cephes' C1, C2) */
#define GP_LN2_LO (-0x1.bd0106p-13f)
#define GP_EXP_MAX 0x1.62e430p+6f   /* 88.72284: e^x overflows above */
#define GP_EXP_MIN (-87.0f)         /* e^-87 = 1.6e-38, still a normal float */
#define GP_E5 0x1.a0d2cep-13f
#define GP_E4 0x1.6e879cp-10f
#define GP_E3 0x1.111210p-7f
#define GP_E2 0x1.555382p-5f
#define GP_E1 0x1.555554p-3f
#define GP_E0 0.5f
#define GP_L8 0x1.204376p-4f
#define GP_L7 (-0x1.d7a370p-4f)
#define GP_L6 0x1.de4a34p-4f
#define GP_L5 (-0x1.fcba9ep-4f)
#define GP_L4 0x1.23d37ep-3f
#define GP_L3 (-0x1.555ca0p-3f)
#define GP_L2 0x1.999d58p-3f
#define GP_L1 (-0x1.fffff8p-3f)
#define GP_L0 0x1.555554p-2f
#define GP_SQRTHF 0x1.6a09e6p-1f
#define GP_T4 (-0x1.75e1d4p-8f)
#define GP_T3 0x1.52269cp-6f
#define GP_T2 (-0x1.b83c5ap-5f)
#define GP_T1 0x1.110726p-3f
#define GP_T0 (-0x1.555532p-2f)
#define GP_TANH_BIG 0x1.62e430p+5f  /* 44.36: tanh is +-1 in float beyond */

/* 2^n for n in [-126, 127], from its bits. */
static inline float gp_pow2i(int n)
{
    uint32_t u = (uint32_t)(n + 127) << 23;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float gp_exp(float x)
{
    if (isnan(x)) return x;
    if (x > GP_EXP_MAX) return INFINITY;
    if (x < GP_EXP_MIN) return 0.0f;
    float z = floorf(GP_LOG2EF * x + 0.5f); /* n in [-126, 128] */
    x = x - z * GP_LN2_HI;
    x = x - z * GP_LN2_LO;
    int n = (int)z;
    z = x * x;
    z = (((((GP_E5 * x + GP_E4) * x + GP_E3) * x + GP_E2) * x + GP_E1) * x + GP_E0) * z + x + 1.0f;
    /* 2^n in two factors: 2^128 is not a float, and each product is exact or overflows. */
    int h = n / 2;
    return z * gp_pow2i(h) * gp_pow2i(n - h);
}

static inline float gp_log(float x)
{
    float a = fabsf(x);
    if (isnan(a)) return a;
    if (a < GP_PROTECT_EPS) return 0.0f;
    if (a == INFINITY) return a;
    uint32_t u;
    memcpy(&u, &a, sizeof u);
    int e = (int)(u >> 23) - 126; /* a = m * 2^e, m in [0.5, 1) */
    u = (u & 0x007fffffu) | 0x3f000000u;
    float m;
    memcpy(&m, &u, sizeof m);
    if (m < GP_SQRTHF) {
        e -= 1;
        m = m + m - 1.0f;
    } else {
        m = m - 1.0f;
    }
    float z = m * m;
    float y = ((((((((GP_L8 * m + GP_L7) * m + GP_L6) * m + GP_L5) * m + GP_L4) * m + GP_L3) * m +
                 GP_L2) * m + GP_L1) * m + GP_L0) * m * z;
    float fe = (float)e;
    y = y + GP_LN2_LO * fe;
    y = y + -0.5f * z;
    z = m + y;
    z = z + GP_LN2_HI * fe;
    return z;
}

/* IEEE sqrtf is correctly rounded; the shader reaches the same root another way. */
static inline float gp_sqrt(float x) { return sqrtf(fabsf(x)); }

static inline float gp_pow(float a, float b) { return gp_exp(b * gp_log(a)); }

static inline float gp_tanh(float x)
{
    if (isnan(x)) return x;
    float z = fabsf(x);
    if (z > GP_TANH_BIG) return x > 0.0f ? 1.0f : -1.0f;
    if (z >= 0.625f) {
        float s = gp_exp(z + z);
        z = 1.0f - 2.0f / (s + 1.0f);
        return x < 0.0f ? -z : z;
    }
    if (x == 0.0f) return x;
    float s = x * x;
    return ((((GP_T4 * s + GP_T3) * s + GP_T2) * s + GP_T1) * s + GP_T0) * s * x + x;
}

static inline float gp_aq(float a, float b)
{
    float t = 1.0f + b * b;
    return a / sqrtf(t);
}

#endif
