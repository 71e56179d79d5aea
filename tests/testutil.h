/* Shared test helpers: one headless GL context per test process, fixed seeds printed on
 * failure, paths to the data folder. */
#ifndef GLEVO_TESTUTIL_H
#define GLEVO_TESTUTIL_H

#include <check.h>
#include <stdint.h>

#include "glevo/context.h"

/* The process-wide headless context (created on first use; llvmpipe on CI). Fails the test
 * with the reason when none can be created. */
glevo_context *testutil_context(void);
/* Absolute path of a file under the project's data/ folder (static buffer). */
const char *testutil_data_path(const char *relative);
/* Path of the built glevo command (for CLI tests). */
const char *testutil_cli(void);
/* Runs a shell command, captures stdout into out (may be NULL) and returns the exit code. */
int testutil_run(const char *command, char *out, size_t out_size);
/* Writes `text` to a new temporary file and returns its path (one of 8 rotating buffers, so a
 * test can hold several at once). Fails the test if the file cannot be written. */
const char *testutil_write_tmp(const char *text);
/* Runs a suite with CK_NORMAL output and returns the process exit code. */
int testutil_run_suite(Suite *s);
/* RGB8 pixels of a PNG file, top row first (caller frees), or NULL when it cannot be read. */
unsigned char *testutil_png_load(const char *path, int *w, int *h);
/* Large cases run only when GLEVO_TEST_LARGE=1 (the GPU machine). */
int testutil_large(void);

#endif
