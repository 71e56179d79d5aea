/* Constant fitting (issue 26): a few Levenberg-Marquardt iterations on the constants of a
 * fraction of the population each generation, written back into the programs (Lamarckian),
 * as Operon (Burlacu et al. 2020, nonlinear least squares on the constants) and PySR
 * (Cranmer 2023, BFGS on the constants of the hall of fame) do. Derivatives by forward-mode
 * differentiation in the interpreter: each stack value carries its value and its derivative
 * with respect to every fitted constant (dual numbers), so one walk per case gives the
 * Jacobian row; the normal equations J^T J and J^T r are reduced over the cases in double and
 * solved per program (LDL^T of J^T J + lambda diag(J^T J)). The model fitted is
 * a + b f(theta): with linear scaling a and b are parameters beside theta (its closed form
 * starts them), without it a = 0 and b = 1 stay fixed. A step is kept only when the squared
 * error of the float interpreter (what selection scores) goes down, so fitting never makes a
 * program worse.
 *
 * This is the CPU twin of shaders/gp/const_fit.glsl, arithmetic for arithmetic: values by the
 * interpreter's own float operators (gp_math.h), derivatives in float in the order the shader
 * writes them, the normal equations summed in case order, the squared errors and moments in
 * lane order (case c in lane c % GP_FIT_LANES, the lanes added in order), the solve in double. So the compute backend's fitted constants are
 * the CPU's bits, and a run with fitting is the same run on both (test_gp_const_opt): the
 * shader's double divisions are corrected to IEEE's (GLSL's may be a * (1 / b)). The
 * derivatives are protected where the operators are: 0 where a protected operator returns its
 * constant (division by |b| < 1e-6, log of |a| < 1e-6, pow of |a| < 1e-6), and sqrt's is 0
 * below a root of 1e-6. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/rng.h"
#include "gp/sr/const_opt.h"
#include "gp/eval/eval_internal.h"
#include "gp/eval/gp_math.h"
#include "gp/sr/model.h"

#define NP (GP_FIT_THETA + 2) /* theta, a, b */

/* One stack value: f and its derivatives with respect to theta. */
typedef struct dual {
    float v, d[GP_FIT_THETA];
} dual;

/* The operator's value (the interpreter's bits) and its partial derivatives ga (by its first
 * argument a) and gb (by b); 0 for the comparisons and logic. */
static float partials(glevo_gp_op op, float a, float b, float *ga, float *gb)
{
    *ga = 0, *gb = 0;
    float v;
    switch (op) {
    case GLEVO_GP_ADD: v = a + b, *ga = 1, *gb = 1; break;
    case GLEVO_GP_SUB: v = a - b, *ga = 1, *gb = -1; break;
    case GLEVO_GP_MUL: v = a * b, *ga = b, *gb = a; break;
    case GLEVO_GP_DIV:
        v = gp_div(a, b);
        if (!(fabsf(b) < GP_PROTECT_EPS)) *ga = 1.0f / b, *gb = -(v / b);
        break;
    case GLEVO_GP_NEG: v = -a, *ga = -1; break;
    case GLEVO_GP_SIN: v = gp_sin(a), *ga = gp_cos(a); break;
    case GLEVO_GP_COS: v = gp_cos(a), *ga = -gp_sin(a); break;
    case GLEVO_GP_EXP: v = gp_exp(a), *ga = v; break;
    case GLEVO_GP_LOG:
        v = gp_log(a);
        if (fabsf(a) >= GP_PROTECT_EPS) *ga = 1.0f / a;
        break;
    case GLEVO_GP_SQRT:
        v = gp_sqrt(a);
        if (v >= GP_PROTECT_EPS) *ga = (a < 0 ? -0.5f : 0.5f) / v;
        break;
    case GLEVO_GP_SQUARE: v = a * a, *ga = a + a; break;
    case GLEVO_GP_CUBE: v = (a * a) * a, *ga = 3.0f * (a * a); break;
    case GLEVO_GP_POW:
        v = gp_pow(a, b);
        if (fabsf(a) >= GP_PROTECT_EPS) *ga = (v * b) / a, *gb = v * gp_log(a);
        break;
    case GLEVO_GP_TANH: v = gp_tanh(a), *ga = 1.0f - v * v; break;
    case GLEVO_GP_ABS: v = fabsf(a), *ga = a < 0 ? -1.0f : 1.0f; break;
    case GLEVO_GP_AQ: {
        float t = 1.0f + b * b, s = sqrtf(t);
        v = a / s, *ga = 1.0f / s, *gb = -((v * b) / t);
        break;
    }
    case GLEVO_GP_LT: v = a < b ? 1.0f : 0.0f; break;
    case GLEVO_GP_GT: v = a > b ? 1.0f : 0.0f; break;
    case GLEVO_GP_EQ: v = a == b ? 1.0f : 0.0f; break;
    case GLEVO_GP_AND: v = (a != 0.0f && b != 0.0f) ? 1.0f : 0.0f; break;
    case GLEVO_GP_OR: v = (a != 0.0f || b != 0.0f) ? 1.0f : 0.0f; break;
    case GLEVO_GP_NOT: v = a == 0.0f ? 1.0f : 0.0f; break;
    default: v = 0; break;
    }
    return v;
}

