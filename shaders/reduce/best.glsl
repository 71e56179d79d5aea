// Min or max with its position. Texels carry (value, x, y, present); ties go to the lowest
// linear index (y first, then x); NaN never beats a number, so the result does not depend on
// the order of comparisons and both drivers' trees give the same texel. C twin:
// src/reduce/reduce_cpu.c. Define REDUCE_MAX for max, else min.
// Fragment: one 2x2 block per fragment (Harris's and Goddeke's multi-pass reduction: each pass
// halves both sizes, so W x H needs ceil(log2(max(W, H))) passes). Compute: a work-group of
// REDUCE_GROUP invocations walks the input in a grid-stride loop and reduces in shared memory;
// a second dispatch of one group reduces the groups' results (two dispatches at any size).
#include "reduce/common.glsl"
#include "reduce/better.glsl"

#ifdef GLEVO_FRAGMENT
layout(location = 0) out vec4 o_best;

void main()
{
    ivec2 base = ivec2(gl_FragCoord.xy) * 2;
    vec4 best = reduce_fetch(base);
    vec4 c = reduce_fetch(base + ivec2(1, 0));
    if (better(c, best)) best = c;
    c = reduce_fetch(base + ivec2(0, 1));
    if (better(c, best)) best = c;
    c = reduce_fetch(base + ivec2(1, 1));
    if (better(c, best)) best = c;
    o_best = best;
}
#endif

#ifdef GLEVO_COMPUTE
layout(local_size_x = REDUCE_GROUP) in;
layout(rgba32f) writeonly uniform image2D i_best; // texel (group, 0)

void main()
{
    int n = u_size.x * u_size.y;
    int stride = int(gl_NumWorkGroups.x) * REDUCE_GROUP;
    vec4 best = vec4(0.0);
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
        vec4 c = reduce_fetch(ivec2(i % u_size.x, i / u_size.x));
        if (better(c, best)) best = c;
    }
    best = reduce_group(best, gl_LocalInvocationID.x);
    if (gl_LocalInvocationID.x == 0u) imageStore(i_best, ivec2(gl_WorkGroupID.x, 0), best);
}
#endif
