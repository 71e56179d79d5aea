// The blocked kernel's history (cga/block.glsl): for each generation of the block in order,
// the best of the work-groups' bests (reduce/better.glsl's total order, so the texel the
// one-generation driver's reduction finds) goes through the record's rule (cga_record_takes,
// the one-generation drivers' body) with that individual's genes, which its group saved. One
// work-group; the record ping-pongs as keep_best.glsl's does. Host side: src/cga/block.c.
#define CGA_BODIES_ONLY 1
#define REDUCE_GROUP BLOCK_FOLD_LOCAL
#include "cga/keep_best.glsl"
uniform sampler2D t_record;
layout(std430) readonly buffer block_bests { vec4 best_entry[]; };
layout(rgba32f) writeonly uniform image2D i_record;
layout(local_size_x = REDUCE_GROUP) in;
shared vec4 s_record[1 + GENE_TEXTURES];

void main()
{
    int lid = int(gl_LocalInvocationIndex);
    int steps = u_block.x, groups = u_block.y * u_block.z;
    if (lid <= GENE_TEXTURES) s_record[lid] = texelFetch(t_record, ivec2(lid, 0), 0);
    memoryBarrierShared();
    for (int k = 0; k < steps; ++k) {
        vec4 best = vec4(0.0);
        for (int j = lid; j < groups; j += REDUCE_GROUP) {
            vec4 c = best_entry[(k * groups + j) * (1 + GENE_TEXTURES)];
            if (better(c, best)) best = c;
        }
        best = reduce_group(best, uint(lid)); // barriers: s_record is visible after it
        bool take = cga_record_takes(s_record[0], best);
        barrier(); // every invocation has read s_record[0]
        if (take && lid <= GENE_TEXTURES) {
            // The group that owns the best cell saved its genes.
            ivec2 owner = ivec2(best.yz) / ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
            int j = owner.y * u_block.y + owner.x;
            s_record[lid] = lid == 0 ? vec4(best.xyz, float(u_generation + uint(k) + 1u))
                                     : best_entry[(k * groups + j) * (1 + GENE_TEXTURES) + lid];
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid <= GENE_TEXTURES) imageStore(i_record, ivec2(lid, 0), s_record[lid]);
}
