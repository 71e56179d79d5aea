/* Constant fitting (const_opt.c): Levenberg-Marquardt on a program's constants. */
#ifndef GLEVO_GP_CONST_OPT_H
#define GLEVO_GP_CONST_OPT_H

#include <stdbool.h>

#include "gp/engine_internal.h"

/* Up to iters LM steps on t's constants (t->consts[i] beside constant code i), against d's
 * target, for a + b f when scaling (else f); constants clamped to [lo, hi] when lo < hi.
 * work holds t->len floats. Returns 1 when the squared error went down. */
int gp_const_fit(indiv *t, const glevo_gp_data *d, int iters, bool scaling, float lo, float hi,
                 float *work);
/* The engine's hook: fits a fraction (params.const_opt_fraction) of the current population
 * before it is evaluated. */
void gp_const_opt_generation(glevo_gp *gp);

#endif
