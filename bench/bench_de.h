/* Internal to the DE bench (bench_de.c: Tables 1-3; bench_de_cells.c: timing cells): which
 * engines a bench compares, and repeated runs of one (problem, D, NP) cell. */
#ifndef GLEVO_BENCH_DE_H
#define GLEVO_BENCH_DE_H

#include <stdio.h>

#include "glevo/de.h"

#define DE_BENCH_MAX_ENGINES 3

/* One run's outcome; runs of a cell may finish in any order on worker threads. */
typedef struct de_run_outcome {
    double efv, seconds;
    long long generations;
    char engine[32];
    glevo_status status;
} de_run_outcome;

/* Runs seeds seed .. seed + runs - 1 of `params` on `backend` into out[runs]; jobs > 1 runs
 * CPU-engine seeds on that many threads at once (a GL context is bound to this thread). */
glevo_status bench_de_runs(const glevo_de_params *params, glevo_backend backend, uint32_t seed,
                           int runs, int jobs, de_run_outcome *out);
/* Parses --backend: fragment, compute, cpu, both (fragment and cpu, as before) or a comma
 * list of the three. 0, or 2 after a one-line error. */
int bench_de_backends(const char *list, glevo_backend *out, int *count);
/* CSV field: the renderer string quoted (llvmpipe's contains a comma). */
void bench_de_csv_string(FILE *f, const char *s);

#define DE_BENCH_MAX_CELLS 32
/* Parses --cells "D:NP,D:NP,..." into cells[k] = {D, NP}. 0, or 2 after a one-line error. */
int bench_de_cells_parse(const char *list, int cells[][2], int *count);
/* glevo bench de --cells: shifted sphere at 10^4 D evaluations, median times. */
int bench_de_cells(const int cells[][2], int count, const glevo_backend *backends, int engines,
                   int runs, glevo_de_kernel kernel, uint32_t seed, const char *renderer,
                   const char *out_dir, bool quiet);

#endif
