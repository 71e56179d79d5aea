/* Shared test helpers: one headless GL context per test process, fixed seeds printed on
 * failure, paths to the data folder. */
#ifndef GLEVO_TESTUTIL_H
#define GLEVO_TESTUTIL_H

#include <check.h>
#include <stdint.h>

#include "glevo/context.h"
#include "glevo/gp.h"

/* The process-wide headless context (created on first use; llvmpipe on CI). Fails the test
 * with the reason when none can be created. */
glevo_context *testutil_context(void);
/* Absolute path of a file under the project's data/ folder (static buffer). */
const char *testutil_data_path(const char *relative);
/* Path of the built glevo command (for CLI tests). */
const char *testutil_cli(void);
/* Runs a shell command, captures stdout into out (may be NULL) and returns the exit code. */
int testutil_run(const char *command, char *out, size_t out_size);
/* Runs `glevo ARGS` (printf-formatted) in dir (NULL: here) with stderr merged into out, killed
 * after 120 s, and returns its exit code: the CLI suites' runner. */
int testutil_glevo(const char *dir, char *out, size_t out_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Newlines in s: how many lines a message printed. */
int testutil_lines(const char *s);
/* Writes `text` to a new temporary file and returns its path (one of 8 rotating buffers, so a
 * test can hold several at once). Fails the test if the file cannot be written. */
const char *testutil_write_tmp(const char *text);
/* Runs a suite with CK_NORMAL output and returns the process exit code. */
int testutil_run_suite(Suite *s);
/* testutil_run_suite with a fresh folder /tmp/glevo-NAME-XXXXXX made in dir (its path) for
 * the suite's files, removed afterwards; a folder that cannot be made or removed fails. */
int testutil_run_suite_in_tmp(Suite *s, char *dir, size_t size, const char *name);
/* RGB8 pixels of a PNG file, top row first (caller frees), or NULL when it cannot be read. */
unsigned char *testutil_png_load(const char *path, int *w, int *h);
/* GP data for the GPU-vs-CPU evaluation tests: vars inputs uniform in [-1, 1] with some exact
 * zeros and repeated 0.5s (so protected division, if, and, or, not and = meet both outcomes), a
 * target uniform in [-1, 1], all drawn from seed. Fails the test if it cannot be made. */
glevo_gp_data *testutil_gp_data(int vars, int cases, uint32_t seed);
/* The CPU interpreter's errors of every program of p on d under metric (caller frees): the
 * twin the GPU evaluators are held to. */
double *testutil_gp_cpu_errors(const glevo_gp_data *d, const glevo_gp_programs *p,
                               glevo_gp_metric metric);
/* Large cases run only when GLEVO_TEST_LARGE=1 (the GPU machine). */
int testutil_large(void);

#endif
