/* glevo bench dsmga --redraw: one speedup picture and one merged table from the CSV tables of
 * earlier runs (a bench split over several processes writes one table each). Every file is read
 * and checked before anything is written, and the outputs land by rename, so bad input leaves
 * no half-written file. No GL context: nothing here touches the GPU. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "bench.h"
#include "bench_dsmga_plot.h"

#define COMMAND "bench dsmga"
enum { MAX_COLUMNS = 64, NEEDED_COUNT = 2 + DSMGA_PLOT_MEASURES, BACKEND_COL = NEEDED_COUNT };
/* Found by name, so tables with more or reordered columns still read; speedups in dsmga_plot_row order. */
static const char *const NEEDED[NEEDED_COUNT] = {"problem", "ell", "speedup_dsm", "speedup_ils_lossless",
                                                 "speedup_ils_lossy"};

/* Running out of memory is a failure of the run, not of the input: exit 1, as cli_fail does. */
static int redraw_no_memory(void)
{
    fprintf(stderr, "glevo " COMMAND ": out of memory\n");
    return 1;
}

typedef struct redraw_table {
    dsmga_plot_row *rows;
    int nrows;
    FILE *merged; /* memory stream over merged_text: the header once, then every row */
    char *merged_text;
    size_t merged_size;
    char *header; /* the first file's, which every other file must repeat */
} redraw_table;

/* Cuts line at its commas; keeps the first MAX_COLUMNS field pointers and returns the field count. */
static int redraw_split(char *line, char **fields)
{
    int n = 0;
    for (char *comma;; line = comma + 1) {
        if (n < MAX_COLUMNS) fields[n] = line;
        ++n;
        if (!(comma = strchr(line, ','))) return n;
        *comma = '\0';
    }
}

static int redraw_header(const char *path, const char *line, redraw_table *t, int *col, int *ncols)
{
    char *copy = strdup(line), *fields[MAX_COLUMNS];
    if (!copy) return redraw_no_memory();
    *ncols = redraw_split(copy, fields);
    int rc = *ncols > MAX_COLUMNS ? cli_bad_input(COMMAND, "%s line 1: more than %d columns", path, MAX_COLUMNS) : 0;
    for (int k = 0; !rc && k < NEEDED_COUNT; ++k) {
        col[k] = -1;
        for (int c = 0; c < *ncols; ++c)
            if (!strcmp(fields[c], NEEDED[k])) col[k] = c;
        if (col[k] < 0) rc = cli_bad_input(COMMAND, "%s line 1: header lacks column '%s'", path, NEEDED[k]);
    }
    /* optional (tables from before --backend lack it): the model backend names the line */
    col[BACKEND_COL] = -1;
    for (int c = 0; c < *ncols && c < MAX_COLUMNS; ++c)
        if (!strcmp(fields[c], "backend")) col[BACKEND_COL] = c;
    free(copy);
    if (!rc && t->header && strcmp(t->header, line))
        rc = cli_bad_input(COMMAND, "%s line 1: header differs from the first file's, cannot merge", path);
    if (!rc && !t->header) {
        if (!(t->header = strdup(line))) return redraw_no_memory();
        fprintf(t->merged, "%s\n", line);
    }
    return rc;
}

