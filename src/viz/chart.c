/* Line charts (glevo_chart_lines_write) and what every chart shares: the canvas (SVG or PNG
 * by extension, written atomically), titles, caption, ticks. A log axis spans whole decades
 * with minor ticks at 2..9, so 0.9x and 200x read on one axis. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo-svg.h>

#include "glevo/chart.h"
#include "viz/viz.h"
#include "core/args.h"

/* Tableau 10's first eight: distinct hues, also for the common colour-blindnesses. */
const unsigned viz_palette[8] = {0x1f77b4, 0xd62728, 0x2ca02c, 0x9467bd,
                                 0xff7f0e, 0x8c564b, 0xe377c2, 0x17becf};

enum { PLOT_LEFT = 84, LEGEND_GAP = 24 };

/* Colours of a chart: light for files, dark for viewers drawing over a dark window. */
typedef struct chart_theme {
    unsigned background, title, text, subtle, grid, grid_minor, axis;
} chart_theme;
static const chart_theme LIGHT = {0xffffff, 0x111111, 0x222222, 0x555555, 0xdddddd, 0xf0f0f0, 0x000000};
static const chart_theme DARK = {0x18181e, 0xf2f2f2, 0xdddddd, 0xaaaaaa, 0x4a4a55, 0x2a2a32, 0xcccccc};

/* Space above and below the plot: titles, tick labels, axis label, caption. */
static int plot_top(const glevo_chart_lines *c) { return c->title ? (c->subtitle ? 64 : 36) : 12; }
static int plot_bottom_space(const glevo_chart_lines *c) { return c->caption ? 70 : 48; }

glevo_status viz_canvas_open(viz_canvas *c, const char *path, int width, int height)
{
    memset(c, 0, sizeof *c);
    size_t n = strlen(path);
    c->path = path;
    c->svg = n > 4 && !strcmp(path + n - 4, ".svg");
    if (!c->svg && !(n > 4 && !strcmp(path + n - 4, ".png")))
        return glevo_fail(GLEVO_ERR_INVALID, "picture '%s' ends neither in .svg nor .png", path);
    if (c->svg && output_file_open(&c->out, path) != GLEVO_OK) return GLEVO_ERR_IO;
    c->surface = c->svg ? cairo_svg_surface_create_for_stream(viz_stream_write, c->out.f, width, height)
                        : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    c->cr = cairo_create(c->surface);
    if (cairo_surface_status(c->surface)) {
        glevo_status st = glevo_fail(GLEVO_ERR_IO, "cannot write '%s' (%s)", path,
                                     cairo_status_to_string(cairo_surface_status(c->surface)));
        cairo_destroy(c->cr);
        cairo_surface_destroy(c->surface);
        if (c->svg) output_file_abort(&c->out);
        return st;
    }
    viz_rgb(c->cr, 0xFFFFFF);
    cairo_paint(c->cr);
    return GLEVO_OK;
}

glevo_status viz_canvas_close(viz_canvas *c)
{
    cairo_destroy(c->cr);
    glevo_status st = c->svg ? viz_finish_file(c->surface, &c->out)
                             : viz_png_write(c->surface, c->path);
    cairo_surface_destroy(c->surface);
    return st;
}

void viz_chart_titles(cairo_t *cr, const char *title, const char *subtitle, unsigned rgb,
                      unsigned subtle)
{
    viz_rgb(cr, rgb);
    viz_font_set(cr, VIZ_SANS_BOLD, 15);
    if (title) viz_text(cr, 16, 24, 0, title);
    viz_rgb(cr, subtle);
    viz_font_set(cr, VIZ_SANS, 12);
    if (subtitle) viz_text(cr, 16, 43, 0, subtitle);
}

void viz_chart_caption(cairo_t *cr, int height, const char *caption, unsigned rgb)
{
    if (!caption) return;
    viz_rgb(cr, rgb);
    viz_font_set(cr, VIZ_SANS, 11);
    viz_text(cr, 16, height - 10, 0, caption);
}

