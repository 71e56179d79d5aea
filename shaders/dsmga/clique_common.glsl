// Shared by the FindClique passes: fixed-point MI and the lossy representative, the same
// arithmetic as glevo_dsm_quantize and clique_representative (src/dsmga/).
#include "dsmga/common.glsl"
#include "rng/philox.glsl"
const uint CLIQUE_USED = 0xFFFFFFFFu; // in t_conn: gene already in the set (or set ended)
const uint CLIQUE_END = 0xFFFFFFFFu;  // in the ILS: the lossy set stopped before this step

// mi * 2^20 is exact in fp32; the conversion truncates, as the C cast does.
uint quantize_mi(float mi) { return mi > 0.0 ? uint(mi * 1048576.0) : 0u; }

int representative(int s, int n)
{
    uint x = philox4x32(uvec4(uint(s), u_generation, CLIQUE_PASS_REP, 0u), u_key).x;
    return int(rng_below(x, uint(n)));
}

// All ones where the representative's bit at gene g is 1: (row ^ flip) marks individuals
// whose bit differs from the representative's (complementary at g).
uint rep_flip(usampler2D pop, int g, int rep)
{
    uint word = texelFetch(pop, ivec2(rep / 32, g), 0).r;
    return ((word >> uint(rep % 32)) & 1u) != 0u ? 0xFFFFFFFFu : 0u;
}
