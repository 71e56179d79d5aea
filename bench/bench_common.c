/* What every bench suite shares: its output folder and the Markdown and CSV tables in it,
 * written through glevo_output (whole or not at all; checked before any work). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../cli/cli.h"
#include "bench.h"
#include "glevo/output.h"

int bench_make_out_dir(const char *command, const char *out_dir)
{
    if (!out_dir) return 0;
    if (mkdir(out_dir, 0777) && errno != EEXIST)
        return cli_bad_input(command, "--out %s: %s", out_dir, strerror(errno));
    /* An existing folder that takes no files (read-only, /proc) is bad input now, not a
     * table silently missing after the run. */
    if (glevo_output_folder_check(out_dir, "--out") != GLEVO_OK) return cli_fail(command, GLEVO_ERR_INVALID);
    return 0;
}

/* The open tables, found again by their FILE when the suite closes them. */
static glevo_output *tables[8];

static FILE *table_open(const char *out_dir, const char *suite, const char *ext)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", out_dir, suite, ext);
    for (int i = 0; i < 8; ++i)
        if (!tables[i]) return glevo_output_open(path, &tables[i]) == GLEVO_OK ? glevo_output_stream(tables[i]) : NULL;
    glevo_fail(GLEVO_ERR_IO, "too many open tables");
    return NULL;
}

int bench_open_tables(const char *command, const char *out_dir, const char *suite, FILE **md,
                      FILE **csv)
{
    *md = NULL;
    if (csv) *csv = NULL;
    if (!out_dir) return 0;
    int rc = bench_make_out_dir(command, out_dir);
    if (rc) return rc;
    *md = table_open(out_dir, suite, "md");
    if (*md && csv) *csv = table_open(out_dir, suite, "csv");
    if (!*md || (csv && !*csv)) {
        bench_close_table(*md, false);
        if (csv) bench_close_table(*csv, false);
        *md = NULL;
        if (csv) *csv = NULL;
        return cli_fail(command, GLEVO_ERR_INVALID);
    }
    return 0;
}

int bench_close_table(FILE *f, bool keep)
{
    if (!f) return 0;
    for (int i = 0; i < 8; ++i)
        if (tables[i] && glevo_output_stream(tables[i]) == f) {
            glevo_output *o = tables[i];
            tables[i] = NULL;
            if (!keep) {
                glevo_output_abort(o);
                return 0;
            }
            return glevo_output_commit(o) == GLEVO_OK ? 0 : 1;
        }
    return fclose(f) != 0;
}

void bench_signals_start(void) { run_control_signals_install(); }

bool bench_stopped(void) { return run_control_signal() != 0; }

int bench_stop_exit(const char *command, int completed, const char *unit, int rc)
{
    if (!run_control_signal() || rc) return rc;
    fprintf(stderr, "glevo %s: stopped by %s: %d %s completed; the tables hold those alone\n",
            command, run_control_signal_name(), completed, unit);
    return run_control_exit(rc);
}
