/* Internals of the picture code (snapshots, contact sheets, charts): fonts, text, the heat
 * ramp and atomic file output, all on cairo. Text uses DejaVu loaded through FreeType with
 * fixed rendering options, so a picture does not depend on the machine's fontconfig. */
#ifndef GLEVO_VIZ_H
#define GLEVO_VIZ_H

#include <cairo.h>

#include "core/output_file.h"
#include "glevo/status.h"

typedef enum viz_font { VIZ_SANS = 0, VIZ_SANS_BOLD = 1, VIZ_MONO = 2 } viz_font;

/* The TrueType file of f embedded in the library, or false when the build had no fonts. */
#include <stdbool.h>
#include <stddef.h>
bool viz_font_embedded(viz_font f, const unsigned char **data, size_t *size);

/* Selects font f at size px: the DejaVu files under $GLEVO_FONT_DIR when set, else the copies
 * embedded at build time (font_data.c), else the installed files, else cairo's "sans-serif". */
void viz_font_set(cairo_t *cr, viz_font f, double px);
/* Text with its baseline at y; align 0 = starts at x, 0.5 = centred, 1 = ends at x. */
void viz_text(cairo_t *cr, double x, double y, double align, const char *text);
double viz_text_width(cairo_t *cr, const char *text);
/* Rotated a quarter turn anticlockwise (a y-axis label), centred at (x, y). */
void viz_text_vertical(cairo_t *cr, double x, double y, const char *text);
void viz_rgb(cairo_t *cr, unsigned rgb); /* 0xRRGGBB */

/* The heat ramp of t in [0, 1] (viridis-like: dark purple, blue, green, yellow; readable in
 * grey and by most colour-blind readers): the same stops as shaders/demo/panel.glsl. */
void viz_heat(double t, unsigned char rgb[3]);
/* Fills the rectangle (x, y, w, h) with the heat ramp, 0 at (x0, y0) to 1 at (x1, y1): the
 * colour bars of snapshots and heat maps. */
void viz_heat_bar(cairo_t *cr, double x0, double y0, double x1, double y1, double x, double y,
                  double w, double h);

/* Writes an image surface as PNG to a temporary file renamed to path: never half-written. */
glevo_status viz_png_write(cairo_surface_t *image, const char *path);
/* Loads a PNG (any colour type) as an image surface; fails naming the file. */
glevo_status viz_png_read(const char *path, cairo_surface_t **out);
/* cairo's stream writer into a FILE * (the closure). */
cairo_status_t viz_stream_write(void *closure, const unsigned char *data, unsigned int length);
/* Finishes a surface streaming into out and commits it into place (drops it on failure). */
glevo_status viz_finish_file(cairo_surface_t *surface, output_file *out);

/* ---- charts (chart.c, chart_heat.c) ---- */
#include <stdbool.h>

/* A chart's drawing target: an SVG surface on a temporary file, or an image surface that
 * becomes a PNG; the extension of path decides. close renames into place (or removes). */
typedef struct viz_canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    output_file out; /* SVG only: the stream the surface writes */
    const char *path;
    bool svg;
} viz_canvas;
glevo_status viz_canvas_open(viz_canvas *c, const char *path, int width, int height);
glevo_status viz_canvas_close(viz_canvas *c);

extern const unsigned viz_palette[8]; /* 0xRRGGBB, distinct for colour-blind readers too */
/* Title and subtitle at the top left; the caption at the bottom left. */
void viz_chart_titles(cairo_t *cr, const char *title, const char *subtitle, unsigned rgb,
                      unsigned subtle);
void viz_chart_caption(cairo_t *cr, int height, const char *caption, unsigned rgb);
/* Width the titles and caption need (their longest line plus margins). */
double viz_chart_text_width(const char *title, const char *subtitle, const char *caption);
/* A tick label: decades on log axes as 0.01 ... 10000 (1e5 beyond), others %g. */
void viz_tick_label(char *buf, size_t size, double value, const char *suffix);
/* A 1-2-5 step, rounded, for about `ticks` intervals over span. */
double viz_nice_step(double span, int ticks);

#endif
