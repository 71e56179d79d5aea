/* Constant fitting (issue 26): a few Levenberg-Marquardt iterations on the constants of a
 * fraction of the population each generation, written back into the programs (Lamarckian),
 * as Operon (Burlacu et al. 2020, nonlinear least squares on the constants) and PySR
 * (Cranmer 2023, BFGS on the constants of the hall of fame) do. Derivatives by forward-mode
 * differentiation in the interpreter: each stack value carries its value and its derivative
 * with respect to every constant (dual numbers), so one walk per case gives the Jacobian row;
 * the normal equations J^T J and J^T r are reduced over the cases in double and solved per
 * program (Cholesky of J^T J + lambda diag(J^T J)). The model fitted is a + b f(theta): with
 * linear scaling a and b are parameters beside theta (its closed form starts them), without
 * it a = 0 and b = 1 stay fixed. A step is kept only when the float interpreter's squared
 * error (the fitness) goes down, so fitting never makes a program worse.
 * This is the CPU twin; the GPU version (the normal equations reduced in the evaluator's
 * lanes, the solve per program in a pass) is not built yet: every backend runs this one on
 * the host, so GPU and CPU runs stay the same run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/rng.h"
#include "gp/const_opt.h"
#include "gp/eval_internal.h"
#include "gp/engine_internal.h"
#include "gp/model.h"

#define MAXP 66 /* constants per program fitted (the rest stay), + a, b */

/* Value and derivatives of program codes[0..len) on case c: theta's constants are the codes
 * listed in pos[0..np) (their values in consts[pos[k]]). d receives np derivatives. */
static double dual_eval(const uint32_t *codes, int len, const float *consts, const int *slot,
                        int np, const glevo_gp_data *d, int c, double *stack_v, double *stack_d,
                        double *grad)
{
    int sp = 0;
    for (int i = len - 1; i >= 0; --i) {
        uint32_t code = codes[i];
        glevo_gp_op op = GLEVO_GP_CODE_OP(code);
        double *dv = stack_d + (size_t)sp * np;
        switch (op) {
        case GLEVO_GP_VAR:
            stack_v[sp] = d->x[(size_t)GLEVO_GP_CODE_INDEX(code) * d->cases + c];
            memset(dv, 0, (size_t)np * sizeof *dv);
            sp++;
            continue;
        case GLEVO_GP_CONST:
            stack_v[sp] = consts[i];
            memset(dv, 0, (size_t)np * sizeof *dv);
            if (slot[i] >= 0) dv[slot[i]] = 1.0;
            sp++;
            continue;
        default: break;
        }
        int ar = glevo_gp_op_arity(op);
        /* a on top (first argument), b below it, e below b (if's else-branch) */
        double a = stack_v[sp - 1], b = ar > 1 ? stack_v[sp - 2] : 0, e = ar > 2 ? stack_v[sp - 3] : 0;
        double *da = stack_d + (size_t)(sp - 1) * np, *db = ar > 1 ? stack_d + (size_t)(sp - 2) * np : da;
        double *de = ar > 2 ? stack_d + (size_t)(sp - 3) * np : da;
        double v = 0, ga = 0, gb = 0; /* v = op(a, b); dv = ga da + gb db */
        switch (op) {
        case GLEVO_GP_ADD: v = a + b, ga = 1, gb = 1; break;
        case GLEVO_GP_SUB: v = a - b, ga = 1, gb = -1; break;
        case GLEVO_GP_MUL: v = a * b, ga = b, gb = a; break;
        case GLEVO_GP_DIV:
            if (fabs(b) < 1e-6) v = 1;
            else v = a / b, ga = 1 / b, gb = -a / (b * b);
            break;
        case GLEVO_GP_NEG: v = -a, ga = -1; break;
        case GLEVO_GP_SIN: v = sin(a), ga = cos(a); break;
        case GLEVO_GP_COS: v = cos(a), ga = -sin(a); break;
        case GLEVO_GP_EXP: v = exp(a), ga = v; break;
        case GLEVO_GP_LOG:
            if (fabs(a) >= 1e-6) v = log(fabs(a)), ga = 1 / a;
            break;
        case GLEVO_GP_SQRT:
            v = sqrt(fabs(a));
            ga = v > 0 ? (a < 0 ? -0.5 : 0.5) / v : 0;
            break;
        case GLEVO_GP_SQUARE: v = a * a, ga = 2 * a; break;
        case GLEVO_GP_CUBE: v = a * a * a, ga = 3 * a * a; break;
        case GLEVO_GP_POW:
            if (fabs(a) >= 1e-6) {
                double l = log(fabs(a));
                v = exp(b * l), ga = v * b / a, gb = v * l;
            } else {
                v = 1;
            }
            break;
        case GLEVO_GP_TANH: v = tanh(a), ga = 1 - v * v; break;
        case GLEVO_GP_ABS: v = fabs(a), ga = a < 0 ? -1 : 1; break;
        case GLEVO_GP_AQ: {
            double s = sqrt(1 + b * b);
            v = a / s, ga = 1 / s, gb = -a * b / (s * s * s);
            break;
        }
        case GLEVO_GP_IF: v = a != 0 ? b : e; break;
        case GLEVO_GP_LT: v = a < b; break;
        case GLEVO_GP_GT: v = a > b; break;
        case GLEVO_GP_EQ: v = a == b; break;
        case GLEVO_GP_AND: v = a != 0 && b != 0; break;
        case GLEVO_GP_OR: v = a != 0 || b != 0; break;
        case GLEVO_GP_NOT: v = a == 0; break;
        default: break;
        }
        double *out = stack_d + (size_t)(sp - ar) * np;
        if (op == GLEVO_GP_IF) {
            const double *src = a != 0 ? db : de;
            memmove(out, src, (size_t)np * sizeof *out);
        } else {
            for (int k = 0; k < np; ++k) out[k] = ga * da[k] + (ar > 1 ? gb * db[k] : 0);
        }
        sp -= ar - 1;
        stack_v[sp - 1] = v;
    }
    memcpy(grad, stack_d, (size_t)np * sizeof *grad);
    return stack_v[0];
}

