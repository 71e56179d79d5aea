/* Paper reproductions behind `glevo bench SUITE`: one file per suite. */
#ifndef GLEVO_BENCH_H
#define GLEVO_BENCH_H

int bench_cga(int argc, char **argv);
int bench_de(int argc, char **argv);
int bench_gp(int argc, char **argv);
int bench_dsmga(int argc, char **argv);
/* Not a paper: a line chart from a long-format CSV (the scaling pictures). */
int bench_plot(int argc, char **argv);

#include <stdio.h>
/* Creates out_dir unless it exists: 0, or 2 after a one-line error. */
int bench_make_out_dir(const char *command, const char *out_dir);
/* Creates out_dir if needed and opens out_dir/SUITE.md and, when csv is not NULL,
 * out_dir/SUITE.csv. Nothing is opened when out_dir is NULL. 0, or 2 after a one-line error. */
int bench_open_tables(const char *command, const char *out_dir, const char *suite, FILE **md,
                      FILE **csv);

#endif
