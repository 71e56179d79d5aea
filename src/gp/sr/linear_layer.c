/* The result's linear layer (issue 45): the best program's subtrees, and the products of two
 * of them, as the terms of a least-squares sum, y ~ c0 + sum_t c_t term_t. This is multiple
 * regression GP's last layer (Arnaldo, Krawiec, O'Reilly, "Multiple regression genetic
 * programming", GECCO 2014: MRGP leads SRBench's accuracy column) with FFX's products of two
 * bases (McConaghy, "FFX: fast, scalable, deterministic symbolic regression technology",
 * GPTP 2011): a search that settled near a sum of several products (x1 y1 + x2 y2 + x3 y3, a
 * quotient of sums) has grown the parts without their weights. Terms are chosen by
 * orthogonal matching pursuit (Pati, Rezaiifar, Krishnaprasad 1993): each step takes the
 * candidate that most lowers the residual's sum of squares once the chosen ones are projected
 * out of every candidate, and steps stop at the term limit or where the Bayesian information
 * criterion (Schwarz 1978) no longer falls, so noise is not fitted term by term.
 *
 * Chosen and weighed on a stride sample of at most LAYER_CASES cases, in double; the caller
 * scores the program built here on every case with the interpreter's own floats and keeps it
 * only where it halves the error (gp_model_linear_layer, model.c). Candidates are scored on
 * several threads, each candidate's sums by one thread in case order: the same terms on any
 * thread count. Measured on the recorded SRBench Feynman runs (docs/symbolic-regression-bench.md,
 * "The result's linear layer"). */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/apply.h"
#include "gp/eval/eval_internal.h"
#include "gp/sr/model.h"

enum {
    LAYER_CASES = 1024,  /* the sample the terms are chosen and weighed on */
    LAYER_SUBTREES = 64, /* distinct subtrees taken, the largest first (64 x 65 / 2 products) */
    LAYER_NODES = 256,   /* longer programs are left as they are (as gp_readable leaves them) */
    LAYER_BLOCK = 64,    /* candidates a thread takes at once */
};

typedef struct layer {
    int S, count, chosen;    /* sampled cases, candidates, terms chosen so far */
    int *first, *second;     /* candidate j: the subtree at first[j], times second[j]'s (or -1) */
    double *g;               /* count x S: candidates centred, the chosen projected out */
    double *norm2, *mean;    /* each candidate's centred sum of squares and mean before */
    double *score;           /* this step's fall in the residual's sum of squares (-1: none) */
    double *proj;            /* most_terms x count: each step's projection of every candidate */
    const double *q, *r;     /* the step's new direction (NULL at the first) and residual */
    atomic_int next;
} layer;

static int end_of(const uint32_t *codes, int i)
{
    for (int need = 1; need; ++i) need += glevo_gp_op_arity(GLEVO_GP_CODE_OP(codes[i])) - 1;
    return i;
}

/* One thread's share of a step: the last chosen direction projected out of every candidate
 * (its projection kept for the weights), then each candidate's fall in the residual's sum of
 * squares, (r . g)^2 / |g|^2, where g keeps more than 1e-10 of its own size (not a
 * combination of the chosen). */
static void *step_work(void *arg)
{
    layer *L = arg;
    for (;;) {
        int j0 = atomic_fetch_add(&L->next, LAYER_BLOCK);
        if (j0 >= L->count) return NULL;
        int j1 = j0 + LAYER_BLOCK < L->count ? j0 + LAYER_BLOCK : L->count;
        for (int j = j0; j < j1; ++j) {
            double *g = L->g + (size_t)j * L->S;
            if (L->q) {
                double p = 0;
                for (int c = 0; c < L->S; ++c) p += L->q[c] * g[c];
                for (int c = 0; c < L->S; ++c) g[c] -= p * L->q[c];
                L->proj[(size_t)(L->chosen - 1) * L->count + j] = p;
            }
            double gg = 0, rg = 0;
            for (int c = 0; c < L->S; ++c) gg += g[c] * g[c], rg += L->r[c] * g[c];
            L->score[j] = gg > 1e-10 * L->norm2[j] ? rg * rg / gg : -1;
        }
    }
}

static void run_step(layer *L, int threads)
{
    atomic_store(&L->next, 0);
    gp_run_on_threads(threads, step_work, L);
}

/* The distinct subtrees of the program that vary and stay finite on the sample (preorder:
 * the whole program first), their values in vals (n x S): at most LAYER_SUBTREES starts. */
