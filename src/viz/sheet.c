/* Contact sheet of PNG snapshots (glevo_png_sheet): libpng's simplified reader turns every
 * input into RGB8, tiles are copied into one canvas, the writer renames it into place. */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/sheet.h"
#include "glevo/snapshot.h"

static glevo_status png_begin(const char *path, png_image *img)
{
    memset(img, 0, sizeof *img);
    img->version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(img, path)) {
        glevo_status st = glevo_fail(GLEVO_ERR_IO, "cannot read PNG '%s' (%s)", path,
                                     img->message);
        png_image_free(img);
        return st;
    }
    return GLEVO_OK;
}

glevo_status glevo_png_size(const char *path, int *width, int *height)
{
    png_image img;
    glevo_status st = png_begin(path, &img);
    if (st) return st;
    *width = (int)img.width, *height = (int)img.height;
    png_image_free(&img);
    return GLEVO_OK;
}

glevo_status glevo_png_sheet(const char *const *pngs, int n, int columns, const char *out)
{
    if (n < 1) return glevo_fail(GLEVO_ERR_INVALID, "a sheet needs at least one image, got %d", n);
    if (columns < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "sheet columns %d is below 1", columns);
    int tw = 0, th = 0;
    for (int i = 0; i < n; ++i) {
        int w, h;
        glevo_status st = glevo_png_size(pngs[i], &w, &h);
        if (st) return st;
        if (w > tw) tw = w;
        if (h > th) th = h;
    }
    const int gap = GLEVO_SHEET_GAP;
    int cols = columns < n ? columns : n, rows = (n + cols - 1) / cols;
    int W = cols * tw + (cols + 1) * gap, H = rows * th + (rows + 1) * gap;
    if ((double)W * H > 1 << 28)
        return glevo_fail(GLEVO_ERR_INVALID, "sheet of %dx%d pixels is too large", W, H);
    unsigned char *canvas = malloc((size_t)W * H * 3);
    unsigned char *tile = malloc((size_t)tw * th * 3);
    if (!canvas || !tile) {
        free(canvas), free(tile);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %dx%d sheet", W, H);
    }
    memset(canvas, 40, (size_t)W * H * 3);
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < n && !st; ++i) {
        png_image img;
        if ((st = png_begin(pngs[i], &img))) break;
        img.format = PNG_FORMAT_RGB;
        if (!png_image_finish_read(&img, NULL, tile, (png_int_32)(tw * 3), NULL)) {
            st = glevo_fail(GLEVO_ERR_IO, "cannot read PNG '%s' (%s)", pngs[i], img.message);
            png_image_free(&img);
            break;
        }
        /* The canvas is top-down here; flipped below for the bottom-up writer. */
        int x0 = gap + (i % cols) * (tw + gap), y0 = gap + (i / cols) * (th + gap);
        for (unsigned y = 0; y < img.height; ++y)
            memcpy(canvas + ((size_t)(y0 + y) * W + x0) * 3, tile + (size_t)y * tw * 3,
                   (size_t)img.width * 3);
        png_image_free(&img);
    }
    if (!st) {
        /* glevo_png_write_rgb takes GL's order (row 0 at the bottom). */
        size_t stride = (size_t)W * 3;
        for (int y = 0; y < H / 2; ++y)
            for (size_t k = 0; k < stride; ++k) {
                unsigned char *a = canvas + (size_t)y * stride + k;
                unsigned char *b = canvas + (size_t)(H - 1 - y) * stride + k;
                unsigned char t = *a;
                *a = *b, *b = t;
            }
        st = glevo_png_write_rgb(out, canvas, W, H);
    }
    free(canvas), free(tile);
    return st;
}
