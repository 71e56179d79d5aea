// Shared by the FindClique fragment passes and the compute kernel dsmga/clique_grow.glsl: the
// pieces of one step of Li & Yu 2017 Algorithms 3/4 (fixed-point MI, tie-break order, the
// connection update, the lossy donor masks), the same arithmetic as glevo_find_clique_cpu,
// glevo_dsm_quantize, clique_priority and clique_representative (src/dsmga/).
#include "dsmga/common.glsl"
#include "rng/philox.glsl"
const uint CLIQUE_USED = 0xFFFFFFFFu; // in t_conn: gene already in the set (or set ended)
const uint CLIQUE_END = 0xFFFFFFFFu;  // in the ILS: the lossy set stopped before this step

// mi * 2^20 is exact in fp32; the conversion truncates, as the C cast does.
uint quantize_mi(float mi) { return mi > 0.0 ? uint(mi * 1048576.0) : 0u; }

// Random tie-break priority of gene g in the set started at s.
uint clique_priority(int s, int g)
{
    return philox4x32(uvec4(uint(g), u_generation, CLIQUE_PASS_TIE, uint(s)), u_key).x;
}

// Candidates are (connection, priority, gene): a beats b with the larger connection, then the
// larger priority, then the lower gene, the order in which the C twin's ascending scan keeps
// its first strict maximum. Any reduction order gives the same winner.
bool clique_beats(uvec3 a, uvec3 b)
{
    return a.x > b.x || (a.x == b.x && (a.y > b.y || (a.y == b.y && a.z < b.z)));
}

// Connection of gene g after `picked` joined the set (mi = DSM(picked, g)): used when g is the
// picked gene, unchanged when already used, else the fixed-point MI added (uint sums are
// exact in any order).
uint clique_grown(uint c, uint picked, int g, float mi)
{
    if (picked == CLIQUE_END || c == CLIQUE_USED || uint(g) == picked) return CLIQUE_USED;
    return c + quantize_mi(mi);
}

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

// Word w of the individuals complementary to the representative at gene g (flip from rep_flip).
uint clique_complement(usampler2D pop, int w, int g, uint flip)
{
    return texelFetch(pop, ivec2(w, g), 0).r ^ flip;
}

// Word w of the first donor mask of the set started at s: individuals complementary to its
// representative rep at s; the bits past individual n-1 cleared.
uint clique_mask_start(usampler2D pop, int w, int s, int rep)
{
    uint m = clique_complement(pop, w, s, rep_flip(pop, s, rep));
    if (w == u_words - 1 && (u_n % 32) != 0) m &= (1u << uint(u_n % 32)) - 1u;
    return m;
}
