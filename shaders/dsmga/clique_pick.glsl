// One step of FindClique (Li & Yu 2017 Algorithms 3/4, the reduction): fragment y = s picks
// the unused gene with the largest summed connection (ties: larger priority, then lower
// index) and writes it to column u_step of the ILS. Lossy: CLIQUE_END when no individual is
// complementary to the representative on the set plus that gene. One fragment loops over
// the ell genes: exact integer sums make the order irrelevant.
#include "dsmga/clique_common.glsl"
uniform usampler2D t_conn;
uniform usampler2D t_prio;
uniform usampler2D t_mask; // lossy only
uniform usampler2D t_pop;  // lossy only
uniform int u_ell;
uniform int u_n;
uniform int u_words;
uniform int u_lossy;
layout(location = 0) out uint o_gene;

void main()
{
    int s = int(gl_FragCoord.y);
    int best = -1;
    uint bc = 0u, bp = 0u;
    for (int g = 0; g < u_ell; ++g) {
        uint c = texelFetch(t_conn, ivec2(g, s), 0).r;
        if (c == CLIQUE_USED) continue;
        uint pr = texelFetch(t_prio, ivec2(g, s), 0).r;
        if (best < 0 || c > bc || (c == bc && pr > bp)) {
            best = g;
            bc = c;
            bp = pr;
        }
    }
    if (best < 0) { o_gene = CLIQUE_END; return; }
    if (u_lossy != 0) {
        uint flip = rep_flip(t_pop, best, representative(s, u_n));
        uint any = 0u;
        for (int w = 0; w < u_words; ++w)
            any |= texelFetch(t_mask, ivec2(w, s), 0).r & (texelFetch(t_pop, ivec2(w, best), 0).r ^ flip);
        if (any == 0u) { o_gene = CLIQUE_END; return; }
    }
    o_gene = uint(best);
}
