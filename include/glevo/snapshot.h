/* Pictures of a cellular GA population (libpng): genes 1-3 as red, green, blue (one texel per
 * individual, the texture as the GPU holds it) beside the fitness as a heat map. */
#ifndef GLEVO_SNAPSHOT_H
#define GLEVO_SNAPSHOT_H

#include "glevo/cga.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes PATH atomically (a temporary file renamed into place): never a half-written image.
 * The image is (2 * W) x H pixels. */
glevo_status glevo_cga_snapshot_png(glevo_cga *cga, const char *path);
/* Lower level: writes an RGB8 image of w x h pixels atomically. */
glevo_status glevo_png_write_rgb(const char *path, const unsigned char *rgb, int w, int h);
/* The heat-map colour of t in [0, 1] (dark blue, through green, to yellow). */
void glevo_heat_colour(double t, unsigned char rgb[3]);

#ifdef __cplusplus
}
#endif
#endif
