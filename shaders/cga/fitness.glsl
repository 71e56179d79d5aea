// Fitness pass (paper Step 2, TF(i) = f(X_i)): decode each 24-bit gene onto the domain and
// stream the genes through the problem snippet. C twin: src/cga/fitness.c.
#include "cga/common.glsl"
#include <problem>
uniform sampler2D t_genes[GENE_TEXTURES];
uniform float u_lower;
uniform float u_step;  // (upper - lower) / (2^L - 1)
layout(location = 0) out vec4 o_fitness;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 acc = problem_init();
    for (int t = 0; t < GENE_TEXTURES; ++t) {
        vec4 g = texelFetch(t_genes[t], p, 0);
        for (int c = 0; c < 4; ++c) {
            int j = 4 * t + c;
            if (j < DIM) {
                // precise: no fused multiply-add, so x is rounded as the C twin rounds it.
                precise float x = u_lower + g[c] * u_step;
                acc = problem_step(acc, j, x);
            }
        }
    }
    o_fitness = vec4(problem_finish(acc, DIM), 0.0, 0.0, 1.0);
}
