/* Whole-file reads for the parsers (CSV, programs, populations, spin glasses, shaders), with a
 * size cap and a binary check, so an endless or huge input (/dev/zero, a FIFO that never
 * closes) ends in a one-line error instead of unbounded memory or an endless loop. Internal. */
#ifndef GLEVO_CORE_INPUT_FILE_H
#define GLEVO_CORE_INPUT_FILE_H

#include <stddef.h>

#include "glevo/status.h"

/* Caps per kind of input; generous for real data, small enough to fail fast on nonsense. */
#define INPUT_MAX_DATA ((size_t)1 << 30)   /* CSV datasets, program files, populations */
#define INPUT_MAX_SHADER ((size_t)16 << 20) /* one .glsl file */
#define INPUT_MAX_SPIN ((size_t)1 << 20)   /* L <= 64: 8192 couplings, about 30 KB */

/* Reads `path` into a new NUL-terminated buffer (*text, caller frees; *length without the
 * terminator). `what` names the kind of file in errors ("data file"). Fails with
 * GLEVO_ERR_INVALID when the file cannot be opened, is a directory, holds a NUL byte (binary)
 * or is longer than max_bytes; GLEVO_ERR_IO on a read error; GLEVO_ERR_NOMEM. */
glevo_status input_read_text(const char *path, const char *what, size_t max_bytes, char **text,
                             size_t *length);

#endif