/* Sum of (y - (a + b f))^2 with the float interpreter (what selection scores, up to the lane
 * order). */
static double sse_of(const indiv *t, const glevo_gp_data *d, double a, double b, float *f)
{
    if (gp_predict_cpu(t->codes, t->len, t->consts, d, f)) return INFINITY;
    double s = 0;
    for (int c = 0; c < d->cases; ++c) {
        double r = d->y[c] - (a + b * f[c]);
        s += r * r;
    }
    return isfinite(s) ? s : INFINITY;
}

/* Solves (A + lambda diag A) x = g by Cholesky; 0 when not positive definite. */
static int solve(const double *A, const double *g, int n, double lambda, double *x, double *L)
{
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = A[i * n + j] + (i == j ? lambda * A[i * n + i] + 1e-12 : 0);
            for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
            if (i == j) {
                if (!(s > 0)) return 0;
                L[i * n + i] = sqrt(s);
            } else {
                L[i * n + j] = s / L[j * n + j];
            }
        }
    for (int i = 0; i < n; ++i) { /* L z = g */
        double s = g[i];
        for (int k = 0; k < i; ++k) s -= L[i * n + k] * x[k];
        x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) { /* L^T x = z */
        double s = x[i];
        for (int k = i + 1; k < n; ++k) s -= L[k * n + i] * x[k];
        x[i] = s / L[i * n + i];
    }
    return 1;
}

