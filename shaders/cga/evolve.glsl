// The compute driver's variation step, fused (cudaDE_i's idea applied to the cellular GA): one
// invocation per pair (2i, 2i+1) of a row runs selection for both cells, draws the pair's cut
// points, crosses the two winners and mutates both children, then stores them. The fragment
// driver needs four passes and three intermediate texture sets for this (selected, points,
// crossed); here the intermediates stay in registers, and the same pass bodies draw the same
// counters, so the children equal the fragment passes' bit for bit.
//
// Built twice (src/cga/compute.c). Plain: fitness and the best-so-far record are dispatches of
// their own before this one (cga/fitness.glsl, cga/keep_best.glsl). EVOLVE_FIT (where the
// genes, fitness and record fit the 8 image units: up to 6 gene textures): one more
// work-group (the column past the tiles) folds a generation's bests into the record, for the
// generation this dispatch reads (the record rule, cga_record_next), so no keep_best
// dispatch runs. The bests are the fitness dispatch's (its groups' best texels and genes) or,
// where this kernel scores the children (u_evolve.y, per-bit mutation), its own tiles' of the
// dispatch before: the children's fitness is computed where they are born, into the other
// fitness texture, and each work-group's best child goes with its genes to `bests` (half
// u_evolve.z), so a generation is one dispatch. The host starts such a stretch with a fitness
// dispatch, and its last dispatch scores nothing: the fitness store then holds the last
// generation's before variation, as the plain path leaves it. At 10^6 cells on the H100 a
// per-bit generation took 105 us against 126 for the plain path's three dispatches
// (docs/performance-history.md, "2026-11-26: the cGA's one-generation path").
#ifdef REDUCE_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#define CGA_BODIES_ONLY 1
// First: a file is included once, where it first appears, even inside an #ifdef that is off.
#include "cga/common.glsl"
#ifdef EVOLVE_FIT
#define REDUCE_GROUP 64
#include "reduce/better.glsl"
#include "cga/fitness.glsl"
#endif
#include "cga/select.glsl"
#include "cga/crossover_points.glsl"
#include "cga/crossover.glsl"
#include "cga/mutate.glsl"
uniform sampler2D t_genes[GENE_TEXTURES];
layout(GENE_IMAGE_FORMAT) writeonly uniform image2D i_genes[GENE_TEXTURES];
layout(local_size_x = 8, local_size_y = 8) in;

#ifdef EVOLVE_FIT
#include "cga/keep_best.glsl"
uniform sampler2D t_record;
layout(r32f) writeonly uniform image2D i_fitness;
layout(rgba32f) writeonly uniform image2D i_record;
// Two halves of, per tile work-group, its best child (value, x, y, present) and its genes.
// (The fold does not sample t_genes for the best's genes: on llvmpipe (Mesa 22.3) sampling
// them in the fold's branch broke the tiles' reads of the same array.)
layout(std430) buffer evolve_bests { vec4 bests[]; };
const int ENTRY = 1 + GENE_TEXTURES;

// The fold: the best of the groups' bests in half 1 - u_evolve.z into the record. They are the
// tiles' of the dispatch before (u_evolve.x 1: groups of 16 x 8 cells) or the fitness
// dispatch's (2: FITNESS_SPAN squared, cga/fitness.glsl); a half holds u_evolve.w entries.
void fold(uint lid, ivec2 tiles)
{
    bool fitness_groups = u_evolve.x == 2;
    ivec2 grid = fitness_groups ? (u_grid + FITNESS_SPAN - 1) / FITNESS_SPAN : tiles;
    ivec2 cells = fitness_groups ? ivec2(FITNESS_SPAN) : ivec2(16, 8);
    int groups = grid.x * grid.y, from = (1 - u_evolve.z) * u_evolve.w;
    vec4 best = vec4(0.0);
    // Four loads a round, issued before any compare: the fold runs beside the tiles, and one
    // load at a time its chain (7 813 tiles' bests at 1000x1000) was as long as they with skip
    // mutation on the H100 (1000 generations 53.5 -> 50.5 ms; eight loads at a time 52.3 ms).
    // better() is a total order, so any split gives the same best; an absent texel (w 0) is
    // never better.
    for (int k = int(lid); k < groups; k += 4 * 64) {
        vec4 c0 = bests[(from + k) * ENTRY];
        vec4 c1 = k + 64 < groups ? bests[(from + k + 64) * ENTRY] : vec4(0.0);
        vec4 c2 = k + 128 < groups ? bests[(from + k + 128) * ENTRY] : vec4(0.0);
        vec4 c3 = k + 192 < groups ? bests[(from + k + 192) * ENTRY] : vec4(0.0);
        if (better(c0, best)) best = c0;
        if (better(c1, best)) best = c1;
        if (better(c2, best)) best = c2;
        if (better(c3, best)) best = c3;
    }
    best = reduce_group(best, lid);
    // The group that owns the best cell saved its genes.
    ivec2 owner = ivec2(best.yz) / cells;
    int i = int(lid), at = (from + owner.y * grid.x + owner.x) * ENTRY;
    if (i <= GENE_TEXTURES) {
        vec4 genes = i > 0 ? bests[at + i] : best; // texel 0 takes no genes
        imageStore(i_record, ivec2(i, 0), cga_record_next(i, best, texelFetch(t_record, ivec2(0), 0),
                                                           texelFetch(t_record, ivec2(i, 0), 0), genes));
    }
}
#endif

