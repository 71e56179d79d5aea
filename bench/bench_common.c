/* What every bench suite shares: its output folder and the Markdown and CSV tables in it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../cli/cli.h"
#include "bench.h"

int bench_make_out_dir(const char *command, const char *out_dir)
{
    if (out_dir && mkdir(out_dir, 0777) && errno != EEXIST)
        return cli_bad_input(command, "--out %s: %s", out_dir, strerror(errno));
    return 0;
}

int bench_open_tables(const char *command, const char *out_dir, const char *suite, FILE **md,
                      FILE **csv)
{
    *md = NULL;
    if (csv) *csv = NULL;
    if (!out_dir) return 0;
    int rc = bench_make_out_dir(command, out_dir);
    if (rc) return rc;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.md", out_dir, suite);
    *md = fopen(path, "w");
    if (csv) {
        snprintf(path, sizeof path, "%s/%s.csv", out_dir, suite);
        *csv = fopen(path, "w");
    }
    if (!*md || (csv && !*csv)) {
        if (*md) fclose(*md);
        if (csv && *csv) fclose(*csv);
        *md = NULL;
        if (csv) *csv = NULL;
        return cli_bad_input(command, "--out %s: cannot write there", out_dir);
    }
    return 0;
}
