// Float-coded bit operations on 24-bit integers held exactly in floats (Li, Chi, Wan 2008):
// the GeForce 6 had no integer instructions. C twin: src/bits/fbits.c. Every intermediate is
// an integer < 2^24 or one divided by a power of two, so each operation is exact in fp32.
float fbit_get(float v, int i) { return mod(floor(v / ldexp(1.0, i)), 2.0); }
float fbit_set(float v, int i, float b) { return v + (b - fbit_get(v, i)) * ldexp(1.0, i); }
float fbit_flip(float v, int i) { return v + (1.0 - 2.0 * fbit_get(v, i)) * ldexp(1.0, i); }
float fbits_low(float v, int p) { return mod(v, ldexp(1.0, p)); }
// Bits 0..p-1 from low_from, bits p.. from high_from: single-point crossover at p.
float fbits_splice(float low_from, float high_from, int p)
{
    return fbits_low(low_from, p) + (high_from - fbits_low(high_from, p));
}
