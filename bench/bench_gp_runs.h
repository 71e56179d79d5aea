/* glevo bench gp's whole-run cells and its EvoGP comparison (issue 24): whole GP runs of
 * .peers/evogp_fullrun.py's cells beside the evaluation surface, EvoGP's numbers read from a
 * CSV written on the GPU machine in the same run, and the scaling pictures (GPop/s against
 * cases, one line per engine and population, EvoGP's at every point it was measured). */
#ifndef GLEVO_BENCH_GP_RUNS_H
#define GLEVO_BENCH_GP_RUNS_H

#include <stdbool.h>
#include <stdio.h>

#include "glevo/gp.h"

enum { GP_WHOLE_MAX_CELLS = 16, GP_WHOLE_MAX_SEEDS = 16, GP_EVOGP_MAX = 256 };
/* What a whole run runs: EvoGP's algorithm (the machinery's speed) or glevo gp's defaults. */
enum { GP_WHOLE_EVOGP, GP_WHOLE_DEFAULTS, GP_WHOLE_ALGORITHMS };
extern const char *const gp_whole_algorithm_names[GP_WHOLE_ALGORITHMS];

typedef struct gp_whole_opts {
    int pops[GP_WHOLE_MAX_CELLS], cases[GP_WHOLE_MAX_CELLS], ncells;
    int seeds;              /* timed runs a cell (seeds 1..seeds) after a warm-up */
    unsigned engines;       /* bit 0 fragment, 1 compute, 2 cpu */
    unsigned algorithms;    /* bit GP_WHOLE_EVOGP, GP_WHOLE_DEFAULTS */
    const char *data_dir;   /* NULL: generated data; else DIR/sr_<cases>.csv */
    double cpu_limit;       /* skip CPU runs above this many node evaluations */
    const double *evogp_runs; /* NULL, or EvoGP's seconds a cell (<= 0: not measured) */
} gp_whole_opts;

/* Parses "POPxCASES,..." into o's cells: 0, or 2 after a one-line error. */
int gp_whole_parse_cells(const char *cmd, const char *text, gp_whole_opts *o);
/* Parses "evogp,defaults" (either or both) into o->algorithms: 0, or 2 after a one-line error. */
int gp_whole_parse_algorithms(const char *cmd, const char *text, gp_whole_opts *o);
/* Runs the cells (a first run, then seeds 1..seeds, for each engine and algorithm), writes
 * rows to csv (seed 0: the first run; may be NULL) and a table to stdout and md (may be
 * NULL). 0, or the exit status after a one-line error. */
int gp_whole_runs(const char *cmd, const gp_whole_opts *o, const char *renderer, FILE *csv,
                  FILE *md, bool quiet);

/* EvoGP's numbers from the GPU machine: CSV rows kind,pop,cases,value with kind "gpops" (its
 * evaluation on the surface's programs' shape) or "run_seconds" (a whole run); repeated rows
 * of a point keep the best (most GPop/s, fewest seconds). */
typedef struct gp_evogp {
    int n;
    char kind[GP_EVOGP_MAX];   /* 'g' gpops, 'r' run seconds */
    int pop[GP_EVOGP_MAX], cases[GP_EVOGP_MAX];
    double value[GP_EVOGP_MAX];
} gp_evogp;
int gp_evogp_read(const char *cmd, const char *path, gp_evogp *out);
/* EvoGP's value of kind at (pop, cases), or 0. */
double gp_evogp_value(const gp_evogp *e, char kind, int pop, int cases);

/* The scaling picture of one set: GPop/s against cases, a line per engine and population
 * (values[(engine * ncases + case) * npop + pop], <= 0 not measured) and a dashed line per
 * population EvoGP was measured at, at every case count it was. path: .svg or .png. */
glevo_status gp_scaling_write(const char *path, const char *set, const int *pops, int npop,
                              const int *cases, int ncases, const double *values,
                              const char *const *engines, int nengines, const gp_evogp *evogp,
                              const char *caption);

#endif
