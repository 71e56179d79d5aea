/* Output files that appear whole or not at all: written to a temporary file beside the
 * target, flushed to disk and renamed over it when complete. Devices, FIFOs and symbolic links
 * (/dev/stdout, /dev/full, a pipe) are written in place, never replaced. Temporary files are
 * removed by glevo_output_remove_temps, which is safe in a signal handler. */
#ifndef GLEVO_OUTPUT_H
#define GLEVO_OUTPUT_H

#include "glevo/export.h"

#include <stdio.h>

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glevo_output glevo_output;

/* Opens `path` for writing; write through glevo_output_stream. GLEVO_ERR_IO naming the path
 * when it cannot be written. */
GLEVO_API glevo_status glevo_output_open(const char *path, glevo_output **out);
GLEVO_API FILE *glevo_output_stream(glevo_output *o);
/* Flushes, syncs and renames into place, then frees o. Every write error since open (a full
 * disk, /dev/full) is reported here as GLEVO_ERR_IO; the target is then untouched. */
GLEVO_API glevo_status glevo_output_commit(glevo_output *o);
/* Drops the temporary file and frees o; the target is untouched. NULL is fine. */
GLEVO_API void glevo_output_abort(glevo_output *o);

/* Checks before any work that `path` can be written later (its folder takes new files, or it
 * is a writable device or FIFO); GLEVO_ERR_INVALID naming `what` (the option) otherwise. */
GLEVO_API glevo_status glevo_output_check(const char *path, const char *what);
/* The same for a folder that files will be written into. */
GLEVO_API glevo_status glevo_output_folder_check(const char *dir, const char *what);

/* Removes every temporary file of outputs still open. Async-signal-safe. */
GLEVO_API void glevo_output_remove_temps(void);
/* Installs SIGINT and SIGTERM handlers that remove the temporary files and then let the
 * signal end the process as it would have; a signal ignored at start stays ignored. For
 * programs without handlers of their own (the glevo command installs it). */
GLEVO_API void glevo_output_install_signal_cleanup(void);

#ifdef __cplusplus
}
#endif
#endif
