// One step of FindClique (Li & Yu 2017 Algorithms 3/4), second half of the reduction:
// fragment y = s takes the best of the per-block winners and writes it to column u_step of
// the ILS. Lossy: CLIQUE_END when no individual is complementary to the representative on the
// set plus that gene (the mask texture holds the individuals complementary on the set so far).
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_gene;

void main()
{
    int s = int(gl_FragCoord.y);
    uvec4 best = uvec4(0u);
    for (int b = 0; b < u_blocks; ++b) {
        uvec4 c = texelFetch(t_part, ivec2(b, s), 0);
        if (c.w == 0u) continue;
        if (best.w == 0u || clique_beats(c.xyz, best.xyz)) best = c;
    }
    if (best.w == 0u) { o_gene = CLIQUE_END; return; }
    int g = int(best.z);
    if (u_lossy != 0) {
        uint flip = rep_flip(t_pop, g, representative(s, u_n));
        uint any = 0u;
        for (int w = 0; w < u_words; ++w)
            any |= texelFetch(t_mask, ivec2(w, s), 0).r & clique_complement(t_pop, w, g, flip);
        if (any == 0u) { o_gene = CLIQUE_END; return; }
    }
    o_gene = best.z;
}
