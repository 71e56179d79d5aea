/* glevo-demo's text layer, drawn with cairo into one window-sized texture blended over the GL
 * panels: panel labels, the curve strip (the library's chart module: axes, ticks, labels, on
 * a log axis for errors), program text wrapped at token boundaries, and the key help. Text is
 * DejaVu Sans (Mono for programs and help) from fonts-dejavu-core. */
#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "glevo/chart.h"

struct demo_overlay {
    cairo_surface_t *surface;
    int w, h;
};

demo_overlay *demo_overlay_create(void) { return calloc(1, sizeof(demo_overlay)); }

void demo_overlay_destroy(demo_overlay *o)
{
    if (!o) return;
    if (o->surface) cairo_surface_destroy(o->surface);
    free(o);
}

/* DejaVu faces loaded through FreeType once for the process (not through fontconfig: the
 * same glyphs everywhere the fonts-dejavu-core files are); cairo's toy API if they are not. */
static cairo_font_face_t *faces[3]; /* sans, sans bold, mono */

static void faces_load(void)
{
    static FT_Library ft;
    static bool tried;
    if (tried) return;
    tried = true;
    static const char *const files[3] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf"};
    const char *dir = getenv("GLEVO_FONT_DIR");
    if (FT_Init_FreeType(&ft)) return;
    for (int i = 0; i < 3; ++i) {
        char path[512];
        FT_Face face;
        snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/fonts/truetype/dejavu", files[i]);
        if (!FT_New_Face(ft, path, 0, &face)) faces[i] = cairo_ft_font_face_create_for_ft_face(face, 0);
    }
}

static void font(cairo_t *cr, bool mono, bool bold, double px)
{
    faces_load();
    cairo_font_face_t *f = faces[mono ? 2 : bold ? 1 : 0];
    if (f) cairo_set_font_face(cr, f);
    else cairo_select_font_face(cr, mono ? "monospace" : "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                                bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, px);
    /* Fixed rendering options: screenshots repeat exactly, whatever the machine prefers. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
}

/* A label on a dark box, top-left at (x, y) in cairo's top-down pixels, cut at max_w. */
static void label(cairo_t *cr, double x, double y, double max_w, double px, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_save(cr);
    cairo_rectangle(cr, x, y, max_w, px * 1.5);
    cairo_clip(cr);
    cairo_set_source_rgba(cr, 0, 0, 0, 0.72);
    cairo_rectangle(cr, x, y, e.x_advance + px * 0.8, px * 1.5);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_move_to(cr, x + px * 0.4, y + px * 1.1);
    cairo_show_text(cr, text);
    cairo_restore(cr);
}

static void panel_text(cairo_t *cr, demo_rect r, int fb_h, double px, const char *text)
{
    font(cr, true, false, px);
    cairo_text_extents_t e;
    cairo_text_extents(cr, "0", &e);
    int cols = (int)((r.w - 2 * px) / e.x_advance);
    char *wrapped = malloc(strlen(text) * 2 + 64);
    if (!wrapped) return;
    demo_wrap(text, cols, wrapped, strlen(text) * 2 + 64);
    double y = fb_h - (r.y + r.h) + 2.8 * px, bottom = fb_h - r.y - px;
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    for (char *line = wrapped, *next; line && y < bottom; line = next, y += 1.3 * px) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        cairo_move_to(cr, r.x + px, y);
        cairo_show_text(cr, line);
    }
    free(wrapped);
}

/* The curve strip: the library's chart, rendered straight into the overlay's pixels. */
static void curve_chart(demo_overlay *o, demo_rect r, int fb_h, const demo_text *t, const demo_curve *c)
{
    glevo_chart_series s = {.x = c->gen, .y = c->value, .n = c->count, .colour = 2, .no_markers = true};
    glevo_chart_lines chart = {.title = t->readout, .x = {.label = "generation"},
                               .y = {.label = t->curve_y, .scale = t->curve_log ? GLEVO_CHART_LOG : GLEVO_CHART_LINEAR},
                               .series = &s, .nseries = c->count > 0, .dark = true};
    int top = fb_h - (r.y + r.h), stride = cairo_image_surface_get_stride(o->surface);
    unsigned char *at = cairo_image_surface_get_data(o->surface) + (size_t)top * stride + (size_t)r.x * 4;
    cairo_surface_flush(o->surface);
    if (glevo_chart_lines_render(&chart, at, r.w, r.h, stride) != GLEVO_OK) {
        chart.nseries = 0; /* e.g. every error 0 on a log axis: the frame without the line */
        glevo_chart_lines_render(&chart, at, r.w, r.h, stride);
    }
    cairo_surface_mark_dirty(o->surface);
}

static void help_box(cairo_t *cr, int fb_w, int fb_h, double px)
{
    font(cr, true, false, px);
    cairo_text_extents_t e;
    cairo_text_extents(cr, "0", &e);
    int lines = 0, cols = 0, col = 0;
    for (const char *p = DEMO_HELP; *p; ++p)
        if (*p == '\n') ++lines, col = 0;
        else if (++col > cols) cols = col;
    double w = cols * e.x_advance + 2 * px, h = lines * 1.35 * px + 2 * px;
    double x = (fb_w - w) / 2, y = (fb_h - h) / 2;
    cairo_set_source_rgba(cr, 0.06, 0.06, 0.08, 0.92);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    const char *p = DEMO_HELP;
    for (int k = 0; k < lines; ++k) {
        size_t len = strcspn(p, "\n");
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        cairo_move_to(cr, x + px, y + px + (k + 0.8) * 1.35 * px);
        cairo_show_text(cr, line);
        p += len + 1;
    }
}

void demo_overlay_draw(demo_overlay *o, demo_draw *d, const demo_text *t, const demo_curve *c,
                       int fb_w, int fb_h, bool help)
{
    if (fb_w < 1 || fb_h < 1) return;
    if (!o->surface || o->w != fb_w || o->h != fb_h) {
        if (o->surface) cairo_surface_destroy(o->surface);
        o->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, fb_w, fb_h);
        o->w = fb_w, o->h = fb_h;
    }
    if (cairo_surface_status(o->surface)) return;
    cairo_t *cr = cairo_create(o->surface);
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    double px = fb_h >= 500 ? 14 : 11;
    demo_rect panels[2], strip;
    demo_layout(fb_w, fb_h, &panels[0], &panels[1], &strip);
    if (t->panel_text) panel_text(cr, panels[1], fb_h, px, t->panel_text);
    font(cr, false, true, px);
    for (int k = 0; k < 2; ++k)
        if (t->label[k][0])
            label(cr, panels[k].x, fb_h - (panels[k].y + panels[k].h), panels[k].w, px, t->label[k]);
    cairo_destroy(cr);
    curve_chart(o, strip, fb_h, t, c);
    cr = cairo_create(o->surface);
    font(cr, false, false, px * 0.85);
    cairo_set_source_rgb(cr, 0.7, 0.7, 0.75);
    cairo_text_extents_t e;
    cairo_text_extents(cr, "h: help", &e);
    cairo_move_to(cr, strip.x + strip.w - e.x_advance - 8, fb_h - strip.y - 8);
    cairo_show_text(cr, "h: help");
    if (help) help_box(cr, fb_w, fb_h, px);
    cairo_destroy(cr);
    cairo_surface_flush(o->surface);
    demo_draw_overlay(d, cairo_image_surface_get_data(o->surface), fb_w, fb_h);
}
