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
    // b is read only when it names a gene (an ended set reads no DSM texel)
    float mi = b == CLIQUE_END ? 0.0 : texelFetch(t_dsm, ivec2(p.x, int(b)), 0).r;
    o_conn = clique_grown(c, b, p.x, mi);
}
