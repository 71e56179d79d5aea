/* Output files that never appear half-written: data goes to a temporary file beside the target,
 * is flushed to disk, and is renamed over the target only when complete (temp, fsync, rename,
 * fsync of the folder). Targets that are not regular files (/dev/stdout, /dev/full, FIFOs,
 * symbolic links) are written directly, never replaced. Temporary files are registered so that
 * a signal handler can remove them (output_file_remove_temps). Internal to glevo; the CLI and
 * bench use it too, and checkpoints will. */
#ifndef GLEVO_CORE_OUTPUT_FILE_H
#define GLEVO_CORE_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "glevo/status.h"

typedef struct output_file {
    FILE *f;          /* write here between open and commit/abort */
    char path[4096];  /* the target */
    char tmp[4096];   /* the temporary file; "" when writing the target directly */
    int slot;         /* registry slot of tmp, -1 when none */
} output_file;

/* Opens `path` for writing (binary: no text-mode translation, which POSIX does not have
 * anyway). GLEVO_ERR_IO with a sentence naming the path when it cannot be written. */
glevo_status output_file_open(output_file *o, const char *path);
/* Finishes the file: flush, fsync, close, rename into place, fsync the folder. Every write
 * error since open (a full disk, /dev/full) is reported here as GLEVO_ERR_IO naming the path;
 * on failure the temporary file is removed and the target is untouched. */
glevo_status output_file_commit(output_file *o);
/* Closes and removes the temporary file; the target is untouched. Safe after a failed open. */
void output_file_abort(output_file *o);
/* Checks up front, before any work, that `path` can be written later: its folder exists and
 * takes new files, or it is a writable non-regular file. GLEVO_ERR_INVALID naming `what` (the
 * option) otherwise. Leaves nothing behind. */
glevo_status output_file_check(const char *path, const char *what);
/* The same for a folder that outputs will be written into (bench --out DIR). */
glevo_status output_folder_check(const char *dir, const char *what);

/* Removes every registered temporary file. Async-signal-safe (unlink only): call it from a
 * SIGINT/SIGTERM handler. */
void output_file_remove_temps(void);
/* Installs SIGINT and SIGTERM handlers that remove the temporary files and then die of the
 * signal as they would have (for programs that have no handlers of their own). */
void output_file_install_signal_cleanup(void);

#endif
