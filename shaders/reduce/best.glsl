// Min or max with its position. Texels carry (value, x, y, present); ties go to the lowest
// linear index (y first, then x); NaN never beats a number, so the result does not depend on
// the order of comparisons and both drivers' trees give the same texel. C twin:
// src/reduce/reduce_cpu.c. Define REDUCE_MAX for max, else min.
// Fragment: one 2x2 block per fragment (Harris's and Goddeke's multi-pass reduction: each pass
// halves both sizes, so W x H needs ceil(log2(max(W, H))) passes). Compute: a work-group of
// REDUCE_LOCAL invocations walks the input in a grid-stride loop and reduces in shared memory;
// a second dispatch of one group reduces the groups' results (two dispatches at any size).
#include "reduce/common.glsl"

// Bit test rather than isnan(): optimizing compilers may assume NaN never happens.
bool is_nan(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }

bool better(vec4 a, vec4 b)
{
    if (a.w == 0.0) return false;
    if (b.w == 0.0) return true;
    bool a_nan = is_nan(a.x), b_nan = is_nan(b.x);
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && a.x != b.x) {
#ifdef REDUCE_MAX
        return a.x > b.x;
#else
        return a.x < b.x;
#endif
    }
    return a.z < b.z || (a.z == b.z && a.y < b.y);
}

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
layout(local_size_x = REDUCE_LOCAL) in;
layout(rgba32f) writeonly uniform image2D i_best; // texel (group, 0)
shared vec4 s_best[REDUCE_LOCAL];

void main()
{
    int n = u_size.x * u_size.y;
    int stride = int(gl_NumWorkGroups.x) * REDUCE_LOCAL;
    vec4 best = vec4(0.0);
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
        vec4 c = reduce_fetch(ivec2(i % u_size.x, i / u_size.x));
        if (better(c, best)) best = c;
    }
    uint t = gl_LocalInvocationID.x;
    s_best[t] = best;
    barrier();
    for (uint h = uint(REDUCE_LOCAL) / 2u; h > 0u; h >>= 1u) {
        if (t < h && better(s_best[t + h], s_best[t])) s_best[t] = s_best[t + h];
        barrier();
    }
    if (t == 0u) imageStore(i_best, ivec2(gl_WorkGroupID.x, 0), s_best[0]);
}
#endif
