/* Linear scaling (Keijzer 2003, "Improving symbolic regression with interval arithmetic and
 * linear scaling", EuroGP): a program f is scored by the error of a + b f with the a and b of
 * least squares, in closed form from sums over the cases:
 *   b = cov(f, y) / var(f),  a = mean(y) - b mean(f),  SSE = Syy_c - b Sfy_c
 * (centred sums). The evaluator forms sum f*y, sum f*f and sum f in the lanes instead of the
 * errors (glevo_gp_eval_params.moments), so the scaled error costs one evaluation.
 * Precision: the lanes sum in float (the order every backend shares), so a scaled error below
 * ~1e-7..1e-6 of the target's variance is rounding (the centred sums cancel). Selection sees
 * that floor; the reported model is scored exactly (model.c evaluates the printed a + b f). */
#include <math.h>
#include <stdlib.h>

#include "gp/eval/eval_internal.h"

static void closed_form(double sf, double sff, double sfy, double sy, double syy, int n,
                        double *a, double *b, double *sse)
{
    double my = sy / n, mf = sf / n;
    double sff_c = sff - sf * mf, sfy_c = sfy - sf * my, syy_c = syy - sy * my;
    if (!isfinite(sf) || !isfinite(sff) || !isfinite(sfy)) {
        *a = my, *b = 0, *sse = INFINITY;
        return;
    }
    if (!(sff_c > GP_SCALING_MIN_VAR * sff)) {
        *a = my, *b = 0, *sse = syy_c > 0 ? syy_c : 0;
        return;
    }
    *b = sfy_c / sff_c;
    *a = my - *b * mf;
    double e = syy_c - *b * sfy_c;
    *sse = e > 0 ? e : 0;
}

void gp_scaling_from_moments(const glevo_gp_sums *m, double sum_y, double sum_yy, int cases,
                             double *a, double *b, double *sse)
{
    closed_form(m->hits, m->sq_sum, m->abs_sum, sum_y, sum_yy, cases, a, b, sse);
}

void gp_fit_scaling(const uint32_t *codes, int length, const float *consts,
                    const glevo_gp_data *d, double *a, double *b)
{
    double sf = 0, sff = 0, sfy = 0, sy = 0, syy = 0, sse;
    float *pred = malloc((size_t)d->cases * sizeof *pred);
    if (!pred || gp_predict_cpu(codes, length, consts, d, pred)) {
        free(pred);
        *a = 0, *b = 1;
        return;
    }
    for (int c = 0; c < d->cases; ++c) {
        double f = pred[c], y = d->y[c];
        sf += f, sff += f * f, sfy += f * y, sy += y, syy += y * y;
    }
    free(pred);
    closed_form(sf, sff, sfy, sy, syy, d->cases, a, b, &sse);
}

int gp_scaled_program(const uint32_t *codes, int length, const float *consts, float a, float b,
                      uint32_t *out_codes, float *out_consts)
{
    /* (+ a (* b f)): constants index their own position, as the engine's individuals do. */
    out_codes[0] = GLEVO_GP_CODE(GLEVO_GP_ADD, 0);
    out_codes[1] = GLEVO_GP_CODE(GLEVO_GP_CONST, 1);
    out_consts[1] = a;
    out_codes[2] = GLEVO_GP_CODE(GLEVO_GP_MUL, 0);
    out_codes[3] = GLEVO_GP_CODE(GLEVO_GP_CONST, 3);
    out_consts[3] = b;
    for (int k = 0; k < length; ++k) {
        uint32_t c = codes[k];
        if (GLEVO_GP_CODE_OP(c) == GLEVO_GP_CONST) {
            out_consts[4 + k] = consts[GLEVO_GP_CODE_INDEX(c)];
            c = GLEVO_GP_CODE(GLEVO_GP_CONST, 4 + k);
        }
        out_codes[4 + k] = c;
    }
    return length + 4;
}
