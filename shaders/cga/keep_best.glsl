// History best (paper Step 4) with the individual's genes: a (1 + GENE_TEXTURES) x 1 record,
// texel 0 = (value, x, y, generation + 1), then the genes. Takes this generation's best texel
// (the reduction's result) and the previous record, writes the other record texture
// (ping-pong). C twin: src/cga/keep_best.c.
#include "cga/common.glsl"
#if defined(GLEVO_COMPUTE) && !defined(REDUCE_GROUP)
#define REDUCE_GROUP 1024
#endif
#include "reduce/better.glsl"

// Whether a generation's best texel cur (value, x, y, present) replaces the record's texel 0
// old: the first one does, a number beats NaN, then strictly better only (ties keep the older).
// One body for the one-generation drivers below and the blocked fold (cga/block_fold.glsl).
bool cga_record_takes(vec4 old, vec4 cur)
{
    bool take = old.w == 0.0 || (is_nan(old.x) && !is_nan(cur.x));
    if (!take && cur.w != 0.0 && !is_nan(cur.x)) take = u_sign * cur.x > u_sign * old.x;
    return take;
}

// The record's texel i after generation u_generation_plus_one - 1 whose best is cur: from the
// record before (texel 0 head, texel i mine) and the best's genes of texel i - 1 (genes).
vec4 cga_record_next(int i, vec4 cur, vec4 head, vec4 mine, vec4 genes)
{
    if (!cga_record_takes(head, cur)) return mine;
    return i == 0 ? vec4(cur.xyz, u_generation_plus_one) : cga_gene_channels(i - 1, genes);
}

#ifndef CGA_BODIES_ONLY
uniform sampler2D t_reduced;  // fragment: the reduction's 1 x 1 result; compute: the
                              // fitness dispatch's per-group bests (cga/fitness.glsl)
uniform sampler2D t_record;
uniform sampler2D t_genes[GENE_TEXTURES];

vec4 cga_record_texel(int i, vec4 cur)
{
    vec4 g = vec4(0.0);
#define CGA_RECORD_GENES(t) if (t == i - 1) g = texelFetch(t_genes[t], ivec2(cur.yz), 0);
    CGA_EACH_TEXTURE(CGA_RECORD_GENES)
    return cga_record_next(i, cur, texelFetch(t_record, ivec2(0), 0),
                           texelFetch(t_record, ivec2(i, 0), 0), g);
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out vec4 o_record;
void main() { o_record = cga_record_texel(int(gl_FragCoord.x), texelFetch(t_reduced, ivec2(0), 0)); }
#endif
#ifdef GLEVO_COMPUTE
// One work-group finishes the reduction over the fitness dispatch's per-group bests (the
// second level, fused here to save a dispatch), then writes the record's texels.
layout(local_size_x = REDUCE_GROUP) in;
layout(rgba32f) writeonly uniform image2D i_record;
void main()
{
    if (u_evolve.x < 0) return; // a warm-up dispatch (src/cga/compute.c)
    ivec2 groups = (u_grid + FITNESS_SPAN - 1) / FITNESS_SPAN;
    int n = groups.x * groups.y;
    vec4 best = vec4(0.0);
    for (int k = int(gl_LocalInvocationIndex); k < n; k += REDUCE_GROUP) {
        vec4 c = texelFetch(t_reduced, ivec2(k % groups.x, k / groups.x), 0);
        if (better(c, best)) best = c;
    }
    best = reduce_group(best, gl_LocalInvocationIndex);
    int i = int(gl_LocalInvocationIndex);
    if (i <= GENE_TEXTURES) imageStore(i_record, ivec2(i, 0), cga_record_texel(i, best));
}
#endif
#endif
