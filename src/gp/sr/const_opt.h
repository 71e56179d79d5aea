/* Constant fitting (const_opt.c, the CPU twin; shaders/gp/const_fit.glsl, the GPU pass;
 * const_fit_gpu.c, its driver): Levenberg-Marquardt on a program's constants. */
#ifndef GLEVO_GP_CONST_OPT_H
#define GLEVO_GP_CONST_OPT_H

#include <stdbool.h>

#include "gp/gp_internal.h"

/* The first GP_FIT_THETA constants of a program (in program order) are fitted, the rest
 * stay: two vec4 of derivatives a stack value in the shader. */
#define GP_FIT_THETA 8
/* Lanes of the fitting work-group: the squared errors and moments of case c are summed in
 * lane c % GP_FIT_LANES, the lanes' sums added in lane order (the CPU twin sums so too; the
 * normal equations are summed in case order). */
#define GP_FIT_LANES 32
/* Step trials an iteration (lambda grows tenfold after each rejected one). */
#define GP_FIT_TRIES 4
/* Programs whose walk holds more than this many values at once are not fitted: the pass keeps
 * a work-group's stacks in shared memory (GP_FIT_LANES of them). Sized for the generation's
 * deepest walk (up to 33 duals at 64 codes) they took up to 46 KB a group and a build for
 * every depth a run met (1-2 s each on a cold driver); at 16, 25 KB and two builds a run.
 * Most programs need far fewer (docs/symbolic-regression.md, "Constant fitting"). */
#define GP_FIT_STACK 16
/* The most stack slots a walk of a program of `cap` codes needs when each binary operator's
 * operand that needs more is walked first (gp/const_fit_order.glsl): a walk that needs k
 * holds at least 2^(k - 1) leaves, and cap codes hold at most (cap + 1) / 2; at most
 * GP_FIT_STACK (6 at 64 codes). */
int gp_const_fit_walk_slots(int cap);

/* The cases a fit walks, at most: a dataset with more is fitted on GP_FIT_CASES of its cases,
 * spread evenly over it (case floor(k n / GP_FIT_CASES)); selection still scores every case.
 * A fit's cost is its walks (a dual-number walk and up to GP_FIT_TRIES scored ones an
 * iteration) over the cases it walks, and the normal equations of at most GP_FIT_THETA + 2
 * parameters are well determined by a few hundred cases: at 1000 cases a fit costs a quarter,
 * and beyond it no more (docs/symbolic-regression.md, "Constant fitting"). */
#define GP_FIT_CASES 256

/* The cases fitting walks: *fit = d where d has at most GP_FIT_CASES cases, else a new
 * dataset of GP_FIT_CASES of them (*owned, the same pointer; the caller destroys it). */
glevo_status gp_const_fit_data(const glevo_gp_data *d, const glevo_gp_data **fit,
                               glevo_gp_data **owned);
/* Up to iters LM steps on t's constants (t->consts[i] beside constant code i), against d's
 * target, for a + b f when scaling (else f). Returns 1 when the squared error went down
 * (0 also when memory ran out, and for a walk deeper than GP_FIT_STACK: the program is then
 * left as it was). */
int gp_const_fit(indiv *t, const glevo_gp_data *d, int iters, bool scaling);
/* Whether program i is fitted in generation g: a counter-based draw of (program,
 * generation), not the engine's stream, so that breeding's random numbers are the same with
 * fitting on or off (the GPU pass draws the same). */
/* The share of a generation fitted: const_opt_fraction, cut to const_opt_max programs on
 * average (both resolved). */
double gp_const_fit_share(const glevo_gp_params *P);
bool gp_const_fit_chosen(const glevo_gp_params *P, int i, int generation);

#endif
