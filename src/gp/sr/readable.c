/* The reported model made readable (model.h, gp_readable): the algebra's rewrites, the
 * dropping of constants within rounding of 0 (added) or 1 (a factor), and subtrees constant on
 * the training data replaced by their value, each kept only where the training error does not
 * change beyond rounding, so that what is printed is what was scored and no better or worse. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/sr/model.h"

glevo_status gp_model_error(const glevo_gp_programs *p, const glevo_gp_data *d,
                            glevo_gp_metric metric, double *error)
{
    glevo_gp_sums s;
    glevo_status st = glevo_gp_evaluate_cpu(p, d, 1, &s);
    if (!st) *error = glevo_gp_metric_value(metric, &s, d->cases);
    return st;
}

/* A copy of the model, its error under metric, and the tolerance of "no change". */
typedef struct judge {
    const glevo_gp_data *d;
    glevo_gp_metric metric;
    double tolerance_abs;
    glevo_gp_programs *one;
    long long budget; /* program-case evaluations left (the model is judged on all the data) */
    /* A stride sample of SCREEN_CASES cases (NULL where the data are few), and the model's
     * error on it: a candidate whose error there changes is refused without the whole data's
     * evaluation (most are, the subtrees that matter); one that passes is judged on all. */
    glevo_gp_data *sample;
    double sample_before;
} judge;
enum { SCREEN_CASES = 64 };

static bool unchanged(const judge *j, double before, double after)
{
    /* Neither worse nor better: a rewrite that changes the function (a cancelled protected
     * division where the data hold its divisor's zeros) is not a simplification. */
    return fabs(after - before) <= 1e-6 * before + j->tolerance_abs;
}

/* The error on d of the program (its constants at their own positions: programs_add indexes
 * them through codes). */
static bool error_on(judge *j, const glevo_gp_data *d, const uint32_t *codes, const float *consts,
                     int n, double *err)
{
    if ((j->budget -= (long long)glevo_gp_data_cases(d) * n) < 0) return false;
    glevo_gp_programs_clear(j->one);
    if (glevo_gp_programs_add(j->one, codes, n, consts) != GLEVO_OK) return false;
    return gp_model_error(j->one, d, j->metric, err) == GLEVO_OK && isfinite(*err);
}

/* The training error of a candidate, false where the sample already shows it changed (a
 * screen: it can only refuse) or the budget is spent. */
static bool error_of(judge *j, const uint32_t *codes, const float *consts, int n, double *err)
{
    double on_sample;
    if (j->sample && (!error_on(j, j->sample, codes, consts, n, &on_sample) ||
                      !unchanged(j, j->sample_before, on_sample)))
        return false;
    return error_on(j, j->d, codes, consts, n, err);
}

/* j->sample: every (cases / SCREEN_CASES)-th case, where that is a tenth of the data or less. */
static void make_sample(judge *j, const uint32_t *codes, const float *consts, int n)
{
    if (j->d->cases / SCREEN_CASES < 10 ||
        gp_data_stride_sample(j->d, SCREEN_CASES, &j->sample) != GLEVO_OK)
        return;
    if (!error_on(j, j->sample, codes, consts, n, &j->sample_before)) {
        glevo_gp_data_destroy(j->sample);
        j->sample = NULL;
    }
}

/* The constant at code i of a program whose parent is at p: whether it may go (an addend, a
 * subtrahend, or a factor or divisor near 1) and whether it is small enough to try. */
static bool droppable(const uint32_t *codes, const float *consts, int p, int i, double scale)
{
    glevo_gp_op parent = GLEVO_GP_CODE_OP(codes[p]);
    float c = consts[i];
    if (parent == GLEVO_GP_ADD || parent == GLEVO_GP_SUB) return fabs(c) <= 1e-3 * scale;
    if (parent == GLEVO_GP_MUL) return fabsf(c - 1.0f) <= 1e-3f;
    if (parent == GLEVO_GP_DIV) return i != p + 1 && fabsf(c - 1.0f) <= 1e-3f;
    return false;
}

