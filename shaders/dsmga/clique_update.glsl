// After a pick (Li & Yu 2017 Algorithm 3, last lines): fragment (x = g, y = s) adds the
// picked gene's fixed-point MI to g's connection, or marks g used. An ended set marks all.
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_conn;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint b = texelFetch(t_ils, ivec2(u_step, p.y), 0).r;
    uint c = texelFetch(t_conn, p, 0).r;
    if (b == CLIQUE_END || c == CLIQUE_USED || uint(p.x) == b) { o_conn = CLIQUE_USED; return; }
    o_conn = c + quantize_mi(texelFetch(t_dsm, ivec2(p.x, int(b)), 0).r);
}
