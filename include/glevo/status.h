/* Status codes and the one-sentence error message every failing call leaves behind
 * (the SQLite/GLFW pattern: return a code, keep the human text on the side). */
#ifndef GLEVO_STATUS_H
#define GLEVO_STATUS_H

#include "glevo/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_status {
    GLEVO_OK = 0,
    GLEVO_ERR_INVALID = 1,  /* bad parameter or input: the CLI exits 2 */
    GLEVO_ERR_GL = 2,       /* GL or shader failure: the CLI exits 1 */
    GLEVO_ERR_NO_DEVICE = 3,/* no usable EGL device or window system */
    GLEVO_ERR_IO = 4,       /* file could not be read or written */
    GLEVO_ERR_NOMEM = 5,
    GLEVO_ERR_UNSUPPORTED = 6,
    GLEVO_ERR_INTERRUPTED = 7 /* glevo_interrupt() asked a long call to stop early */
} glevo_status;

/* The last error of this thread as one human sentence naming what failed and the value
 * that caused it; "" when there was none. Every function returning a glevo_status clears it
 * on entry, so after one that returned GLEVO_OK it is "" (SQLite's rule); functions returning
 * other values report failure by a neutral value (NULL, -1, NaN) and leave the sentence here.
 * Every public function refuses NULL where a pointer is required, enums outside their values
 * and NaN where a number is required (GLEVO_ERR_INVALID naming the argument), and *_free /
 * *_destroy accept NULL: docs/architecture.md, "The API contract". */
GLEVO_API const char *glevo_last_error(void);

/* Records a formatted error message and returns `status`, so that failing paths read
 *   return glevo_fail(GLEVO_ERR_INVALID, "--pc %g is outside [0, 1]", pc); */
GLEVO_API glevo_status glevo_fail(glevo_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

GLEVO_API void glevo_clear_error(void);

/* A stop request for long library calls, e.g. from a SIGINT/SIGTERM handler (async-signal-
 * safe; process-wide). While it is pending, engine creation stops initialising its population
 * and the steps of every family stop before their next generation, returning
 * GLEVO_ERR_INTERRUPTED; an engine stopped so is as it was after its last whole generation
 * (a created engine is not returned). It stays pending until glevo_interrupt_clear. */
GLEVO_API void glevo_interrupt(void);
GLEVO_API int glevo_interrupt_pending(void);
GLEVO_API void glevo_interrupt_clear(void);
/* For hosts whose own SIGINT handler runs only once a call has returned (Python's): on = 1
 * installs a C handler that requests glevo_interrupt and then calls the handler installed
 * before it; on = 0 puts that one back. Process-wide, not nested: 1 while on changes
 * nothing. GLEVO_ERR_INVALID only where sigaction fails. */
GLEVO_API glevo_status glevo_interrupt_on_sigint(int on);

/* Exit status the CLI uses for a status: 0 ok, 2 bad input, 1 anything else. */
GLEVO_API int glevo_status_exit_code(glevo_status status);

GLEVO_API const char *glevo_version_string(void);

#ifdef __cplusplus
}
#endif
#endif