/* Every constant code of codes[0..m) pointed at its own position (the model keeps a constant's
 * value beside its code); returns m. */
static int own_positions(uint32_t *codes, int m)
{
    for (int k = 0; k < m; ++k)
        if (GLEVO_GP_CODE_OP(codes[k]) == GLEVO_GP_CONST) codes[k] = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
    return m;
}

/* The program with the constant at i (child of p) dropped, into out: the parent replaced by
 * the other child, or by (neg b) for (- c b). Constants stay at their own positions. */
static int drop(const uint32_t *codes, const float *consts, int n, int p, int i, uint32_t *oc,
                float *ok)
{
    int pe = gp_subtree_end(codes, n, p), l0 = p + 1, l1 = gp_subtree_end(codes, n, l0);
    int s0 = i == l0 ? l1 : l0, s1 = gp_subtree_end(codes, n, s0); /* the sibling */
    bool negate = GLEVO_GP_CODE_OP(codes[p]) == GLEVO_GP_SUB && i == l0;
    int m = 0;
    for (int k = 0; k < p; ++k) oc[m] = codes[k], ok[m] = consts[k], ++m;
    if (negate) oc[m] = GLEVO_GP_CODE(GLEVO_GP_NEG, 0), ok[m] = 0, ++m;
    for (int k = s0; k < s1; ++k) oc[m] = codes[k], ok[m] = consts[k], ++m;
    for (int k = pe; k < n; ++k) oc[m] = codes[k], ok[m] = consts[k], ++m;
    return own_positions(oc, m);
}

int gp_with_constant(const uint32_t *codes, const float *consts, int n, int i, int e,
                     float value, uint32_t *oc, float *ok)
{
    int m = 0;
    for (int k = 0; k < i; ++k) oc[m] = codes[k], ok[m] = consts[k], ++m;
    oc[m] = GLEVO_GP_CODE(GLEVO_GP_CONST, 0), ok[m] = value, ++m;
    for (int k = e; k < n; ++k) oc[m] = codes[k], ok[m] = consts[k], ++m;
    return own_positions(oc, m);
}

/* Which subtrees of codes[0..n) (n <= 256) are constant on the training data: constant[i] where
 * the values of the subtree at i spread within 1e-6 of their size, or of scale when they are
 * near 0 (an exp of a large negative argument, a difference that cancels), value[i] their mean,
 * nonnegative[i] where every value is finite and none negative. One walk a case gives every
 * subtree's values (gp_interpret_nodes), so it costs the budget one evaluation; false when that
 * is spent. */
static bool constant_subtrees(judge *j, const uint32_t *codes, const float *consts, int n,
                              double scale, bool *constant, float *value, bool *nonnegative)
{
    if ((j->budget -= (long long)j->d->cases * n) < 0) return false;
    float v[256];
    double lo[256], hi[256], sum[256];
    bool finite[256];
    for (int i = 0; i < n; ++i) lo[i] = INFINITY, hi[i] = -INFINITY, sum[i] = 0, finite[i] = true;
    for (int c = 0; c < j->d->cases; ++c) {
        gp_interpret_nodes(codes, n, consts, j->d, c, v);
        for (int i = 0; i < n; ++i) {
            finite[i] = finite[i] && isfinite(v[i]);
            lo[i] = fmin(lo[i], v[i]), hi[i] = fmax(hi[i], v[i]), sum[i] += v[i];
        }
    }
    for (int i = 0; i < n; ++i) {
        double mean = sum[i] / j->d->cases;
        value[i] = (float)mean;
        constant[i] = finite[i] && hi[i] - lo[i] <= 1e-6 * fmax(fabs(mean), 1e-6 * scale);
        nonnegative[i] = finite[i] && lo[i] >= 0;
    }
    return true;
}

