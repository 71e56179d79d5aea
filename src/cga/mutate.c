/* C twin of shaders/cga/mutate.glsl. Every bit of every gene flips with probability pm (paper
 * §2.5 3, "loop over all binary digits"), sampled one of two ways with the same distribution:
 * per bit, one random word per bit and channel (the paper's); or by skipping, one word per
 * flip: the gap to the next flipped bit is geometric, found by comparing the word's uniform
 * with flip_cdf (float comparisons only, so GLSL and C agree exactly). */
#include <math.h>

#include "cga/passes.h"
#include "glevo/bits.h"

void cga_mutation_init(cga_mutation *m, glevo_cga_mutation mode, double pm)
{
    m->mode = mode;
    m->pm = (float)pm;
    for (int k = 1; k <= CGA_MAX_GENE_BITS; ++k)
        m->flip_cdf[k - 1] = (float)(-expm1((double)k * log1p(-fmin(pm, 1.0 - 1e-16))));
    if (pm >= 1.0)
        for (int k = 0; k < CGA_MAX_GENE_BITS; ++k) m->flip_cdf[k] = 1.0f;
    m->log2_keep = pm >= 1.0 ? -INFINITY : (float)(log1p(-pm) / log(2.0));
}

static void mutate_per_bit(const cga_layout *l, const glevo_rng_source *rng, float pm, int t,
                           int x, int y, float *g)
{
    uint32_t texel = (uint32_t)(y * l->width + x);
    for (int b = 0; b < l->bits; ++b) {
        glevo_u32x4 r = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel, CGA_PASS_MUTATE,
                                        (uint32_t)(t * 32 + b));
        for (int c = 0; c < 4; ++c)
            if (4 * t + c < l->dim && glevo_rng_u01(r.v[c]) < pm) g[c] = glevo_fbit_flip(g[c], b);
    }
}

/* Bits of texture t are numbered q = c * L + b over its used channels. */
static void mutate_skip(const cga_layout *l, const glevo_rng_source *rng, const float *cdf,
                        int t, int x, int y, float *g)
{
    uint32_t texel = (uint32_t)(y * l->width + x);
    int channels = l->dim - 4 * t < 4 ? l->dim - 4 * t : 4;
    int n = channels * l->bits, pos = 0, word = 4;
    uint32_t draw = 0;
    glevo_u32x4 r = {{0, 0, 0, 0}};
    while (pos < n) {
        if (word == 4) {
            r = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel, CGA_PASS_MUTATE,
                                (uint32_t)(t * 32) + draw++);
            word = 0;
        }
        float u = glevo_rng_u01(r.v[word++]);
        int remaining = n - pos;
        if (!(u < cdf[remaining - 1])) break;
        int lo = 0, hi = remaining - 1; /* first k with u < cdf[k] */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (u < cdf[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        pos += lo;
        g[pos / l->bits] = glevo_fbit_flip(g[pos / l->bits], pos % l->bits);
        pos += 1;
    }
}

void cga_mutate_cpu(const cga_layout *l, const glevo_rng_source *rng, const cga_mutation *m,
                    const float *genes, float *out)
{
    for (int t = 0; t < l->textures; ++t)
        for (int y = 0; y < l->height; ++y)
            for (int x = 0; x < l->width; ++x) {
                const float *g = genes + cga_texel(l, t, x, y);
                float *o = out + cga_texel(l, t, x, y);
                for (int c = 0; c < 4; ++c) o[c] = g[c];
                if (m->mode == GLEVO_MUTATION_SKIP)
                    mutate_skip(l, rng, m->flip_cdf, t, x, y, o);
                else
                    mutate_per_bit(l, rng, m->pm, t, x, y, o);
            }
}
