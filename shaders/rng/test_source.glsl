// Test pass: rng_words() for (texel, u_pass, u_draw) under either source (RNG_TEXTURE or
// Philox), for comparison with glevo_rng_words in tests/rng/test_rng.c.
layout(std140) uniform pass_uniforms {
    uvec4 u_rng_offset;
    uvec2 u_key;
    uint u_generation;
    uint u_pass;
    uint u_draw;
    uint u_width;
    uint u_pad0, u_pad1;
};
#include "rng/source.glsl"
layout(location = 0) out uvec4 o_words;

void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    o_words = rng_words(p, p.y * u_width + p.x, u_pass, u_draw);
}