double viz_chart_text_width(const char *title, const char *subtitle, const char *caption)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(s);
    double w = 0;
    viz_font_set(cr, VIZ_SANS_BOLD, 15);
    if (title) w = fmax(w, viz_text_width(cr, title));
    viz_font_set(cr, VIZ_SANS, 12);
    if (subtitle) w = fmax(w, viz_text_width(cr, subtitle));
    viz_font_set(cr, VIZ_SANS, 11);
    if (caption) w = fmax(w, viz_text_width(cr, caption));
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return w + 32;
}

void viz_tick_label(char *buf, size_t size, double value, const char *suffix)
{
    double lg = log10(fabs(value));
    if (value != 0 && fabs(lg - round(lg)) < 1e-9 && (lg > 4.5 || lg < -3.5))
        snprintf(buf, size, "%s1e%d%s", value < 0 ? "-" : "", (int)round(lg), suffix ? suffix : "");
    else
        snprintf(buf, size, "%g%s", fabs(value) < 1e-12 ? 0.0 : value, suffix ? suffix : "");
}

double viz_nice_step(double span, int ticks)
{
    if (!(span > 0)) return 1;
    double raw = span / ticks, mag = pow(10, floor(log10(raw)));
    return mag * (raw <= mag ? 1 : raw <= 2 * mag ? 2 : raw <= 5 * mag ? 5 : 10);
}

static bool drawable(glevo_chart_scale s, double v) { return isfinite(v) && (s != GLEVO_CHART_LOG || v > 0); }

/* An axis range from the data unless given: whole decades, or round steps (from 0 when the
 * data are >= 0). */
static void axis_range(const glevo_chart_axis *a, double lo, double hi, double *min, double *max)
{
    if (a->min != 0 || a->max != 0) {
        *min = a->min, *max = a->max;
        return;
    }
    if (!(hi >= lo)) lo = hi = a->scale == GLEVO_CHART_LOG ? 1 : 0;
    if (a->scale == GLEVO_CHART_LOG) {
        *min = pow(10, floor(log10(lo) + 1e-9));
        *max = pow(10, ceil(log10(hi) - 1e-9));
        if (*max <= *min) *max = *min * 10;
        return;
    }
    if (lo >= 0) lo = 0;
    double step = viz_nice_step(hi - lo, 8);
    *min = floor(lo / step + 1e-9) * step;
    *max = ceil(hi / step - 1e-9) * step;
    if (*max <= *min) *max = *min + step;
}

static int legend_rows(const glevo_chart_lines *c)
{
    if (c->legend) return c->nlegend;
    int n = 0;
    for (int i = 0; i < c->nseries; ++i) n += c->series[i].name != NULL;
    return n;
}

static glevo_chart_key legend_row(const glevo_chart_lines *c, int k)
{
    if (c->legend) return c->legend[k];
    for (int i = 0; i < c->nseries; ++i)
        if (c->series[i].name && k-- == 0)
            return (glevo_chart_key){c->series[i].name, c->series[i].colour, c->series[i].dash, false};
    return (glevo_chart_key){NULL, 0, 0, false};
}

/* Legend width from its text, measured on a scratch surface. */
static double legend_width(const glevo_chart_lines *c)
{
    int rows = legend_rows(c);
    if (!rows) return 0;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(s);
    double w = 0;
    for (int k = 0; k < rows; ++k) {
        glevo_chart_key key = legend_row(c, k);
        viz_font_set(cr, key.heading ? VIZ_SANS_BOLD : VIZ_SANS, 12);
        if (key.name) w = fmax(w, viz_text_width(cr, key.name) + (key.heading ? 0 : 40));
    }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return w + LEGEND_GAP + 8;
}

