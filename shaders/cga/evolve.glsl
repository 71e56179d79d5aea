// The compute driver's variation step, fused (cudaDE_i's idea applied to the cellular GA): one
// invocation per pair (2i, 2i+1) of a row runs selection for both cells, draws the pair's cut
// points, crosses the two winners and mutates both children, then stores them. The fragment
// driver needs four passes and three intermediate texture sets for this (selected, points,
// crossed); here the intermediates stay in registers, and the same pass bodies draw the same
// counters, so the children equal the fragment passes' bit for bit. Fitness stays its own
// dispatch (cga/fitness.glsl): it needs one image more than the 8 that NVIDIA's compute
// stage offers beside 8 gene images.
#define CGA_BODIES_ONLY 1
#include "cga/select.glsl"
#include "cga/crossover_points.glsl"
#include "cga/crossover.glsl"
#include "cga/mutate.glsl"
uniform sampler2D t_genes[GENE_TEXTURES];
layout(rgba32f) writeonly uniform image2D i_genes[GENE_TEXTURES];
layout(local_size_x = 8, local_size_y = 8) in;

void main()
{
    ivec2 pair = ivec2(gl_GlobalInvocationID.xy);
    cga_flip_cdf_share(gl_LocalInvocationIndex, 64u); // before any invocation returns
    if (pair.x >= u_grid.x / 2 || pair.y >= u_grid.y) return;
    ivec2 a = ivec2(2 * pair.x, pair.y), b = ivec2(2 * pair.x + 1, pair.y);
    ivec2 wa = cga_select(a), wb = cga_select(b);
    for (int t = 0; t < GENE_TEXTURES; ++t) {
        vec4 ga = texelFetch(t_genes[t], wa, 0), gb = texelFetch(t_genes[t], wb, 0);
        vec4 cut = cga_cut(pair, t);
        imageStore(i_genes[t], a, cga_mutate(a, t, cga_crossover(ga, gb, cut)));
        imageStore(i_genes[t], b, cga_mutate(b, t, cga_crossover(gb, ga, cut)));
    }
}