static int distinct_subtrees(const uint32_t *codes, int n, const float *vals, int S, int *start)
{
    int k = 0;
    for (int i = 0; i < n && k < LAYER_SUBTREES; ++i) {
        const float *v = vals + (size_t)i * S;
        bool finite = true, varies = false;
        for (int c = 0; c < S && finite; ++c) finite = isfinite(v[c]), varies |= v[c] != v[0];
        if (GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST || !finite || !varies) continue;
        bool seen = false;
        for (int t = 0; t < k && !seen; ++t)
            seen = !memcmp(v, vals + (size_t)start[t] * S, (size_t)S * sizeof *v);
        if (!seen) start[k++] = i;
    }
    return k;
}

/* Candidate j's values on the sample as the program computes them (a product in float). */
static bool candidate_values(const layer *L, const float *vals, int j, double *out)
{
    const float *a = vals + (size_t)L->first[j] * L->S;
    const float *b = L->second[j] >= 0 ? vals + (size_t)L->second[j] * L->S : NULL;
    for (int c = 0; c < L->S; ++c) {
        float v = b ? gp_apply2(GLEVO_GP_MUL, a[c], b[c]) : a[c];
        if (!isfinite(v)) return false;
        out[c] = v;
    }
    return true;
}

/* Appends the subtree at i of codes (constants at their own new positions) to out. */
static int copy_subtree(const uint32_t *codes, const float *consts, int i, uint32_t *oc,
                        float *ok, int m)
{
    for (int e = end_of(codes, i); i < e; ++i, ++m) {
        oc[m] = codes[i], ok[m] = 0;
        if (GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST)
            ok[m] = consts[GLEVO_GP_CODE_INDEX(codes[i])], oc[m] = GLEVO_GP_CODE(GLEVO_GP_CONST, m);
    }
    return m;
}

/* (+ (+ ... (+ c0 (* w1 term1)) ...) (* wT termT)) into fresh arrays; its length. */
static int build(const layer *L, const int *terms, const double *w, double c0,
                 const uint32_t *codes, const float *consts, uint32_t **out_codes,
                 float **out_consts)
{
    int T = L->chosen, cap = 1 + T * (3 + 2 * end_of(codes, 0));
    uint32_t *oc = malloc((size_t)cap * sizeof *oc);
    float *ok = malloc((size_t)cap * sizeof *ok);
    if (!oc || !ok) {
        free(oc), free(ok);
        return -1;
    }
    int m = 0;
    for (int t = 0; t < T; ++t) oc[m] = GLEVO_GP_CODE(GLEVO_GP_ADD, 0), ok[m++] = 0;
    oc[m] = GLEVO_GP_CODE(GLEVO_GP_CONST, m), ok[m] = (float)c0, ++m;
    for (int t = 0; t < T; ++t) {
        int j = terms[t];
        oc[m] = GLEVO_GP_CODE(GLEVO_GP_MUL, 0), ok[m++] = 0;
        oc[m] = GLEVO_GP_CODE(GLEVO_GP_CONST, m), ok[m] = (float)w[t], ++m;
        if (L->second[j] >= 0) oc[m] = GLEVO_GP_CODE(GLEVO_GP_MUL, 0), ok[m++] = 0;
        m = copy_subtree(codes, consts, L->first[j], oc, ok, m);
        if (L->second[j] >= 0) m = copy_subtree(codes, consts, L->second[j], oc, ok, m);
    }
    *out_codes = oc, *out_consts = ok;
    return m;
}

/* The chosen terms' weights from the steps' projections: R w = z, R upper triangular with
 * R[s][t] the projection at step s of the candidate chosen at step t and R[t][t] its length
 * then (classical Gram-Schmidt's factors), z[t] the residual's along step t's direction. */
static void weights(const layer *L, const int *terms, const double *len, const double *z,
                    double *w)
{
    for (int t = L->chosen - 1; t >= 0; --t) {
        double s = z[t];
        for (int u = t + 1; u < L->chosen; ++u) s -= L->proj[(size_t)t * L->count + terms[u]] * w[u];
        w[t] = s / len[t];
    }
}

/* Chooses up to most terms; returns how many (L->chosen), with terms, their weights and the
 * intercept. y: the sampled targets. */
