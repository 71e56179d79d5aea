// DE pass 1 of 2, fused in the spirit of cudaDE_i (Qin et al. 2012, section 4): one fragment
// per individual derives r1, r2, r3, jrand and every trial gene from the counter RNG, evaluates
// f(trial) with the problem snippet and writes (next fitness, accept flag). Nothing else is
// stored: the select pass re-derives accepted genes. C twin: src/de/cpu.c (cpu_generation).
#include "de/common.glsl"
#include <problem>

layout(location = 0) out vec4 o_fitness;
// The choices (r1, r2, r3, jrand | L << 16) for the select pass: one texel per individual
// spares it a 10-round Philox call per accepted gene (measured on the H100, see de_gpu.c).
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
    uint i = uint(k);
    uvec4 r = de_indices(i, uint(u_np), uint(u_dim));
    uint best = de_best_index();
#if DE_STRATEGY == 3
    int L = de_exp_length(i);
#else
    int L = 0;
#endif
    vec4 acc = problem_init();
    uvec4 w = uvec4(0u);
    for (int j = 0; j < u_dim; ++j) {
        // One Philox call serves four genes' crossover uniforms (de_u01 with m = j).
        if ((j & 3) == 0) w = philox4x32(uvec4(i, u_generation, DE_PASS_CROSS, uint(j >> 2)), u_key);
        int q = j & 3;
        float u = rng_u01(q == 0 ? w.x : q == 1 ? w.y : q == 2 ? w.z : w.w);
        float t = de_from_mutant(r, L, j, u) ? de_repaired_mutant(i, r, best, j) : de_gene(i, j);
        precise float z = t + u_shift_add;
        acc = problem_step(acc, j, z);
    }
    float ft = problem_finish(acc, u_dim);
    float fi = texelFetch(t_fitness, p, 0).r;
    bool a = de_accept(ft, fi);
    o_fitness = vec4(a ? ft : fi, a ? 1.0 : 0.0, 0.0, 0.0);
    o_choice = uvec4(r.xyz, r.w | (uint(L) << 16));
}
