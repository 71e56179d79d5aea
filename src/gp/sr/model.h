/* The model a GP run reports (issue 26): the best program with its linear scaling folded in
 * (scaling.c), simplified (simplify.c), and its errors and R^2 on the training and test data,
 * those of the printed program. */
#ifndef GLEVO_GP_MODEL_H
#define GLEVO_GP_MODEL_H

#include "gp/gp_internal.h"

/* Error of p's program 0 on d under metric (the CPU interpreter: the GPU's bits). */
glevo_status gp_model_error(const glevo_gp_programs *p, const glevo_gp_data *d,
                            glevo_gp_metric metric, double *error);
/* out->best (one program) becomes the reported model: linear scaling folded in, and
 * best_sexpr, best_infix, best_nodes and best_error are recomputed from it; with layer, its
 * linear layer instead where that halves the squared error (glevo_gp_model_layer's rule). */
glevo_status gp_model_finish(const glevo_gp_params *P, const glevo_gp_data *d, bool layer,
                             glevo_gp_result *out);
/* The result's linear layer (linear_layer.c): a least-squares sum c0 + sum_t w_t term_t of at
 * most most_terms of the program's subtrees and products of two, chosen by orthogonal matching
 * pursuit with the Bayesian information criterion on a stride sample of d's cases (threads:
 * as gp_cpu_threads takes them; the same terms on any count). A new program in fresh arrays
 * (constants at their own positions) and its length; 0 where no sum was chosen (or the sum is
 * the program itself), -1 out of memory. */
int gp_linear_layer(const uint32_t *codes, const float *consts, int n, const glevo_gp_data *d,
                    int most_terms, int threads, uint32_t **out_codes, float **out_consts);
/* The simplified program (simplify.c: value kept wherever it is finite) into out (at most
 * length codes, constants at their own positions); returns its length, -1 out of memory. */
int gp_simplify(const uint32_t *codes, int length, const float *consts, uint32_t *out_codes,
                float *out_consts);
/* gp_simplify's rewrites and those of real arithmetic, which round differently: constants
 * gathered and folded across + - * (and a quotient by a constant), a - (a - b), (a + b) - a,
 * a + (b - a), a (b / a) and (a b) / a cancelled, -(a - b) as b - a, in passes until none
 * applies. The value may change by rounding (or more, where a cancelled division was
 * protected): gp_readable keeps the result only where the training error does not change. The
 * new length (at most length), -1 without memory. */
int gp_simplify_algebra(const uint32_t *codes, int length, const float *consts,
                        uint32_t *out_codes, float *out_consts);
/* Like terms collected (collect.c): the program as a sum of monomials in its inputs and
 * functions, equal monomials added; with distribute, products of sums expanded where the
 * result has at most 48 terms. Into out (constants at their own positions) where at most cap
 * codes; returns the length, 0 where it gave up (a bound, a division by 0, if-then-else, or
 * longer than cap), -1 without memory. The value changes by rounding (gp_readable judges). */
int gp_collect(const uint32_t *codes, int n, const float *consts, bool distribute,
               uint32_t *out_codes, float *out_consts, int cap);
/* The model made readable in place (codes with constant k at consts[k], n codes): the
 * algebra's rewrites, with collect like terms collected (gp_collect), then additive constants
 * near 0 and factors near 1 dropped one at a time, each kept only where the model's training
 * error under metric stays within rounding of the error before (1e-6 of it, or 1e-12 of the
 * target's variance). The new length. */
int gp_readable(uint32_t *codes, float *consts, int n, const glevo_gp_data *d,
                glevo_gp_metric metric, bool collect);
/* The program (codes, n, constants at their own positions) with the subtree codes[i..e)
 * replaced by one constant, value, into (oc, ok), constants at their own positions; the new
 * length (readable.c). */
int gp_with_constant(const uint32_t *codes, const float *consts, int n, int i, int e,
                     float value, uint32_t *oc, float *ok);
/* The model's noise pruned in place (prune.c): subtrees replaced by their means and constants by
 * round values, the linear scaling fitted again, where the Bayesian information criterion on d
 * falls (squared error); an exact fit is left. Never longer; the new length, *changed where it
 * differs from the model given. */
int gp_prune(uint32_t *codes, float *consts, int n, const glevo_gp_data *d, bool *changed);
/* The program as a SymPy expression, a new string (NULL without memory): log|a| as log(Abs(a)), sqrt|a| as
 * sqrt(Abs(a)) and |a|^b as Abs(a)**b, except where a is positive (for sqrt, not negative) on
 * every case of d (NULL: none), where they are the plain log(a), sqrt(a), a**b they equal there,
 * as the protected division is a plain quotient; comparisons as Piecewise; inputs by names
 * (NULL: x1, x2, ...). */
char *gp_program_sympy(const uint32_t *codes, int length, const float *consts,
                       const char *const *names, const glevo_gp_data *d);

#endif
