/* The DSMGA-II speedup picture through the chart module: one line per (problem, measure) over
 * ell, colour = problem (in the order the bench ran them), dash = measure, speedup on a log
 * axis so that 0.9x (GPU slower, small ell) and 200x read on one axis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_dsmga_plot.h"
#include "glevo/chart.h"

static const char *const MEASURES[DSMGA_PLOT_MEASURES] = {"BuildDSM", "FindClique lossless", "FindClique lossy"};

static int plot_by_ell(const void *a, const void *b)
{
    int x = ((const dsmga_plot_row *)a)->ell, y = ((const dsmga_plot_row *)b)->ell;
    return (x > y) - (x < y);
}

glevo_status dsmga_plot_write(const char *path, const dsmga_plot_row *rows, int nrows, const char *caption)
{
    /* Each line runs left to right: the rows sorted by ell. */
    dsmga_plot_row *sorted = malloc(sizeof *sorted * (size_t)(nrows + 1));
    glevo_chart_series *series = malloc(sizeof *series * (size_t)(DSMGA_PLOT_MEASURES * nrows + 1));
    glevo_chart_key *legend = malloc(sizeof *legend * (size_t)(nrows + DSMGA_PLOT_MEASURES + 2));
    char (*names)[64] = malloc(sizeof *names * (size_t)(DSMGA_PLOT_MEASURES * nrows + 1));
    double *points = malloc(sizeof *points * 2 * (size_t)(DSMGA_PLOT_MEASURES * nrows + 1));
    glevo_status st = GLEVO_OK;
    if (!sorted || !series || !legend || !names || !points) {
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory drawing %d rows", nrows);
        goto done;
    }
    if (nrows) memcpy(sorted, rows, sizeof *sorted * (size_t)nrows);
    qsort(sorted, (size_t)nrows, sizeof *sorted, plot_by_ell);

    /* Problems take colours in the order they first appear: the order the bench ran them. */
    int nseries = 0, nlegend = 0, problems = 0, used = 0;
    legend[nlegend++] = (glevo_chart_key){.name = "problem", .heading = true};
    for (int i = 0; i < nrows; ++i) {
        int j = 0;
        while (strcmp(rows[j].problem, rows[i].problem)) ++j;
        if (j < i) continue;
        int colour = problems++;
        legend[nlegend++] = (glevo_chart_key){.name = rows[i].problem, .colour = colour};
        for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m) {
            glevo_chart_series *s = &series[nseries];
            snprintf(names[nseries], sizeof names[0], "%s %s", rows[i].problem, MEASURES[m]);
            int n = 0;
            for (int k = 0; k < nrows; ++k)
                if (!strcmp(sorted[k].problem, rows[i].problem)) ++n;
            double *x = points + used, *y = x + n;
            n = 0;
            for (int k = 0; k < nrows; ++k)
                if (!strcmp(sorted[k].problem, rows[i].problem)) x[n] = sorted[k].ell, y[n++] = sorted[k].speedup[m];
            *s = (glevo_chart_series){.name = names[nseries], .x = x, .y = y, .n = n, .colour = colour, .dash = m};
            used += 2 * n;
            ++nseries;
        }
    }
    legend[nlegend++] = (glevo_chart_key){.name = "measure", .heading = true};
    for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m)
        legend[nlegend++] = (glevo_chart_key){.name = MEASURES[m], .colour = -1, .dash = m};
    glevo_chart_lines chart = {
        .title = "DSMGA-II model building: speedup of fragment passes over the CPU engine",
        .subtitle = "Li & Yu 2017 §6: BuildDSM and FindClique (lossless, lossy), per generation",
        .caption = caption,
        .x = {.label = "ell (problem size, bits)"},
        .y = {.label = "speedup over the CPU engine", .scale = GLEVO_CHART_LOG, .tick_suffix = "×"},
        .series = series, .nseries = nseries, .legend = legend, .nlegend = nlegend,
        .reference_label = "CPU = GPU", .reference_y = 1.0};
    st = glevo_chart_lines_write(&chart, path);
done:
    free(sorted), free(series), free(legend), free(names), free(points);
    return st;
}
