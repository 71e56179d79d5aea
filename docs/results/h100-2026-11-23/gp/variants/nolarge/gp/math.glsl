// glevo's GP sine, cosine and protected division: the statement-for-statement twin of
// src/gp/gp_math.h (read its comment for the definition). Every step is `precise` so that no
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
    quadrant = 0u; return x;
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
float gp_div1(float a, float b)
{
    if (abs(b) < GP_DIV_EPS) return 1.0;
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

vec4 gp_trig(vec4 a, uint add)
{
    return vec4(gp_trig1(a.x, add), gp_trig1(a.y, add), gp_trig1(a.z, add), gp_trig1(a.w, add));
}
vec4 gp_div(vec4 a, vec4 b)
{
    return vec4(gp_div1(a.x, b.x), gp_div1(a.y, b.y), gp_div1(a.z, b.z), gp_div1(a.w, b.w));
}