/* The value of program codes[0..len) on case c, theta[k] standing for constant pos[k]; with
 * grad, its derivatives by theta[0..nd) (nd: the fitted constants; a value walk computes
 * none, which leaves its values as they were: no value reads a derivative). stack holds len
 * duals. */
static float dual_eval(const uint32_t *codes, int len, const float *consts, const int *slot,
                       const float *theta, const glevo_gp_data *d, int c, dual *stack,
                       float *grad, int nd)
{
    int sp = 0;
    for (int i = len - 1; i >= 0; --i) {
        uint32_t code = codes[i];
        glevo_gp_op op = GLEVO_GP_CODE_OP(code);
        if (op == GLEVO_GP_VAR || op == GLEVO_GP_CONST) {
            dual *s = &stack[sp++];
            memset(s->d, 0, (size_t)nd * sizeof s->d[0]);
            if (op == GLEVO_GP_VAR) {
                s->v = d->x[(size_t)GLEVO_GP_CODE_INDEX(code) * d->cases + c];
            } else if (slot[i] >= 0) {
                s->v = theta[slot[i]];
                if (slot[i] < nd) s->d[slot[i]] = 1.0f;
            } else {
                s->v = consts[i];
            }
            continue;
        }
        int ar = glevo_gp_op_arity(op);
        dual *a = &stack[sp - 1], *b = ar > 1 ? &stack[sp - 2] : a;
        dual *out = &stack[sp - ar];
        if (op == GLEVO_GP_IF) { /* (if c a b): c on top */
            dual *e = &stack[sp - 3];
            *out = a->v != 0.0f ? *b : *e;
        } else {
            float ga, gb, v = partials(op, a->v, b->v, &ga, &gb);
            bool logic = op >= GLEVO_GP_LT && op <= GLEVO_GP_NOT;
            for (int k = 0; k < nd; ++k)
                out->d[k] = logic ? 0.0f : ar > 1 ? ga * a->d[k] + gb * b->d[k] : ga * a->d[k];
            out->v = v;
        }
        sp -= ar - 1;
    }
    if (grad) memcpy(grad, stack[0].d, (size_t)nd * sizeof stack[0].d[0]);
    return stack[0].v;
}

/* Per-lane sums of the shader: case c adds into lane c % GP_FIT_LANES. */
typedef struct lane_sums {
    double s[GP_FIT_LANES][NP * (NP + 1) / 2 + NP];
} lane_sums;

static double lanes_total(const lane_sums *L, int e)
{
    double s = 0;
    for (int t = 0; t < GP_FIT_LANES; ++t) s += L->s[t][e];
    return s;
}

/* Sum of (y - (a + b f))^2 over the cases, in lane order (infinite when not finite); f from
 * `first` where given (the values scaling_of walked, of the same constants), else walked. */
static double sse_of(const indiv *t, const int *slot, const float *theta, const glevo_gp_data *d,
                     const float *first, double a, double b, dual *stack, lane_sums *L)
{
    for (int l = 0; l < GP_FIT_LANES; ++l) L->s[l][0] = 0;
    for (int c = 0; c < d->cases; ++c) {
        double f = first ? first[c]
                         : dual_eval(t->codes, t->len, t->consts, slot, theta, d, c, stack,
                                     NULL, 0);
        double r = d->y[c] - (a + b * f);
        L->s[c % GP_FIT_LANES][0] += r * r;
    }
    double s = lanes_total(L, 0);
    return isfinite(s) ? s : INFINITY;
}

