/* C twin of shaders/cga/select.glsl: roulette over the cell's neighbourhood (the paper's
 * "star-shaped local selection", §2.5), the winner replaces the cell. Weights are
 * sign * f shifted so the neighbourhood's worst gets a small positive share. */
#include <math.h>
#include <string.h>

#include "cga/passes.h"

void cga_select_cpu(const cga_layout *l, const glevo_rng_source *rng, const float *fitness,
                    const float *genes, float *out)
{
    int offsets[25][2];
    int n = cga_neighbourhood_offsets(l->neighbourhood, offsets);
    for (int y = 0; y < l->height; ++y)
        for (int x = 0; x < l->width; ++x) {
            float s[25], lo = INFINITY, hi = -INFINITY;
            int cx[25], cy[25];
            for (int i = 0; i < n; ++i) {
                cx[i] = (x + offsets[i][0] + l->width) % l->width;
                cy[i] = (y + offsets[i][1] + l->height) % l->height;
                s[i] = l->sign * fitness[(size_t)cy[i] * l->width + cx[i]];
                lo = fminf(lo, s[i]);
                hi = fmaxf(hi, s[i]);
            }
            float eps = fmaxf((hi - lo) * 0.01f, 1e-20f);
            float total = 0.0f;
            for (int i = 0; i < n; ++i) total += (s[i] - lo) + eps;
            uint32_t texel = (uint32_t)(y * l->width + x);
            glevo_u32x4 r = glevo_rng_words(rng, (uint32_t)x, (uint32_t)y, texel, CGA_PASS_SELECT, 0);
            float u = glevo_rng_u01(r.v[0]) * total;
            int pick = n - 1;
            float cum = 0.0f;
            for (int i = 0; i < n; ++i) {
                cum += (s[i] - lo) + eps;
                if (u < cum) {
                    pick = i;
                    break;
                }
            }
            for (int t = 0; t < l->textures; ++t)
                memcpy(out + cga_texel(l, t, x, y), genes + cga_texel(l, t, cx[pick], cy[pick]),
                       4 * sizeof(float));
        }
}
