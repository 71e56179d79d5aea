// Selection (paper §2.5 1): roulette over the cell's neighbourhood, the winner's genes replace
// the cell. Weights: sign * f minus the neighbourhood's worst, plus 1% of the spread so the
// worst keeps a chance. C twin: src/cga/select.c (same order, same float operations).
#include "cga/common.glsl"
#include "rng/source.glsl"

#if NEIGHBOURHOOD == 1
const int N = 5;
const ivec2 OFFSETS[N] = ivec2[](ivec2(0, 0), ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
#else
#if NEIGHBOURHOOD == 2
const int R = 2;
#else
const int R = 1;
#endif
const int N = (2 * R + 1) * (2 * R + 1);
#endif

ivec2 offset(int i)
{
#if NEIGHBOURHOOD == 1
    return OFFSETS[i];
#else
    return ivec2(i % (2 * R + 1) - R, i / (2 * R + 1) - R);
#endif
}

// The roulette of the cell p over its neighbourhood: the index picked (offset(i) order). One
// body for the one-generation drivers (fitness from a texture) and the blocked kernel (from
// shared memory, cga/block.glsl): each defines cga_neighbour_fitness(q, i), the fitness of
// neighbour i of the cell stored at q. No arrays: each loop reads the neighbours
// again (a cached texel or shared memory), because NVIDIA's compiler kept the neighbourhood's
// arrays in local memory (36 vec4 an invocation in cga.evolve), whose traffic cost more than
// the reads; the values and the order of the sums are the same, so the pick is too.
float cga_neighbour_fitness(ivec2 q, int i);
int cga_roulette(ivec2 p, ivec2 q)
{
    float lo = 3.402823466e38, hi = -3.402823466e38;
    for (int i = 0; i < N; ++i) {
        float s = u_sign * cga_neighbour_fitness(q, i);
        lo = min(lo, s);
        hi = max(hi, s);
    }
    precise float eps = max((hi - lo) * 0.01, 1e-20);
    precise float total = 0.0;
    for (int i = 0; i < N; ++i) total += (u_sign * cga_neighbour_fitness(q, i) - lo) + eps;
    precise float u = rng_u01(rng_words(uvec2(p), cell_index(p), PASS_SELECT, 0u).x) * total;
    int pick = N - 1;
    precise float cum = 0.0;
    for (int i = 0; i < N; ++i) {
        cum += (u_sign * cga_neighbour_fitness(q, i) - lo) + eps;
        if (u < cum) {
            pick = i;
            break;
        }
    }
    return pick;
}

#ifndef CGA_BLOCK
uniform sampler2D t_fitness;
float cga_neighbour_fitness(ivec2 q, int i)
{
    return texelFetch(t_fitness, torus(q + offset(i)), 0).r;
}

// The cell whose genes replace p's.
ivec2 cga_select(ivec2 p) { return torus(p + offset(cga_roulette(p, p))); }
#endif

#if defined(GLEVO_FRAGMENT) && !defined(CGA_BODIES_ONLY)
uniform sampler2D t_genes[GENE_TEXTURES];
layout(location = 0) out vec4 o_genes[GENE_TEXTURES];

void main()
{
    ivec2 q = cga_select(ivec2(gl_FragCoord.xy));
#define CGA_COPY(t) o_genes[t] = texelFetch(t_genes[t], q, 0);
    CGA_EACH_TEXTURE(CGA_COPY)
}
#endif
