// Lossy FindClique setup: fragment (x = word w, y = start s) marks the individuals that are
// the complement of the set's representative at gene s (Li & Yu 2017 Algorithm 4).
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_mask;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_mask = clique_mask_start(t_pop, p.x, p.y, representative(p.y, u_n));
}
