// DE as compute, many generations a dispatch, for populations that fit one work-group's
// shared memory (chosen by src/de/compute.c; its pass is named de.evolve_resident). Small
// populations are launch-bound: at NP 50 a generation is a few microseconds of arithmetic
// but costs a dispatch and a barrier between dispatches. Here one work-group loads the
// population once, runs u_generations generations with work-group barriers between their
// phases, and stores it once. Each generation draws the same counters through the same
// bodies as evolve.glsl and the fragment passes (de_choose, de_trial_gene, de_fold_gene), so
// the populations equal theirs bit for bit.
//
// Shared memory: two copies of every individual's genes; bit 0 of s_where[i] names the
// current one. Trial genes go into the other copy and an accepted trial just flips the bit,
// so no phase copies genes and a generation needs two barriers (trial genes | fold, select and
// the next generation's choices). Best/1 strategies add a tree over the fitness (de_better,
// the C twin's order). Fitness is the ordered fold of evolve.glsl, for the same reason.
#define DE_GENE_SHARED 1
#define DE_QUADS ((DE_DIM + 3) / 4)
shared float s_pop[2 * DE_NP * DE_DIM];
shared uint s_where[DE_NP];   // bit 0: current copy; bit 1: accepted in the last generation
shared float s_fit[DE_NP];
shared uvec4 s_choice[DE_NP]; // this generation's choices (de_choose)

float de_gene(uint i, int j) { return s_pop[((s_where[i] & 1u) * uint(DE_NP) + i) * uint(DE_DIM) + uint(j)]; }

#include "de/common.glsl"
#include "de/fold.glsl"

layout(local_size_x = DE_LOCAL) in;
layout(r32f) writeonly uniform image2D i_population;
layout(rg32f) writeonly uniform image2D i_fitness;

// Where individual i's trial genes go: the copy that is not current.
uint de_spare(uint i) { return ((1u - (s_where[i] & 1u)) * uint(DE_NP) + i) * uint(DE_DIM); }

#if DE_STRATEGY == 1 || DE_STRATEGY == 2
shared uint s_rank[DE_LOCAL];

// de_best_index over s_fit: a strided scan per invocation, then a tree (DE_LOCAL is a power
// of two). de_better is a total order, so the tree finds the C twin's individual.
uint de_resident_best(uint t)
{
    uint b = t < uint(DE_NP) ? t : 0u;
    for (uint i = t + uint(DE_LOCAL); i < uint(DE_NP); i += uint(DE_LOCAL))
        if (de_better(s_fit[i], i, s_fit[b], b)) b = i;
    s_rank[t] = b;
    barrier();
    for (uint h = uint(DE_LOCAL) / 2u; h > 0u; h >>= 1u) {
        if (t < h) {
            uint o = s_rank[t + h], m = s_rank[t];
            if (de_better(s_fit[o], o, s_fit[m], m)) s_rank[t] = o;
        }
        barrier();
    }
    return s_rank[0];
}
#else
uint de_resident_best(uint t) { return 0u; }
#endif

void main()
{
    uint t = gl_LocalInvocationID.x;
    for (uint k = t; k < uint(DE_NP * DE_DIM); k += uint(DE_LOCAL))
        s_pop[k] = texelFetch(t_population, de_texel(k / uint(DE_DIM), int(k % uint(DE_DIM))), 0).r;
    for (uint i = t; i < uint(DE_NP); i += uint(DE_LOCAL)) {
        s_fit[i] = texelFetch(t_fitness, de_fitness_texel(i), 0).r;
        s_where[i] = 0u;
        s_choice[i] = de_choose(i, u_generation);
    }
    barrier();
    for (uint n = 0u; n < u_generations; ++n) {
        uint g = u_generation + n;
        uint best = de_resident_best(t);
        // Trial genes, four an invocation: one Philox call gives their crossover uniforms.
        for (uint q = t; q < uint(DE_NP * DE_QUADS); q += uint(DE_LOCAL)) {
            uint i = q / uint(DE_QUADS);
            int j0 = int(q % uint(DE_QUADS)) * 4;
            uvec4 c = s_choice[i];
            uvec4 r = de_choice_indices(c);
            int L = de_choice_length(c);
#if DE_STRATEGY == 3
            vec4 u = vec4(0.0);
#else
            vec4 u = de_u01x4(i, g, DE_PASS_CROSS, uint(j0 / 4));
#endif
            uint spare = de_spare(i);
            for (int k = 0; k < 4 && j0 + k < DE_DIM; ++k)
                s_pop[spare + uint(j0 + k)] = de_trial_gene(i, g, r, best, L, j0 + k, u[k]);
        }
        barrier();
        for (uint i = t; i < uint(DE_NP); i += uint(DE_LOCAL)) {
            uint spare = de_spare(i);
            vec4 acc = problem_init();
            for (int j = 0; j < DE_DIM; ++j) acc = de_fold_gene(acc, j, s_pop[spare + uint(j)]);
            float ft = problem_finish(acc, u_dim);
            bool a = de_accept(ft, s_fit[i]);
            uint cur = s_where[i] & 1u;
            if (a) s_fit[i] = ft;
            s_where[i] = a ? (1u - cur) | 2u : cur;
            s_choice[i] = de_choose(i, g + 1u);
        }
        barrier();
    }
    for (uint k = t; k < uint(DE_NP * DE_DIM); k += uint(DE_LOCAL)) {
        uint i = k / uint(DE_DIM);
        int j = int(k % uint(DE_DIM));
        imageStore(i_population, de_texel(i, j), vec4(de_gene(i, j), 0.0, 0.0, 0.0));
    }
    for (uint i = t; i < uint(DE_NP); i += uint(DE_LOCAL))
        imageStore(i_fitness, de_fitness_texel(i),
                   vec4(s_fit[i], float((s_where[i] >> 1) & 1u), 0.0, 0.0));
}