static int redraw_row(const char *path, int lineno, char *line, redraw_table *t, const int *col, int ncols)
{
    fprintf(t->merged, "%s\n", line);
    char *fields[MAX_COLUMNS], *end;
    int n = redraw_split(line, fields);
    if (n != ncols) return cli_bad_input(COMMAND, "%s line %d: %d fields, the header has %d", path, lineno, n, ncols);
    dsmga_plot_row r = {.ell = 0};
    const char *problem = fields[col[0]], *ell = fields[col[1]];
    if (!*problem || strlen(problem) >= sizeof r.problem)
        return cli_bad_input(COMMAND, "%s line %d: problem '%s' is empty or too long", path, lineno, problem);
    long v = strtol(ell, &end, 10);
    if (end == ell || *end || v <= 0 || v > INT_MAX)
        return cli_bad_input(COMMAND, "%s line %d: ell '%s' is not a positive integer", path, lineno, ell);
    if (col[BACKEND_COL] >= 0) {
        const char *backend = fields[col[BACKEND_COL]];
        if (strlen(problem) + 1 + strlen(backend) >= sizeof r.problem)
            return cli_bad_input(COMMAND, "%s line %d: problem '%s' with backend '%s' is too long", path, lineno, problem, backend);
        /* lengths checked above */
        strcpy(r.problem, problem);
        strcat(r.problem, " ");
        strcat(r.problem, backend);
    } else {
        snprintf(r.problem, sizeof r.problem, "%s", problem);
    }
    r.ell = (int)v;
    /* 0 is a speedup below the table's 0.001 (the plot leaves it out); inf and nan are not data. */
    for (int m = 0; m < DSMGA_PLOT_MEASURES; ++m) {
        const char *s = fields[col[2 + m]];
        r.speedup[m] = strtod(s, &end);
        if (end == s || *end || !isfinite(r.speedup[m]) || r.speedup[m] < 0)
            return cli_bad_input(COMMAND, "%s line %d: %s '%s' is not a finite number >= 0", path, lineno, NEEDED[2 + m], s);
    }
    dsmga_plot_row *grown = realloc(t->rows, sizeof *grown * (size_t)(t->nrows + 1));
    if (!grown) return redraw_no_memory();
    t->rows = grown;
    t->rows[t->nrows++] = r;
    return 0;
}

static int redraw_read(const char *path, redraw_table *t)
{
    FILE *f = fopen(path, "r");
    if (!f) return cli_bad_input(COMMAND, "--redraw %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t line_cap = 0;
    int rc = 0, lineno = 0, ncols = 0, col[NEEDED_COUNT + 1];
    while (!rc && getline(&line, &line_cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (++lineno == 1) rc = redraw_header(path, line, t, col, &ncols);
        else if (*line) rc = redraw_row(path, lineno, line, t, col, ncols);
    }
    if (!rc && lineno == 0) rc = cli_bad_input(COMMAND, "%s: empty file, no header line", path);
    free(line);
    fclose(f);
    return rc;
}

/* Every output goes to a temporary name first and is renamed only once all are complete. */
static int redraw_write(const redraw_table *t, const char *out_dir, const char *name, const char *caption)
{
    char final[3][4096], tmp[3][4104];
    static const char *const suffix[3] = {".csv", "_speedup.svg", "_speedup.png"};
    for (int k = 0; k < 3; ++k) {
        snprintf(final[k], sizeof final[k], "%s/%s%s", out_dir, name, suffix[k]);
        /* The chart writer picks the format by extension: keep it last. */
        snprintf(tmp[k], sizeof tmp[k], "%s/%s.tmp%s", out_dir, name, suffix[k]);
    }
    FILE *csv = fopen(tmp[0], "w");
    bool ok = csv != NULL;
    if (ok) fwrite(t->merged_text, 1, t->merged_size, csv);
    if (csv && (ferror(csv) | fclose(csv))) ok = false;
    for (int k = 1; k < 3 && ok; ++k) ok = dsmga_plot_write(tmp[k], t->rows, t->nrows, caption) == GLEVO_OK;
    for (int k = 0; k < 3 && ok; ++k) ok = rename(tmp[k], final[k]) == 0;
    if (ok) return 0;
    for (int k = 0; k < 3; ++k) remove(tmp[k]);
    return cli_bad_input(COMMAND, "--out %s: cannot write %s there", out_dir, name);
}

int dsmga_plot_redraw(const char *list, const char *out_dir, const char *name, const char *caption)
{
    redraw_table t = {.rows = NULL};
    char *paths = strdup(list), *save = NULL;
    t.merged = open_memstream(&t.merged_text, &t.merged_size);
    int rc = paths && t.merged ? 0 : redraw_no_memory(), files = 0;
    for (char *p = rc ? NULL : strtok_r(paths, ",", &save); p && !rc; p = strtok_r(NULL, ",", &save), ++files)
        rc = redraw_read(p, &t);
    if (t.merged) fclose(t.merged);
    if (!rc && !files) rc = cli_bad_input(COMMAND, "--redraw '%s' names no file", list);
    if (!rc) rc = bench_make_out_dir(COMMAND, out_dir);
    if (!rc) rc = redraw_write(&t, out_dir, name, caption);
    free(paths);
    free(t.merged_text);
    free(t.header);
    free(t.rows);
    return rc;
}
