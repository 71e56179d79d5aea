/* C twin of shaders/cga/fitness.glsl: decode each 24-bit gene to the domain and stream the
 * genes through the problem. Also the initial population, drawn on the host. */
#include "cga/passes.h"

void cga_init_cpu(const cga_layout *l, uint32_t seed, float *genes)
{
    for (int t = 0; t < l->textures; ++t)
        for (int y = 0; y < l->height; ++y) {
            /* A huge grid takes seconds: stop when asked (glevo_cga_create then refuses). */
            if (glevo_interrupt_pending()) return;
            for (int x = 0; x < l->width; ++x) {
                uint32_t texel = (uint32_t)(y * l->width + x);
                glevo_u32x4 r = glevo_philox4x32(texel, 0xFFFFFFFFu, CGA_PASS_INIT, (uint32_t)t,
                                                 seed, 0);
                float *g = genes + cga_texel(l, t, x, y);
                for (int c = 0; c < 4; ++c)
                    g[c] = 4 * t + c < l->dim ? (float)glevo_rng_below(r.v[c], 1u << l->bits) : 0.0f;
            }
        }
}

void cga_fitness_cpu(const cga_layout *l, const glevo_problem *p, const float *genes,
                     float *fitness)
{
    for (int y = 0; y < l->height; ++y)
        for (int x = 0; x < l->width; ++x) {
            glevo_vec4 acc = p->init();
            for (int j = 0; j < l->dim; ++j) {
                float gene = genes[cga_texel(l, j / 4, x, y) + (size_t)(j % 4)];
                float z = l->lower + gene * l->step;
                acc = p->step(acc, j, z);
            }
            fitness[(size_t)y * l->width + x] = p->finish(acc, l->dim);
        }
}