static void choose(layer *L, const double *y, int most, int threads, int *terms, double *w,
                   double *c0)
{
    int S = L->S;
    double *r = malloc((size_t)S * sizeof *r), *q = malloc((size_t)S * sizeof *q);
    double len[64], z[64], my = 0, sse = 0;
    if (!r || !q) goto done;
    for (int c = 0; c < S; ++c) my += y[c];
    my /= S;
    for (int c = 0; c < S; ++c) r[c] = y[c] - my, sse += r[c] * r[c];
    /* The criterion with the intercept alone, then with each term (and its weight) more. */
    double bic = S * log(fmax(sse, 1e-300) / S) + log((double)S), exact = 1e-10 * sse;
    L->q = NULL, L->r = r;
    /* Past an exact fit (the enumeration's rule, 1 - R^2 <= 1e-10) a term would fit rounding. */
    while (L->chosen < most && sse > exact) {
        run_step(L, threads);
        int best = -1;
        for (int j = 0; j < L->count; ++j)
            if (L->score[j] > 0 && (best < 0 || L->score[j] > L->score[best])) best = j;
        if (best < 0) break;
        double left = fmax(sse - L->score[best], 1e-300);
        double next = S * log(left / S) + (L->chosen + 2) * log((double)S);
        if (!(next < bic)) break;
        bic = next, sse = left;
        const double *g = L->g + (size_t)best * S;
        double gg = 0, rq = 0;
        for (int c = 0; c < S; ++c) gg += g[c] * g[c];
        len[L->chosen] = sqrt(gg);
        for (int c = 0; c < S; ++c) q[c] = g[c] / len[L->chosen], rq += r[c] * q[c];
        for (int c = 0; c < S; ++c) r[c] -= rq * q[c];
        z[L->chosen] = rq;
        terms[L->chosen++] = best;
        L->q = q;
    }
    /* (A step's direction is projected out of the candidates at the next step: the last
     * one's projections are not among the weights' factors.) */
    weights(L, terms, len, z, w);
    *c0 = my;
    for (int t = 0; t < L->chosen; ++t) *c0 -= w[t] * L->mean[terms[t]];
done:
    free(r), free(q);
}

int gp_linear_layer(const uint32_t *codes, const float *consts, int n, const glevo_gp_data *d,
                    int most_terms, int threads, uint32_t **out_codes, float **out_consts)
{
    int m = d->cases, S = m < LAYER_CASES ? m : LAYER_CASES;
    if (most_terms > S / 10) most_terms = S / 10; /* ten cases a weight at least */
    if (most_terms > 64) most_terms = 64;
    if (most_terms < 1 || n < 2 || n > LAYER_NODES) return 0;
    layer L = {.S = S};
    float *vals = malloc((size_t)n * S * sizeof *vals), node[LAYER_NODES];
    double *y = malloc((size_t)S * sizeof *y);
    int start[LAYER_SUBTREES], cap = LAYER_SUBTREES * (LAYER_SUBTREES + 3) / 2, result = -1;
    L.first = malloc((size_t)cap * sizeof *L.first);
    L.second = malloc((size_t)cap * sizeof *L.second);
    L.g = malloc((size_t)cap * S * sizeof *L.g);
    L.norm2 = malloc((size_t)cap * sizeof *L.norm2);
    L.mean = malloc((size_t)cap * sizeof *L.mean);
    L.score = malloc((size_t)cap * sizeof *L.score);
    L.proj = malloc((size_t)most_terms * cap * sizeof *L.proj);
    int *terms = malloc((size_t)most_terms * sizeof *terms);
    double *w = malloc((size_t)most_terms * sizeof *w), c0 = 0;
    if (!vals || !y || !L.first || !L.second || !L.g || !L.norm2 || !L.mean || !L.score ||
        !L.proj || !terms || !w)
        goto done;
    for (int s = 0; s < S; ++s) {
        int c = (int)((long long)s * m / S);
        gp_interpret_nodes(codes, n, consts, d, c, node);
        for (int i = 0; i < n; ++i) vals[(size_t)i * S + s] = node[i];
        y[s] = d->y[c];
    }
    int k = distinct_subtrees(codes, n, vals, S, start);
    for (int a = 0; a < k; ++a)
        for (int b = a - 1; b < k; ++b) { /* b = a - 1: the subtree alone */
            int j = L.count;
            L.first[j] = start[a], L.second[j] = b < a ? -1 : start[b];
            double *g = L.g + (size_t)j * S, mean = 0, ss = 0;
            if (!candidate_values(&L, vals, j, g)) continue;
            for (int c = 0; c < S; ++c) mean += g[c];
            mean /= S;
            for (int c = 0; c < S; ++c) g[c] -= mean, ss += g[c] * g[c];
            if (!(ss > 0) || !isfinite(ss)) continue;
            L.mean[j] = mean, L.norm2[j] = ss, L.count++;
        }
    choose(&L, y, most_terms, gp_cpu_threads(threads, 1 + (int)((long long)L.count * S >> 18)),
           terms, w, &c0);
    bool finite = isfinite(c0);
    for (int t = 0; t < L.chosen; ++t) finite = finite && isfinite(w[t]);
    /* One term that is the whole program is the program with its scaling again. */
    bool same = L.chosen == 1 && L.first[terms[0]] == 0 && L.second[terms[0]] < 0;
    result = L.chosen && finite && !same ? build(&L, terms, w, c0, codes, consts, out_codes, out_consts) : 0;
done:
    free(vals), free(y), free(L.first), free(L.second), free(L.g), free(L.norm2), free(L.mean);
    free(L.score), free(L.proj), free(terms), free(w);
    return result;
}
