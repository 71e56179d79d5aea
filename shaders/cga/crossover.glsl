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
    ivec2 q = ivec2(p.x / 2, p.y);
#define CGA_PAIR(t) texelFetch(t_genes[t], p, 0), texelFetch(t_genes[t], partner, 0)
#define CGA_CROSS(t) o_genes[t] = cga_crossover(CGA_PAIR(t), texelFetch(t_points[t], q, 0));
    CGA_EACH_TEXTURE(CGA_CROSS)
}
#endif
