/* PNG files for reports: writing an RGB image, reading a size, and contact sheets (several
 * PNGs, e.g. the snapshots of glevo cga --snapshot DIR --every K, tiled into one image in the
 * order given, row by row, each tile under a label naming it). Drawn with cairo. */
#ifndef GLEVO_SHEET_H
#define GLEVO_SHEET_H

#include "glevo/export.h"

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLEVO_SHEET_GAP 8           /* pixels of background around and between tiles */
#define GLEVO_SHEET_LABEL_HEIGHT 22 /* the label strip above each tile */

/* Reads the n PNG files (any colour type) and writes `out` (atomically; ".png", or ".svg"
 * through cairo's SVG surface, any other extension is GLEVO_ERR_INVALID) as C x R tiles,
 * C = min(columns, n), R = ceil(n / C). Every column is as wide as the widest input or label
 * (w), every tile as tall as the tallest input (h), smaller inputs top-left aligned: width
 * C*w + (C+1)*GAP, height R*(LABEL_HEIGHT + h) + (R+1)*GAP. labels[i] labels tile i; labels
 * NULL (or a NULL entry) takes the file's name: "generation-000040.png" reads "generation 40",
 * any other name its base name without ".png". Fails naming the file that could not be read. */
GLEVO_API glevo_status glevo_png_sheet(const char *const *pngs, const char *const *labels, int n,
                             int columns, const char *out);
/* Size of a PNG file (to check sheets and snapshots). */
GLEVO_API glevo_status glevo_png_size(const char *path, int *width, int *height);
/* Writes an RGB8 image of w x h pixels atomically; row 0 of rgb is the bottom (GL's order,
 * as glReadPixels returns it). */
GLEVO_API glevo_status glevo_png_write_rgb(const char *path, const unsigned char *rgb, int w, int h);

#ifdef __cplusplus
}
#endif
#endif
