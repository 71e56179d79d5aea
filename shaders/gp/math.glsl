// glevo's GP sine, cosine and protected division: the statement-for-statement twin of
// src/gp/eval/gp_math.h (read its comment for the definition). Every step is `precise` so that no
// compiler fuses a multiply and an add or reorders: the GPU then computes the same bits as the
// CPU interpreter (float and double + - * are IEEE round-to-nearest on NVIDIA and llvmpipe).

const double GP_INV_PIO2 = packDouble2x32(uvec2(0x6dc9c883u, 0x3fe45f30u)); // 0x1.45f306dc9c883p-1
const double GP_PIO2 = packDouble2x32(uvec2(0x54442d18u, 0x3ff921fbu));     // 0x1.921fb54442d18p+0
const double GP_PIO2_1 = packDouble2x32(uvec2(0x54400000u, 0x3ff921fbu));   // 0x1.921fb544p+0
const double GP_PIO2_1T = packDouble2x32(uvec2(0x1a626331u, 0x3dd0b461u));   // 0x1.0b4611a626331p-34
const double GP_ROUND_MAGIC = packDouble2x32(uvec2(0u, 0x43380000u));      // 0x1.8p52

// Cephes sinf/cosf coefficients, given by their bits (no decimal-to-float conversion).
const float GP_S3 = uintBitsToFloat(0xb94ca1f9u); // -0x1.9943f2p-13
const float GP_S2 = uintBitsToFloat(0x3c08839eu); //  0x1.11073cp-7
const float GP_S1 = uintBitsToFloat(0xbe2aaaa3u); // -0x1.555546p-3
const float GP_C3 = uintBitsToFloat(0x37ccf5ceu); //  0x1.99eb9cp-16
const float GP_C2 = uintBitsToFloat(0xbab6061au); // -0x1.6c0c34p-10
const float GP_C1 = uintBitsToFloat(0x3d2aaaa5u); //  0x1.55554ap-5
const float GP_DIV_EPS = uintBitsToFloat(0x358637bdu); // 1e-6f

// The 192-bit product ix * W in seven 32-bit words, W = 2/pi * 2^192 truncated (least
// significant word first); written out without arrays so that nothing lands in local memory.
#define GP_MAC(w, t) umulExtended(t, ix, msb, lsb); w = uaddCarry(lsb, carry, c); carry = msb + c
float gp_reduce_large(float x, out uint quadrant)
{
    uint u = floatBitsToUint(x);
    int e = int((u >> 23u) & 0xffu);
    uint ix = (u << 8u) | 0x80000000u;
    uint w0, w1, w2, w3, w4, w5, msb, lsb, c, carry = 0u;
    GP_MAC(w0, 0x3c439041u);
    GP_MAC(w1, 0xdb629599u);
    GP_MAC(w2, 0xf534ddc0u);
    GP_MAC(w3, 0xfc2757d1u);
    GP_MAC(w4, 0x4e441529u);
    GP_MAC(w5, 0xa2f9836eu);
    uint w6 = carry;
    int shift = 288 - e, j = shift >> 5, b = shift & 31; // j in 1..4
    uint lo = j == 1 ? w1 : j == 2 ? w2 : j == 3 ? w3 : w4;
    uint hi = j == 1 ? w2 : j == 2 ? w3 : j == 3 ? w4 : w5;
    uint hi2 = j == 1 ? w3 : j == 2 ? w4 : j == 3 ? w5 : w6;
    if (b != 0) {
        lo = (lo >> uint(b)) | (hi << uint(32 - b));
        hi = (hi >> uint(b)) | (hi2 << uint(32 - b));
    }
    uint n = hi >> 30u;
    uint fh = (hi << 2u) | (lo >> 30u), fl = lo << 2u;
    bool neg = (fh >> 31u) != 0u;
    if (neg) {
        n += 1u;
        fh = ~fh;
        fl = ~fl + 1u;
        if (fl == 0u) fh += 1u;
    }
    precise double m = double(fh) * packDouble2x32(uvec2(0u, 0x3df00000u)) // 2^-32
                       + double(fl) * packDouble2x32(uvec2(0u, 0x3bf00000u)); // 2^-64
    precise double r = m * GP_PIO2;
    if (neg) r = -r;
    if (x < 0.0) {
        r = -r;
        n = 0u - n;
    }
    quadrant = n & 3u;
    return float(r);
}

float gp_reduce(float x, out uint quadrant)
{
    if (abs(x) < 1048576.0) {
        precise double xd = double(x);
        precise double t = xd * GP_INV_PIO2;
        precise double k = (t + GP_ROUND_MAGIC) - GP_ROUND_MAGIC;
        precise double r = (xd - k * GP_PIO2_1) - k * GP_PIO2_1T;
        quadrant = uint(int(k)) & 3u;
        return float(r);
    }
    if (((floatBitsToUint(x) >> 23u) & 0xffu) == 0xffu) {
        quadrant = 0u;
        return uintBitsToFloat(0x7fc00000u);
    }
    return gp_reduce_large(x, quadrant);
}