glevo_status glevo_chart_lines_frame(const glevo_chart_lines *c, glevo_chart_frame *f)
{
    glevo_clear_error();
    ARG_NOT_NULL_AS(c, "chart");
    ARG_NOT_NULL_AS(f, "out");
    int width = c->width ? c->width : 800, height = c->height ? c->height : 480;
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int i = 0; i < c->nseries; ++i)
        for (int k = 0; k < c->series[i].n; ++k) {
            double x = c->series[i].x[k], y = c->series[i].y[k];
            if (!drawable(c->x.scale, x) || !drawable(c->y.scale, y)) continue;
            xlo = fmin(xlo, x), xhi = fmax(xhi, x), ylo = fmin(ylo, y), yhi = fmax(yhi, y);
        }
    if (c->reference_label && drawable(c->y.scale, c->reference_y))
        ylo = fmin(ylo, c->reference_y), yhi = fmax(yhi, c->reference_y);
    memset(f, 0, sizeof *f);
    f->xscale = c->x.scale, f->yscale = c->y.scale;
    axis_range(&c->x, xlo, xhi, &f->xmin, &f->xmax);
    axis_range(&c->y, ylo, yhi, &f->ymin, &f->ymax);
    if (!(f->xmax > f->xmin) || !(f->ymax > f->ymin) ||
        (c->x.scale == GLEVO_CHART_LOG && !(f->xmin > 0)) || (c->y.scale == GLEVO_CHART_LOG && !(f->ymin > 0)))
        return glevo_fail(GLEVO_ERR_INVALID, "chart '%s': axis range x %g..%g, y %g..%g is empty",
                          c->title ? c->title : "", f->xmin, f->xmax, f->ymin, f->ymax);
    f->x0 = PLOT_LEFT, f->y0 = plot_top(c);
    f->x1 = width - 16 - legend_width(c);
    f->y1 = height - plot_bottom_space(c);
    if (f->x1 - f->x0 < 100 || f->y1 - f->y0 < 40)
        return glevo_fail(GLEVO_ERR_INVALID, "chart of %dx%d pixels is too small for its legend", width, height);
    return GLEVO_OK;
}

static double frac(glevo_chart_scale s, double v, double lo, double hi)
{
    return s == GLEVO_CHART_LOG ? (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) : (v - lo) / (hi - lo);
}

void glevo_chart_point(const glevo_chart_frame *f, double x, double y, double *px, double *py)
{
    ARG_NOT_NULL_OR(f, );
    ARG_NOT_NULL_OR(px, );
    ARG_NOT_NULL_OR(py, );
    *px = f->x0 + (f->x1 - f->x0) * frac(f->xscale, x, f->xmin, f->xmax);
    *py = f->y1 - (f->y1 - f->y0) * frac(f->yscale, y, f->ymin, f->ymax);
}

static void set_dash(cairo_t *cr, int dash)
{
    static const double dashed[2] = {8, 4}, dotted[2] = {2, 3};
    if (dash == 1) cairo_set_dash(cr, dashed, 2, 0);
    else if (dash == 2) cairo_set_dash(cr, dotted, 2, 0);
    else cairo_set_dash(cr, NULL, 0, 0);
}

