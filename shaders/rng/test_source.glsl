// Test pass: rng_words() for (texel, u_pass, u_draw) under either source (RNG_TEXTURE or
// Philox), for comparison with glevo_rng_words in tests/rng/test_rng.c.
#include "rng/source.glsl"
uniform uint u_pass;
uniform uint u_draw;
uniform uint u_width;
layout(location = 0) out uvec4 o_words;

void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    o_words = rng_words(p, p.y * u_width + p.x, u_pass, u_draw);
}