int gp_const_fit(indiv *t, const glevo_gp_data *d, int iters, bool scaling, float lo, float hi,
                 float *work_consts)
{
    int slot[4096], pos[MAXP];
    int nt = 0;
    if (t->len > 4096) return 0;
    for (int i = 0; i < t->len; ++i) {
        slot[i] = -1;
        if (GLEVO_GP_CODE_OP(t->codes[i]) == GLEVO_GP_CONST && nt < MAXP - 2) {
            slot[i] = nt;
            pos[nt++] = i;
        }
    }
    /* No constants: with scaling a and b are already the closed form's optimum. */
    if (nt == 0) return 0;
    float *pred = malloc((size_t)d->cases * sizeof *pred);
    if (!pred) return 0;
    double a = 0, b = 1;
    if (scaling) gp_fit_scaling(t->codes, t->len, t->consts, d, &a, &b);
    double best = sse_of(t, d, a, b, pred);
    if (!isfinite(best)) {
        free(pred);
        return 0;
    }
    int np = nt + (scaling ? 2 : 0);
    double *buf = malloc(sizeof(double) * ((size_t)np * np * 2 + (size_t)np * 3 +
                                           (size_t)t->len * (np + 1)));
    if (!buf) {
        free(pred);
        return 0;
    }
    double *A = buf, *L = A + np * np, *g = L + np * np, *step = g + np, *row = step + np;
    double *sv = row + np, *sd = sv + t->len;
    double lambda = 1e-3;
    int improved = 0;
    memcpy(work_consts, t->consts, (size_t)t->len * sizeof *work_consts);
    for (int it = 0; it < iters; ++it) {
        memset(A, 0, sizeof(double) * (size_t)np * np);
        memset(g, 0, sizeof(double) * (size_t)np);
        for (int c = 0; c < d->cases; ++c) {
            double f = dual_eval(t->codes, t->len, t->consts, slot, nt, d, c, sv, sd, row);
            if (!isfinite(f)) goto done;
            for (int k = 0; k < nt; ++k) row[k] *= b; /* d(a + b f) / d theta */
            if (scaling) row[nt] = 1, row[nt + 1] = f;
            double r = d->y[c] - (a + b * f);
            for (int i = 0; i < np; ++i) {
                g[i] += row[i] * r;
                for (int j = 0; j <= i; ++j) A[i * np + j] += row[i] * row[j];
            }
        }
        for (int i = 0; i < np; ++i)
            for (int j = 0; j < i; ++j) A[j * np + i] = A[i * np + j];
        for (int tries = 0; tries < 4; ++tries) {
            if (!solve(A, g, np, lambda, step, L)) {
                lambda *= 10;
                continue;
            }
            for (int k = 0; k < nt; ++k) {
                float v = (float)(t->consts[pos[k]] + step[k]);
                if (lo < hi) v = v < lo ? lo : v > hi ? hi : v;
                t->consts[pos[k]] = v;
            }
            double na = scaling ? a + step[nt] : a, nb = scaling ? b + step[nt + 1] : b;
            double s = sse_of(t, d, na, nb, pred);
            if (s < best) {
                best = s, a = na, b = nb, improved = 1;
                memcpy(work_consts, t->consts, (size_t)t->len * sizeof *work_consts);
                lambda = lambda * 0.1 > 1e-9 ? lambda * 0.1 : 1e-9;
                break;
            }
            memcpy(t->consts, work_consts, (size_t)t->len * sizeof *work_consts);
            lambda *= 10;
        }
    }
done:
    memcpy(t->consts, work_consts, (size_t)t->len * sizeof *work_consts);
    free(buf);
    free(pred);
    return improved;
}

void gp_const_opt_generation(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    if (P->const_opt_iters <= 0 || P->const_opt_fraction <= 0) return;
    indiv *pop = gp->pops[gp->cur];
    float *work = malloc((size_t)P->max_size * sizeof *work);
    if (!work) return;
    for (int i = 0; i < P->pop; ++i) {
        /* Which programs: a counter-based draw of (program, generation), not the engine's
         * stream, so that breeding's random numbers are the same with fitting on or off. */
        uint32_t r = glevo_philox4x32((uint32_t)i, (uint32_t)gp->generation, 0x434f4e53u, 0,
                                      P->seed, 26).v[0];
        if (glevo_rng_u01(r) >= P->const_opt_fraction) continue;
        gp_const_fit(&pop[i], gp->data, P->const_opt_iters, P->linear_scaling == 1, 0, 0, work);
    }
    free(work);
}
