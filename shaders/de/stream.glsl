// The DE random stream, GLSL twin of src/de/de_stream.h (read its comment for the layout):
// r1, r2, r3, jrand by "draw below, then skip the excluded indices in ascending order", and
// per-gene crossover and bound-repair uniforms. The generation g is an argument (not the
// block's u_generation) so that the resident compute kernel can run several generations in
// one dispatch through the same functions. The pass block declares u_key = (seed, stream); the
// engine injects DE_PASS_INDEX, DE_PASS_CROSS and DE_PASS_BOUND from src/de/de_stream.h, so C
// and GLSL count with the same numbers.
#include "rng/philox.glsl"

// (r1, r2, r3, jrand) for individual i in generation g.
uvec4 de_indices(uint i, uint g, uint np, uint dim)
{
    uvec4 w = philox4x32(uvec4(i, g, DE_PASS_INDEX, 0u), u_key);
    uint r1 = rng_below(w.x, np - 1u);
    if (r1 >= i) ++r1;
    uint a = min(i, r1), b = max(i, r1);
    uint r2 = rng_below(w.y, np - 2u);
    if (r2 >= a) ++r2;
    if (r2 >= b) ++r2;
    uint c = r2;
    if (c < b) { uint t = b; b = c; c = t; }
    if (b < a) { uint t = a; a = b; b = t; }
    uint r3 = rng_below(w.z, np - 3u);
    if (r3 >= a) ++r3;
    if (r3 >= b) ++r3;
    if (r3 >= c) ++r3;
    return uvec4(r1, r2, r3, rng_below(w.w, dim));
}

// Uniform m of a pass (de_stream_u01).
float de_u01(uint i, uint g, uint pass, uint m)
{
    uvec4 w = philox4x32(uvec4(i, g, pass, m / 4u), u_key);
    uint k = m % 4u;
    return rng_u01(k == 0u ? w.x : k == 1u ? w.y : k == 2u ? w.z : w.w);
}

// Uniforms 4q .. 4q + 3 of a pass from one Philox call (the same values as de_u01).
vec4 de_u01x4(uint i, uint g, uint pass, uint q)
{
    uvec4 w = philox4x32(uvec4(i, g, pass, q), u_key);
    return vec4(rng_u01(w.x), rng_u01(w.y), rng_u01(w.z), rng_u01(w.w));
}
