/* GP throughput heat maps through the chart module, from a run's measurements or from the
 * gp.csv of an earlier run (glevo bench gp --redraw). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_gp_plot.h"
#include "bench_gp_runs.h"
#include "cli.h"
#include "glevo/chart.h"

#define COMMAND "bench gp"
enum { MAX_AXIS = 16, MAX_ENGINES = 8, MAX_SETS = 2 };

glevo_status gp_plot_write(const char *path, const char *set, int size, int vars, const int *pops, int npop,
                           const int *cases, int ncases, const double *values, const char *const *engines,
                           int nengines, const char *caption)
{
    double xs[MAX_AXIS], ys[MAX_AXIS];
    for (int i = 0; i < npop && i < MAX_AXIS; ++i) xs[i] = pops[i];
    for (int j = 0; j < ncases && j < MAX_AXIS; ++j) ys[j] = cases[j];
    char title[160], subtitle[200];
    snprintf(title, sizeof title, "GP evaluation throughput, %s set", set);
    snprintf(subtitle, sizeof subtitle, "Augusto & Barbosa 2012: tree size %d, %d inputs, median of runs; "
             "GPop/s = nodes x cases / s", size, vars);
    glevo_chart_heat chart = {.title = title, .subtitle = subtitle, .caption = caption,
                              .x_label = "population (programs)", .y_label = "dataset size (cases)",
                              .value_label = "GPop/s", .nx = npop, .ny = ncases, .npanels = nengines,
                              .x_values = xs, .y_values = ys, .panel_names = engines, .values = values,
                              .colour_scale = GLEVO_CHART_LOG, .print_values = true};
    return glevo_chart_heat_write(&chart, path);
}

/* Index of v in list (appending it when new); -1 when the list is full. */
static int index_of(int *list, int *n, int v)
{
    for (int i = 0; i < *n; ++i)
        if (list[i] == v) return i;
    if (*n == MAX_AXIS) return -1;
    list[*n] = v;
    return (*n)++;
}

static int name_index(char (*list)[32], int *n, int max, const char *v)
{
    for (int i = 0; i < *n; ++i)
        if (!strcmp(list[i], v)) return i;
    if (*n == max || strlen(v) >= 32) return -1;
    snprintf(list[*n], 32, "%s", v);
    return (*n)++;
}

