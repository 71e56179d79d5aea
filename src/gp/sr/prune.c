/* The reported model's noise pruned (model.h, gp_prune): a subtree replaced by its mean on the
 * training data, or a constant by a round value (0, an integer, a half), with the model's
 * linear scaling fitted again, kept where the Bayesian information criterion (Schwarz 1978)
 * falls. On noisy data a search's best program carries parts that fit the noise (a term of
 * 1e-3 of the output, a constant 0.9975 for 1): they lower the training error by less than the
 * criterion asks of a part, and SRBench's symbolic check cannot cancel them. A model exact to
 * rounding gains nothing from this, and any change to it multiplies its error: it is left. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/sr/model.h"

/* Programs of at most MOST_CODES codes, weighed on at most MOST_CASES cases (a stride sample
 * of more), at most BUDGET node-case evaluations (some 0.1 s on one core: a model of 100 codes
 * on 1500 cases is 1.5 10^5 a candidate, a pass some 150 candidates; 17 ms a model on average
 * on SRBench's noisy Feynman data before weigh's screens, less with them). MOST_RISE: a pruned model's squared error is at most this
 * much above the model's (Friedman-1, where the models' errors are mostly misfit rather than
 * noise, the criterion alone took some to a constant: median test R^2 0.923 -> 0.914; with
 * this bound 0.926, the bound never binding on the noisy Feynman solutions: at most 2.9 %). */
enum { MOST_CODES = 256, MOST_CASES = 2048 };
#define BUDGET 100000000LL
#define MOST_RISE 0.05

/* The criterion's price of a program: each code one choice, each constant one more (a real
 * parameter). */
static int complexity(const uint32_t *codes, int n)
{
    int k = n;
    for (int i = 0; i < n; ++i) k += GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST;
    return k;
}

/* n log(SSE / n) + k log(n): lower is better; SSE of 0 (an exact fit) is never beaten. */
static double criterion(double sse, int k, int cases)
{
    return cases * log(sse / cases + 1e-300) + k * log((double)cases);
}

typedef struct pruner {
    const glevo_gp_data *d;
    float *pred;      /* cases values of a candidate */
    long long budget; /* node-case evaluations left */
    uint32_t best_codes[MOST_CODES + 4];
    float best_consts[MOST_CODES + 4];
    int best_n, limit; /* limit: a candidate is never longer than the model was */
    double best_criterion;
    double sse_limit; /* the model's squared error x (1 + MOST_RISE) */
} pruner;

/* The squared error of (codes, consts) on every case; false where the budget is spent or a
 * value is not finite. */
static bool sse_of(pruner *p, const uint32_t *codes, const float *consts, int n, double *sse)
{
    int cases = p->d->cases;
    if ((p->budget -= (long long)cases * n) < 0 ||
        gp_predict_cpu(codes, n, consts, p->d, p->pred) != GLEVO_OK)
        return false;
    double s = 0;
    for (int c = 0; c < cases; ++c) {
        double e = (double)p->d->y[c] - p->pred[c];
        s += e * e;
    }
    *sse = s;
    return isfinite(s);
}

/* The candidate (codes, consts, n; constants at their own positions) simplified, as it is, as
 * b f and as a + b f with least squares' a and b: where one of them lowers the criterion below
 * the best so far, it becomes the best. Each is screened by its squared error in closed form
 * from the candidate's values (one evaluation for the three), and only one that passes is
 * evaluated as printed, the criterion taken from that. */
