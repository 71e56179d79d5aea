// Lossy FindClique setup: fragment (x = word w, y = start s) marks the individuals that are
// the complement of the set's representative at gene s (Li & Yu 2017 Algorithm 4).
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_mask;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int rep = representative(p.y, u_n);
    uint m = texelFetch(t_pop, p, 0).r ^ rep_flip(t_pop, p.y, rep);
    if (p.x == u_words - 1 && (u_n % 32) != 0) m &= (1u << uint(u_n % 32)) - 1u;
    o_mask = m;
}
