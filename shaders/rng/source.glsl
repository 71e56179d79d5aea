// Where a pass's random words come from. Default: Philox counted by
// (texel, generation, pass, draw) under u_key = (seed, stream). With RNG_TEXTURE: the 2008
// scheme (Li, Chi, Wan §2.3), a 1024x1024 table of random words uploaded once and read at
// per-generation random offsets: (x1, y1) = in + (i, j) + (p, q) * TR(in), n = TR(x1, y1).
// C twin: src/rng/rng_source.c. The including pass's uniform block declares
// uvec2 u_key, uint u_generation and, with RNG_TEXTURE, uvec4 u_rng_offset ((i, j, p, q),
// drawn by the host each generation).
#include "rng/philox.glsl"

#ifdef RNG_TEXTURE
uniform usampler2D t_random_table;

uvec4 rng_words(uvec2 xy, uint texel, uint pass, uint draw)
{
    // Each (pass, draw) shifts the offset so that draws within a pass differ.
    uvec2 o = u_rng_offset.xy + uvec2(pass * 131u + draw * 7919u, pass * 197u + draw * 104729u);
    uvec4 here = texelFetch(t_random_table, ivec2(xy & 1023u), 0);
    uvec2 p = (xy + o + u_rng_offset.zw * (here.xy >> 28u)) & 1023u;
    return texelFetch(t_random_table, ivec2(p), 0);
}
#else
// The generation counter: the uniform, or a kernel's own variable where one dispatch runs
// several generations (cga/block.glsl defines RNG_GENERATION before including this).
#ifndef RNG_GENERATION
#define RNG_GENERATION u_generation
#endif
uvec4 rng_words(uvec2 xy, uint texel, uint pass, uint draw)
{
    return philox4x32(uvec4(texel, RNG_GENERATION, pass, draw), u_key);
}
#endif