float gp_poly_sin(float r)
{
    precise float z = r * r;
    precise float y = ((GP_S3 * z + GP_S2) * z + GP_S1) * z * r + r;
    return y;
}

float gp_poly_cos(float r)
{
    precise float z = r * r;
    precise float y = ((GP_C3 * z + GP_C2) * z + GP_C1) * z * z - 0.5 * z + 1.0;
    return y;
}

float gp_quadrant(float r, uint n)
{
    float s = gp_poly_sin(r), c = gp_poly_cos(r);
    float v = (n & 1u) != 0u ? c : s;
    return (n & 2u) != 0u ? -v : v;
}

// sin(x + add * pi/2): add 0 is sin, 1 is cos (one inlined copy serves both opcodes).
float gp_trig1(float x, uint add)
{
    uint n;
    float r = gp_reduce(x, n);
    return gp_quadrant(r, n + add);
}

// Protected division, a / b correctly rounded, without a double division (a long subroutine
// on NVIDIA): 1/b from the float reciprocal refined by two Newton steps in double (relative
// error ~2^-52), times a in double, rounded to float. a / b of two floats never lies within
// 2^-49 (relative) of a float rounding boundary, so this rounds as the CPU's IEEE a / b does.
// |b| >= 2^64 is scaled so that the float reciprocal stays normal; b = +-inf gives a * 0.
// a / b correctly rounded for |b| >= 1e-6 (the tanh and analytic-quotient divisions use it too).
float gp_quot1(float a, float b)
{
    if ((floatBitsToUint(b) & 0x7fffffffu) == 0x7f800000u) return a * 0.0;
    bool big = abs(b) >= 18446744073709551616.0; // 2^64
    float seed = 1.0 / (big ? b * 5.42101086242752217e-20 : b); // 2^-64
    precise double bd = double(b);
    precise double y = double(seed) * (big ? packDouble2x32(uvec2(0u, 0x3bf00000u)) : 1.0lf);
    precise double e1 = fma(-bd, y, 1.0lf);
    precise double y1 = fma(y, e1, y);
    precise double e2 = fma(-bd, y1, 1.0lf);
    precise double y2 = fma(y1, e2, y1);
    precise double q = double(a) * y2;
    return float(q);
}

float gp_div1(float a, float b)
{
    if (abs(b) < GP_DIV_EPS) return 1.0;
    return gp_quot1(a, b);
}

vec4 gp_trig(vec4 a, uint add)
{
    return vec4(gp_trig1(a.x, add), gp_trig1(a.y, add), gp_trig1(a.z, add), gp_trig1(a.w, add));
}
vec4 gp_div(vec4 a, vec4 b)
{
    return vec4(gp_div1(a.x, b.x), gp_div1(a.y, b.y), gp_div1(a.z, b.z), gp_div1(a.w, b.w));
}

// ---- symbolic-regression primitives (issue 26): the twins of gp_exp, gp_log, gp_sqrt, gp_pow,
// gp_tanh and gp_aq in src/gp/eval/gp_math.h (read its comment for the definitions). Cephes' float
// polynomials, every step precise; 2^n and frexp from the bits.
const float GP_LOG2EF = uintBitsToFloat(0x3fb8aa3bu);
const float GP_LN2_HI = 0.693359375;
const float GP_LN2_LO = uintBitsToFloat(0xb95e8083u);
const float GP_EXP_MAX = uintBitsToFloat(0x42b17218u);
const float GP_E5 = uintBitsToFloat(0x39506967u);
const float GP_E4 = uintBitsToFloat(0x3ab743ceu);
const float GP_E3 = uintBitsToFloat(0x3c088908u);
const float GP_E2 = uintBitsToFloat(0x3d2aa9c1u);
const float GP_E1 = uintBitsToFloat(0x3e2aaaaau);
const float GP_L8 = uintBitsToFloat(0x3d9021bbu);
const float GP_L7 = uintBitsToFloat(0xbdebd1b8u);
const float GP_L6 = uintBitsToFloat(0x3def251au);
const float GP_L5 = uintBitsToFloat(0xbdfe5d4fu);
const float GP_L4 = uintBitsToFloat(0x3e11e9bfu);
const float GP_L3 = uintBitsToFloat(0xbe2aae50u);
const float GP_L2 = uintBitsToFloat(0x3e4cceacu);
const float GP_L1 = uintBitsToFloat(0xbe7ffffcu);
const float GP_L0 = uintBitsToFloat(0x3eaaaaaau);
const float GP_SQRTHF = uintBitsToFloat(0x3f3504f3u);
const float GP_T4 = uintBitsToFloat(0xbbbaf0eau);
const float GP_T3 = uintBitsToFloat(0x3ca9134eu);
const float GP_T2 = uintBitsToFloat(0xbd5c1e2du);
const float GP_T1 = uintBitsToFloat(0x3e088393u);
const float GP_T0 = uintBitsToFloat(0xbeaaaa99u);
const float GP_TANH_BIG = uintBitsToFloat(0x42317218u);
const float GP_INF = uintBitsToFloat(0x7f800000u);

