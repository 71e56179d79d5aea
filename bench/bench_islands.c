/* glevo bench islands --redraw: the speed-up of MPI islands against the number of islands (and
 * so of GPUs, one a rank up to the host's G), one line per family and backend, from the CSV
 * tables scripts/device/islands-multigpu.sh writes: islands_multigpu.csv (cGA, evaluations a
 * second), islands_multigpu_de.csv (DE, seconds to target) and islands_gp.csv (GP, programs a
 * second). Each point is the best of the rows at its island count over the best 1-island row of
 * its series, at the equal total population the script keeps. Runs nothing; no GL context. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "bench.h"
#include "glevo/chart.h"

#define COMMAND "bench islands"
enum { MAX_COLUMNS = 32, MAX_SERIES = 12, MAX_POINTS = 16 };

typedef struct isl_series {
    char name[48];
    int family; /* colour */
    int dash;   /* by backend: compute solid, fragment dashed, cpu dotted */
    double islands[MAX_POINTS], best[MAX_POINTS];
    int n;
    bool time; /* best is the least (seconds), not the most (a rate) */
} isl_series;

typedef struct isl_table {
    isl_series s[MAX_SERIES];
    int ns, gpus;
    char renderer[160];
} isl_table;

/* The three tables by a column only each has, and the column measured. */
static const struct {
    const char *family, *key, *measure;
    bool time;
} KINDS[] = {{"cGA", "evals_per_s", "evals_per_s", false},
             {"DE", "reached", "seconds", true},
             {"GP", "programs_per_s", "programs_per_s", false}};

/* Cuts line at commas outside double quotes (a renderer may hold commas); strips the quotes.
 * Returns the number of fields (more than MAX_COLUMNS: only the first kept). */
static int split_csv(char *line, char **fields)
{
    line[strcspn(line, "\r\n")] = '\0';
    int n = 0;
    for (char *p = line;;) {
        bool quoted = *p == '"';
        char *field = quoted ? p + 1 : p, *end = quoted ? strchr(field, '"') : NULL;
        if (quoted && !end) return -1;
        char *comma = strchr(end ? end : p, ',');
        if (end) *end = '\0';
        if (comma) *comma = '\0';
        if (n < MAX_COLUMNS) fields[n] = field;
        ++n;
        if (!comma) return n;
        p = comma + 1;
    }
}

static int column(char **fields, int n, const char *name)
{
    for (int i = 0; i < n && i < MAX_COLUMNS; ++i)
        if (!strcmp(fields[i], name)) return i;
    return -1;
}

static bool number(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return *text && !*end && !errno && isfinite(*out);
}

static int add_point(const char *path, int lineno, isl_table *t, int kind, const char *backend,
                     double islands, double value)
{
    char name[48];
    snprintf(name, sizeof name, "%s %s", KINDS[kind].family, backend);
    int k = 0;
    while (k < t->ns && strcmp(t->s[k].name, name)) ++k;
    if (k == MAX_SERIES)
        return cli_bad_input(COMMAND, "%s line %d: more than %d series", path, lineno, MAX_SERIES);
    isl_series *s = &t->s[k];
    if (k == t->ns) {
        ++t->ns;
        *s = (isl_series){.family = kind, .time = KINDS[kind].time,
                          .dash = !strcmp(backend, "fragment") ? 1 : !strcmp(backend, "cpu") ? 2 : 0};
        snprintf(s->name, sizeof s->name, "%s", name);
    }
    int i = 0;
    while (i < s->n && s->islands[i] != islands) ++i;
    if (i == MAX_POINTS)
        return cli_bad_input(COMMAND, "%s line %d: more than %d island counts", path, lineno, MAX_POINTS);
    if (i == s->n) s->islands[s->n++] = islands, s->best[i] = value;
    else s->best[i] = s->time ? fmin(s->best[i], value) : fmax(s->best[i], value);
    return 0;
}

/* One table: its kind from the header, then every row; a row the script marked FAILED (and a
 * DE run that missed its target) has no measurement and is left out. */