/* Linear scaling's a and b from the moments of f, summed in lane order (scaling.c's closed
 * form); f of every case into first (the pass keeps them so too, in shared memory). */
static void scaling_of(const indiv *t, const int *slot, const float *theta, const glevo_gp_data *d,
                       double *a, double *b, float *first, dual *stack, lane_sums *L)
{
    for (int l = 0; l < GP_FIT_LANES; ++l) memset(L->s[l], 0, 5 * sizeof(double));
    for (int c = 0; c < d->cases; ++c) {
        float fv = dual_eval(t->codes, t->len, t->consts, slot, theta, d, c, stack, NULL, 0);
        double f = first[c] = fv;
        double y = d->y[c], *s = L->s[c % GP_FIT_LANES];
        s[0] += f, s[1] += f * f, s[2] += f * y, s[3] += y, s[4] += y * y;
    }
    glevo_gp_sums m = {.hits = lanes_total(L, 0), .sq_sum = lanes_total(L, 1),
                       .abs_sum = lanes_total(L, 2)};
    double sse;
    gp_scaling_from_moments(&m, lanes_total(L, 3), lanes_total(L, 4), d->cases, a, b, &sse);
}

/* Solves (A + lambda diag A) x = g by LDL^T (no square root: GLSL does not promise a
 * correctly rounded double sqrt, and the shader's divisions are corrected to IEEE's); 0 when
 * A + lambda diag A is not positive definite. Lc holds L (unit lower) and D on its diagonal. */
static int solve(const double *A, const double *g, int n, double lambda, double *x, double *Lc)
{
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < i; ++j) {
            double s = A[i * n + j];
            for (int k = 0; k < j; ++k) s -= Lc[i * n + k] * Lc[j * n + k] * Lc[k * n + k];
            Lc[i * n + j] = s / Lc[j * n + j];
        }
        double s = A[i * n + i] + (lambda * A[i * n + i] + 1e-12);
        for (int k = 0; k < i; ++k) s -= Lc[i * n + k] * Lc[i * n + k] * Lc[k * n + k];
        if (!(s > 0)) return 0;
        Lc[i * n + i] = s;
    }
    for (int i = 0; i < n; ++i) { /* L z = g */
        double s = g[i];
        for (int k = 0; k < i; ++k) s -= Lc[i * n + k] * x[k];
        x[i] = s;
    }
    for (int i = n - 1; i >= 0; --i) { /* D L^T x = z */
        double s = x[i] / Lc[i * n + i];
        for (int k = i + 1; k < n; ++k) s -= Lc[k * n + i] * x[k];
        x[i] = s;
    }
    return 1;
}

int gp_const_fit_walk_slots(int cap)
{
    int leaves = cap > 1 ? (cap + 1) / 2 : 1, k = 0;
    while (leaves >> k) k++;
    return k < GP_FIT_STACK ? k : GP_FIT_STACK;
}

