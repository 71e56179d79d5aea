/* glevo bench plot: a line chart from a long-format CSV (series,x,y[,dash[,colour]]) through
 * the chart module, for pictures assembled from several runs' tables (the scaling pictures in
 * docs/images, redrawn by scripts/make-pictures.sh). Series keep the order of their first
 * row; without a colour column they take the palette's colours in that order. Series names
 * hold no commas. No GL context. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "bench.h"
#include "glevo/chart.h"

#define PLOT_MAX_SERIES 16
#define PLOT_MAX_POINTS 256
#define COMMAND "bench plot"

typedef struct plot_series {
    char name[96];
    double x[PLOT_MAX_POINTS], y[PLOT_MAX_POINTS];
    int n, dash, colour;
} plot_series;

static int find_or_add(plot_series *s, int *count, const char *name)
{
    for (int i = 0; i < *count; ++i)
        if (!strcmp(s[i].name, name)) return i;
    if (*count == PLOT_MAX_SERIES) return -1;
    snprintf(s[*count].name, sizeof s[0].name, "%s", name);
    s[*count].n = 0;
    return (*count)++;
}

/* Reads `series,x,y[,dash]` rows after a header line; a one-line error names file and line. */
static int read_rows(const char *path, plot_series *s, int *count, const glevo_chart_lines *chart)
{
    FILE *f = fopen(path, "r");
    if (!f) return cli_bad_input(COMMAND, "--data '%s' cannot be read", path);
    char line[512];
    int lineno = 0, rc = 0;
    *count = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        if (++lineno == 1 || line[0] == '\n' || line[0] == '#') continue;
        char name[96];
        double x, y;
        int dash = 0, colour = -1, n = sscanf(line, "%95[^,],%lf,%lf,%d,%d", name, &x, &y, &dash,
                                              &colour);
        if (n < 3) {
            rc = cli_bad_input(COMMAND, "%s line %d is not series,x,y[,dash]", path, lineno);
            break;
        }
        /* A point the chart cannot place used to leave it empty, exit 0 (issue 23). */
        const char *bad = !isfinite(x) ? "x" : !isfinite(y) ? "y" : NULL;
        if (bad) {
            rc = cli_bad_input(COMMAND, "%s line %d: %s %g is not a finite number", path, lineno,
                               bad, bad[0] == 'x' ? x : y);
            break;
        }
        bad = chart->x.scale == GLEVO_CHART_LOG && x <= 0 ? "x" : chart->y.scale == GLEVO_CHART_LOG && y <= 0 ? "y" : NULL;
        if (bad) {
            rc = cli_bad_input(COMMAND, "%s line %d: %s %g is not positive, and the %s axis is "
                               "logarithmic (--%s-scale linear draws it)", path, lineno, bad,
                               bad[0] == 'x' ? x : y, bad, bad);
            break;
        }
        int k = find_or_add(s, count, name);
        if (k < 0 || s[k].n == PLOT_MAX_POINTS) {
            rc = cli_bad_input(COMMAND, "%s line %d: more than %d series or %d points", path,
                               lineno, PLOT_MAX_SERIES, PLOT_MAX_POINTS);
            break;
        }
        s[k].x[s[k].n] = x;
        s[k].y[s[k].n] = y;
        s[k].n++;
        s[k].dash = dash >= 0 && dash <= 2 ? dash : 0;
        s[k].colour = colour >= 0 ? colour : k;
    }
    fclose(f);
    if (!rc && *count == 0) rc = cli_bad_input(COMMAND, "--data '%s' holds no rows", path);
    return rc;
}

static int parse_scale(const char *text, const char *option, glevo_chart_scale *out)
{
    if (!strcmp(text, "log")) *out = GLEVO_CHART_LOG;
    else if (!strcmp(text, "linear")) *out = GLEVO_CHART_LINEAR;
    else return cli_bad_input(COMMAND, "--%s '%s' is not log or linear", option, text);
    return 0;
}

int bench_plot(int argc, char **argv)
{
    const char *data = NULL, *out = NULL, *title = "", *subtitle = NULL, *caption = NULL;
    const char *x_label = "x", *y_label = "y", *x_scale = "log", *y_scale = "log";
    bool help = false;
    opt_spec specs[] = {
        {"data", OPT_STRING, &data, "CSV with a header and rows series,x,y[,dash (0-2)[,colour]]"},
        {"out", OPT_STRING, &out, "picture to write, .png or .svg (comma-separated for both)"},
        {"title", OPT_STRING, &title, "title"},
        {"subtitle", OPT_STRING, &subtitle, "line under the title"},
        {"caption", OPT_STRING, &caption, "caption: the renderer and date of the numbers"},
        {"x-label", OPT_STRING, &x_label, "x axis label, with its unit"},
        {"y-label", OPT_STRING, &y_label, "y axis label, with its unit"},
        {"x-scale", OPT_CHOICE, OPT_CHOICES(x_scale, "log linear"), "log or linear"},
        {"y-scale", OPT_CHOICE, OPT_CHOICES(y_scale, "log linear"), "log or linear"},
        {0}};
    int rc = opt_parse(COMMAND, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench plot --data FILE.csv --out FILE.png[,FILE.svg] [OPTIONS]",
                       "A line chart of several series from one long-format CSV.", specs);
        return 0;
    }
    if (!data) return cli_bad_input(COMMAND, "--data FILE.csv is required");
    if (!out) return cli_bad_input(COMMAND, "--out FILE.png is required");
    glevo_chart_lines chart = {.title = title, .subtitle = subtitle, .caption = caption,
                               .x = {.label = x_label}, .y = {.label = y_label}};
    if ((rc = parse_scale(x_scale, "x-scale", &chart.x.scale))) return rc;
    if ((rc = parse_scale(y_scale, "y-scale", &chart.y.scale))) return rc;
    plot_series *rows = calloc(PLOT_MAX_SERIES, sizeof *rows);
    if (!rows) return cli_fail(COMMAND, glevo_fail(GLEVO_ERR_NOMEM, "out of memory"));
    int count = 0;
    glevo_chart_series series[PLOT_MAX_SERIES];
    /* Each picture: .png or .svg, and no file named twice (nor the data). */
    char list[1024];
    snprintf(list, sizeof list, "%s", out);
    cli_path files[9] = {{"--data", data, false}};
    int nfiles = 1;
    for (char *path = strtok(list, ","); path && !rc; path = strtok(NULL, ",")) {
        if (nfiles == 9) rc = cli_bad_input(COMMAND, "--out '%s' names more than 8 pictures", out);
        else rc = cli_picture_check(COMMAND, "--out", path);
        if (!rc) files[nfiles++] = (cli_path){"--out", path, true};
    }
    if (!rc) rc = cli_paths_distinct(COMMAND, files, nfiles);
    if (!rc && !(rc = read_rows(data, rows, &count, &chart))) {
        for (int i = 0; i < count; ++i)
            series[i] = (glevo_chart_series){.name = rows[i].name, .x = rows[i].x,
                                             .y = rows[i].y, .n = rows[i].n, .colour = rows[i].colour,
                                             .dash = rows[i].dash};
        chart.series = series;
        chart.nseries = count;
        char paths[1024];
        snprintf(paths, sizeof paths, "%s", out);
        for (char *path = strtok(paths, ","); path && !rc; path = strtok(NULL, ",")) {
            glevo_status st = glevo_chart_lines_write(&chart, path);
            if (st) rc = cli_fail(COMMAND, st);
        }
    }
    free(rows);
    return rc;
}
