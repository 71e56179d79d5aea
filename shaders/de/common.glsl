// Shared by the DE passes and kernels: the uniform block, the population layout, and the
// pass bodies for one gene (mutation, crossover, bound repair, the trial gene) and one
// individual (its random choices), re-derived from the counter RNG (no mutant or trial
// textures). The fragment mains (trial.glsl, select.glsl) and the compute kernels
// (evolve.glsl, evolve_resident.glsl) call these same functions. C twins: src/de/trial.h
// (de_mutant_gene, de_from_mutant, de_trial_gene), src/de/select.h (de_accept,
// de_best_index); the block's C struct is de_uniforms in src/de/de_internal.h.
//
// Layout: u_per_row individuals per texture row, each D consecutive R32F texels, so
// individual i, gene j sits at ((i % P) * D + j, i / P); fitness texel (i % P, i / P) is RG32F
// (fitness, accept flag of the last trial). Genes are y = x - o (src/de/de_stream.h).
// DE_STRATEGY: 0 rand/1/bin, 1 best/1/bin, 2 current-to-best/1/bin, 3 rand/1/exp.
layout(std140) uniform pass_uniforms {
    uvec2 u_key;            // (seed, GLEVO_DE_STREAM)
    uint u_generation;      // the (first) generation of this pass or dispatch
    int u_np;
    int u_dim;
    int u_per_row;
    float u_F;
    float u_CR;
    float u_shift_add;
    uint u_generations;     // generations of one dispatch (evolve_resident.glsl)
    uint u_pad1, u_pad2;
};
#include "de/stream.glsl"

// Every DE program shares one texture-unit table (src/de/gpu.c), so all are declared here; a
// pass that does not read one leaves it inactive.
uniform sampler2D t_population;
uniform sampler2D t_bounds;  // D x 1 RG32F: per-gene (lower, upper) in y coordinates
uniform sampler2D t_best;    // 1 x 1 (value, x, y, present) from the reduction (best strategies)
uniform sampler2D t_fitness; // (fitness, accept flag of the last trial)
uniform usampler2D t_choice; // the trial pass's (r1, r2, r3, jrand | L << 16)

#ifdef DE_MAXIMIZE
#define DE_WORST uintBitsToFloat(0xFF800000u)
bool de_accept(float trial, float target) { return trial >= target; }
#else
#define DE_WORST uintBitsToFloat(0x7F800000u)
bool de_accept(float trial, float target) { return trial <= target; }
#endif

// Bit test rather than isnan(): optimizing compilers may assume NaN never happens.
bool de_is_nan(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }

// Does (a, ia) rank before (b, ib) in de_best_index's order? Numbers before NaN, then the
// better value, then the lower index: a total order, so any reduction tree finds the same
// individual as the C twin's left-to-right scan.
bool de_better(float a, uint ia, float b, uint ib)
{
    bool an = de_is_nan(a), bn = de_is_nan(b);
    if (an != bn) return bn;
#ifdef DE_MAXIMIZE
    if (!an && a != b) return a > b;
#else
    if (!an && a != b) return a < b;
#endif
    return ia < ib;
}

ivec2 de_texel(uint i, int j)
{
    int k = int(i);
    return ivec2((k % u_per_row) * u_dim + j, k / u_per_row);
}

ivec2 de_fitness_texel(uint i) { return ivec2(int(i) % u_per_row, int(i) / u_per_row); }

// The population the bodies read: t_population, unless a kernel keeps it in shared memory and
// defines DE_GENE_SHARED and its own de_gene before including this file.
#ifndef DE_GENE_SHARED
float de_gene(uint i, int j) { return texelFetch(t_population, de_texel(i, j), 0).r; }
#endif

uint de_best_index()
{
#if DE_STRATEGY == 1 || DE_STRATEGY == 2
    vec4 b = texelFetch(t_best, ivec2(0), 0);
    return uint(b.z) * uint(u_per_row) + uint(b.y);
#else
    return 0u;
#endif
}

// `precise` forbids fusing a + F * (b - c) into an FMA, so the GPU rounds exactly like the
// C twin (compiled without contraction) and both engines build bit-identical trial genes.
float de_mutant(uint i, uvec4 r, uint best, int j)
{
#if DE_STRATEGY == 1
    precise float v = de_gene(best, j) + u_F * (de_gene(r.x, j) - de_gene(r.y, j));
#elif DE_STRATEGY == 2
    float xi = de_gene(i, j);
    precise float v = (xi + u_F * (de_gene(best, j) - xi)) + u_F * (de_gene(r.x, j) - de_gene(r.y, j));
#else
    precise float v = de_gene(r.x, j) + u_F * (de_gene(r.y, j) - de_gene(r.z, j));
#endif
    return v;
}

// Exponential crossover length L in 1..D (offsets 0..L-1 from jrand take the mutant).
int de_exp_length(uint i, uint g)
{
    int L = 1;
    while (L < u_dim && de_u01(i, g, DE_PASS_CROSS, uint(L)) < u_CR) ++L;
    return L;
}

// An individual's choices for generation g, packed as (r1, r2, r3, jrand | L << 16): the
// trial pass stores them for the select pass, the resident kernel keeps them in shared memory.
uvec4 de_choose(uint i, uint g)
{
    uvec4 r = de_indices(i, g, uint(u_np), uint(u_dim));
#if DE_STRATEGY == 3
    r.w |= uint(de_exp_length(i, g)) << 16;
#endif
    return r;
}
uvec4 de_choice_indices(uvec4 c) { return uvec4(c.xyz, c.w & 0xFFFFu); }
int de_choice_length(uvec4 c) { return int(c.w >> 16); }

// Mutant gene with bound repair: outside [lower, upper] it is re-drawn uniformly.
float de_repaired_mutant(uint i, uint g, uvec4 r, uint best, int j)
{
    float v = de_mutant(i, r, best, j);
    vec2 b = texelFetch(t_bounds, ivec2(j, 0), 0).rg;
    if (!(v >= b.x && v <= b.y)) {
        float u = de_u01(i, g, DE_PASS_BOUND, uint(j));
        precise float w = b.x + u * (b.y - b.x);
        v = w;
    }
    return v;
}

// Crossover decision for gene j given the crossover uniform u_j (bin) or the length L (exp).
bool de_from_mutant(uvec4 r, int L, int j, float u)
{
#if DE_STRATEGY == 3
    return int((uint(j) + uint(u_dim) - r.w) % uint(u_dim)) < L;
#else
    return uint(j) == r.w || u < u_CR;
#endif
}

// Trial gene j of individual i (de_trial_gene): the repaired mutant's or the target's own.
// u is gene j's crossover uniform (de_u01(i, g, DE_PASS_CROSS, j); unused by exp).
float de_trial_gene(uint i, uint g, uvec4 r, uint best, int L, int j, float u)
{
    return de_from_mutant(r, L, j, u) ? de_repaired_mutant(i, g, r, best, j) : de_gene(i, j);
}
