// Shared by the DE passes: the uniform block, the population layout, mutation, crossover and
// bound repair for one gene, re-derived from the counter RNG (no mutant or trial textures).
// C twins: src/de/trial.h (de_mutant_gene, de_from_mutant, de_trial_gene); the block's C
// struct is de_uniforms in src/de/de_internal.h.
//
// Layout: u_per_row individuals per texture row, each D consecutive R32F texels, so
// individual i, gene j sits at ((i % P) * D + j, i / P); fitness texel (i % P, i / P) is RG32F
// (fitness, accept flag of the last trial pass). Genes are y = x - o (src/de/de_stream.h).
// DE_STRATEGY: 0 rand/1/bin, 1 best/1/bin, 2 current-to-best/1/bin, 3 rand/1/exp.
layout(std140) uniform pass_uniforms {
    uvec2 u_key;            // (seed, GLEVO_DE_STREAM)
    uint u_generation;
    int u_np;
    int u_dim;
    int u_per_row;
    float u_F;
    float u_CR;
    float u_shift_add;
    uint u_pad0, u_pad1, u_pad2;
};
#include "de/stream.glsl"

// Every DE program shares one texture-unit table (src/de/fragment.c), so all are declared
// here; a pass that does not read one leaves it inactive.
uniform sampler2D t_population;
uniform sampler2D t_bounds;  // D x 1 RG32F: per-gene (lower, upper) in y coordinates
uniform sampler2D t_best;    // 1 x 1 (value, x, y, present) from the reduction (best strategies)
uniform sampler2D t_fitness; // (fitness, accept flag of the last trial pass)
uniform usampler2D t_choice; // the trial pass's (r1, r2, r3, jrand | L << 16)

#ifdef DE_MAXIMIZE
#define DE_WORST uintBitsToFloat(0xFF800000u)
bool de_accept(float trial, float target) { return trial >= target; }
#else
#define DE_WORST uintBitsToFloat(0x7F800000u)
bool de_accept(float trial, float target) { return trial <= target; }
#endif

float de_gene(uint i, int j)
{
    int k = int(i);
    return texelFetch(t_population, ivec2((k % u_per_row) * u_dim + j, k / u_per_row), 0).r;
}

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
int de_exp_length(uint i)
{
    int L = 1;
    while (L < u_dim && de_u01(i, DE_PASS_CROSS, uint(L)) < u_CR) ++L;
    return L;
}

// Mutant gene with bound repair: outside [lower, upper] it is re-drawn uniformly.
float de_repaired_mutant(uint i, uvec4 r, uint best, int j)
{
    float v = de_mutant(i, r, best, j);
    vec2 b = texelFetch(t_bounds, ivec2(j, 0), 0).rg;
    if (!(v >= b.x && v <= b.y)) {
        float u = de_u01(i, DE_PASS_BOUND, uint(j));
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
