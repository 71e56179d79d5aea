// FindClique setup (Li & Yu 2017 Algorithm 3, first lines): fragment (x = g, y = s) holds the
// connection of gene g to the set {s} and its random tie-break priority. C twin:
// glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_conn;
layout(location = 1) out uint o_prio;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_conn = p.x == p.y ? CLIQUE_USED : quantize_mi(texelFetch(t_dsm, p, 0).r);
    o_prio = clique_priority(p.y, p.x);
}
