// FindClique as one compute dispatch (Li & Yu 2017 Algorithms 3 and 4): work-group s grows the
// whole linkage set started at gene s, step after step, inside the kernel. The fragment driver
// needs about 3 ell passes for this (pick_partial, pick, update, lossy mask_update, each over
// all sets); here the state of a set never leaves the work-group:
// - gene g's connection (CLIQUE_USED once in the set) and tie-break priority live in the
//   registers of invocation g mod CLIQUE_LOCAL (CLIQUE_GENES of them each);
// - a step's argmax is a two-level reduction in shared memory: CLIQUE_SPLIT invocations each
//   take CLIQUE_LOCAL / CLIQUE_SPLIT candidates, then every invocation takes the CLIQUE_SPLIT
//   winners (two barriers a step; clique_beats' order makes any reduction order exact);
// - lossy: the donor mask (individuals complementary to the representative on the set so
//   far) lives in registers too, word w with invocation w mod CLIQUE_LOCAL; a shared flag
//   ORs the donor test (one barrier more).
// The ILS goes to a storage buffer: lossless row-major in the layout the host wants (set s at
// ils[s ell + t], column 0 its start gene), so it is read back straight into the caller's array;
// lossy column-major (column t at ils[(t-1) ell + s]), so the columns up to the longest set
// are a prefix to read back. A set that found no donor at column t writes CLIQUE_END there, so
// every column up to a set's end is written by this dispatch and the host can tell from a
// prefix alone whether it holds every set (src/dsmga/compute.c reads one). Steps call the fragment passes' functions (clique_common.glsl), so
// the sets equal glevo_find_clique_cpu's (src/dsmga/clique.c) exactly.
#include "dsmga/clique_common.glsl"
layout(local_size_x = CLIQUE_LOCAL) in;
layout(std430) writeonly buffer clique_ils { uint ils[]; };

const uint NO_GENE = 0xFFFFFFFFu;
shared uvec3 s_cand[CLIQUE_LOCAL];
shared uvec3 s_split[CLIQUE_SPLIT];
shared uint s_donor[2];

// The better of two candidates (connection, priority, gene); gene NO_GENE is no candidate.
uvec3 better(uvec3 a, uvec3 b)
{
    return a.z != NO_GENE && (b.z == NO_GENE || clique_beats(a, b)) ? a : b;
}

void main()
{
    int s = int(gl_WorkGroupID.x), lid = int(gl_LocalInvocationID.x);
    uint conn[CLIQUE_GENES], prio[CLIQUE_GENES];
    for (int k = 0; k < CLIQUE_GENES; ++k) {
        int g = lid + k * CLIQUE_LOCAL;
        bool gene = g < u_ell && g != s;
        conn[k] = gene ? quantize_mi(texelFetch(t_dsm, ivec2(g, s), 0).r) : CLIQUE_USED;
        prio[k] = gene ? clique_priority(s, g) : 0u;
    }
    bool lossy = u_lossy != 0;
    int rep = lossy ? representative(s, u_n) : 0;
    uint mask[CLIQUE_WORDS];
    for (int k = 0; k < CLIQUE_WORDS; ++k) {
        int w = lid + k * CLIQUE_LOCAL;
        mask[k] = lossy && w < u_words ? clique_mask_start(t_pop, w, s, rep) : 0u;
    }
    if (lid < 2) s_donor[lid] = 0u;
    if (lid == 0 && !lossy) ils[s * u_ell] = uint(s);

    int t = 1;
    for (; t < u_ell; ++t) {
        uvec3 best = uvec3(0u, 0u, NO_GENE);
        for (int k = 0; k < CLIQUE_GENES; ++k)
            if (conn[k] != CLIQUE_USED)
                best = better(uvec3(conn[k], prio[k], uint(lid + k * CLIQUE_LOCAL)), best);
        s_cand[lid] = best;
        memoryBarrierShared();
        barrier();
        if (lid < CLIQUE_SPLIT) {
            uvec3 b = uvec3(0u, 0u, NO_GENE);
            for (int i = lid; i < CLIQUE_LOCAL; i += CLIQUE_SPLIT) b = better(s_cand[i], b);
            s_split[lid] = b;
        }
        memoryBarrierShared();
        barrier();
        uvec3 pick = s_split[0];
        for (int i = 1; i < CLIQUE_SPLIT; ++i) pick = better(s_split[i], pick);
        if (pick.z == NO_GENE) break; // never before t = ell: a gene is left each step
        int g = int(pick.z);
        if (lossy) {
            uint flip = rep_flip(t_pop, g, rep), any = 0u;
            for (int k = 0; k < CLIQUE_WORDS; ++k) {
                int w = lid + k * CLIQUE_LOCAL;
                if (w < u_words) any |= mask[k] & clique_complement(t_pop, w, g, flip);
            }
            // The next step's flag: step t-1 read it before this step's first barrier.
            if (lid == 0) s_donor[(t + 1) & 1] = 0u;
            if (any != 0u) s_donor[t & 1] = 1u;
            memoryBarrierShared();
            barrier();
            if (s_donor[t & 1] == 0u) {
                if (lid == 0) ils[(t - 1) * u_ell + s] = CLIQUE_END;
                break;
            }
            for (int k = 0; k < CLIQUE_WORDS; ++k) {
                int w = lid + k * CLIQUE_LOCAL;
                if (w < u_words) mask[k] &= clique_complement(t_pop, w, g, flip);
            }
        }
        if (lid == 0) ils[lossy ? (t - 1) * u_ell + s : s * u_ell + t] = uint(g);
        for (int k = 0; k < CLIQUE_GENES; ++k) {
            int h = lid + k * CLIQUE_LOCAL;
            if (conn[k] != CLIQUE_USED)
                conn[k] = clique_grown(conn[k], uint(g), h, texelFetch(t_dsm, ivec2(h, g), 0).r);
        }
    }
}