/* Ticks, grid lines and tick labels of one axis (vertical: the y axis). */
static void axis_ticks(cairo_t *cr, const chart_theme *t, const glevo_chart_frame *f, const glevo_chart_axis *a,
                       bool vertical)
{
    double lo = vertical ? f->ymin : f->xmin, hi = vertical ? f->ymax : f->xmax;
    char label[64];
    viz_font_set(cr, VIZ_SANS, 11);
    cairo_set_line_width(cr, 1);
    if (a->scale == GLEVO_CHART_LOG) {
        int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
        /* At most about ten labels, and room for each: 16 px apart up the axis, 48 across. */
        double room = vertical ? (f->y1 - f->y0) / 16 : (f->x1 - f->x0) / 48;
        int every = (d1 - d0 + 9) / 10;
        if (room >= 1 && (d1 - d0) / room > every) every = (int)ceil((d1 - d0) / room);
        for (int d = d0; d <= d1; ++d)
            for (int m = 1; m <= 9; ++m) {
                double v = m * pow(10, d), px, py;
                if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
                glevo_chart_point(f, vertical ? f->xmin : v, vertical ? v : f->ymin, &px, &py);
                viz_rgb(cr, m == 1 ? t->grid : t->grid_minor);
                if (vertical) cairo_move_to(cr, f->x0, py + 0.5), cairo_line_to(cr, f->x1, py + 0.5);
                else cairo_move_to(cr, px + 0.5, f->y0), cairo_line_to(cr, px + 0.5, f->y1);
                cairo_stroke(cr);
                if (m != 1 || (d - d0) % (every ? every : 1)) continue;
                viz_tick_label(label, sizeof label, v, a->tick_suffix);
                viz_rgb(cr, t->text);
                if (vertical) viz_text(cr, f->x0 - 6, py + 4, 1, label);
                else viz_text(cr, px, f->y1 + 16, 0.5, label);
            }
        return;
    }
    double span = vertical ? f->y1 - f->y0 : f->x1 - f->x0;
    int ticks = (int)(span / (vertical ? 20 : 60));
    double step = viz_nice_step(hi - lo, ticks < 2 ? 2 : ticks > 8 ? 8 : ticks);
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
        double px, py;
        glevo_chart_point(f, vertical ? f->xmin : v, vertical ? v : f->ymin, &px, &py);
        viz_rgb(cr, t->grid);
        if (vertical) cairo_move_to(cr, f->x0, py + 0.5), cairo_line_to(cr, f->x1, py + 0.5);
        else cairo_move_to(cr, px + 0.5, f->y0), cairo_line_to(cr, px + 0.5, f->y1);
        cairo_stroke(cr);
        viz_tick_label(label, sizeof label, v, a->tick_suffix);
        viz_rgb(cr, t->text);
        if (vertical) viz_text(cr, f->x0 - 6, py + 4, 1, label);
        else viz_text(cr, px, f->y1 + 16, 0.5, label);
    }
}

static void draw_series(cairo_t *cr, const glevo_chart_frame *f, const glevo_chart_series *s)
{
    viz_rgb(cr, viz_palette[((s->colour % 8) + 8) % 8]);
    cairo_set_line_width(cr, 2);
    set_dash(cr, s->dash);
    bool started = false;
    for (int k = 0; k < s->n; ++k) {
        if (!drawable(f->xscale, s->x[k]) || !drawable(f->yscale, s->y[k])) continue;
        double px, py;
        glevo_chart_point(f, s->x[k], s->y[k], &px, &py);
        if (started) cairo_line_to(cr, px, py);
        else cairo_move_to(cr, px, py), started = true;
    }
    cairo_stroke(cr);
    set_dash(cr, 0);
    for (int k = 0; k < s->n && !s->no_markers; ++k) {
        if (!drawable(f->xscale, s->x[k]) || !drawable(f->yscale, s->y[k])) continue;
        double px, py;
        glevo_chart_point(f, s->x[k], s->y[k], &px, &py);
        cairo_arc(cr, px, py, 3, 0, 6.283185307179586);
        cairo_fill(cr);
    }
}

static void draw_legend(cairo_t *cr, const chart_theme *t, const glevo_chart_lines *c, const glevo_chart_frame *f)
{
    double x = f->x1 + LEGEND_GAP, y = f->y0 + 4;
    for (int k = 0; k < legend_rows(c); ++k, y += 18) {
        glevo_chart_key key = legend_row(c, k);
        if (!key.name) continue;
        if (key.heading) {
            if (k > 0) y += 10;
            viz_rgb(cr, t->title);
            viz_font_set(cr, VIZ_SANS_BOLD, 12);
            viz_text(cr, x, y + 4, 0, key.name);
            continue;
        }
        if (key.colour < 0) viz_rgb(cr, t->axis);
        else viz_rgb(cr, viz_palette[key.colour % 8]);
        cairo_set_line_width(cr, 2);
        set_dash(cr, key.dash);
        cairo_move_to(cr, x, y), cairo_line_to(cr, x + 32, y);
        cairo_stroke(cr);
        set_dash(cr, 0);
        viz_rgb(cr, t->text);
        viz_font_set(cr, VIZ_SANS, 12);
        viz_text(cr, x + 40, y + 4, 0, key.name);
    }
}

