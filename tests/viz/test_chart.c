/* The chart module (glevo/chart.h): log axes widen to whole decades, every point is drawn where
 * glevo_chart_point says in its series' colour, points a log axis cannot show are left out,
 * SVG and PNG are chosen by extension and written atomically, heat maps span the whole ramp. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/chart.h"
#include "testutil.h"
#include "viz_tmp.h"

static void setup(void) { viz_tmpdir_make("chart"); }

static int has_colour(const unsigned char *rgb, int w, int h, unsigned c)
{
    int n = 0;
    for (int i = 0; i < w * h; ++i)
        n += rgb[3 * i] == (c >> 16 & 255) && rgb[3 * i + 1] == (c >> 8 & 255) && rgb[3 * i + 2] == (c & 255);
    return n;
}

/* Two series of the DSMGA picture's shape: speedups from 0.9x to 210x over ell. */
static const double ell[4] = {120, 300, 600, 1000};
static const double trap[4] = {0.9, 5.7, 18.6, 24.8};
static const double ftrap[4] = {9.4, 0, 210.4, INFINITY}; /* 0 and inf cannot be shown */

static glevo_chart_lines two_series(glevo_chart_series s[2])
{
    s[0] = (glevo_chart_series){.name = "trap", .x = ell, .y = trap, .n = 4, .colour = 0};
    s[1] = (glevo_chart_series){.name = "ftrap", .x = ell, .y = ftrap, .n = 4, .colour = 1, .dash = 1};
    return (glevo_chart_lines){.title = "speedup", .caption = "test renderer, 2026-11-23",
                               .x = {.label = "ell (bits)"},
                               .y = {.label = "speedup", .scale = GLEVO_CHART_LOG, .tick_suffix = "x"},
                               .series = s, .nseries = 2, .reference_label = "CPU = GPU",
                               .reference_y = 1};
}

START_TEST(log_axis_spans_whole_decades)
{
    glevo_chart_series s[2];
    glevo_chart_lines c = two_series(s);
    glevo_chart_frame f;
    ck_assert_msg(glevo_chart_lines_frame(&c, &f) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_msg(fabs(f.ymin - 0.1) < 1e-12 && fabs(f.ymax - 1000) < 1e-9,
                  "0.9x..210x should span 0.1..1000, got %g..%g", f.ymin, f.ymax);
    ck_assert_msg(f.xmin == 0 && f.xmax == 1000, "ell axis %g..%g, want 0..1000", f.xmin, f.xmax);
    double px, py, qx, qy;
    glevo_chart_point(&f, 0, 0.1, &px, &py);
    glevo_chart_point(&f, 1000, 1000, &qx, &qy);
    ck_assert(px == f.x0 && py == f.y1 && qx == f.x1 && qy == f.y0);
    /* 10x is halfway up a 0.1..1000 log axis (two of four decades). */
    glevo_chart_point(&f, 500, 10, &px, &py);
    ck_assert_msg(fabs((f.y1 - py) / (f.y1 - f.y0) - 0.5) < 1e-9, "10x at %g of the axis",
                  (f.y1 - py) / (f.y1 - f.y0));
}
END_TEST

START_TEST(points_land_in_their_colour)
{
    glevo_chart_series s[2];
    glevo_chart_lines c = two_series(s);
    char path[512];
    snprintf(path, sizeof path, "%s/lines.png", tmpdir);
    ck_assert_msg(glevo_chart_lines_write(&c, path) == GLEVO_OK, "%s", glevo_last_error());
    int w, h;
    unsigned char *rgb = testutil_png_load(path, &w, &h);
    ck_assert(rgb != NULL);
    ck_assert_int_eq(w, 800);
    ck_assert_int_eq(h, 480);
    glevo_chart_frame f;
    ck_assert(glevo_chart_lines_frame(&c, &f) == GLEVO_OK);
    static const unsigned colours[2] = {0x1f77b4, 0xd62728};
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 4; ++i) {
            double y = s[k].y[i];
            if (!(y > 0 && isfinite(y))) continue;
            double px, py;
            glevo_chart_point(&f, ell[i], y, &px, &py);
            const unsigned char *p = rgb + ((size_t)lround(py) * w + lround(px)) * 3;
            unsigned got = (unsigned)p[0] << 16 | p[1] << 8 | p[2];
            ck_assert_msg(got == colours[k], "%s point %d at (%.0f,%.0f) is #%06x, want #%06x",
                          s[k].name, i, px, py, got, colours[k]);
        }
    int caption = 0; /* the caption line at the bottom holds text */
    for (int y = h - 22; y < h; ++y)
        for (int x = 0; x < w; ++x) caption += rgb[((size_t)y * w + x) * 3] < 160;
    ck_assert_msg(caption > 50, "caption area is blank (%d dark pixels)", caption);
    free(rgb);
}
END_TEST

