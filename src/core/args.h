/* Argument checks at the public entry points: the contract every public function keeps
 * (docs/architecture.md, "The API contract"). A NULL where a pointer is required, an enum
 * outside its values or a NaN where a number is required is refused with GLEVO_ERR_INVALID
 * and one sentence naming the function and the argument ("glevo_cga_step: cga is NULL");
 * functions that return something other than a status return a neutral value then (NULL,
 * -1, NaN, false, 0) with the same sentence in glevo_last_error(). Internal. */
#ifndef GLEVO_ARGS_H
#define GLEVO_ARGS_H

#include <math.h>

#include "glevo/status.h"

glevo_status args_null(const char *function, const char *argument);

#define ARG_NOT_NULL(p)                                                                         \
    do {                                                                                        \
        if (!(p)) return args_null(__func__, #p);                                               \
    } while (0)
#define ARG_NOT_NULL_OR(p, value)                                                               \
    do {                                                                                        \
        if (!(p)) {                                                                             \
            args_null(__func__, #p);                                                            \
            return value;                                                                       \
        }                                                                                       \
    } while (0)
/* The same where the definition's parameter has another name than the header's. */
#define ARG_NOT_NULL_AS(p, name)                                                                \
    do {                                                                                        \
        if (!(p)) return args_null(__func__, name);                                             \
    } while (0)
/* An index argument outside 0..n-1, in a function returning `value` then. */
#define ARG_INDEX_OR(i, n, value)                                                               \
    do {                                                                                        \
        if ((i) < 0 || (i) >= (n)) {                                                            \
            glevo_fail(GLEVO_ERR_INVALID, "%s: %s %d is outside 0..%d", __func__, #i, (int)(i), \
                       (int)(n) - 1);                                                           \
            return value;                                                                       \
        }                                                                                       \
    } while (0)
/* An enum argument outside first..last. */
#define ARG_ENUM(e, first, last)                                                                \
    do {                                                                                        \
        if ((int)(e) < (int)(first) || (int)(e) > (int)(last))                                  \
            return glevo_fail(GLEVO_ERR_INVALID, "%s: %s %d is not one of its values (%d..%d)",  \
                              __func__, #e, (int)(e), (int)(first), (int)(last));               \
    } while (0)
/* A number that must be a number. */
#define ARG_FINITE(x)                                                                           \
    do {                                                                                        \
        if (!isfinite(x))                                                                       \
            return glevo_fail(GLEVO_ERR_INVALID, "%s: %s is %g, not a finite number", __func__,  \
                              #x, (double)(x));                                                 \
    } while (0)

#endif
