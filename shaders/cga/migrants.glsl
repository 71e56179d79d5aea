// Emigrant candidates for the island model (src/cga/migrants.c): work-group g takes cells
// g * u_chunk .. + u_chunk - 1 of the fitness texture and writes its best u_m and its worst u_m
// cells (cell, fitness bits) to the storage buffer, so that migration reads back groups x 2m
// pairs instead of the whole fitness. Compute only: no fragment pass does this. Its C twin is
// islands_select (src/islands/policy.c), whose order it keeps exactly: a score is sign * f
// with NaN the worst; best = higher score, then lower cell; worst = lower score, then higher
// cell. Scores compare as ordered integers (no float compare, so no driver's flush of
// denormals can reorder them; -0 and +0 are made equal, as they are on the host). The union
// of the groups' exact lists holds the population's best m and worst m.
//
// A round picks the next best and the next worst of the chunk: every invocation scans its
// cells (strided, held in shared memory) for the first one after the last pick, then a tree
// reduction in shared memory. min(m, chunk) rounds of ceil(chunk / LOCAL) + log2(LOCAL) loop
// steps.
layout(std140) uniform pass_uniforms {
    int u_cells;   // W * H
    int u_width;   // W, to find a cell's texel
    int u_m;       // candidates per list and group (<= 32, GLEVO_CGA_MAX_CANDIDATES)
    int u_chunk;   // cells per group (<= MIGRANTS_CHUNK)
    uint u_negate; // 1: minimise (score = -f)
    uint u_pad0, u_pad1, u_pad2; // the block is 32 bytes on every driver
};
uniform sampler2D t_fitness;
layout(std430) writeonly buffer migrant_candidates { uvec2 candidate[]; };
layout(local_size_x = MIGRANTS_LOCAL) in;

const uint NONE = 0xFFFFFFFFu;
shared uint s_key[MIGRANTS_CHUNK];
shared uvec2 s_best[MIGRANTS_LOCAL], s_worst[MIGRANTS_LOCAL]; // (key, cell in the chunk)

// The score's bits mapped so that unsigned order is score order.
uint score_key(float f)
{
    uint b = floatBitsToUint(f);
    if ((b & 0x7FFFFFFFu) > 0x7F800000u) b = 0xFF800000u; // NaN: -infinity
    else if (u_negate != 0u) b ^= 0x80000000u;
    if ((b & 0x7FFFFFFFu) == 0u) b = 0u;                  // -0 == +0
    return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

// a before b in the best-first order; a candidate with cell NONE is after everything.
bool best_first(uvec2 a, uvec2 b)
{
    if (a.y == NONE || b.y == NONE) return a.y != NONE && b.y == NONE;
    return a.x != b.x ? a.x > b.x : a.y < b.y;
}

bool worst_first(uvec2 a, uvec2 b)
{
    if (a.y == NONE || b.y == NONE) return a.y != NONE && b.y == NONE;
    return a.x != b.x ? a.x < b.x : a.y > b.y;
}

// What the buffer holds for a pick: (cell, fitness bits), or (NONE, 0) for none (a chunk of
// fewer than m cells).
uvec2 found(int base, uvec2 pick)
{
    if (pick.y == NONE) return uvec2(NONE, 0u);
    int cell = base + int(pick.y);
    float f = texelFetch(t_fitness, ivec2(cell % u_width, cell / u_width), 0).r;
    return uvec2(uint(cell), floatBitsToUint(f));
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    int base = int(gl_WorkGroupID.x) * u_chunk;
    int count = min(u_chunk, u_cells - base);
    for (int k = int(lid); k < count; k += MIGRANTS_LOCAL) {
        int cell = base + k;
        s_key[k] = score_key(texelFetch(t_fitness, ivec2(cell % u_width, cell / u_width), 0).r);
    }
    barrier();
    uvec2 last_best = uvec2(0u, NONE), last_worst = uvec2(0u, NONE);
    uint out_best = gl_WorkGroupID.x * uint(u_m);
    uint out_worst = gl_NumWorkGroups.x * uint(u_m) + out_best;
    // A chunk of fewer than m cells stops after its cells (count is the same for the whole
    // group, so the barriers inside stay in uniform control flow).
    int rounds = min(u_m, count);
    for (int r = 0; r < rounds; ++r) {
        // This invocation's next pick: the first of its cells after the last pick.
        uvec2 b = uvec2(0u, NONE), w = uvec2(0u, NONE);
        for (int k = int(lid); k < count; k += MIGRANTS_LOCAL) {
            uvec2 c = uvec2(s_key[k], uint(k));
            if ((r == 0 || best_first(last_best, c)) && best_first(c, b)) b = c;
            if ((r == 0 || worst_first(last_worst, c)) && worst_first(c, w)) w = c;
        }
        s_best[lid] = b;
        s_worst[lid] = w;
        barrier();
        for (uint half_size = uint(MIGRANTS_LOCAL) / 2u; half_size > 0u; half_size /= 2u) {
            if (lid < half_size) {
                if (best_first(s_best[lid + half_size], s_best[lid]))
                    s_best[lid] = s_best[lid + half_size];
                if (worst_first(s_worst[lid + half_size], s_worst[lid]))
                    s_worst[lid] = s_worst[lid + half_size];
            }
            barrier();
        }
        last_best = s_best[0];
        last_worst = s_worst[0];
        if (lid == 0u) {
            candidate[out_best + uint(r)] = found(base, last_best);
            candidate[out_worst + uint(r)] = found(base, last_worst);
        }
        barrier(); // every invocation has read s_best[0] before the next round writes it
    }
    if (lid == 0u)
        for (int r = rounds; r < u_m; ++r) {
            candidate[out_best + uint(r)] = uvec2(NONE, 0u);
            candidate[out_worst + uint(r)] = uvec2(NONE, 0u);
        }
}
