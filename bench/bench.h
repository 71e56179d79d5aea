/* Paper reproductions behind `glevo bench SUITE`: one file per suite. */
#ifndef GLEVO_BENCH_H
#define GLEVO_BENCH_H

int bench_cga(int argc, char **argv);
int bench_de(int argc, char **argv);
int bench_gp(int argc, char **argv);
/* The compute evaluator's layouts on given programs, timed as EvoGP times its own. */
int bench_gp_layouts(int argc, char **argv);
int bench_compile(int argc, char **argv);
int bench_dsmga(int argc, char **argv);
/* Not a paper: a line chart from a long-format CSV (the scaling pictures). */
int bench_plot(int argc, char **argv);
/* Not a run either: the islands' speed-up picture from scripts/device/islands-multigpu.sh's
 * tables (--redraw). */
int bench_islands(int argc, char **argv);

#include <stdbool.h>
#include <stdio.h>
/* Creates out_dir unless it exists: 0, or 2 after a one-line error. */
int bench_make_out_dir(const char *command, const char *out_dir);
/* Creates out_dir if needed and opens out_dir/SUITE.md and, when csv is not NULL,
 * out_dir/SUITE.csv. Nothing is opened when out_dir is NULL. 0, or 2 after a one-line error. */
int bench_open_tables(const char *command, const char *out_dir, const char *suite, FILE **md,
                      FILE **csv);
/* Closes a table from bench_open_tables: keep puts it in place (0, or 1 after the write error
 * is recorded in glevo_last_error), !keep drops it. NULL is fine. */
int bench_close_table(FILE *f, bool keep);
/* SIGINT/SIGTERM stop a suite after the run in progress (issue 23): bench_signals_start
 * installs the handlers, the suite's loops ask bench_stopped() and leave out the row whose
 * runs did not all complete, and bench_stop_exit says how many rows the tables hold and
 * returns 128 + signal (rc when no signal came, or rc is a failure). */
void bench_signals_start(void);
bool bench_stopped(void);
int bench_stop_exit(const char *command, int completed, const char *unit, int rc);
/* With --json: runs a suite with its Markdown captured, then prints its tables as one JSON
 * object on stdout (bench_json.c). */
int bench_run_json(const char *suite, int (*run)(int, char **), int argc, char **argv);

#endif
