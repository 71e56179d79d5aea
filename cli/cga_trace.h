/* glevo cga's --trace CSV (cga_trace.c): written through glevo_output, put in place at every
 * checkpoint, and cut back to what a checkpoint covers when a run resumes. */
#ifndef GLEVO_CLI_CGA_TRACE_H
#define GLEVO_CLI_CGA_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "glevo/output.h"

/* The trace goes through glevo_output: a temporary file renamed at the end, so no
 * half-written CSV, and a device or FIFO given as the path is written directly. With
 * checkpoints it is also put in place at every checkpoint (trace_sync), so the file always
 * holds the rows a checkpoint covers, and a resumed run copies exactly those before going on:
 * rows written after the last checkpoint by a run that died are dropped. */
typedef struct cga_trace_file { glevo_output *out; FILE *f; const char *path; bool in_place; } cga_trace_file;

/* keep_bytes: a resumed run's trace goes on from what its checkpoint covers (0: a new trace
 * with its header). Returns the command's exit code (0: opened, or no path). */
int cga_trace_open(cga_trace_file *t, const char *path, long long keep_bytes);
/* Puts the rows so far in place and goes on writing behind them; *bytes: their length. */
glevo_status cga_trace_sync(cga_trace_file *t, long long *bytes);
/* Commits the trace (keep) or drops it. */
glevo_status cga_trace_close(cga_trace_file *t, bool keep);

#endif