static int cmp_int(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

typedef struct gp_table {
    char sets[MAX_SETS][32], engines[MAX_ENGINES][32], renderer[256];
    int nsets, nengines, pops[MAX_AXIS], npop, cases[MAX_AXIS], ncases;
    double v[MAX_SETS][MAX_ENGINES][MAX_AXIS][MAX_AXIS]; /* [set][engine][pop][cases], file order */
} gp_table;

static int read_row(const char *csv, int line, char *text, gp_table *t)
{
    char *f[7];
    int n = 0;
    /* The renderer (last) is quoted and may hold commas: split the first six fields only. */
    for (char *p = text; n < 6; ++n) {
        f[n] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = '\0', p = comma + 1;
        if (n == 5) f[6] = p;
    }
    if (n < 6) return cli_bad_input(COMMAND, "%s line %d: fewer than 7 fields", csv, line);
    char *end;
    long pop = strtol(f[2], &end, 10);
    if (*end || pop <= 0) return cli_bad_input(COMMAND, "%s line %d: pop '%s' is not a positive integer", csv, line, f[2]);
    long cases = strtol(f[3], &end, 10);
    if (*end || cases <= 0) return cli_bad_input(COMMAND, "%s line %d: cases '%s' is not a positive integer", csv, line, f[3]);
    double gpops = strtod(f[4], &end);
    if (*end || !(gpops >= 0)) return cli_bad_input(COMMAND, "%s line %d: gpops '%s' is not a number >= 0", csv, line, f[4]);
    int s = name_index(t->sets, &t->nsets, MAX_SETS, f[0]), e = name_index(t->engines, &t->nengines, MAX_ENGINES, f[1]);
    int i = index_of(t->pops, &t->npop, (int)pop), j = index_of(t->cases, &t->ncases, (int)cases);
    if (s < 0 || e < 0 || i < 0 || j < 0)
        return cli_bad_input(COMMAND, "%s line %d: more than %d sets, %d engines or %d sizes", csv, line, MAX_SETS,
                             MAX_ENGINES, MAX_AXIS);
    t->v[s][e][i][j] = gpops;
    char *r = f[6];
    size_t len = strcspn(r, "\r\n");
    if (len >= 2 && r[0] == '"' && r[len - 1] == '"') ++r, len -= 2;
    snprintf(t->renderer, sizeof t->renderer, "%.*s", (int)len, r);
    return 0;
}

int gp_plot_redraw(const char *csv, const char *out_dir, int size, int vars, const char *caption,
                   const struct gp_evogp *evogp)
{
    FILE *f = fopen(csv, "r");
    if (!f) return cli_bad_input(COMMAND, "--redraw %s: %s", csv, strerror(errno));
    gp_table *t = calloc(1, sizeof *t);
    char *line = NULL;
    size_t cap = 0;
    int rc = t ? 0 : 1, n = 0;
    if (!t) fprintf(stderr, "glevo " COMMAND ": out of memory\n");
    while (!rc && getline(&line, &cap, f) >= 0) {
        if (++n == 1) {
            if (strncmp(line, "set,engine,pop,cases,gpops", 26))
                rc = cli_bad_input(COMMAND, "%s line 1: not a bench gp table (header '%.40s')", csv, line);
        } else if (line[0] != '\n') {
            rc = read_row(csv, n, line, t);
        }
    }
    free(line);
    fclose(f);
    if (!rc && t->nsets == 0) rc = cli_bad_input(COMMAND, "%s: no rows", csv);
    if (!rc) rc = bench_make_out_dir(COMMAND, out_dir);
    if (rc) {
        free(t);
        return rc;
    }
    /* Axes in increasing order, whatever order the rows came in. */
    int pops[MAX_AXIS], cases[MAX_AXIS], pi[MAX_AXIS], cj[MAX_AXIS];
    memcpy(pops, t->pops, sizeof pops), memcpy(cases, t->cases, sizeof cases);
    qsort(pops, (size_t)t->npop, sizeof *pops, cmp_int);
    qsort(cases, (size_t)t->ncases, sizeof *cases, cmp_int);
    for (int i = 0; i < t->npop; ++i) pi[i] = index_of(t->pops, &t->npop, pops[i]);
    for (int j = 0; j < t->ncases; ++j) cj[j] = index_of(t->cases, &t->ncases, cases[j]);
    char stamp[512];
    snprintf(stamp, sizeof stamp, "%s, from %s", t->renderer, csv);
    static double values[MAX_ENGINES * MAX_AXIS * MAX_AXIS];
    const char *engines[MAX_ENGINES];
    for (int e = 0; e < t->nengines; ++e) engines[e] = t->engines[e];
    for (int s = 0; s < t->nsets && !rc; ++s) {
        for (int e = 0; e < t->nengines; ++e)
            for (int j = 0; j < t->ncases; ++j)
                for (int i = 0; i < t->npop; ++i)
                    values[(e * t->ncases + j) * t->npop + i] = t->v[s][e][pi[i]][cj[j]];
        for (int k = 0; k < 2 && !rc; ++k) {
            char path[4096];
            snprintf(path, sizeof path, "%s/gp_%s.%s", out_dir, t->sets[s], k ? "png" : "svg");
            if (gp_plot_write(path, t->sets[s], size, vars, pops, t->npop, cases, t->ncases, values, engines,
                              t->nengines, caption ? caption : stamp))
                rc = cli_fail(COMMAND, GLEVO_ERR_IO);
            snprintf(path, sizeof path, "%s/gp_scaling_%s.%s", out_dir, t->sets[s], k ? "png" : "svg");
            if (!rc && gp_scaling_write(path, t->sets[s], pops, t->npop, cases, t->ncases, values, engines,
                                        t->nengines, evogp, caption ? caption : stamp))
                rc = cli_fail(COMMAND, GLEVO_ERR_IO);
        }
    }
    free(t);
    return rc;
}
