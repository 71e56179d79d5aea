// Mutation pass (paper §2.5 3): each bit of each gene flips with probability pm, one random
// word per bit and channel. C twin: src/cga/mutate.c.
#include "cga/common.glsl"
#include "rng/source.glsl"
#include "bits/fbits.glsl"
uniform sampler2D t_genes[GENE_TEXTURES];
uniform float u_pm;
layout(location = 0) out vec4 o_genes[GENE_TEXTURES];

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint texel = cell_index(p);
    for (int t = 0; t < GENE_TEXTURES; ++t) {
        vec4 g = texelFetch(t_genes[t], p, 0);
        for (int b = 0; b < u_bits; ++b) {
            uvec4 r = rng_words(uvec2(p), texel, PASS_MUTATE, uint(t * 32 + b));
            for (int c = 0; c < 4; ++c)
                if (4 * t + c < DIM && rng_u01(r[c]) < u_pm) g[c] = fbit_flip(g[c], b);
        }
        o_genes[t] = g;
    }
}