START_TEST(svg_by_extension_and_clean_failures)
{
    glevo_chart_series s[2];
    glevo_chart_lines c = two_series(s);
    char path[512];
    snprintf(path, sizeof path, "%s/lines.svg", tmpdir);
    ck_assert_msg(glevo_chart_lines_write(&c, path) == GLEVO_OK, "%s", glevo_last_error());
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    char head[512] = "";
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    fclose(f);
    ck_assert_msg(!strncmp(head, "<?xml", 5) && strstr(head, "<svg"), "not an SVG: %.60s", head);
    snprintf(path, sizeof path, "%s/lines.gif", tmpdir);
    ck_assert(glevo_chart_lines_write(&c, path) == GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "lines.gif") != NULL, "%s", glevo_last_error());
    snprintf(path, sizeof path, "%s/missing/lines.svg", tmpdir);
    ck_assert(glevo_chart_lines_write(&c, path) == GLEVO_ERR_IO);
    /* Nothing but the good SVG is left behind (no temporary files). */
    char cmd[600], out[256];
    snprintf(cmd, sizeof cmd, "ls '%s'", tmpdir);
    testutil_run(cmd, out, sizeof out);
    ck_assert_str_eq(out, "lines.svg\n");
}
END_TEST

/* In memory (for the demo): the same placement, premultiplied ARGB, a dark background. */
START_TEST(render_into_memory)
{
    glevo_chart_series s[2];
    glevo_chart_lines c = two_series(s);
    c.dark = true, c.title = NULL, c.caption = NULL;
    enum { W = 500, H = 160 };
    uint32_t *px = calloc((size_t)W * H, sizeof *px);
    ck_assert_msg(glevo_chart_lines_render(&c, (unsigned char *)px, W, H, W * 4) == GLEVO_OK, "%s",
                  glevo_last_error());
    ck_assert_msg(px[0] == 0xff18181eu, "background %08x is not the dark theme's", px[0]);
    c.width = W, c.height = H;
    glevo_chart_frame f;
    ck_assert(glevo_chart_lines_frame(&c, &f) == GLEVO_OK);
    double x, y;
    glevo_chart_point(&f, ell[2], ftrap[2], &x, &y);
    uint32_t got = px[(size_t)lround(y) * W + lround(x)];
    ck_assert_msg(got == 0xffd62728u, "ftrap point is %08x", got);
    ck_assert(glevo_chart_lines_render(&c, (unsigned char *)px, W, H, W) == GLEVO_ERR_INVALID);
    free(px);
}
END_TEST

START_TEST(heat_map_spans_the_ramp)
{
    double xs[3] = {100, 1000, 5000}, ys[2] = {100, 1000};
    double v[2 * 2 * 3] = {0.01, 0.1, 1, 10, 100, 0, /* panel 0; 0 = no data */
                           0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
    const char *names[2] = {"pppe", "ppcu"};
    glevo_chart_heat c = {.title = "GPop/s", .caption = "test renderer", .x_label = "population",
                          .y_label = "cases", .value_label = "GPop/s", .nx = 3, .ny = 2,
                          .npanels = 2, .x_values = xs, .y_values = ys, .panel_names = names,
                          .values = v, .colour_scale = GLEVO_CHART_LOG, .print_values = true};
    char path[512];
    snprintf(path, sizeof path, "%s/heat.png", tmpdir);
    ck_assert_msg(glevo_chart_heat_write(&c, path) == GLEVO_OK, "%s", glevo_last_error());
    int w, h;
    unsigned char *rgb = testutil_png_load(path, &w, &h);
    ck_assert(rgb != NULL);
    /* The lowest value is the ramp's dark end, the highest its bright end, no data grey. */
    ck_assert_msg(has_colour(rgb, w, h, 0x440154) > 400, "no cell in the dark end colour");
    ck_assert_msg(has_colour(rgb, w, h, 0xfde725) > 400, "no cell in the bright end colour");
    ck_assert_msg(has_colour(rgb, w, h, 0xebebeb) > 400, "the no-data cell is not grey");
    free(rgb);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("viz_chart");
    TCase *tc = tcase_create("chart");
    tcase_add_checked_fixture(tc, setup, viz_tmpdir_remove);
    tcase_add_test(tc, log_axis_spans_whole_decades);
    tcase_add_test(tc, points_land_in_their_colour);
    tcase_add_test(tc, svg_by_extension_and_clean_failures);
    tcase_add_test(tc, heat_map_spans_the_ramp);
    tcase_add_test(tc, render_into_memory);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
