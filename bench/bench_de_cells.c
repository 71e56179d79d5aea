/* glevo bench de --cells D:NP,...: DE/rand/1/bin on the shifted sphere (F 0.5, CR 0.3, 10^4 D
 * evaluations: the setting of the evosax peer, shared/peers/de_evosax.py) for chosen (D, NP)
 * cells, --runs seeds each, with the median and fastest run time and microseconds a
 * generation per engine, so a device script can set glevo beside the peer and beside the
 * dispatch floor (a cell with almost no arithmetic, e.g. 4:4). Writes de_cells.md and
 * de_cells.csv (with the renderer string) under --out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_de.h"
#include "cli.h"

int bench_de_cells_parse(const char *list, int cells[][2], int *count)
{
    *count = 0;
    for (const char *p = list; *p;) {
        int d = 0, np = 0, used = 0;
        if (sscanf(p, "%d:%d%n", &d, &np, &used) != 2 || (p[used] && p[used] != ','))
            return cli_bad_input("bench de", "--cells '%s': expected D:NP,D:NP,... at '%s'",
                                 list, p);
        if (d < 1 || np < 4)
            return cli_bad_input("bench de", "--cells: cell %d:%d needs D >= 1 and NP >= 4", d,
                                 np);
        if (*count == DE_BENCH_MAX_CELLS)
            return cli_bad_input("bench de", "--cells: more than %d cells", DE_BENCH_MAX_CELLS);
        cells[*count][0] = d;
        cells[(*count)++][1] = np;
        p += used;
        if (*p == ',') ++p;
    }
    if (!*count) return cli_bad_input("bench de", "--cells '%s' names no cell", list);
    return 0;
}

static int by_seconds(const void *a, const void *b)
{
    double x = ((const de_run_outcome *)a)->seconds, y = ((const de_run_outcome *)b)->seconds;
    return (x > y) - (x < y);
}

static int by_efv(const void *a, const void *b)
{
    double x = ((const de_run_outcome *)a)->efv, y = ((const de_run_outcome *)b)->efv;
    return (x > y) - (x < y);
}

int bench_de_cells(const int cells[][2], int count, const glevo_backend *backends, int engines,
                   int runs, glevo_de_kernel kernel, uint32_t seed, const char *renderer,
                   const char *out_dir, bool quiet)
{
    FILE *md = NULL, *csv = NULL;
    int rc = bench_open_tables("bench de", out_dir, "de_cells", &md, &csv);
    if (rc) return rc;
    de_run_outcome *o = calloc((size_t)runs, sizeof *o);
    if (!o) {
        bench_close_table(md, false);
        bench_close_table(csv, false);
        return cli_fail("bench de", glevo_fail(GLEVO_ERR_NOMEM, "out of memory"));
    }
    if (csv)
        fprintf(csv, "dim,pop,backend,engine,runs,generations,seconds_median,seconds_min,"
                     "us_per_generation,efv_median,renderer\n");
    FILE *outs[2] = {stdout, md};
    for (int k = 0; k < 2; ++k)
        if (outs[k])
            fprintf(outs[k], "# DE timing cells: DE/rand/1/bin, shifted sphere, F 0.5, CR 0.3, "
                             "10^4 D evaluations, %d runs a cell (median)\n\nRenderer: %s. "
                             "Compute kernel asked: %s.\n\n| D | NP | engine | generations | "
                             "median s | fastest s | us/gen (median) | median EFV |\n"
                             "|---|---|---|---|---|---|---|---|\n",
                    runs, renderer, glevo_de_kernel_name(kernel));
    glevo_status st = GLEVO_OK;
    int done = 0;
    bench_signals_start();
    for (int c = 0; c < count && st == GLEVO_OK && !bench_stopped(); ++c) {
        for (int e = 0; e < engines && st == GLEVO_OK && !bench_stopped(); ++e) {
            glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = cells[c][0],
                                 .pop = cells[c][1], .kernel = kernel};
            st = bench_de_runs(&p, backends[e], seed, runs, 1, o);
            if (st != GLEVO_OK || bench_stopped()) break;
            done++;
            qsort(o, (size_t)runs, sizeof *o, by_efv);
            double efv = o[runs / 2].efv; /* median over seeds, not the median-time run's */
            qsort(o, (size_t)runs, sizeof *o, by_seconds);
            const de_run_outcome *m = &o[runs / 2];
            double us = m->generations ? 1e6 * m->seconds / (double)m->generations : 0.0;
            for (int k = 0; k < 2; ++k)
                if (outs[k]) {
                    fprintf(outs[k], "| %d | %d | %s | %lld | %.4f | %.4f | %.2f | %.3g |\n",
                            cells[c][0], cells[c][1], m->engine, m->generations, m->seconds,
                            o[0].seconds, us, efv);
                    fflush(outs[k]);
                }
            if (csv) {
                fprintf(csv, "%d,%d,%s,%s,%d,%lld,%.6g,%.6g,%.4g,%.6g,", cells[c][0],
                        cells[c][1], glevo_backend_name(backends[e]), m->engine, runs,
                        m->generations, m->seconds, o[0].seconds, us, efv);
                bench_de_csv_string(csv, backends[e] == GLEVO_BACKEND_CPU ? "cpu" : renderer);
                fputc('\n', csv);
            }
            if (!quiet)
                fprintf(stderr, "glevo bench de: cell %d:%d %s done\n", cells[c][0], cells[c][1],
                        m->engine);
        }
    }
    free(o);
    int bad = bench_close_table(md, st == GLEVO_OK);
    bad |= bench_close_table(csv, st == GLEVO_OK);
    if (st == GLEVO_OK && bad) st = GLEVO_ERR_IO;
    return st != GLEVO_OK ? cli_fail("bench de", st) : bench_stop_exit("bench de", done, "cells", 0);
}