/* The candidate (sc, sk, k codes) simplified into (oc, ok) and, where the training error
 * stays within rounding of before, copied over the model (codes, consts, *n): true then. */
static bool take_if_unchanged(judge *j, double before, const uint32_t *sc, const float *sk, int k,
                              uint32_t *oc, float *ok, uint32_t *codes, float *consts, int *n)
{
    int s = gp_simplify(sc, k, sk, oc, ok);
    double err;
    if (s <= 0 || !error_of(j, oc, ok, s, &err) || !unchanged(j, before, err)) return false;
    memcpy(codes, oc, (size_t)s * sizeof *oc);
    memcpy(consts, ok, (size_t)s * sizeof *ok);
    *n = s;
    return true;
}

/* The candidate (sc, sk, k codes) simplified into (oc, ok) and, where its value on every
 * training case is the model's within float rounding (1e-5 of |value| + scale), copied over the
 * model (codes, consts, *n), *before and the sample's error becoming its: true then. For a
 * rewrite of real arithmetic that leaves the function as it was but rounds differently
 * (collected terms): a noisy fit's error sees every such change beyond take_if_unchanged's
 * 1e-6 of it. */
static bool take_if_same_values(judge *j, double scale, double *before, const uint32_t *sc,
                                const float *sk, int k, uint32_t *oc, float *ok,
                                uint32_t *codes, float *consts, int *n)
{
    int s = gp_simplify(sc, k, sk, oc, ok), cases = glevo_gp_data_cases(j->d);
    if (s <= 0 || (j->budget -= (long long)cases * (s + *n)) < 0) return false;
    for (int c = 0; c < cases; ++c) {
        float a = glevo_gp_interpret(codes, *n, consts, j->d, c);
        float b = glevo_gp_interpret(oc, s, ok, j->d, c);
        if (isfinite(a) ? !(fabs((double)a - b) <= 1e-5 * (fabs(a) + scale)) : isfinite(b))
            return false;
    }
    double err, on_sample = 0;
    if (!error_on(j, j->d, oc, ok, s, &err) ||
        (j->sample && !error_on(j, j->sample, oc, ok, s, &on_sample)))
        return false;
    memcpy(codes, oc, (size_t)s * sizeof *oc);
    memcpy(consts, ok, (size_t)s * sizeof *ok);
    *n = s, *before = err, j->sample_before = on_sample;
    return true;
}

/* Parents of every code (the root's: -1). */
static void parents(const uint32_t *codes, int n, int *parent)
{
    int stack[256], need[256], top = -1;
    for (int i = 0; i < n; ++i) {
        parent[i] = top >= 0 ? stack[top] : -1;
        if (top >= 0 && --need[top] == 0) --top; /* i was its parent's last child */
        int arity = glevo_gp_op_arity(GLEVO_GP_CODE_OP(codes[i]));
        if (arity > 0) stack[++top] = i, need[top] = arity;
    }
}