/* Draws the whole chart on cr over width x height, the frame already resolved. */
static void lines_draw(cairo_t *cr, const glevo_chart_lines *c, const glevo_chart_frame *f, int height)
{
    const chart_theme *t = c->dark ? &DARK : &LIGHT;
    viz_rgb(cr, t->background);
    cairo_paint(cr);
    viz_chart_titles(cr, c->title, c->subtitle, t->title, t->subtle);
    axis_ticks(cr, t, f, &c->y, true);
    axis_ticks(cr, t, f, &c->x, false);
    if (c->reference_label && drawable(c->y.scale, c->reference_y)) {
        double px, py;
        glevo_chart_point(f, f->xmin, c->reference_y, &px, &py);
        viz_rgb(cr, t->subtle);
        cairo_set_line_width(cr, 1);
        set_dash(cr, 1);
        cairo_move_to(cr, f->x0, py), cairo_line_to(cr, f->x1, py);
        cairo_stroke(cr);
        set_dash(cr, 0);
        viz_font_set(cr, VIZ_SANS, 11);
        viz_text(cr, f->x1 - 4, py - 5, 1, c->reference_label);
    }
    cairo_save(cr);
    cairo_rectangle(cr, f->x0 - 4, f->y0 - 4, f->x1 - f->x0 + 8, f->y1 - f->y0 + 8); /* whole end dots */
    cairo_clip(cr);
    for (int i = 0; i < c->nseries; ++i) draw_series(cr, f, &c->series[i]);
    cairo_restore(cr);
    viz_rgb(cr, t->axis);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, f->x0 + 0.5, f->y0), cairo_line_to(cr, f->x0 + 0.5, f->y1 + 0.5);
    cairo_line_to(cr, f->x1, f->y1 + 0.5);
    cairo_stroke(cr);
    viz_font_set(cr, VIZ_SANS, 12);
    viz_rgb(cr, t->title);
    if (c->x.label) viz_text(cr, (f->x0 + f->x1) / 2, f->y1 + 36, 0.5, c->x.label);
    if (c->y.label) { /* shrunk to the plot's height when the plot is short */
        double w = viz_text_width(cr, c->y.label), room = f->y1 - f->y0 + 24;
        if (w > room) viz_font_set(cr, VIZ_SANS, fmax(8, 12 * room / w));
        viz_text_vertical(cr, 22, (f->y0 + f->y1) / 2, c->y.label);
    }
    draw_legend(cr, t, c, f);
    viz_chart_caption(cr, height, c->caption, t->subtle);
}

glevo_status glevo_chart_lines_write(const glevo_chart_lines *c, const char *path)
{
    glevo_clear_error();
    ARG_NOT_NULL_AS(c, "chart");
    ARG_NOT_NULL(path);
    glevo_chart_frame f;
    glevo_status st = glevo_chart_lines_frame(c, &f);
    if (st) return st;
    int width = c->width ? c->width : 800, height = c->height ? c->height : 480;
    viz_canvas cv;
    if ((st = viz_canvas_open(&cv, path, width, height))) return st;
    lines_draw(cv.cr, c, &f, height);
    return viz_canvas_close(&cv);
}

glevo_status glevo_chart_lines_render(const glevo_chart_lines *chart, unsigned char *pixels, int width,
                                      int height, int stride)
{
    glevo_clear_error();
    ARG_NOT_NULL(chart);
    ARG_NOT_NULL(pixels);
    glevo_chart_lines c = *chart;
    c.width = width, c.height = height;
    glevo_chart_frame f;
    glevo_status st = glevo_chart_lines_frame(&c, &f);
    if (st) return st;
    if (stride < cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width))
        return glevo_fail(GLEVO_ERR_INVALID, "chart stride %d is below 4 x width %d", stride, width);
    cairo_surface_t *s = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_t *cr = cairo_create(s);
    lines_draw(cr, &c, &f, height);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    st = cairo_surface_status(s) ? glevo_fail(GLEVO_ERR_INVALID, "chart render: %s",
                                              cairo_status_to_string(cairo_surface_status(s)))
                                 : GLEVO_OK;
    cairo_surface_destroy(s);
    return st;
}
