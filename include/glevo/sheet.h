/* Contact sheets for reports: several PNG snapshots (e.g. glevo cga --snapshot DIR --every K)
 * tiled into one image, in the order given, row by row. */
#ifndef GLEVO_SHEET_H
#define GLEVO_SHEET_H

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GLEVO_SHEET_GAP 4 /* pixels of dark grey around and between tiles */

/* Reads the n PNG files (any libpng-readable colour type) and writes `out` (atomically) as an
 * RGB image of C x R tiles, C = min(columns, n), R = ceil(n / C), each tile the size of the
 * largest input (smaller ones top-left aligned): width C*tw + (C+1)*GAP, height R*th + (R+1)*GAP.
 * Fails naming the file that could not be read. */
glevo_status glevo_png_sheet(const char *const *pngs, int n, int columns, const char *out);
/* Size of a PNG file (to check sheets and snapshots). */
glevo_status glevo_png_size(const char *path, int *width, int *height);

#ifdef __cplusplus
}
#endif
#endif
