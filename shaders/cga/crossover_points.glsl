// Crossover-point texture TCP (paper §2.5 2, Step 1): (W/2) x H texels, per pair and channel
// a cut point in 0..L-1 with probability pc, else -1. C twin: src/cga/crossover.c.
#include "cga/common.glsl"
#include "rng/source.glsl"
uniform float u_pc;
layout(location = 0) out vec4 o_points[GENE_TEXTURES];

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint texel = uint(p.y * (u_grid.x / 2) + p.x);
    for (int t = 0; t < GENE_TEXTURES; ++t) {
        uvec4 prob = rng_words(uvec2(p), texel, PASS_XPOINTS, uint(2 * t));
        uvec4 cut = rng_words(uvec2(p), texel, PASS_XPOINTS, uint(2 * t + 1));
        vec4 o;
        for (int c = 0; c < 4; ++c)
            o[c] = rng_u01(prob[c]) < u_pc ? float(rng_below(cut[c], uint(u_bits))) : -1.0;
        o_points[t] = o;
    }
}
