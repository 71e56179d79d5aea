// FindClique step, first half of the reduction (Li & Yu 2017 Algorithm 3, DoReduction):
// fragment (x = block b, y = start s) finds the best unused gene among genes
// [b·u_block, (b+1)·u_block) in the order of clique_beats. Blocks keep the fragment count at
// ell·ell/u_block so the GPU has work in parallel.
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uvec4 o_best; // (connection, priority, gene, found)

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int s = p.y, g0 = p.x * u_block, g1 = min(u_ell, g0 + u_block);
    uvec4 best = uvec4(0u, 0u, 0u, 0u);
    for (int g = g0; g < g1; ++g) {
        uint c = texelFetch(t_conn, ivec2(g, s), 0).r;
        if (c == CLIQUE_USED) continue;
        uvec3 cand = uvec3(c, texelFetch(t_prio, ivec2(g, s), 0).r, uint(g));
        if (best.w == 0u || clique_beats(cand, best.xyz)) best = uvec4(cand, 1u);
    }
    o_best = best;
}
