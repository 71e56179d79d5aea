// Sum of all four channels, one 2x2 block per fragment, added as (t00 + t10) + (t01 + t11)
// so that the C twin (src/reduce/reduce_cpu.c) rounds identically. Missing texels add 0.
// Fragment driver only: a sum's rounding depends on its tree, and this tree is the twin's.
#include "reduce/common.glsl"
layout(location = 0) out vec4 o_sum;

vec4 fetch(ivec2 p)
{
    return (p.x < u_size.x && p.y < u_size.y) ? texelFetch(t_input, p, 0) : vec4(0.0);
}

void main()
{
    ivec2 base = ivec2(gl_FragCoord.xy) * 2;
    o_sum = (fetch(base) + fetch(base + ivec2(1, 0))) +
            (fetch(base + ivec2(0, 1)) + fetch(base + ivec2(1, 1)));
}
