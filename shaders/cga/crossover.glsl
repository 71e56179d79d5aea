// Crossover (paper §2.5 2, Step 2): texels 2i and 2i+1 of a row are a pair; per channel the
// child keeps its own bits 0..P-1 and takes bits P..L-1 from its partner (float-coded bit
// splice, the GeForce 6 had no integer ops). C twin: src/cga/crossover.c.
#include "cga/common.glsl"
#include "bits/fbits.glsl"

vec4 cga_crossover(vec4 self, vec4 other, vec4 cut)
{
    vec4 o;
    for (int c = 0; c < 4; ++c)
        o[c] = cut[c] < 0.0 ? self[c] : fbits_splice(self[c], other[c], int(cut[c]));
    return o;
}

#if defined(GLEVO_FRAGMENT) && !defined(CGA_BODIES_ONLY)
uniform sampler2D t_genes[GENE_TEXTURES];
uniform sampler2D t_points[GENE_TEXTURES];
layout(location = 0) out vec4 o_genes[GENE_TEXTURES];

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 partner = ivec2(p.x ^ 1, p.y);
    for (int t = 0; t < GENE_TEXTURES; ++t)
        o_genes[t] = cga_crossover(texelFetch(t_genes[t], p, 0),
                                   texelFetch(t_genes[t], partner, 0),
                                   texelFetch(t_points[t], ivec2(p.x / 2, p.y), 0));
}
#endif