static void weigh(pruner *p, const uint32_t *codes, const float *consts, int n)
{
    uint32_t sc[MOST_CODES + 4], fc[MOST_CODES + 4];
    float sk[MOST_CODES + 4], fk[MOST_CODES + 4];
    int cases = p->d->cases, m = gp_simplify_algebra(codes, n, consts, sc, sk);
    if (m <= 0 || m > MOST_CODES || gp_predict_cpu(sc, m, sk, p->d, p->pred) != GLEVO_OK)
        return;
    p->budget -= (long long)cases * m;
    double sf = 0, sff = 0, sfy = 0, sy = 0, syy = 0;
    for (int c = 0; c < cases; ++c) {
        double f = p->pred[c], y = p->d->y[c];
        sf += f, sff += f * f, sfy += f * y, sy += y, syy += y * y;
    }
    double mf = sf / cases, my = sy / cases, sff_c = sff - sf * mf, sfy_c = sfy - sf * my;
    if (!isfinite(sff) || !isfinite(sfy)) return;
    for (int way = 0; way < 3; ++way) {
        double a = 0, b = 1;
        if (way == 1 && sff > 0) b = sfy / sff;
        if (way == 2 && sff_c > GP_SCALING_MIN_VAR * sff) b = sfy_c / sff_c, a = my - b * mf;
        if (way > 0 && a == 0 && b == 1) continue;
        double guess = syy - 2 * a * sy - 2 * b * sfy + cases * a * a + 2 * a * b * sf + b * b * sff;
        /* (The closed form's rounding is far below the 1e-6 of slack the screens allow.) */
        if (guess > p->sse_limit * (1 + 1e-6)) continue;
        int k = way == 0 ? m : gp_scaled_program(sc, m, sk, (float)a, (float)b, fc, fk);
        if (way == 0) memcpy(fc, sc, (size_t)m * sizeof *fc), memcpy(fk, sk, (size_t)m * sizeof *fk);
        uint32_t oc[MOST_CODES + 4];
        float ok[MOST_CODES + 4];
        int s = gp_simplify_algebra(fc, k, fk, oc, ok);
        double sse, bar = p->best_criterion - 1e-9 * fabs(p->best_criterion);
        if (s <= 0 || s > p->limit ||
            criterion(fmax(guess, 0) * (1 - 1e-6), complexity(oc, s), cases) >= bar ||
            !sse_of(p, oc, ok, s, &sse) || sse > p->sse_limit)
            continue;
        double crit = criterion(sse, complexity(oc, s), cases);
        if (crit < bar) {
            memcpy(p->best_codes, oc, (size_t)s * sizeof *oc);
            memcpy(p->best_consts, ok, (size_t)s * sizeof *ok);
            p->best_n = s, p->best_criterion = crit;
        }
    }
}

/* The mean of every subtree of codes on the data (one walk a case); false past the budget. */
static bool subtree_means(pruner *p, const uint32_t *codes, const float *consts, int n,
                          float *mean)
{
    int cases = p->d->cases;
    if ((p->budget -= (long long)cases * n) < 0) return false;
    double sum[MOST_CODES] = {0};
    float v[MOST_CODES];
    for (int c = 0; c < cases; ++c) {
        gp_interpret_nodes(codes, n, consts, p->d, c, v);
        for (int i = 0; i < n; ++i) sum[i] += v[i];
    }
    for (int i = 0; i < n; ++i) mean[i] = (float)(sum[i] / cases);
    return true;
}

/* One pass: every subtree (largest first) as its mean, every constant as a round value; the
 * best candidate by the criterion into p->best_*. */
static void pass(pruner *p, const uint32_t *codes, const float *consts, int n)
{
    float mean[MOST_CODES];
    uint32_t oc[MOST_CODES];
    float ok[MOST_CODES];
    if (!subtree_means(p, codes, consts, n, mean)) return;
    int order[MOST_CODES], size[MOST_CODES];
    for (int i = 0; i < n; ++i) order[i] = i, size[i] = gp_subtree_end(codes, n, i) - i;
    for (int a = 1; a < n; ++a) /* insertion sort: largest subtree first, stable */
        for (int b = a; b > 0 && size[order[b]] > size[order[b - 1]]; --b) {
            int t = order[b];
            order[b] = order[b - 1], order[b - 1] = t;
        }
    for (int r = 0; r < n && p->budget > 0; ++r) {
        int i = order[r];
        if (i == 0 || GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST || !isfinite(mean[i])) continue;
        int m = gp_with_constant(codes, consts, n, i, i + size[i], mean[i], oc, ok);
        weigh(p, oc, ok, m);
    }
    for (int i = 0; i < n && p->budget > 0; ++i) {
        if (GLEVO_GP_CODE_OP(codes[i]) != GLEVO_GP_CONST) continue;
        float c = consts[GLEVO_GP_CODE_INDEX(codes[i])];
        float round_to[3] = {0.0f, roundf(c), roundf(2 * c) / 2};
        for (int t = 0; t < 3; ++t) {
            if (round_to[t] == c || (t > 0 && round_to[t] == round_to[t - 1])) continue;
            int m = gp_with_constant(codes, consts, n, i, i + 1, round_to[t], oc, ok);
            weigh(p, oc, ok, m);
        }
    }
}

