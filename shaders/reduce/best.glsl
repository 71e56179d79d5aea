// Min or max with its position, one 2x2 block per fragment (Göddeke's reduction: each pass
// halves both sizes, so W x H needs ceil(log2(max(W, H))) passes). Texels carry
// (value, x, y, present); ties go to the lowest linear index (y first, then x); NaN never
// beats a number. C twin: src/reduce/reduce_cpu.c. Define REDUCE_MAX for max, else min.
#include "reduce/common.glsl"
layout(location = 0) out vec4 o_best;

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
