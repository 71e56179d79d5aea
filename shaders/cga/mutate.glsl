// Mutation (paper §2.5 3): each bit of each gene flips with probability pm. C twin:
// src/cga/mutate.c. Per bit (the paper's): one random word per bit and channel. MUTATION_SKIP:
// the same distribution with one word per flip, the gap to the next flipped bit found by
// comparing a uniform with flip_cdf(k - 1) = 1 - (1 - pm)^k (comparisons only: exact twins).
#include "cga/common.glsl"
#include "rng/source.glsl"

#if defined(GLEVO_COMPUTE) && defined(MUTATION_SKIP)
// The compute kernels read the table from shared memory: the binary search below indexes it
// differently in every lane, and a uniform block read at divergent addresses is serialised
// (skip mutation took 26 of cga.evolve's 54 us a generation at 10^6 cells on the H100).
shared float s_flip_cdf[96];

// Every invocation of the work-group (size invocations) calls it, before its first mask.
void cga_flip_cdf_share(uint lid, uint size)
{
    for (uint k = lid; k < 96u; k += size) s_flip_cdf[k] = u_flip_cdf[k >> 2u][k & 3u];
    memoryBarrierShared();
    barrier();
}
float flip_cdf(int k) { return s_flip_cdf[k]; }
#else
void cga_flip_cdf_share(uint lid, uint size) {}
float flip_cdf(int k) { return u_flip_cdf[k >> 2][k & 3]; }
#endif

// The bits that mutation flips in gene texture t of cell p, as a mask per channel. Per bit:
// bits first..end-1 only (the blocked kernel, cga/block.glsl, splits a gene's bits among
// invocations; masks OR together); skip sampling draws the whole texture's flips in order.
uvec4 cga_mutation_mask(ivec2 p, int t, int first, int end)
{
    uint texel = cell_index(p);
    uvec4 mask = uvec4(0u);
#ifdef MUTATION_SKIP
    int n = min(4, DIM - 4 * t) * u_bits;
    int pos = 0, word = 4;
    uint draw = 0u;
    uvec4 r = uvec4(0u);
    while (pos < n) {
        if (word == 4) {
            r = rng_words(uvec2(p), texel, PASS_MUTATE, uint(t * 32) + draw);
            draw += 1u;
            word = 0;
        }
        // Components picked by comparison, not r[word] or mask[c]: a vector indexed by a
        // variable goes through local memory on NVIDIA's compiler.
        float u = rng_u01(word == 0 ? r.x : word == 1 ? r.y : word == 2 ? r.z : r.w);
        word += 1;
        int remaining = n - pos;
        if (!(u < flip_cdf(remaining - 1))) break;
        // The gap: the smallest k with u < flip_cdf(k), by bisection. A logarithm puts it
        // within one of floor(log2(1 - u) / log2(1 - pm)) (u_skip.x: cga_mutation.log2_keep,
        // from double); where two compares confirm that bracket, the bisection runs in it,
        // else over all (nearly every warp takes this path; 2 % of a skip run at 10^6 cells on
        // the H100). The compares decide, so the gap is the twin's whatever the guess (the
        // WebGL2 page leaves u_skip 0: always the whole bisection).
        int lo = 0, hi = remaining - 1;
        int k = clamp(int(floor(log2(1.0 - u) / u_skip.x)), 0, remaining - 1);
        int a = max(k - 1, 0), b = min(k + 1, remaining - 1);
        if (u < flip_cdf(b) && (a == 0 || !(u < flip_cdf(a - 1)))) {
            lo = a;
            hi = b;
        }
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (u < flip_cdf(mid)) hi = mid;
            else lo = mid + 1;
        }
        pos += lo;
        int c = pos / u_bits;
        mask |= uvec4(equal(ivec4(c), ivec4(0, 1, 2, 3))) << uint(pos - c * u_bits);
        pos += 1;
    }
#else
    for (int b = first; b < end; ++b) {
        uvec4 r = rng_words(uvec2(p), texel, PASS_MUTATE, uint(t * 32 + b));
        for (int c = 0; c < 4; ++c)
            if (4 * t + c < DIM && rng_u01(r[c]) < u_pm) mask[c] |= 1u << uint(b);
    }
#endif
    return mask;
}

// Genes with the mask's bits flipped (24-bit integers held exactly in floats: exact).
vec4 cga_flip(vec4 g, uvec4 mask) { return vec4(uvec4(g) ^ mask); }

// Gene texture t of cell p after mutation.
vec4 cga_mutate(ivec2 p, int t, vec4 g) { return cga_flip(g, cga_mutation_mask(p, t, 0, u_bits)); }

#if defined(GLEVO_FRAGMENT) && !defined(CGA_BODIES_ONLY)
uniform sampler2D t_genes[GENE_TEXTURES];
layout(location = 0) out vec4 o_genes[GENE_TEXTURES];

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
#define CGA_MUTATE(t) o_genes[t] = cga_mutate(p, t, texelFetch(t_genes[t], p, 0));
    CGA_EACH_TEXTURE(CGA_MUTATE)
}
#endif
