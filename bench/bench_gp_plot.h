/* The GP throughput pictures (Augusto & Barbosa 2012 §4): drawn by `glevo bench gp --out` after
 * its runs, or redrawn from the gp.csv of an earlier run (--redraw), e.g. one brought back
 * from the GPU machine. */
#ifndef GLEVO_BENCH_GP_PLOT_H
#define GLEVO_BENCH_GP_PLOT_H

#include "glevo/status.h"

/* One heat-map panel per engine, population across, dataset size up, colour = log GPop/s;
 * values[(engine * ncases + case) * npop + pop], <= 0 for a cell not measured. path ends in
 * .svg or .png. */
glevo_status gp_plot_write(const char *path, const char *set, int size, int vars, const int *pops, int npop,
                           const int *cases, int ncases, const double *values, const char *const *engines,
                           int nengines, const char *caption);

/* Reads csv (columns set,engine,pop,cases,gpops,... as bench gp writes them) and writes
 * out_dir/gp_<set>.svg and .png and the scaling pictures gp_scaling_<set>.svg and .png (with
 * EvoGP's points where evogp is not NULL) for every set in it; caption NULL: "<renderer
 * column>, from <csv>". 0, or 2 after a one-line error naming the file, line and value
 * (nothing written). */
struct gp_evogp;
int gp_plot_redraw(const char *csv, const char *out_dir, int size, int vars, const char *caption,
                   const struct gp_evogp *evogp);

#endif