/* The model (own: constants at their own positions) pruned into p->best_*, from its
 * criterion: passes until one finds nothing better or the budget is spent. */
static void prune_from(pruner *p, uint32_t *own, float *own_k, int n)
{
    memcpy(p->best_codes, own, (size_t)n * sizeof *own);
    memcpy(p->best_consts, own_k, (size_t)n * sizeof *own_k);
    p->best_n = n;
    for (double before = INFINITY; p->best_criterion < before && p->budget > 0;) {
        before = p->best_criterion;
        n = p->best_n;
        memcpy(own, p->best_codes, (size_t)n * sizeof *own);
        memcpy(own_k, p->best_consts, (size_t)n * sizeof *own_k);
        pass(p, own, own_k, n);
    }
}

/* The squared error of (codes, consts, n) on every case of d; false where not finite. */
static bool full_sse(const glevo_gp_data *d, const uint32_t *codes, const float *consts, int n,
                     double *sse)
{
    pruner p = {.d = d, .budget = LLONG_MAX, .pred = malloc((size_t)d->cases * sizeof(float))};
    bool ok = p.pred && sse_of(&p, codes, consts, n, sse);
    free(p.pred);
    return ok;
}

int gp_prune(uint32_t *codes, float *consts, int n, const glevo_gp_data *d, bool *changed)
{
    *changed = false;
    if (n < 2 || n > MOST_CODES || d->cases < 8) return n;
    /* Constants at their own positions, as the candidates have them. */
    uint32_t own[MOST_CODES];
    float own_k[MOST_CODES];
    gp_own_constants(codes, n, consts, own, own_k);
    double sy = 0, syy = 0, sse;
    for (int c = 0; c < d->cases; ++c) sy += d->y[c], syy += (double)d->y[c] * d->y[c];
    /* An exact fit (the linear layer's rule, 1 - R^2 <= 1e-10) stays as found. */
    if (!full_sse(d, own, own_k, n, &sse) || !(sse > 1e-10 * (syy - sy * sy / d->cases)))
        return n;
    /* Weighed on a stride sample where the data are many (the criterion's n is its size). */
    glevo_gp_data *sample = NULL;
    if (d->cases > MOST_CASES && gp_data_stride_sample(d, MOST_CASES, &sample) != GLEVO_OK)
        return n;
    const glevo_gp_data *on = sample ? sample : d;
    pruner *p = calloc(1, sizeof *p);
    float *pred = malloc((size_t)on->cases * sizeof *pred);
    double on_sse;
    if (p && pred) *p = (pruner){.d = on, .pred = pred, .budget = BUDGET, .limit = n};
    if (p && pred && (on == d || full_sse(on, own, own_k, n, &on_sse))) {
        on_sse = on == d ? sse : on_sse;
        p->sse_limit = on_sse * (1 + MOST_RISE);
        double start = p->best_criterion = criterion(on_sse, complexity(own, n), on->cases);
        prune_from(p, own, own_k, n);
        double after;
        /* On all the data, too, the error rises by MOST_RISE at most. */
        if (p->best_criterion < start &&
            (on == d || (full_sse(d, p->best_codes, p->best_consts, p->best_n, &after) &&
                         after <= sse * (1 + MOST_RISE)))) {
            *changed = true;
            n = p->best_n;
            memcpy(codes, p->best_codes, (size_t)n * sizeof *codes);
            memcpy(consts, p->best_consts, (size_t)n * sizeof *consts);
        }
    }
    glevo_gp_data_destroy(sample);
    free(pred), free(p);
    return n;
}
