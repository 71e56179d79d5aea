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

// The roulette of the cell p over its neighbourhood's fitness f[i] (offset(i) order): the
// index picked. One body for the one-generation drivers (fitness from a texture) and the
// blocked kernel (from shared memory, cga/block.glsl).
int cga_roulette(ivec2 p, float f[N])
{
    float s[N];
    float lo = 3.402823466e38, hi = -3.402823466e38;
    for (int i = 0; i < N; ++i) {
        s[i] = u_sign * f[i];
        lo = min(lo, s[i]);
        hi = max(hi, s[i]);
    }
    precise float eps = max((hi - lo) * 0.01, 1e-20);
    precise float total = 0.0;
    for (int i = 0; i < N; ++i) total += (s[i] - lo) + eps;
    precise float u = rng_u01(rng_words(uvec2(p), cell_index(p), PASS_SELECT, 0u).x) * total;
    int pick = N - 1;
    precise float cum = 0.0;
    for (int i = 0; i < N; ++i) {
        cum += (s[i] - lo) + eps;
        if (u < cum) {
            pick = i;
            break;
        }
    }
    return pick;
}

#ifndef CGA_BLOCK
uniform sampler2D t_fitness;

// The cell whose genes replace p's.
ivec2 cga_select(ivec2 p)
{
    float f[N];
    for (int i = 0; i < N; ++i) f[i] = texelFetch(t_fitness, torus(p + offset(i)), 0).r;
    return torus(p + offset(cga_roulette(p, f)));
}
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
