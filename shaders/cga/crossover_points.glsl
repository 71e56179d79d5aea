// Crossover-point texture TCP (paper §2.5 2, Step 1): (W/2) x H texels, per pair and channel
// a cut point in 0..L-1 with probability pc, else -1. C twin: src/cga/crossover.c.
#include "cga/common.glsl"
#include "rng/source.glsl"

// The cut points of gene texture t for the pair at (pair.x, y) of the (W/2) x H grid.
vec4 cga_cut(ivec2 pair, int t)
{
    uint texel = uint(pair.y * (u_grid.x / 2) + pair.x);
    uvec4 prob = rng_words(uvec2(pair), texel, PASS_XPOINTS, uint(2 * t));
    uvec4 cut = rng_words(uvec2(pair), texel, PASS_XPOINTS, uint(2 * t + 1));
    vec4 o;
    for (int c = 0; c < 4; ++c)
        o[c] = rng_u01(prob[c]) < u_pc ? float(rng_below(cut[c], uint(u_bits))) : -1.0;
    return o;
}

#if defined(GLEVO_FRAGMENT) && !defined(CGA_BODIES_ONLY)
layout(location = 0) out vec4 o_points[GENE_TEXTURES];

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
#define CGA_CUT(t) o_points[t] = cga_cut(p, t);
    CGA_EACH_TEXTURE(CGA_CUT)
}
#endif
