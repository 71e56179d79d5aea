// Test pass: writes the Philox words and their rng_u01 floats for counter
// (texel, generation, pass, draw), so tests/rng/test_rng.c can compare with the C twin.
#include "rng/philox.glsl"
uniform uvec2 u_key;
uniform uint u_generation;
uniform uint u_pass;
uniform uint u_draw;
uniform uint u_width;
layout(location = 0) out uvec4 o_bits;
layout(location = 1) out vec4 o_floats;

void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint texel = p.y * u_width + p.x;
    uvec4 r = philox4x32(uvec4(texel, u_generation, u_pass, u_draw), u_key);
    o_bits = r;
    o_floats = vec4(rng_u01(r.x), rng_u01(r.y), rng_u01(r.z), rng_u01(r.w));
}