static int read_table(const char *path, isl_table *t)
{
    FILE *f = fopen(path, "r");
    if (!f) return cli_bad_input(COMMAND, "--redraw %s: %s", path, strerror(errno));
    char line[1024], *fields[MAX_COLUMNS];
    int rc = 0, lineno = 0, kind = -1, ncols = 0, col_backend = -1, col_islands = -1,
        col_value = -1, col_gpus = -1, col_reached = -1;
    while (!rc && fgets(line, sizeof line, f)) {
        int n = split_csv(line, fields);
        if (++lineno == 1) {
            ncols = n;
            for (int k = 0; k < 3 && kind < 0 && n > 0; ++k)
                if (column(fields, n, KINDS[k].key) >= 0) kind = k;
            col_backend = column(fields, n, "backend");
            col_islands = column(fields, n, "islands");
            col_value = kind >= 0 ? column(fields, n, KINDS[kind].measure) : -1;
            col_gpus = column(fields, n, "gpus");
            col_reached = column(fields, n, "reached");
            if (n > MAX_COLUMNS || col_backend < 0 || col_islands < 0 || col_value < 0)
                rc = cli_bad_input(COMMAND, "%s line 1: not a table of "
                                   "scripts/device/islands-multigpu.sh (backend, islands and "
                                   "evals_per_s, programs_per_s or seconds with reached)", path);
            continue;
        }
        if (n == 1 && !*fields[0]) continue; /* an empty line */
        if (n < 0 || n != ncols) {
            rc = cli_bad_input(COMMAND, "%s line %d: %d fields, the header has %d", path, lineno,
                               n < 0 ? 0 : n, ncols);
            break;
        }
        if (!strcmp(fields[ncols - 1], "FAILED") && !*fields[col_value]) continue;
        if (col_reached >= 0 && strcmp(fields[col_reached], "True")) continue;
        double islands, value, gpus = 0;
        if (!number(fields[col_islands], &islands) || islands < 1 ||
            !number(fields[col_value], &value) || value <= 0 ||
            (col_gpus >= 0 && !number(fields[col_gpus], &gpus))) {
            rc = cli_bad_input(COMMAND, "%s line %d: islands '%s', %s '%s' are not positive numbers",
                               path, lineno, fields[col_islands], KINDS[kind].measure,
                               fields[col_value]);
            break;
        }
        if (gpus > t->gpus) t->gpus = (int)gpus;
        int col_renderer = column(fields, ncols, "renderer");
        if (col_renderer >= 0 && !t->renderer[0])
            snprintf(t->renderer, sizeof t->renderer, "%s", fields[col_renderer]);
        rc = add_point(path, lineno, t, kind, fields[col_backend], islands, value);
    }
    fclose(f);
    if (!rc && lineno < 2) rc = cli_bad_input(COMMAND, "%s: no rows", path);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Speed-ups over the 1-island point, in order of islands; written as series,x,y,dash,colour. */
static int speedups(const isl_table *t, double (*x)[MAX_POINTS], double (*y)[MAX_POINTS], FILE *csv)
{
    fprintf(csv, "series,x,y,dash,colour\n");
    for (int k = 0; k < t->ns; ++k) {
        const isl_series *s = &t->s[k];
        double base = NAN, order[MAX_POINTS];
        for (int i = 0; i < s->n; ++i) {
            if (s->islands[i] == 1) base = s->best[i];
            order[i] = s->islands[i];
        }
        if (isnan(base))
            return cli_bad_input(COMMAND, "series '%s' has no 1-island row to compare with", s->name);
        qsort(order, (size_t)s->n, sizeof *order, cmp_double);
        for (int j = 0; j < s->n; ++j)
            for (int i = 0; i < s->n; ++i)
                if (s->islands[i] == order[j]) {
                    x[k][j] = order[j];
                    y[k][j] = s->time ? base / s->best[i] : s->best[i] / base;
                    fprintf(csv, "%s,%g,%.4g,%d,%d\n", s->name, x[k][j], y[k][j], s->dash, s->family);
                }
    }
    return 0;
}

static int redraw(const char *list, const char *out_dir, const char *caption)
{
    isl_table *t = calloc(1, sizeof *t);
    char *paths = strdup(list);
    int rc = t && paths ? 0 : cli_fail(COMMAND, glevo_fail(GLEVO_ERR_NOMEM, "out of memory"));
    for (char *p = rc ? NULL : strtok(paths, ","); p && !rc; p = strtok(NULL, ","))
        rc = read_table(p, t);
    if (!rc && t->ns == 0) rc = cli_bad_input(COMMAND, "--redraw '%s' holds no measured row", list);
    if (!rc) rc = bench_make_out_dir(COMMAND, out_dir);
    char csv_path[4096], png_path[4096];
    snprintf(csv_path, sizeof csv_path, "%s/islands_speedup.csv", out_dir);
    snprintf(png_path, sizeof png_path, "%s/islands_speedup.png", out_dir);
    static double x[MAX_SERIES][MAX_POINTS], y[MAX_SERIES][MAX_POINTS];
    FILE *csv = rc ? NULL : fopen(csv_path, "w");
    if (!rc && !csv) rc = cli_bad_input(COMMAND, "--out %s: %s", csv_path, strerror(errno));
    if (!rc) rc = speedups(t, x, y, csv);
    if (csv && fclose(csv) && !rc) rc = cli_fail(COMMAND, glevo_fail(GLEVO_ERR_IO, "%s: write failed", csv_path));
    if (!rc) {
        glevo_chart_series series[MAX_SERIES];
        for (int k = 0; k < t->ns; ++k)
            series[k] = (glevo_chart_series){.name = t->s[k].name, .x = x[k], .y = y[k],
                                             .n = t->s[k].n, .colour = t->s[k].family,
                                             .dash = t->s[k].dash};
        char subtitle[200];
        if (t->gpus == 1)
            snprintf(subtitle, sizeof subtitle, "equal total population; 1 GPU, which every rank "
                     "shares; cGA and GP: throughput, DE: time to target");
        else
            snprintf(subtitle, sizeof subtitle, "equal total population; %d GPUs: up to %d ranks "
                     "one each, more share them; DE: time to target", t->gpus, t->gpus);
        glevo_chart_lines chart = {.title = "MPI islands: speed-up over one island",
                                   .subtitle = subtitle,
                                   .caption = caption ? caption : t->renderer,
                                   .x = {.label = "islands (MPI ranks)", .scale = GLEVO_CHART_LOG},
                                   .y = {.label = "speed-up over 1 island", .scale = GLEVO_CHART_LOG},
                                   .series = series, .nseries = t->ns,
                                   .reference_label = "1 island", .reference_y = 1};
        glevo_status st = glevo_chart_lines_write(&chart, png_path);
        if (st) rc = cli_fail(COMMAND, st);
    }
    if (rc) remove(csv_path);
    free(paths);
    free(t);
    return rc;
}

int bench_islands(int argc, char **argv)
{
    const char *list = NULL, *out_dir = NULL, *caption = NULL;
    bool help = false;
    opt_spec specs[] = {
        {"redraw", OPT_STRING, &list, "comma list of the CSVs scripts/device/islands-multigpu.sh "
                                      "wrote: draw the speed-up picture under --out"},
        {"out", OPT_STRING, &out_dir, "folder for islands_speedup.png and islands_speedup.csv"},
        {"caption", OPT_STRING, &caption, "the picture's caption (default: the first row's renderer)"},
        {0}};
    int rc = opt_parse(COMMAND, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench islands --redraw CSV[,CSV...] --out DIR [--caption TEXT]",
                       "The islands' speed-up picture from scripts/device/islands-multigpu.sh's "
                       "tables (the measurement itself is that script: it needs mpirun).", specs);
        return 0;
    }
    if (!list) return cli_bad_input(COMMAND, "--redraw CSV is required (the measurement is "
                                    "scripts/device/islands-multigpu.sh)");
    if (!out_dir) return cli_bad_input(COMMAND, "--redraw needs --out DIR for the picture");
    return redraw(list, out_dir, caption);
}
