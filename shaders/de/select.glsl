// DE pass 2 of 2: the next population, one fragment per gene. Rejected trials keep the
// target's gene; accepted ones re-derive the trial gene exactly as the trial pass did, from the
// individual's choices (r1, r2, r3, jrand, exp length) that the trial pass left in t_choice
// and the gene's crossover uniform (one Philox call and three texel reads per accepted gene
// instead of a trial texture). C twin: src/de/cpu.c (cpu_generation).
#include "de/common.glsl"

layout(location = 0) out vec4 o_gene;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int slot = p.x / u_dim;
    int j = p.x - slot * u_dim;
    int k = p.y * u_per_row + slot;
    float own = texelFetch(t_population, p, 0).r;
    if (k >= u_np || texelFetch(t_fitness, ivec2(slot, p.y), 0).g == 0.0) {
        o_gene = vec4(own, 0.0, 0.0, 0.0);
        return;
    }
    uint i = uint(k), g = u_generation;
    uvec4 c = texelFetch(t_choice, ivec2(slot, p.y), 0);
#if DE_STRATEGY == 3
    float u = 0.0;
#else
    float u = de_u01(i, g, DE_PASS_CROSS, uint(j));
#endif
    o_gene = vec4(de_trial_gene(i, g, de_choice_indices(c), de_best_index(), de_choice_length(c),
                                j, u), 0.0, 0.0, 0.0);
}
