// Lossy: after a pick, keep only the individuals also complementary at the picked gene.
// C twin: glevo_find_clique_cpu in src/dsmga/clique.c.
#include "dsmga/clique_common.glsl"
layout(location = 0) out uint o_mask;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint m = texelFetch(t_mask, p, 0).r;
    uint b = texelFetch(t_ils, ivec2(u_step, p.y), 0).r;
    if (b != CLIQUE_END) {
        int g = int(b);
        m &= clique_complement(t_pop, p.x, g, rep_flip(t_pop, g, representative(p.y, u_n)));
    }
    o_mask = m;
}
