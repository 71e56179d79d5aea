// Test pass: writes the Philox words and their rng_u01 floats for counter
// (texel, generation, pass, draw), so tests/rng/test_rng.c can compare with the C twin.
#include "rng/philox.glsl"
layout(std140) uniform pass_uniforms {
    uvec2 u_key;
    uint u_generation;
    uint u_pass;
    uint u_draw;
    uint u_width;
    uint u_pad0, u_pad1;
};
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
