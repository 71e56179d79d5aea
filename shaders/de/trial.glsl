// DE pass 1 of 2, fused in the spirit of cudaDE_i (Qin et al. 2012, section 4): one fragment
// per individual derives r1, r2, r3, jrand and every trial gene from the counter RNG, evaluates
// f(trial) with the problem snippet and writes (next fitness, accept flag). Nothing else is
// stored: the select pass re-derives accepted genes. C twin: src/de/cpu.c (cpu_generation).
#include "de/common.glsl"
#include "de/fold.glsl"

layout(location = 0) out vec4 o_fitness;
// The choices (r1, r2, r3, jrand | L << 16) for the select pass: one texel per individual
// spares it a 10-round Philox call per accepted gene (measured on the H100).
layout(location = 1) out uvec4 o_choice;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int k = p.y * u_per_row + p.x;
    if (k >= u_np) {
        o_fitness = vec4(DE_WORST, 0.0, 0.0, 0.0);
        o_choice = uvec4(0u);
        return;
    }
    uint i = uint(k), g = u_generation;
    uvec4 c = de_choose(i, g);
    uvec4 r = de_choice_indices(c);
    int L = de_choice_length(c);
    uint best = de_best_index();
    vec4 acc = problem_init();
    vec4 u = vec4(0.0);
    for (int j = 0; j < u_dim; ++j) {
        // One Philox call serves four genes' crossover uniforms.
        if ((j & 3) == 0) u = de_u01x4(i, g, DE_PASS_CROSS, uint(j >> 2));
        acc = de_fold_gene(acc, j, de_trial_gene(i, g, r, best, L, j, u[j & 3]));
    }
    float ft = problem_finish(acc, u_dim);
    float fi = texelFetch(t_fitness, p, 0).r;
    bool a = de_accept(ft, fi);
    o_fitness = vec4(a ? ft : fi, a ? 1.0 : 0.0, 0.0, 0.0);
    o_choice = c;
}
