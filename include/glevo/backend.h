/* Which engine runs an algorithm, in every family's params (`backend`, zero = auto, the fast
 * engine of what is there): GLSL fragment passes (the 2008 way), GLSL compute dispatches (the
 * 2012 way), or the CPU engine built from the passes' C twins. And the one rule for defaults
 * in params structs. */
#ifndef GLEVO_BACKEND_H
#define GLEVO_BACKEND_H

#include "glevo/export.h"

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_backend {
    GLEVO_BACKEND_AUTO = 0,    /* default: the fast engine, compute where the current context
                                * has it, else fragment, the CPU without a context (GP: also
                                * on a software rasterizer) */
    GLEVO_BACKEND_CPU = 1,     /* the C twins, no GL context needed */
    GLEVO_BACKEND_COMPUTE = 2, /* compute dispatches: needs GL 4.3 (glevo_context_features) */
    GLEVO_BACKEND_FRAGMENT = 3 /* render passes on the current GL context (the 2008 way: the
                                * demo's and the guide's) */
} glevo_backend;
/* The largest backend value (for checking a params field). */
#define GLEVO_BACKEND_LAST GLEVO_BACKEND_FRAGMENT

/* "auto", "cpu", "compute", "fragment"; parse returns -1 for an unknown name. */
GLEVO_API const char *glevo_backend_name(glevo_backend b);
GLEVO_API int glevo_backend_parse(const char *name);
/* AUTO resolved against the context current on this thread (the CPU when none is current);
 * other values unchanged. */
GLEVO_API glevo_backend glevo_backend_resolve(glevo_backend b);
/* GLEVO_OK when b can run on the current context; otherwise GLEVO_ERR_INVALID naming the
 * params field, the backend and why (no context, GL version too old for compute). */
GLEVO_API glevo_status glevo_backend_check(glevo_backend backend, const char *params_field);

/* Zero in a params struct means "the default" (sokol's rule), everywhere. Where zero is itself
 * a meaningful value (a probability of 0, no elitism, never stop on a stall), ask for it with
 * GLEVO_ZERO. */
#define GLEVO_ZERO (-1)
/* A value a front end read from its user, meant literally even when it is 0. */
#define GLEVO_LITERAL(v) ((v) == 0 ? GLEVO_ZERO : (v))

#ifdef __cplusplus
}
#endif
#endif
