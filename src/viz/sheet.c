/* Contact sheet of PNG snapshots (glevo_png_sheet): every input is read by cairo, painted
 * unscaled into its tile under a label strip, and the sheet renamed into place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/sheet.h"
#include "viz/viz.h"
#include "core/args.h"

#define SHEET_BACKGROUND 0xFFFFFF
#define LABEL_PX 13.0

/* "dir/generation-000040.png" -> "generation 40"; "dir/x.png" -> "x". */
static void label_from_path(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long gen;
    char tail[8];
    if (sscanf(base, "generation-%ld%7s", &gen, tail) == 2 && !strcmp(tail, ".png")) {
        snprintf(buf, size, "generation %ld", gen);
        return;
    }
    snprintf(buf, size, "%s", base);
    size_t n = strlen(buf);
    if (n > 4 && !strcmp(buf + n - 4, ".png")) buf[n - 4] = '\0';
}

glevo_status glevo_png_sheet(const char *const *pngs, const char *const *labels, int n,
                             int columns, const char *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(pngs);
    ARG_NOT_NULL(out);
    if (n < 1) return glevo_fail(GLEVO_ERR_INVALID, "a sheet needs at least one image, got %d", n);
    if (columns < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "sheet columns %d is below 1", columns);
    cairo_surface_t **tiles = calloc((size_t)n, sizeof *tiles);
    char (*names)[256] = calloc((size_t)n, sizeof *names);
    if (!tiles || !names) {
        free(tiles), free(names);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a sheet of %d images", n);
    }
    glevo_status st = GLEVO_OK;
    viz_canvas canvas;
    int tw = 0, th = 0;
    /* Label widths need a context; a 1x1 surface measures them. */
    cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *pc = cairo_create(probe);
    viz_font_set(pc, VIZ_SANS_BOLD, LABEL_PX);
    for (int i = 0; i < n && !st; ++i) {
        if ((st = viz_png_read(pngs[i], &tiles[i]))) break;
        if (labels && labels[i]) snprintf(names[i], sizeof names[i], "%s", labels[i]);
        else label_from_path(pngs[i], names[i], sizeof names[i]);
        int w = cairo_image_surface_get_width(tiles[i]), h = cairo_image_surface_get_height(tiles[i]);
        int lw = (int)(viz_text_width(pc, names[i]) + 0.999) + 8;
        if (w > tw) tw = w;
        if (lw > tw) tw = lw;
        if (h > th) th = h;
    }
    cairo_destroy(pc);
    cairo_surface_destroy(probe);
    const int gap = GLEVO_SHEET_GAP, lh = GLEVO_SHEET_LABEL_HEIGHT;
    int cols = columns < n ? columns : n, rows = (n + cols - 1) / cols;
    int W = cols * tw + (cols + 1) * gap, H = rows * (lh + th) + (rows + 1) * gap;
    if (!st && (double)W * H > 1 << 28)
        st = glevo_fail(GLEVO_ERR_INVALID, "sheet of %dx%d pixels is too large", W, H);
    if (!st) st = viz_canvas_open(&canvas, out, W, H); /* .png or .svg, by the extension */
    if (!st) {
        cairo_t *cr = canvas.cr;
        viz_rgb(cr, SHEET_BACKGROUND);
        cairo_paint(cr);
        viz_font_set(cr, VIZ_SANS_BOLD, LABEL_PX);
        for (int i = 0; i < n; ++i) {
            int x0 = gap + (i % cols) * (tw + gap), y0 = gap + (i / cols) * (lh + th + gap);
            viz_rgb(cr, 0x222222);
            viz_text(cr, x0 + 2, y0 + lh - 6, 0, names[i]);
            cairo_set_source_surface(cr, tiles[i], x0, y0 + lh);
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
            cairo_paint(cr);
        }
        st = viz_canvas_close(&canvas);
    }
    for (int i = 0; i < n; ++i) cairo_surface_destroy(tiles[i]);
    free(tiles), free(names);
    return st;
}
