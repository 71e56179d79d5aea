// BuildDSM as one compute dispatch (Li & Yu 2017 §4.3): a work-group of DSM_TILE x DSM_TILE
// invocations computes one tile of gene pairs (a, b) on or above the diagonal and writes each
// value to (a, b) and (b, a). What the kernel changes against the fragment pass
// (build_dsm.glsl): the tile's FastCounting rows are staged in shared memory, DSM_TILE words a
// round, so a row word is read from the texture once a tile instead of once a pair, and the
// mirrored half of the matrix is written, not recomputed (the paper's triangle, Algorithm 2).
// The pair's arithmetic is build_dsm.glsl's dsm_pair_mi, so the DSM equals the fragment
// pass's and the C twin's (glevo_dsm_mi_cpu) bit for bit.
#include "dsmga/build_dsm.glsl"
layout(r32f) writeonly uniform image2D i_dsm;
layout(local_size_x = DSM_TILE, local_size_y = DSM_TILE) in;

// Row r of a staging array holds DSM_TILE words of gene (tile start + r); one word of padding
// keeps the b reads of an invocation row (different rows, same word) on different banks.
shared uint s_a[DSM_TILE][DSM_TILE + 1];
shared uint s_b[DSM_TILE][DSM_TILE + 1];

void main()
{
    ivec2 tile = ivec2(gl_WorkGroupID.xy); // x: tile of b genes, y: tile of a genes
    if (tile.y > tile.x) return;           // below the diagonal: the mirror writes it
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    int a0 = tile.y * DSM_TILE, b0 = tile.x * DSM_TILE;
    int a = a0 + l.y, b = b0 + l.x;
    int oa = 0, ob = 0, n11 = 0;
    for (int w0 = 0; w0 < u_words; w0 += DSM_TILE) {
        // invocation (x, y) stages word w0 + x of the a tile's and the b tile's row y
        int w = w0 + l.x;
        s_a[l.y][l.x] = w < u_words && a0 + l.y < u_ell ? texelFetch(t_rows, ivec2(w, a0 + l.y), 0).r : 0u;
        s_b[l.y][l.x] = w < u_words && b0 + l.y < u_ell ? texelFetch(t_rows, ivec2(w, b0 + l.y), 0).r : 0u;
        memoryBarrierShared();
        barrier();
        for (int k = 0; k < DSM_TILE; ++k) {
            uint ra = s_a[l.y][k], rb = s_b[l.x][k];
            oa += bitCount(ra);
            ob += bitCount(rb);
            n11 += bitCount(ra & rb);
        }
        barrier();
    }
    if (a >= u_ell || b >= u_ell || a > b) return;
    float v = a == b ? 0.0 : dsm_pair_mi(oa, ob, n11);
    imageStore(i_dsm, ivec2(b, a), vec4(v));
    imageStore(i_dsm, ivec2(a, b), vec4(v));
}