int gp_readable(uint32_t *codes, float *consts, int n, const glevo_gp_data *d,
                glevo_gp_metric metric, bool collect)
{
    if (n < 2 || n > 256) return n;
    double sy = 0, syy = 0;
    for (int c = 0; c < d->cases; ++c) sy += d->y[c];
    double mean = sy / d->cases;
    for (int c = 0; c < d->cases; ++c) syy += (d->y[c] - mean) * (d->y[c] - mean);
    double var = syy / d->cases, scale = fabs(mean) + sqrt(var);
    /* About 2 10^7 node evaluations at most (some milliseconds), and always the model's own and
     * two more: a run's progress builds the model at each new best (the algebra once, the few
     * constants near 0 or 1, the subtrees screened on the sample). */
    long long budget = 20000000LL + 3LL * d->cases * n;
    judge j = {d, metric, 1e-12 * (metric == GLEVO_GP_MSE ? var : sqrt(var)), NULL, budget, NULL, 0};
    uint32_t *oc = malloc((size_t)n * sizeof *oc), *sc = malloc((size_t)n * sizeof *sc);
    float *ok = malloc((size_t)n * sizeof *ok), *sk = malloc((size_t)n * sizeof *sk);
    int *parent = malloc((size_t)n * sizeof *parent);
    double before;
    if (!oc || !sc || !ok || !sk || !parent || glevo_gp_programs_create(&j.one) != GLEVO_OK ||
        !error_of(&j, codes, consts, n, &before))
        goto done;
    make_sample(&j, codes, consts, n);
    /* Each accepted step shortens the program, so this ends. */
    for (bool progress = true; progress;) {
        progress = false;
        int m = gp_simplify_algebra(codes, n, consts, oc, ok);
        double err;
        if (m > 0 && (m < n || memcmp(oc, codes, (size_t)n * sizeof *oc)) &&
            error_of(&j, oc, ok, m, &err) && unchanged(&j, before, err)) {
            memcpy(codes, oc, (size_t)m * sizeof *oc);
            memcpy(consts, ok, (size_t)m * sizeof *ok);
            progress = m < n;
            n = m;
        }
        /* Like terms collected, products of sums expanded or not (collect.c): where shorter. */
        for (int distribute = 1; collect && distribute >= 0 && !progress; --distribute) {
            int k = gp_collect(codes, n, consts, distribute, sc, sk, n - 1);
            if (k > 0)
                progress = take_if_same_values(&j, scale, &before, sc, sk, k, oc, ok, codes,
                                               consts, &n);
        }
        parents(codes, n, parent);
        for (int i = 0; i < n && !progress; ++i) {
            if (GLEVO_GP_CODE_OP(codes[i]) != GLEVO_GP_CONST || parent[i] < 0 ||
                !droppable(codes, consts, parent[i], i, scale))
                continue;
            int k = drop(codes, consts, n, parent[i], i, sc, sk);
            progress = take_if_unchanged(&j, before, sc, sk, k, oc, ok, codes, consts, &n);
        }
        /* A subtree constant on the data (a term that is 0 on every case, a factor that is 1)
         * becomes that constant, largest first; the next pass drops it where it is 0 or 1.
         * Then any other subtree the model's error does not see (a term scaled by 1e-3 that
         * a constant offsets, a quotient of near-equal parts: the dead weight of exact fits
         * that SRBench's symbolic check cannot cancel) becomes its mean, on the same
         * condition. */
        bool constant[256], nonnegative[256];
        float value[256];
        if (progress || !constant_subtrees(&j, codes, consts, n, scale, constant, value, nonnegative))
            continue;
        /* |a| where a is never negative on the data is a (exp(log(a)) became |a| above). */
        for (int i = 0; i + 1 < n && !progress; ++i) {
            if (GLEVO_GP_CODE_OP(codes[i]) != GLEVO_GP_ABS || !nonnegative[i + 1]) continue;
            int k = 0;
            for (int m = 0; m < n; ++m)
                if (m != i) sc[k] = codes[m], sk[k] = consts[m], ++k;
            progress = take_if_unchanged(&j, before, sc, sk, own_positions(sc, k), oc, ok, codes,
                                         consts, &n);
        }
        for (int pass = 0; pass < 2 && !progress; ++pass)
            for (int i = 0; i < n && !progress; ++i) {
                int e = gp_subtree_end(codes, n, i);
                if (e - i < 2 || constant[i] != (pass == 0) || !isfinite(value[i])) continue;
                int k = gp_with_constant(codes, consts, n, i, e, value[i], sc, sk);
                progress = take_if_unchanged(&j, before, sc, sk, k, oc, ok, codes, consts, &n);
            }
    }
done:
    glevo_gp_data_destroy(j.sample);
    glevo_gp_programs_destroy(j.one);
    free(oc), free(sc), free(ok), free(sk), free(parent);
    return n;
}