void main()
{
    if (u_evolve.x < 0) return; // a warm-up dispatch (src/cga/compute.c)
    uint lid = gl_LocalInvocationIndex;
#ifdef EVOLVE_FIT
    ivec2 tiles = ivec2(gl_NumWorkGroups.xy) - ivec2(1, 0);
    if (int(gl_WorkGroupID.x) == tiles.x) {
        if (gl_WorkGroupID.y == 0u && u_evolve.x != 0) fold(lid, tiles);
        return;
    }
    vec4 mine = vec4(0.0); // the pair's better child, for the group's best
    vec4 ka[GENE_TEXTURES], kb[GENE_TEXTURES];
#endif
    cga_flip_cdf_share(lid, 64u); // before any invocation leaves
    ivec2 pair = ivec2(gl_GlobalInvocationID.xy);
    ivec2 a = ivec2(2 * pair.x, pair.y), b = ivec2(2 * pair.x + 1, pair.y);
    if (pair.x < u_grid.x / 2 && pair.y < u_grid.y) {
        ivec2 wa = cga_select(a), wb = cga_select(b);
        for (int t = 0; t < GENE_TEXTURES; ++t) {
            vec4 ga = texelFetch(t_genes[t], wa, 0), gb = texelFetch(t_genes[t], wb, 0);
            vec4 cut = cga_cut(pair, t);
            vec4 ca = cga_mutate(a, t, cga_crossover(ga, gb, cut));
            vec4 cb = cga_mutate(b, t, cga_crossover(gb, ga, cut));
            imageStore(i_genes[t], a, ca);
            imageStore(i_genes[t], b, cb);
#ifdef EVOLVE_FIT
            ka[t] = ca;
            kb[t] = cb;
#endif
        }
#ifdef EVOLVE_FIT
        if (u_evolve.y != 0) {
            float fa = cga_fitness(ka), fb = cga_fitness(kb);
            imageStore(i_fitness, a, vec4(fa));
            imageStore(i_fitness, b, vec4(fb));
            vec4 va = vec4(fa, vec2(a), 1.0), vb = vec4(fb, vec2(b), 1.0);
            mine = better(vb, va) ? vb : va;
        }
#endif
    }
#ifdef EVOLVE_FIT
    if (u_evolve.y == 0) return; // uniform: the whole dispatch skips the reduction
    vec4 best = reduce_group(mine, lid);
    int group = int(gl_WorkGroupID.y) * tiles.x + int(gl_WorkGroupID.x);
    int at = (u_evolve.z * u_evolve.w + group) * ENTRY;
    if (lid == 0u) bests[at] = best;
    // The best cell's invocation saves its genes for the fold.
    bool mine_a = best.w != 0.0 && ivec2(best.yz) == a;
    bool mine_b = best.w != 0.0 && ivec2(best.yz) == b;
    for (int t = 0; t < GENE_TEXTURES; ++t)
        if (mine_a || mine_b) bests[at + 1 + t] = mine_a ? ka[t] : kb[t];
#endif
}
