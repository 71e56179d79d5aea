/* The DSMGA-II speedup picture (Li & Yu 2017 §6): drawn by `glevo bench dsmga` after its runs,
 * or redrawn from the CSV tables of earlier runs (--redraw), which lets the tables of several
 * bench processes become one picture. */
#ifndef GLEVO_BENCH_DSMGA_PLOT_H
#define GLEVO_BENCH_DSMGA_PLOT_H

#include "glevo/status.h"

enum { DSMGA_PLOT_MEASURES = 3 };

/* One bench cell: a problem at one ell and the speedups over the CPU engine of BuildDSM,
 * lossless FindClique and lossy FindClique, in that order. */
typedef struct dsmga_plot_row {
    char problem[32];
    int ell;
    double speedup[DSMGA_PLOT_MEASURES];
} dsmga_plot_row;

/* Draws the picture into path (.svg or .png, atomically): colour = problem, line style =
 * measure, speedup on a log scale over a linear ell. Rows may come in any order; caption (the
 * renderer and date, say) goes under the chart, NULL for none. */
glevo_status dsmga_plot_write(const char *path, const dsmga_plot_row *rows, int nrows, const char *caption);

/* Reads the comma-separated CSV paths in list (tables of `bench dsmga --out`) and writes
 * out_dir/name_speedup.svg, out_dir/name_speedup.png and out_dir/name.csv (the header once,
 * then every row in file order). 0, or 2 after a one-line error naming file, line and value;
 * nothing is written then. */
int dsmga_plot_redraw(const char *list, const char *out_dir, const char *name, const char *caption);

#endif