float gp_pow2i(int n) { return uintBitsToFloat(uint(n + 127) << 23u); }

float gp_exp1(float x)
{
    if (isnan(x)) return x;
    if (x > GP_EXP_MAX) return GP_INF;
    if (x < -87.0) return 0.0;
    precise float t = GP_LOG2EF * x + 0.5;
    float z = floor(t);
    precise float r1 = x - z * GP_LN2_HI;
    precise float r = r1 - z * GP_LN2_LO;
    int n = int(z);
    precise float zz = r * r;
    precise float p = (((((GP_E5 * r + GP_E4) * r + GP_E3) * r + GP_E2) * r + GP_E1) * r + 0.5) * zz + r + 1.0;
    int h = n / 2;
    precise float v = p * gp_pow2i(h) * gp_pow2i(n - h);
    return v;
}

float gp_log1(float x)
{
    float a = abs(x);
    if (isnan(a)) return a;
    if (a < GP_DIV_EPS) return 0.0;
    if (a == GP_INF) return a;
    uint u = floatBitsToUint(a);
    int e = int(u >> 23u) - 126;
    float m = uintBitsToFloat((u & 0x007fffffu) | 0x3f000000u);
    precise float f;
    if (m < GP_SQRTHF) {
        e -= 1;
        f = m + m - 1.0;
    } else {
        f = m - 1.0;
    }
    precise float z = f * f;
    precise float y = ((((((((GP_L8 * f + GP_L7) * f + GP_L6) * f + GP_L5) * f + GP_L4) * f + GP_L3) * f +
                         GP_L2) * f + GP_L1) * f + GP_L0) * f * z;
    float fe = float(e);
    precise float y1 = y + GP_LN2_LO * fe;
    precise float y2 = y1 + -0.5 * z;
    precise float z1 = f + y2;
    precise float z2 = z1 + GP_LN2_HI * fe;
    return z2;
}

// sqrt(|x|) correctly rounded: a double root rounded to float, then moved to the neighbour
// whose rounding interval holds |x|, by exact tests (a midpoint of two floats has 25 bits, its
// square 50: exact in double; |x| never equals one).
float gp_sqrt1(float x)
{
    float a = abs(x);
    if (a == 0.0 || a == GP_INF || isnan(a)) return a;
    float s = float(sqrt(double(a)));
    float lo = uintBitsToFloat(floatBitsToUint(s) - 1u), hi = uintBitsToFloat(floatBitsToUint(s) + 1u);
    precise double ml = (double(s) + double(lo)) * 0.5lf;
    precise double mh = (double(s) + double(hi)) * 0.5lf;
    precise double ml2 = ml * ml;
    precise double mh2 = mh * mh;
    if (double(a) < ml2) return lo;
    if (double(a) > mh2) return hi;
    return s;
}

float gp_pow1(float a, float b)
{
    precise float t = b * gp_log1(a);
    return gp_exp1(t);
}

float gp_tanh1(float x)
{
    if (isnan(x)) return x;
    float z = abs(x);
    if (z > GP_TANH_BIG) return x > 0.0 ? 1.0 : -1.0;
    if (z >= 0.625) {
        precise float zz = z + z;
        float s = gp_exp1(zz);
        precise float s1 = s + 1.0;
        precise float r = 1.0 - gp_quot1(2.0, s1);
        return x < 0.0 ? -r : r;
    }
    if (x == 0.0) return x;
    precise float s = x * x;
    precise float r = ((((GP_T4 * s + GP_T3) * s + GP_T2) * s + GP_T1) * s + GP_T0) * s * x + x;
    return r;
}

float gp_aq1(float a, float b)
{
    precise float t = 1.0 + b * b;
    return gp_quot1(a, gp_sqrt1(t));
}

vec4 gp_square(vec4 a)
{
    precise vec4 r = a * a;
    return r;
}
vec4 gp_cube(vec4 a)
{
    precise vec4 r = (a * a) * a;
    return r;
}
vec4 gp_exp(vec4 a) { return vec4(gp_exp1(a.x), gp_exp1(a.y), gp_exp1(a.z), gp_exp1(a.w)); }
vec4 gp_log(vec4 a) { return vec4(gp_log1(a.x), gp_log1(a.y), gp_log1(a.z), gp_log1(a.w)); }
vec4 gp_sqrt(vec4 a) { return vec4(gp_sqrt1(a.x), gp_sqrt1(a.y), gp_sqrt1(a.z), gp_sqrt1(a.w)); }
vec4 gp_tanh(vec4 a) { return vec4(gp_tanh1(a.x), gp_tanh1(a.y), gp_tanh1(a.z), gp_tanh1(a.w)); }
vec4 gp_pow(vec4 a, vec4 b)
{
    return vec4(gp_pow1(a.x, b.x), gp_pow1(a.y, b.y), gp_pow1(a.z, b.z), gp_pow1(a.w, b.w));
}
vec4 gp_aq(vec4 a, vec4 b)
{
    return vec4(gp_aq1(a.x, b.x), gp_aq1(a.y, b.y), gp_aq1(a.z, b.z), gp_aq1(a.w, b.w));
}
