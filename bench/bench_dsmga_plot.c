/* The DSMGA-II speedup picture as SVG: one polyline per (problem, measure) over ell, speedup on
 * a log scale so that 0.9× (GPU slower, small ell) and 200× read on one axis. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench_dsmga_plot.h"

enum { WIDTH = 790, HEIGHT = 480, LEFT = 70, RIGHT = 590, TOP = 64, BOTTOM = 420, LEGEND = RIGHT + 24 };
static const char *const MEASURES[DSMGA_PLOT_MEASURES] = {"BuildDSM", "FindClique lossless", "FindClique lossy"};
static const char *const DASHES[DSMGA_PLOT_MEASURES] = {"none", "8,4", "2,3"};
static const char *const COLORS[8] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                      "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* ell from 0 to ell_max, speedup from 10^decade_lo to 10^decade_hi */
typedef struct plot_axes {
    double ell_max, decade_lo, decade_hi;
} plot_axes;

static double plot_x(const plot_axes *a, double ell) { return LEFT + (RIGHT - LEFT) * ell / a->ell_max; }

static double plot_y(const plot_axes *a, double speedup)
{
    return BOTTOM - (BOTTOM - TOP) * (log10(speedup) - a->decade_lo) / (a->decade_hi - a->decade_lo);
}

/* 0 (below the table's 0.001) and inf (a time that rounded to 0 ms) have no place on a log axis. */
static bool plot_drawable(double speedup) { return isfinite(speedup) && speedup > 0; }

/* The caption and problem names come from the user: escape what XML reads as markup. */
static void plot_escaped(FILE *f, const char *s)
{
    for (; *s; ++s)
        fputs(*s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '\'' ? "&apos;" : (char[2]){*s, 0}, f);
}

static void plot_label(FILE *f, int x, int y, const char *attributes, const char *text)
{
    fprintf(f, "<text x='%d' y='%d' %s>", x, y, attributes);
    plot_escaped(f, text);
    fputs("</text>\n", f);
}

static int plot_by_ell(const void *a, const void *b)
{
    int x = ((const dsmga_plot_row *)a)->ell, y = ((const dsmga_plot_row *)b)->ell;
    return (x > y) - (x < y);
}

static void plot_grid(FILE *f, const plot_axes *a, double ell_step)
{
    for (int d = (int)a->decade_lo; d <= (int)a->decade_hi; ++d) {
        double y = plot_y(a, pow(10, d));
        fprintf(f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/><text x='%d' y='%.1f' text-anchor='end'>%g×</text>\n",
                LEFT, y, RIGHT, y, LEFT - 6, y + 4, pow(10, d));
    }
    for (double ell = 0; ell <= a->ell_max + ell_step / 2; ell += ell_step)
        fprintf(f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#eee'/><text x='%.1f' y='%d' text-anchor='middle'>%g</text>\n",
                plot_x(a, ell), TOP, plot_x(a, ell), BOTTOM, plot_x(a, ell), BOTTOM + 16, ell);
    double one = plot_y(a, 1.0);
    fprintf(f, "<path d='M%d %d V%d H%d' fill='none' stroke='black'/>\n"
               "<text x='%d' y='%d' text-anchor='middle'>ell (problem size)</text>\n"
               "<text transform='translate(18 %d) rotate(-90)' text-anchor='middle'>speedup over the CPU engine</text>\n"
               "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#555' stroke-dasharray='6,4'/>"
               "<text x='%d' y='%.1f' text-anchor='end' fill='#555'>CPU = GPU</text>\n",
            LEFT, TOP, BOTTOM, RIGHT, (LEFT + RIGHT) / 2, BOTTOM + 36, (TOP + BOTTOM) / 2, LEFT, one, RIGHT, one,
            RIGHT - 4, one - 5);
}

/* sorted: the rows by ell, so that each polyline runs left to right. */
static void plot_series(FILE *f, const plot_axes *a, const dsmga_plot_row *sorted, int nrows, const char *problem,
                        int m, const char *color)
{
    fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' stroke-dasharray='%s' points='", color, DASHES[m]);
    for (int i = 0; i < nrows; ++i)
        if (!strcmp(sorted[i].problem, problem) && plot_drawable(sorted[i].speedup[m]))
            fprintf(f, "%.1f,%.1f ", plot_x(a, sorted[i].ell), plot_y(a, sorted[i].speedup[m]));
    fputs("'><title>", f);
    plot_escaped(f, problem);
    fprintf(f, " %s</title></polyline>\n", MEASURES[m]);
    for (int i = 0; i < nrows; ++i)
        if (!strcmp(sorted[i].problem, problem) && plot_drawable(sorted[i].speedup[m]))
            fprintf(f, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>", plot_x(a, sorted[i].ell),
                    plot_y(a, sorted[i].speedup[m]), color);
    fputc('\n', f);
}

static void plot_legend_entry(FILE *f, int y, const char *color, const char *dashes, const char *label)
{
    fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' stroke-width='2' stroke-dasharray='%s'/>", LEGEND, y,
            LEGEND + 32, y, color, dashes);
    plot_label(f, LEGEND + 38, y + 4, "", label);
}

void dsmga_plot_svg(FILE *f, const dsmga_plot_row *rows, int nrows, const char *caption)
{
    dsmga_plot_row *sorted = malloc(sizeof *sorted * (size_t)(nrows + 1));
    if (!sorted) return;
    if (nrows) memcpy(sorted, rows, sizeof *sorted * (size_t)nrows);
    qsort(sorted, (size_t)nrows, sizeof *sorted, plot_by_ell);

    /* Whole decades around every speedup and 1×; ell ticks from 0 in a round (1-2-5) step. */
    double ell_max = 1, lo = 1, hi = 1;
    for (int i = 0; i < nrows; ++i) {
        ell_max = fmax(ell_max, rows[i].ell);
        for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m)
            if (plot_drawable(rows[i].speedup[m])) {
                lo = fmin(lo, rows[i].speedup[m]);
                hi = fmax(hi, rows[i].speedup[m]);
            }
    }
    double raw = ell_max / 8, mag = pow(10, floor(log10(raw)));
    double step = mag * (raw <= mag ? 1 : raw <= 2 * mag ? 2 : raw <= 5 * mag ? 5 : 10);
    plot_axes a = {ceil(ell_max / step) * step, floor(log10(lo) + 1e-9), ceil(log10(hi) - 1e-9)};
    if (a.decade_hi == a.decade_lo) a.decade_hi += 1;

    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' font-size='12'>\n"
               "<rect width='%d' height='%d' fill='white'/>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    plot_label(f, LEFT, 24, "font-size='15'", "DSMGA-II model building: speedup of fragment passes over CPU");
    if (caption) plot_label(f, LEFT, 44, "fill='#555'", caption);
    plot_grid(f, &a, step);

    /* Problems take colours in the order they first appear: the order the bench ran them. */
    int problems = 0, y = TOP;
    plot_label(f, LEGEND, y, "font-weight='bold'", "problem");
    for (int i = 0; i < nrows; ++i) {
        int j = 0;
        while (strcmp(rows[j].problem, rows[i].problem)) ++j;
        if (j < i) continue;
        const char *color = COLORS[problems++ % 8];
        for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m) plot_series(f, &a, sorted, nrows, rows[i].problem, m, color);
        plot_legend_entry(f, y += 18, color, "none", rows[i].problem);
    }
    plot_label(f, LEGEND, y += 30, "font-weight='bold'", "measure");
    for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m) plot_legend_entry(f, y += 18, "black", DASHES[m], MEASURES[m]);
    fputs("</svg>\n", f);
    free(sorted);
}
