/* A cellular GA population as a picture: left, genes 1-3 as RGB (as the texture holds them);
 * right, fitness as a heat map, best bright. Used by --snapshot and the guide. */
#include <math.h>
#include <stdlib.h>

#include "cga/cga_internal.h"
#include "glevo/snapshot.h"

glevo_status glevo_cga_snapshot_png(glevo_cga *cga, const char *path)
{
    const cga_layout *l = &cga->layout;
    size_t cells = (size_t)l->width * l->height;
    float *genes = malloc(cga->gene_floats * sizeof(float));
    float *fitness = malloc(cells * sizeof(float));
    unsigned char *rgb = malloc(cells * 2 * 3);
    glevo_status st = (!genes || !fitness || !rgb) ? glevo_fail(GLEVO_ERR_NOMEM, "out of memory")
                                                   : glevo_cga_read_population(cga, genes, fitness);
    if (!st) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < cells; ++i) {
            double s = l->sign * fitness[i];
            if (isfinite(s)) lo = fmin(lo, s), hi = fmax(hi, s);
        }
        double scale = (double)((1u << l->bits) - 1u);
        for (int y = 0; y < l->height; ++y)
            for (int x = 0; x < l->width; ++x) {
                unsigned char *left = rgb + ((size_t)y * 2 * l->width + (size_t)x) * 3;
                const float *g = genes + cga_texel(l, 0, x, y);
                for (int c = 0; c < 3; ++c)
                    left[c] = c < l->dim ? (unsigned char)(g[c] / scale * 255.0 + 0.5) : 0;
                double s = l->sign * fitness[(size_t)y * l->width + x];
                glevo_heat_colour(hi > lo ? (s - lo) / (hi - lo) : 1.0, left + 3 * l->width);
            }
        st = glevo_png_write_rgb(path, rgb, 2 * l->width, l->height);
    }
    free(genes), free(fitness), free(rgb);
    return st;
}
