// The order of (value, x, y, present) texels that min/max reductions keep: present beats
// absent, a number beats NaN, then the smaller (larger with REDUCE_MAX) value, then the lower
// linear index (y first, then x). A total order, so every reduction tree (2x2 passes, a
// work-group's shared-memory tree, any grid-stride split) finds the same texel.
// C twin: better() in src/reduce/reduce_cpu.c.

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

#if defined(GLEVO_COMPUTE) && defined(REDUCE_GROUP)
// A work-group's best of one texel per invocation, in shared memory (Harris's tree). Every
// invocation of the group must call it (it holds barriers); the result is valid in all.
shared vec4 s_reduce[REDUCE_GROUP];

vec4 reduce_group(vec4 mine, uint t)
{
    s_reduce[t] = mine;
    barrier();
    for (uint h = uint(REDUCE_GROUP) / 2u; h > 0u; h >>= 1u) {
        if (t < h && better(s_reduce[t + h], s_reduce[t])) s_reduce[t] = s_reduce[t + h];
        barrier();
    }
    vec4 best = s_reduce[0];
    barrier();
    return best;
}
#endif
