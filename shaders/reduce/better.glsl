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

// better()'s order as two words, the one that comes first the smaller (compared .x, then .y):
// the value's key (absent last, then NaN, then the value's bits made monotone, -0 as +0; bits,
// not a float compare, so a GPU that flushes denormals in compares orders them as the C twin
// does) and the linear index (y, then x; positions below 2^16). Tests:
// tests/reduce/test_reduce.c, subgroup_keys_order_as_the_c_twin.
uvec2 better_key(vec4 a)
{
    uint index = uint(a.z) * 65536u + uint(a.y);
    if (a.w == 0.0) return uvec2(0xFFFFFFFFu);
    if (is_nan(a.x)) return uvec2(0xFFFFFFFEu, index);
    uint u = floatBitsToUint(a.x);
    if (u == 0x80000000u) u = 0u;
    uint k = (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
#ifdef REDUCE_MAX
    k = ~k;
#endif
    return uvec2(k, index);
}

#if defined(GLEVO_COMPUTE) && defined(REDUCE_GROUP) && defined(REDUCE_SUBGROUP)
// A work-group's best of one texel per invocation where the host found subgroups of
// REDUCE_SUBGROUP invocations with shuffles (the including file enables
// GL_KHR_shader_subgroup_shuffle): each subgroup's best by a butterfly of shuffles (a total
// order: every lane ends with the same texel), then the subgroups' in shared memory: one
// barrier instead of one a level of the tree below. Every invocation of the group must call it.
shared vec4 s_reduce[REDUCE_GROUP / REDUCE_SUBGROUP];

vec4 reduce_group(vec4 mine, uint t)
{
    // The butterfly moves the two-word key and the lane that holds it, not the texel, and
    // compares words: 1000 generations at 10^6 cells took 47.6 ms (skip mutation) and 100.6
    // (per-bit) on the H200 against 49.4 and 103.1 with better() on shuffled texels
    // (docs/performance-history.md, "2026-11-28: moore5's tiles, the group reduction by keys"). The texel comes from its lane at the end.
    uvec2 key = better_key(mine);
    uint lane = gl_SubgroupInvocationID;
    for (uint m = uint(REDUCE_SUBGROUP) / 2u; m > 0u; m >>= 1u) {
        uvec2 other = subgroupShuffleXor(key, m);
        uint other_lane = subgroupShuffleXor(lane, m);
        if (other.x < key.x || (other.x == key.x && other.y < key.y)) {
            key = other;
            lane = other_lane;
        }
    }
    mine = subgroupShuffle(mine, lane);
    if (gl_SubgroupInvocationID == 0u) s_reduce[gl_SubgroupID] = mine;
    barrier();
    vec4 best = s_reduce[0];
    for (int k = 1; k < REDUCE_GROUP / REDUCE_SUBGROUP; ++k)
        if (better(s_reduce[k], best)) best = s_reduce[k];
    barrier();
    return best;
}
#elif defined(GLEVO_COMPUTE) && defined(REDUCE_GROUP)
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
