/* C twin of shaders/cga/mutate.glsl: every bit of every gene flips with probability pm
 * (paper §2.5, "loop over all binary digits"); one random word per bit and channel. */
#include "cga/cga_internal.h"
#include "glevo/bits.h"

void cga_mutate_cpu(const cga_layout *l, const glevo_rng_source *rng, float pm,
                    const float *genes, float *out)
{
    for (int t = 0; t < l->textures; ++t)
        for (int y = 0; y < l->height; ++y)
            for (int x = 0; x < l->width; ++x) {
                uint32_t texel = (uint32_t)(y * l->width + x);
                const float *g = genes + cga_texel(l, t, x, y);
                float *o = out + cga_texel(l, t, x, y);
                for (int c = 0; c < 4; ++c) o[c] = g[c];
                for (int b = 0; b < l->bits; ++b) {
                    glevo_u32x4 r = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel,
                                                    CGA_PASS_MUTATE, (uint32_t)(t * 32 + b));
                    for (int c = 0; c < 4; ++c)
                        if (4 * t + c < l->dim && glevo_rng_u01(r.v[c]) < pm)
                            o[c] = glevo_fbit_flip(o[c], b);
                }
            }
}
