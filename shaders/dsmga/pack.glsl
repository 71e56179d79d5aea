// FastCounting on the GPU (Li & Yu 2017 §4.2): word w of gene g's row holds individuals 32w ..
// 32w+31 at gene g, bit i % 32 = individual i. t_bits holds the population's n x ell bytes
// (row-major, nonzero = 1) as uploaded from host memory, 4 bytes a R32UI texel in memory order
// (little-endian, GL reads client words natively), u_bits_width texels a row. C twin:
// glevo_dsm_pack in src/dsmga/population.c. dsm_pack_word is the body: the fragment pass (one
// fragment per (word, gene)) and the compute driver's dispatch below both call it.
#include "dsmga/common.glsl"

// Byte k of the population (individual k / ell, gene k % ell).
uint dsm_byte(int k)
{
    int t = k >> 2;
    uint word = texelFetch(t_bits, ivec2(t % u_bits_width, t / u_bits_width), 0).r;
    return (word >> uint((k & 3) * 8)) & 0xFFu;
}

// Word w of gene g's FastCounting row; the bits past individual n-1 stay 0.
uint dsm_pack_word(int w, int g)
{
    uint row = 0u;
    int count = min(32, u_n - 32 * w);
    for (int b = 0; b < count; ++b)
        if (dsm_byte((32 * w + b) * u_ell + g) != 0u) row |= 1u << uint(b);
    return row;
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out uint o_row; // x = word, y = gene, as the rows texture

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_row = dsm_pack_word(p.x, p.y);
}
#endif

#ifdef GLEVO_COMPUTE
// The compute driver's pack: the same per-(word, gene) body, 64 genes of one word a group, so
// neighbouring invocations read neighbouring bytes (mostly the same texel). A dispatch of its
// own, not fused into build_dsm_tiles.glsl's staging: a tile re-stages its genes' rows once per
// tile of the other gene (ell / 16 times at ell = 600), so fused, each row word would be
// packed ~38 times (32 byte fetches each) instead of once; and lossy FindClique needs the
// population's rows packed on their own anyway.
layout(local_size_x = 64) in;
layout(r32ui) writeonly uniform uimage2D i_rows;

void main()
{
    int g = int(gl_GlobalInvocationID.x), w = int(gl_GlobalInvocationID.y);
    if (g < u_ell) imageStore(i_rows, ivec2(w, g), uvec4(dsm_pack_word(w, g)));
}
#endif
