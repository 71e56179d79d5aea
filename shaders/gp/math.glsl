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

float gp_reduce_large(float x, out uint quadrant)
{
    const uint two_over_pi[6] = uint[6](0x3c439041u, 0xdb629599u, 0xf534ddc0u, 0xfc2757d1u,
                                        0x4e441529u, 0xa2f9836eu);
    uint u = floatBitsToUint(x);
    int e = int((u >> 23u) & 0xffu);
    uint ix = (u << 8u) | 0x80000000u;
    uint w[7];
    uint carry = 0u;
    for (int i = 0; i < 6; ++i) {
        uint msb, lsb, c;
        umulExtended(two_over_pi[i], ix, msb, lsb);
        w[i] = uaddCarry(lsb, carry, c);
        carry = msb + c;
    }
    w[6] = carry;
    int shift = 288 - e, j = shift >> 5, b = shift & 31;
    uint lo = w[j], hi = w[j + 1];
    if (b != 0) {
        lo = (lo >> uint(b)) | (hi << uint(32 - b));
        hi = (hi >> uint(b)) | (w[j + 2] << uint(32 - b));
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

float gp_sin1(float x)
{
    uint n;
    float r = gp_reduce(x, n);
    return gp_quadrant(r, n);
}

float gp_cos1(float x)
{
    uint n;
    float r = gp_reduce(x, n);
    return gp_quadrant(r, n + 1u);
}

// Protected division, a / b correctly rounded: GPU float division is approximate (2.5 ulp
// allowed); the double quotient, refined by one residual step, rounds to the float the CPU's
// IEEE a / b gives.
float gp_div1(float a, float b)
{
    if (abs(b) < GP_DIV_EPS) return 1.0;
    precise double ad = double(a), bd = double(b);
    precise double q = ad / bd;
    precise double r = fma(-q, bd, ad);
    precise double q1 = q + r / bd;
    return float(q1);
}

vec4 gp_sin(vec4 a) { return vec4(gp_sin1(a.x), gp_sin1(a.y), gp_sin1(a.z), gp_sin1(a.w)); }
vec4 gp_cos(vec4 a) { return vec4(gp_cos1(a.x), gp_cos1(a.y), gp_cos1(a.z), gp_cos1(a.w)); }
vec4 gp_div(vec4 a, vec4 b)
{
    return vec4(gp_div1(a.x, b.x), gp_div1(a.y, b.y), gp_div1(a.z, b.z), gp_div1(a.w, b.w));
}
