/* `glevo bench SUITE --json`: the suite runs as always, its Markdown on stdout captured; its
 * tables are then printed as one JSON object: {"suite", "tables": [{"title", "columns",
 * "rows"}], "text": [the other lines]}. One converter for every suite, so the JSON can never
 * disagree with the tables the suite prints. Cells that are numbers become numbers, empty or
 * dash cells null, the rest strings ("1.4x", "0.12 (0.03)"). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "bench.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') ++s;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
    return s;
}

/* Splits "| a | b |" into cells (in place); returns the count. */
static int cells_of(char *line, char **cells, int max)
{
    int n = 0;
    char *p = strchr(line, '|');
    if (!p) return 0;
    ++p;
    for (char *bar; (bar = strchr(p, '|')) && n < max; p = bar + 1) {
        *bar = '\0';
        cells[n++] = trim(p);
    }
    return n;
}

static bool is_separator(const char *line)
{
    if (line[0] != '|') return false;
    for (const char *p = line; *p; ++p)
        if (!strchr("|-: \t\r", *p)) return false;
    return strchr(line, '-') != NULL;
}

static void cell(json_writer *w, const char *c)
{
    char *end;
    double v = strtod(c, &end);
    if (!*c || !strcmp(c, "-") || !strcmp(c, "\xE2\x80\x93")) /* en dash */
        json_null(w, NULL);
    else if (end != c && !*end)
        json_number(w, NULL, v);
    else
        json_string(w, NULL, c);
}

static void print_json(const char *suite, char *text)
{
    json_writer w = {0};
    json_begin_object(&w, NULL);
    json_string(&w, "suite", suite);
    json_begin_array(&w, "tables");
    char title[512] = "";
    bool in_table = false;
    char *saveptr = NULL, *cells[64];
    /* Two passes over the lines would need a copy; the text lines are collected on the side. */
    size_t nlines = 0;
    char **lines = NULL;
    for (char *line = strtok_r(text, "\n", &saveptr); line; line = strtok_r(NULL, "\n", &saveptr)) {
        char **grown = realloc(lines, (nlines + 1) * sizeof *lines);
        if (!grown) break;
        lines = grown;
        lines[nlines++] = line;
    }
    char **notes = calloc(nlines + 1, sizeof *notes);
    size_t nnotes = 0;
    for (size_t i = 0; i < nlines; ++i) {
        char *line = lines[i];
        if (line[0] == '|' && !in_table && i + 1 < nlines && is_separator(lines[i + 1])) {
            json_begin_object(&w, NULL);
            json_string(&w, "title", title);
            json_begin_array(&w, "columns");
            int n = cells_of(line, cells, 64);
            for (int k = 0; k < n; ++k) json_string(&w, NULL, cells[k]);
            json_end_array(&w);
            json_begin_array(&w, "rows");
            in_table = true;
            ++i; /* the separator */
            continue;
        }
        if (line[0] == '|' && in_table) {
            json_begin_array(&w, NULL);
            int n = cells_of(line, cells, 64);
            for (int k = 0; k < n; ++k) cell(&w, cells[k]);
            json_end_array(&w);
            continue;
        }
        if (in_table) {
            json_end_array(&w);
            json_end_object(&w);
            in_table = false;
        }
        char *t = trim(line);
        if (!*t) continue;
        if (t[0] == '#' || (!strncmp(t, "**", 2) && strlen(t) > 4 && !strcmp(t + strlen(t) - 2, "**"))) {
            char *h = t[0] == '#' ? t + strspn(t, "#") : t + 2;
            snprintf(title, sizeof title, "%s", trim(h));
            size_t n = strlen(title);
            if (t[0] != '#' && n >= 2) title[n - 2] = '\0';
        }
        if (notes) notes[nnotes++] = t;
    }
    if (in_table) {
        json_end_array(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_begin_array(&w, "text");
    for (size_t i = 0; i < nnotes; ++i) json_string(&w, NULL, notes[i]);
    json_end_array(&w);
    /* stopped by a signal: the tables hold the completed rows alone (bench_stop_exit) */
    json_bool(&w, "interrupted", run_control_signal() != 0);
    json_end_object(&w);
    free(notes);
    free(lines);
}

int bench_run_json(const char *suite, int (*run)(int, char **), int argc, char **argv)
{
    /* The suite writes its Markdown to stdout as usual; stdout is a temporary file meanwhile,
     * and progress goes to stderr as always. */
    FILE *capture = tmpfile();
    int saved = -1;
    fflush(stdout);
    if (!capture || (saved = dup(STDOUT_FILENO)) < 0 || dup2(fileno(capture), STDOUT_FILENO) < 0) {
        if (capture) fclose(capture);
        if (saved >= 0) close(saved);
        return cli_fail("bench", glevo_fail(GLEVO_ERR_IO, "cannot capture the tables for --json"));
    }
    int rc = run(argc, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    bool stopped = run_control_signal() && rc == run_control_exit(0);
    if (rc != 0 && !stopped) {
        fclose(capture);
        return rc;
    }
    long size = ftell(capture);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    rewind(capture);
    if (!text || fread(text, 1, (size_t)size, capture) != (size_t)size) {
        free(text);
        fclose(capture);
        return cli_fail("bench", glevo_fail(GLEVO_ERR_IO, "cannot read the captured tables back"));
    }
    text[size] = '\0';
    fclose(capture);
    print_json(suite, text);
    free(text);
    return rc;
}
