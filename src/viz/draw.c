/* Text and colour for glevo's pictures: DejaVu Sans / Sans Mono loaded once through FreeType
 * (fonts-dejavu-core), grey anti-aliasing and no hinting, so glyph shapes and advances are the
 * same on every machine with that font and the committed pictures can be compared. */
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "viz/viz.h"

#ifndef GLEVO_FONT_DIR
#define GLEVO_FONT_DIR "/usr/share/fonts/truetype/dejavu"
#endif

static const char *const FONT_FILES[3] = {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf",
                                          "DejaVuSansMono.ttf"};
static FT_Library ft_library;
static cairo_font_face_t *faces[3];
static pthread_once_t faces_once = PTHREAD_ONCE_INIT;

/* The faces live as long as the process (cairo keeps FreeType faces by reference). */
static void faces_load(void)
{
    if (FT_Init_FreeType(&ft_library)) return;
    const char *dir = getenv("GLEVO_FONT_DIR");
    for (int i = 0; i < 3; ++i) {
        char path[512];
        const unsigned char *data;
        size_t size;
        FT_Face face;
        snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : GLEVO_FONT_DIR, FONT_FILES[i]);
        /* $GLEVO_FONT_DIR, else the embedded copy: the same glyphs on a machine without fonts */
        bool loaded = dir && *dir && !FT_New_Face(ft_library, path, 0, &face);
        if (!loaded && viz_font_embedded((viz_font)i, &data, &size))
            loaded = !FT_New_Memory_Face(ft_library, data, (FT_Long)size, 0, &face);
        if (!loaded) loaded = !FT_New_Face(ft_library, path, 0, &face);
        if (loaded) faces[i] = cairo_ft_font_face_create_for_ft_face(face, 0);
    }
}

void viz_font_set(cairo_t *cr, viz_font f, double px)
{
    pthread_once(&faces_once, faces_load);
    if (faces[f]) {
        cairo_set_font_face(cr, faces[f]);
    } else {
        cairo_select_font_face(cr, f == VIZ_MONO ? "monospace" : "sans-serif",
                               CAIRO_FONT_SLANT_NORMAL,
                               f == VIZ_SANS_BOLD ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    }
    cairo_set_font_size(cr, px);
    cairo_font_options_t *o = cairo_font_options_create();
    cairo_font_options_set_antialias(o, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, o);
    cairo_font_options_destroy(o);
}

double viz_text_width(cairo_t *cr, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

void viz_text(cairo_t *cr, double x, double y, double align, const char *text)
{
    cairo_move_to(cr, x - align * viz_text_width(cr, text), y);
    cairo_show_text(cr, text);
    cairo_new_path(cr);
}

void viz_text_vertical(cairo_t *cr, double x, double y, const char *text)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, -1.5707963267948966);
    viz_text(cr, 0, 0, 0.5, text);
    cairo_restore(cr);
}

void viz_rgb(cairo_t *cr, unsigned rgb)
{
    cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0, (rgb >> 8 & 255) / 255.0,
                         (rgb & 255) / 255.0);
}

void viz_heat(double t, unsigned char rgb[3])
{
    static const double stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140},
                                       {94, 201, 98}, {253, 231, 37}};
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 4;
    int i = s >= 4 ? 3 : (int)s;
    double f = s - i;
    for (int k = 0; k < 3; ++k)
        rgb[k] = (unsigned char)(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f + 0.5);
}

void viz_heat_bar(cairo_t *cr, double x0, double y0, double x1, double y1, double x, double y,
                  double w, double h)
{
    cairo_pattern_t *p = cairo_pattern_create_linear(x0, y0, x1, y1);
    for (int k = 0; k <= 16; ++k) {
        unsigned char c[3];
        viz_heat(k / 16.0, c);
        cairo_pattern_add_color_stop_rgb(p, k / 16.0, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0);
    }
    cairo_rectangle(cr, x, y, w, h);
    cairo_set_source(cr, p);
    cairo_fill(cr);
    cairo_pattern_destroy(p);
}
