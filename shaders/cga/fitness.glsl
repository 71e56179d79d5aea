// Fitness (paper Step 2, TF(i) = f(X_i)): decode each 24-bit gene onto the domain and stream
// the genes through the problem snippet. C twin: src/cga/fitness.c. The compute driver calls
// cga_fitness on a child's genes inside the fused generation (cga/evolve.glsl).
#include "cga/common.glsl"
#include <problem>

float cga_fitness(vec4 g[GENE_TEXTURES])
{
    vec4 acc = problem_init();
    for (int t = 0; t < GENE_TEXTURES; ++t)
        for (int c = 0; c < 4; ++c) {
            int j = 4 * t + c;
            if (j < DIM) {
                // precise: no fused multiply-add, so x is rounded as the C twin rounds it.
                precise float x = u_lower + g[t][c] * u_step;
                acc = problem_step(acc, j, x);
            }
        }
    precise float f = problem_finish(acc, DIM);
    return f;
}

#ifndef CGA_BODIES_ONLY
uniform sampler2D t_genes[GENE_TEXTURES];

// The genes of the cell p into g (constant indices: GLSL ES 3.00, common.glsl).
#define CGA_FETCH(t) g[t] = texelFetch(t_genes[t], p, 0);

vec4 cga_fitness_texel(ivec2 p)
{
    vec4 g[GENE_TEXTURES];
    CGA_EACH_TEXTURE(CGA_FETCH)
    return vec4(cga_fitness(g), 0.0, 0.0, 1.0);
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out vec4 o_fitness;
void main() { o_fitness = cga_fitness_texel(ivec2(gl_FragCoord.xy)); }
#endif
#ifdef GLEVO_COMPUTE
// The compute driver's fitness dispatch, fused with the first level of the best-of-generation
// reduction (saving a dispatch and a re-read of the fitness, which decides the cost of small
// grids: each dispatch costs ~7-10 us to issue and fence on the H100). An invocation scores a
// 2 x 2 block of cells (so a 16 x 16 work-group's FITNESS_SPAN^2 cells share one reduction,
// ~7 of the dispatch's 20 us at 10^6 cells when each invocation had one) and writes their
// fitness; the group's best texel (value, x, y, present) goes to i_partial at the group's
// position, which cga/keep_best.glsl reduces, and with the best cell's genes to half
// u_evolve.z of `bests` (u_evolve.w entries a half), which the fused evolve kernel's fold reads
// (cga/evolve.glsl).
#define REDUCE_GROUP 256
#include "reduce/better.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(r32f) writeonly uniform image2D i_fitness;
layout(rgba32f) writeonly uniform image2D i_partial;
layout(std430) buffer evolve_bests { vec4 bests[]; };
void main()
{
    if (u_evolve.x < 0) return; // a warm-up dispatch (src/cga/compute.c)
    vec4 mine = vec4(0.0), g[GENE_TEXTURES], mine_g[GENE_TEXTURES];
    for (int j = 0; j < 4; ++j) {
        ivec2 p = 2 * ivec2(gl_GlobalInvocationID.xy) + ivec2(j & 1, j >> 1);
        if (p.x < u_grid.x && p.y < u_grid.y) {
            CGA_EACH_TEXTURE(CGA_FETCH)
            float f = cga_fitness(g);
            imageStore(i_fitness, p, vec4(f, 0.0, 0.0, 1.0));
            vec4 c = vec4(f, float(p.x), float(p.y), 1.0);
            if (better(c, mine)) {
                mine = c;
                mine_g = g;
            }
        }
    }
    vec4 best = reduce_group(mine, gl_LocalInvocationIndex);
    int group = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
    int at = (u_evolve.z * u_evolve.w + group) * (1 + GENE_TEXTURES);
    if (gl_LocalInvocationIndex == 0u) {
        imageStore(i_partial, ivec2(gl_WorkGroupID.xy), best);
        bests[at] = best;
    }
    if (best.w != 0.0 && mine.w != 0.0 && mine.yz == best.yz)
        for (int t = 0; t < GENE_TEXTURES; ++t) bests[at + 1 + t] = mine_g[t];
}
#endif
#endif