int gp_const_fit(indiv *t, const glevo_gp_data *d, int iters, bool scaling)
{
    if (gp_walk_depth(t->codes, t->len) > GP_FIT_STACK) return 0;
    int pos[GP_FIT_THETA], nt = 0, improved = 0;
    float theta[GP_FIT_THETA], cand[GP_FIT_THETA];
    int *slot = malloc((size_t)t->len * sizeof *slot);
    dual *stack = malloc((size_t)t->len * sizeof *stack);
    lane_sums *L = malloc(sizeof *L);
    if (!slot || !stack || !L) goto out;
    for (int i = 0; i < t->len; ++i) {
        slot[i] = -1;
        if (GLEVO_GP_CODE_OP(t->codes[i]) == GLEVO_GP_CONST && nt < GP_FIT_THETA) {
            slot[i] = nt;
            pos[nt] = i;
            theta[nt++] = t->consts[i];
        }
    }
    /* No constants: with scaling a and b are already the closed form's optimum. */
    if (nt == 0) goto out;
    double a = 0, b = 1;
    float *first = scaling ? malloc((size_t)d->cases * sizeof *first) : NULL;
    if (scaling && !first) goto out;
    if (scaling) scaling_of(t, slot, theta, d, &a, &b, first, stack, L);
    double best = sse_of(t, slot, theta, d, first, a, b, stack, L);
    free(first);
    int np = nt + (scaling ? 2 : 0), ne = np * (np + 1) / 2;
    double A[NP * NP], g[NP], step[NP], Lc[NP * NP], row[NP];
    double lambda = 1e-3;
    for (int it = 0; it < iters && isfinite(best); ++it) {
        /* J^T J (lower triangle, row-major) then J^T r, summed in case order. */
        double *sums = L->s[0];
        memset(sums, 0, (size_t)(ne + np) * sizeof(double));
        bool finite = true;
        for (int c = 0; c < d->cases; ++c) {
            float grad[GP_FIT_THETA];
            float fv = dual_eval(t->codes, t->len, t->consts, slot, theta, d, c, stack, grad, nt);
            finite = finite && isfinite(fv);
            double f = fv;
            for (int k = 0; k < nt; ++k) row[k] = b * (double)grad[k]; /* d(a + b f) / d theta */
            if (scaling) row[nt] = 1, row[nt + 1] = f;
            double r = d->y[c] - (a + b * f);
            for (int i = 0, e = 0; i < np; ++i)
                for (int j = 0; j <= i; ++j) sums[e++] += row[i] * row[j];
            for (int i = 0; i < np; ++i) sums[ne + i] += row[i] * r;
        }
        if (!finite) break;
        for (int i = 0, e = 0; i < np; ++i)
            for (int j = 0; j <= i; ++j, ++e) A[i * np + j] = A[j * np + i] = sums[e];
        for (int i = 0; i < np; ++i) g[i] = sums[ne + i];
        for (int tries = 0; tries < GP_FIT_TRIES; ++tries) {
            if (!solve(A, g, np, lambda, step, Lc)) {
                lambda *= 10;
                continue;
            }
            for (int k = 0; k < nt; ++k) cand[k] = (float)((double)theta[k] + step[k]);
            double na = scaling ? a + step[nt] : a, nb = scaling ? b + step[nt + 1] : b;
            double s = sse_of(t, slot, cand, d, NULL, na, nb, stack, L);
            if (s < best) {
                best = s, a = na, b = nb, improved = 1;
                memcpy(theta, cand, sizeof theta);
                lambda = lambda * 0.1 > 1e-9 ? lambda * 0.1 : 1e-9;
                break;
            }
            lambda *= 10;
        }
    }
    for (int k = 0; k < nt; ++k) t->consts[pos[k]] = theta[k];
out:
    free(slot);
    free(stack);
    free(L);
    return slot && stack && L ? improved : 0;
}

glevo_status gp_const_fit_data(const glevo_gp_data *d, const glevo_gp_data **fit,
                               glevo_gp_data **owned)
{
    *fit = d, *owned = NULL;
    if (d->cases <= GP_FIT_CASES) return GLEVO_OK;
    int m = GP_FIT_CASES;
    float *x = malloc((size_t)d->vars * m * sizeof *x + 1), *y = malloc((size_t)m * sizeof *y);
    glevo_status st = x && y ? GLEVO_OK
                             : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the fitting's cases");
    for (int k = 0; k < m && !st; ++k) {
        size_t c = (size_t)((long long)k * d->cases / m);
        y[k] = d->y[c];
        for (int v = 0; v < d->vars; ++v) x[(size_t)v * m + k] = d->x[(size_t)v * d->cases + c];
    }
    if (!st) st = glevo_gp_data_create(d->vars, m, x, y, owned);
    if (!st) *fit = *owned;
    free(x);
    free(y);
    return st;
}

double gp_const_fit_share(const glevo_gp_params *P)
{
    double most = P->const_opt_max > 0 ? (double)P->const_opt_max / P->pop : 1.0;
    return most < P->const_opt_fraction ? most : P->const_opt_fraction;
}

bool gp_const_fit_chosen(const glevo_gp_params *P, int i, int generation)
{
    uint32_t r = glevo_philox4x32((uint32_t)i, (uint32_t)generation, 0x434f4e53u, 0, P->seed,
                                  26).v[0];
    return glevo_rng_u01(r) < gp_const_fit_share(P);
}
