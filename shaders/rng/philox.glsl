// Philox4x32-10 counter-based RNG (Salmon et al., SC'11); C twin: src/rng/philox.c.
// umulExtended gives the 64-bit product as (hi, lo), which is all Philox needs (GLSL 4.00+).
uvec4 philox4x32(uvec4 ctr, uvec2 key)
{
    for (int round = 0; round < 10; ++round) {
        uint hi0, lo0, hi1, lo1;
        umulExtended(0xD2511F53u, ctr.x, hi0, lo0);
        umulExtended(0xCD9E8D57u, ctr.z, hi1, lo1);
        ctr = uvec4(hi1 ^ ctr.y ^ key.x, lo1, hi0 ^ ctr.w ^ key.y, lo0);
        key += uvec2(0x9E3779B9u, 0xBB67AE85u);
    }
    return ctr;
}

// Top 24 bits as a float in [0, 1): exact, identical to glevo_rng_u01.
float rng_u01(uint x) { return float(x >> 8u) * (1.0 / 16777216.0); }

// Uniform integer in [0, n): high word of x * n, identical to glevo_rng_below.
uint rng_below(uint x, uint n)
{
    uint hi, lo;
    umulExtended(x, n, hi, lo);
    return hi;
}
