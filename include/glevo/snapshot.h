/* Pictures of a cellular GA population, drawn with cairo: the genes as colour (genes 1-3 as
 * red, green, blue, one square per individual, the texture as the GPU holds it) beside the
 * fitness as a heat map. By default a labelled picture for people; with a scale, the raw
 * population (what a texture dump is). */
#ifndef GLEVO_SNAPSHOT_H
#define GLEVO_SNAPSHOT_H

#include "glevo/export.h"

#include "glevo/cga.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLEVO_SNAPSHOT_MIN_SIDE 512 /* the labelled picture's panels span at least this */

typedef struct glevo_snapshot_params {
    /* 0: the labelled picture: a title (problem, generation, best so far), panel labels
     * ("genes as RGB: x1, x2, x3", "fitness") and a colour bar saying which end is better,
     * the panels scaled by a whole factor (nearest neighbour, a texel stays a crisp square)
     * to at least GLEVO_SNAPSHOT_MIN_SIDE pixels on their long side.
     * N >= 1: the raw picture, N x N pixels per individual, no text: (2 W N) x (H N). */
    int scale;
} glevo_snapshot_params;

/* Writes PATH atomically (a temporary file renamed into place): never a half-written image.
 * Its extension decides the format: ".png", or ".svg" (cairo's SVG surface: text and
 * panels as vectors); any other is GLEVO_ERR_INVALID. params NULL: the labelled picture. Grid row 0 is the picture's bottom row, as in GL. */
GLEVO_API glevo_status glevo_cga_snapshot_png(glevo_cga *cga, const char *path,
                                    const glevo_snapshot_params *params);

#ifdef __cplusplus
}
#endif
#endif
