/* Heat-map charts (glevo_chart_heat_write): one panel of nx x ny cells per engine, a shared
 * colour bar (the heat ramp, higher values brighter, on a log scale when asked), tick labels
 * from the row and column values, each cell's value printed in it when asked. */
#include <math.h>
#include <stdio.h>

#include "glevo/chart.h"
#include "viz/viz.h"
#include "core/args.h"

enum { CELL = 48, LEFT = 92, TOP = 76, PANEL_GAP = 28, BAR_W = 16, BAR_SPACE = 110, BOTTOM = 84 };

static double level(const glevo_chart_heat *c, double v)
{
    return c->colour_scale == GLEVO_CHART_LOG ? log10(v) : v;
}

static bool has_value(double v) { return isfinite(v) && v > 0; }

glevo_status glevo_chart_heat_write(const glevo_chart_heat *c, const char *path)
{
    glevo_clear_error();
    ARG_NOT_NULL_AS(c, "chart");
    ARG_NOT_NULL(path);
    if (c->nx < 1 || c->ny < 1 || c->npanels < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "heat map '%s' of %dx%d cells in %d panels is empty",
                          c->title ? c->title : "", c->nx, c->ny, c->npanels);
    double lo = INFINITY, hi = -INFINITY;
    int cells = c->nx * c->ny * c->npanels;
    for (int i = 0; i < cells; ++i)
        if (has_value(c->values[i])) lo = fmin(lo, level(c, c->values[i])), hi = fmax(hi, level(c, c->values[i]));
    if (!(hi >= lo)) lo = 0, hi = 1;
    if (hi == lo) hi = lo + 1;
    int panel_w = c->nx * CELL, panel_h = c->ny * CELL;
    int width = LEFT + c->npanels * panel_w + (c->npanels - 1) * PANEL_GAP + BAR_SPACE;
    int height = TOP + panel_h + BOTTOM;
    int text_w = (int)ceil(viz_chart_text_width(c->title, c->subtitle, c->caption));
    if (width < text_w) width = text_w;
    viz_canvas cv;
    glevo_status st = viz_canvas_open(&cv, path, width, height);
    if (st) return st;
    cairo_t *cr = cv.cr;
    viz_chart_titles(cr, c->title, c->subtitle, 0x111111, 0x555555);
    char text[64];
    for (int p = 0; p < c->npanels; ++p) {
        double x0 = LEFT + p * (panel_w + PANEL_GAP);
        viz_rgb(cr, 0x111111);
        viz_font_set(cr, VIZ_SANS_BOLD, 12);
        if (c->panel_names) viz_text(cr, x0, TOP - 8, 0, c->panel_names[p]);
        for (int j = 0; j < c->ny; ++j)
            for (int i = 0; i < c->nx; ++i) {
                double v = c->values[((size_t)p * c->ny + j) * c->nx + i];
                double x = x0 + i * CELL, y = TOP + (c->ny - 1 - j) * CELL;
                unsigned char rgb[3] = {235, 235, 235};
                double t = has_value(v) ? (level(c, v) - lo) / (hi - lo) : 0;
                if (has_value(v)) viz_heat(t, rgb);
                cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
                cairo_rectangle(cr, x, y, CELL, CELL);
                cairo_fill(cr);
                viz_rgb(cr, 0xffffff);
                cairo_set_line_width(cr, 1);
                cairo_rectangle(cr, x + 0.5, y + 0.5, CELL - 1, CELL - 1);
                cairo_stroke(cr);
                if (!c->print_values) continue;
                snprintf(text, sizeof text, has_value(v) ? "%.3g" : "–", v);
                viz_rgb(cr, has_value(v) && t < 0.6 ? 0xffffff : 0x111111);
                viz_font_set(cr, VIZ_SANS, 11);
                viz_text(cr, x + CELL / 2.0, y + CELL / 2.0 + 4, 0.5, text);
            }
        viz_rgb(cr, 0x222222);
        viz_font_set(cr, VIZ_SANS, 11);
        for (int i = 0; i < c->nx; ++i) {
            viz_tick_label(text, sizeof text, c->x_values[i], NULL);
            viz_text(cr, x0 + i * CELL + CELL / 2.0, TOP + panel_h + 16, 0.5, text);
        }
        if (p == 0)
            for (int j = 0; j < c->ny; ++j) {
                viz_tick_label(text, sizeof text, c->y_values[j], NULL);
                viz_text(cr, x0 - 6, TOP + (c->ny - 1 - j) * CELL + CELL / 2.0 + 4, 1, text);
            }
    }
    viz_rgb(cr, 0x111111);
    viz_font_set(cr, VIZ_SANS, 12);
    double panels_w = c->npanels * panel_w + (c->npanels - 1) * PANEL_GAP;
    if (c->x_label) viz_text(cr, LEFT + panels_w / 2, TOP + panel_h + 38, 0.5, c->x_label);
    if (c->y_label) viz_text_vertical(cr, 18, TOP + panel_h / 2.0, c->y_label);

    /* The colour bar: brighter is higher; ticks at its ends and middle. */
    double bx = LEFT + panels_w + 24, by = TOP, bh = panel_h;
    viz_heat_bar(cr, 0, by + bh, 0, by, bx, by, BAR_W, bh);
    viz_rgb(cr, 0x222222);
    viz_font_set(cr, VIZ_SANS, 11);
    for (int k = 0; k <= 2; ++k) {
        double lv = lo + (hi - lo) * k / 2.0, v = c->colour_scale == GLEVO_CHART_LOG ? pow(10, lv) : lv;
        snprintf(text, sizeof text, "%.3g", v);
        viz_text(cr, bx + BAR_W + 4, by + bh - bh * k / 2.0 + 4, 0, text);
    }
    if (c->value_label) viz_text(cr, bx, by - 8, 0, c->value_label);
    viz_chart_caption(cr, height, c->caption, 0x555555);
    return viz_canvas_close(&cv);
}
