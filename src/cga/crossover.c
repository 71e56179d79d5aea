/* C twins of shaders/cga/crossover_points.glsl and crossover.glsl: the paper's odd-even
 * pairing (§2.5, Steps 1-3). A (width/2) x height texture holds, per pair and channel, a cut
 * point in 0..L-1 with probability pc, else -1; child 2i takes bits 0..P-1 from parent 2i and
 * the rest from 2i+1, child 2i+1 the opposite. */
#include "cga/passes.h"
#include "glevo/bits.h"

void cga_crossover_points_cpu(const cga_layout *l, const glevo_rng_source *rng, float pc,
                              float *points)
{
    int half = l->width / 2;
    for (int t = 0; t < l->textures; ++t)
        for (int y = 0; y < l->height; ++y)
            for (int x = 0; x < half; ++x) {
                uint32_t texel = (uint32_t)(y * half + x);
                glevo_u32x4 prob = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel,
                                                   CGA_PASS_XPOINTS, (uint32_t)(2 * t));
                glevo_u32x4 cut = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel,
                                                  CGA_PASS_XPOINTS, (uint32_t)(2 * t + 1));
                float *p = points + (((size_t)t * l->height + (size_t)y) * half + (size_t)x) * 4;
                for (int c = 0; c < 4; ++c)
                    p[c] = glevo_rng_u01(prob.v[c]) < pc
                               ? (float)glevo_rng_below(cut.v[c], (uint32_t)l->bits)
                               : -1.0f;
            }
}

void cga_crossover_cpu(const cga_layout *l, const float *genes, const float *points, float *out)
{
    int half = l->width / 2;
    for (int t = 0; t < l->textures; ++t)
        for (int y = 0; y < l->height; ++y)
            for (int x = 0; x < l->width; ++x) {
                const float *self = genes + cga_texel(l, t, x, y);
                const float *partner = genes + cga_texel(l, t, x ^ 1, y);
                const float *p = points + (((size_t)t * l->height + (size_t)y) * half + (size_t)(x / 2)) * 4;
                float *o = out + cga_texel(l, t, x, y);
                for (int c = 0; c < 4; ++c)
                    o[c] = p[c] < 0.0f ? self[c] : glevo_fbits_splice(self[c], partner[c], (int)p[c]);
            }
}
