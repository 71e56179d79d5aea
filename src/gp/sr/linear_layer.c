/* The result's linear layer (issue 45): the best program's subtrees, and the products of two
 * of them, as the terms of a least-squares sum, y ~ c0 + sum_t c_t term_t. This is multiple
 * regression GP's last layer (Arnaldo, Krawiec, O'Reilly, "Multiple regression genetic
 * programming", GECCO 2014: MRGP leads SRBench's accuracy column) with FFX's products of two
 * bases (McConaghy, "FFX: fast, scalable, deterministic symbolic regression technology",
 * GPTP 2011): a search that settled near a sum of several products (x1 y1 + x2 y2 + x3 y3, a
 * quotient of sums) has grown the parts without their weights. Terms are chosen by
 * orthogonal matching pursuit (Pati, Rezaiifar, Krishnaprasad 1993): each step takes the
 * candidate that most lowers the residual's sum of squares once the chosen ones are projected
 * out of every candidate, and steps stop at the term limit, where the Bayesian information
 * criterion (Schwarz 1978) no longer falls (so noise is not fitted term by term) or at an exact
 * fit; then terms go again while the criterion does not rise (or the fit stays exact).
 *
 * Chosen and weighed on a stride sample of at most LAYER_CASES cases, in double; the caller
 * scores the program built here on every case with the interpreter's own floats and keeps it
 * only where it halves the squared error (model.c). Candidates are scored on several threads,
 * each candidate's sums by one thread in case order: the same terms on any thread count.
 * Measured: docs/symbolic-regression-bench.md, "The result's linear layer". */
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
    LAYER_TERMS = 64,    /* the most terms asked for */
    LAYER_BLOCK = 64,    /* candidates a thread takes at once */
};

/* Candidates are scored by classical Gram-Schmidt without writing them back: with g_j a
 * candidate centred, q_1..q_t the chosen directions (orthonormal) and r the residual
 * (orthogonal to them), the fall in the residual's sum of squares that g_j brings is
 * (r . g_j)^2 / |g_j - sum q_s (q_s . g_j)|^2 = rg_j^2 / (|g_j|^2 - sum (q_s . g_j)^2), and a
 * step only needs each candidate's product with the new direction: one read of the
 * candidates' floats a step (their values are the program's floats; the sums are double). */
typedef struct layer {
    int S, count;              /* sampled cases, candidates */
    const float *vals;         /* the program's nodes on the sample (n x S) */
    const int *first, *second; /* candidate j: the subtree at first[j], times second[j]'s (or -1) */
    float *f;                  /* count x S: each candidate's values */
    double *norm2, *left2, *rg, *score; /* |g_j|^2, what the chosen leave of it, r . g_j, the fall */
    const double *q;           /* the step's new direction (NULL: the first step, set-up) */
    const double *r;           /* the residual at set-up */
    double rq;                 /* r . q, the residual's part along q before the step */
    atomic_int next;
} layer;

/* Candidate j set up: its values as the program computes them (a product in float), its
 * centred sum of squares (0: not finite or constant, never chosen) and r . g_j. */
static void set_up(layer *L, int j)
{
    const float *a = L->vals + (size_t)L->first[j] * L->S;
    const float *b = L->second[j] >= 0 ? L->vals + (size_t)L->second[j] * L->S : NULL;
    float *f = L->f + (size_t)j * L->S;
    double mean = 0, ss = 0, rg = 0;
    for (int c = 0; c < L->S; ++c) {
        f[c] = b ? gp_apply2(GLEVO_GP_MUL, a[c], b[c]) : a[c];
        mean += f[c];
    }
    mean /= L->S;
    for (int c = 0; c < L->S; ++c) ss += (f[c] - mean) * (f[c] - mean), rg += L->r[c] * f[c];
    L->norm2[j] = L->left2[j] = isfinite(ss) && ss > 0 ? ss : 0;
    L->rg[j] = rg; /* r is centred: r . f_j = r . g_j */
}

/* One thread's share of a step (or of the set-up): each candidate's product with the new
 * direction taken from what it has left and from r . g_j (r loses rq q), then its fall in
 * the residual's sum of squares where it keeps more than 1e-10 of its own size (not a
 * combination of the chosen); -1 otherwise. q is centred, so q . f_j = q . g_j. */
static void *step_work(void *arg)
{
    layer *L = arg;
    for (;;) {
        int j0 = atomic_fetch_add(&L->next, LAYER_BLOCK);
        if (j0 >= L->count) return NULL;
        int j1 = j0 + LAYER_BLOCK < L->count ? j0 + LAYER_BLOCK : L->count;
        for (int j = j0; j < j1; ++j) {
            if (!L->q) set_up(L, j);
            if (!(L->norm2[j] > 0)) {
                L->score[j] = -1;
                continue;
            }
            if (L->q) {
                const float *f = L->f + (size_t)j * L->S;
                double p = 0;
                for (int c = 0; c < L->S; ++c) p += L->q[c] * f[c];
                L->left2[j] -= p * p;
                L->rg[j] -= L->rq * p;
            }
            L->score[j] = L->left2[j] > 1e-10 * L->norm2[j] ? L->rg[j] * L->rg[j] / L->left2[j] : -1;
        }
    }
}

static void run_step(layer *L, gp_pool *pool)
{
    atomic_store(&L->next, 0);
    gp_pool_run(pool, step_work, L);
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

/* u made orthogonal to the T directions Q (twice: classical Gram-Schmidt's loss of
 * orthogonality, Giraud et al. 2005) and of unit length; its length before, 0 where none is
 * left. */
static double orthonormalise(double *u, const double *Q, int T, int S)
{
    for (int pass = 0; pass < 2; ++pass)
        for (int t = 0; t < T; ++t) {
            const double *q = Q + (size_t)t * S;
            double p = 0;
            for (int c = 0; c < S; ++c) p += q[c] * u[c];
            for (int c = 0; c < S; ++c) u[c] -= p * q[c];
        }
    double len = 0;
    for (int c = 0; c < S; ++c) len += u[c] * u[c];
    len = sqrt(len);
    for (int c = 0; c < S && len > 0; ++c) u[c] /= len;
    return len;
}

/* Least squares' weights of the chosen candidates and the intercept on the sample, from
 * their values (modified Gram-Schmidt on T columns, in double): R w = Q^T y; *sse the
 * residual's sum of squares, |y - mean|^2 - |Q^T y|^2; rise (NULL: not asked) what dropping
 * each term alone adds to it, w_t^2 / ((X^T X)^-1)_tt with (X^T X)^-1 = R^-1 R^-T. */
static bool weigh(const layer *L, const int *terms, int T, const double *y, double *w,
                  double *c0, double *sse, double *rise)
{
    int S = L->S;
    double *Q = malloc((size_t)T * S * sizeof *Q), R[LAYER_TERMS][LAYER_TERMS], z[LAYER_TERMS];
    double mean[LAYER_TERMS], my = 0;
    if (!Q) return false;
    for (int c = 0; c < S; ++c) my += y[c];
    my /= S;
    *sse = 0;
    for (int c = 0; c < S; ++c) *sse += (y[c] - my) * (y[c] - my);
    for (int t = 0; t < T; ++t) {
        const float *f = L->f + (size_t)terms[t] * S;
        double *u = Q + (size_t)t * S;
        mean[t] = 0;
        for (int c = 0; c < S; ++c) mean[t] += f[c];
        mean[t] /= S;
        for (int c = 0; c < S; ++c) u[c] = f[c] - mean[t];
        for (int s = 0; s < t; ++s) {
            const double *q = Q + (size_t)s * S;
            R[s][t] = 0;
            for (int c = 0; c < S; ++c) R[s][t] += q[c] * u[c];
            for (int c = 0; c < S; ++c) u[c] -= R[s][t] * q[c];
        }
        R[t][t] = 0;
        for (int c = 0; c < S; ++c) R[t][t] += u[c] * u[c];
        R[t][t] = sqrt(R[t][t]);
        for (int c = 0; c < S; ++c) u[c] /= R[t][t];
        z[t] = 0;
        for (int c = 0; c < S; ++c) z[t] += u[c] * (y[c] - my);
        *sse -= z[t] * z[t];
    }
    *c0 = my;
    for (int t = T - 1; t >= 0; --t) {
        double v = z[t];
        for (int u = t + 1; u < T; ++u) v -= R[t][u] * w[u];
        w[t] = v / R[t][t];
        *c0 -= w[t] * mean[t];
    }
    *sse = fmax(*sse, 0);
    for (int t = 0; rise && t < T; ++t) {
        /* Row t of R^-1 (upper triangular), column by column, and its squared length. */
        double inv[LAYER_TERMS], row2 = 0;
        for (int j = t; j < T; ++j) {
            double v = j == t ? 1 : 0;
            for (int k = t; k < j; ++k) v -= inv[k] * R[k][j];
            inv[j] = v / R[j][j];
            row2 += inv[j] * inv[j];
        }
        rise[t] = w[t] * w[t] / row2;
    }
    free(Q);
    return true;
}

/* Chooses up to most terms (orthogonal matching pursuit's order, stopped by the criterion or
 * an exact fit); returns how many. y: the sampled targets. */
static int choose(layer *L, const double *y, int most, gp_pool *pool, int *terms)
{
    int S = L->S, T = 0;
    double *r = malloc((size_t)S * sizeof *r), *Q = malloc((size_t)most * S * sizeof *Q);
    double my = 0, sse = 0;
    if (!r || !Q) goto done;
    for (int c = 0; c < S; ++c) my += y[c];
    my /= S;
    for (int c = 0; c < S; ++c) r[c] = y[c] - my, sse += r[c] * r[c];
    /* The criterion with the intercept alone, then with each term (and its weight) more. */
    double bic = S * log(fmax(sse, 1e-300) / S) + log((double)S), exact = 1e-10 * sse;
    L->q = NULL, L->r = r;
    run_step(L, pool);
    /* Past an exact fit (the enumeration's rule, 1 - R^2 <= 1e-10) a term would fit rounding. */
    while (T < most && sse > exact) {
        int best = -1;
        for (int j = 0; j < L->count; ++j)
            if (L->score[j] > 0 && (best < 0 || L->score[j] > L->score[best])) best = j;
        if (best < 0) break;
        double left = fmax(sse - L->score[best], 1e-300);
        double next = S * log(left / S) + (T + 2) * log((double)S);
        if (!(next < bic)) break;
        double *q = Q + (size_t)T * S, mean = 0;
        const float *f = L->f + (size_t)best * S;
        for (int c = 0; c < S; ++c) mean += f[c];
        mean /= S;
        for (int c = 0; c < S; ++c) q[c] = f[c] - mean;
        if (!(orthonormalise(q, Q, T, S) > 0)) break;
        double rq = 0;
        for (int c = 0; c < S; ++c) rq += r[c] * q[c];
        for (int c = 0; c < S; ++c) r[c] -= rq * q[c];
        bic = next, sse = left;
        terms[T++] = best;
        L->q = q, L->rq = rq;
        if (T < most && sse > exact) run_step(L, pool);
    }
done:
    free(r), free(Q);
    return T;
}

/* Appends the subtree at i of codes (constants at their own new positions) to out. */
static int copy_subtree(const uint32_t *codes, int n, const float *consts, int i, uint32_t *oc,
                        float *ok, int m)
{
    for (int e = gp_subtree_end(codes, n, i); i < e; ++i, ++m) {
        oc[m] = codes[i], ok[m] = 0;
        if (GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST)
            ok[m] = consts[GLEVO_GP_CODE_INDEX(codes[i])], oc[m] = GLEVO_GP_CODE(GLEVO_GP_CONST, m);
    }
    return m;
}

/* (+ (+ ... (+ c0 (* w1 term1)) ...) (* wT termT)) into fresh arrays; its length. */
static int build(const layer *L, const int *terms, int T, const double *w, double c0,
                 const uint32_t *codes, int n, const float *consts, uint32_t **out_codes,
                 float **out_consts)
{
    int cap = 1 + T * (3 + 2 * n);
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
        m = copy_subtree(codes, n, consts, L->first[j], oc, ok, m);
        if (L->second[j] >= 0) m = copy_subtree(codes, n, consts, L->second[j], oc, ok, m);
    }
    *out_codes = oc, *out_consts = ok;
    return m;
}

/* The chosen terms thinned backwards (stepwise regression's backward step): the term whose
 * loss raises the residual's sum of squares least goes, again and again, while the criterion
 * does not rise (sse' / sse <= S^(1/S), a weight's price) or, for a fit exact to rounding,
 * while the rest stay exact. The pursuit may take the whole program first and then the parts
 * that make it exact, beside which the program is dead weight. false without memory. */
static bool prune(const layer *L, const double *y, int *terms, int *T)
{
    double w[LAYER_TERMS], rise[LAYER_TERMS], c0, sse, my = 0, sst = 0;
    for (int c = 0; c < L->S; ++c) my += y[c];
    for (int c = 0; c < L->S; ++c) sst += (y[c] - my / L->S) * (y[c] - my / L->S);
    while (*T > 1) {
        if (!weigh(L, terms, *T, y, w, &c0, &sse, rise)) return false;
        int go = 0;
        for (int t = 1; t < *T; ++t)
            if (rise[t] < rise[go]) go = t;
        double after = sse + rise[go], exact = 1e-10 * sst;
        bool stays = sse <= exact ? after <= exact
                                  : L->S * log(after / sse) <= log((double)L->S);
        if (!stays) break;
        for (int t = go; t + 1 < *T; ++t) terms[t] = terms[t + 1];
        --*T;
    }
    return true;
}

int gp_linear_layer(const uint32_t *codes, const float *consts, int n, const glevo_gp_data *d,
                    int most_terms, int threads, uint32_t **out_codes, float **out_consts)
{
    int m = d->cases, S = m < LAYER_CASES ? m : LAYER_CASES;
    if (most_terms > S / 10) most_terms = S / 10; /* ten cases a weight at least */
    if (most_terms > LAYER_TERMS) most_terms = LAYER_TERMS;
    if (most_terms < 1 || n < 2 || n > LAYER_NODES) return 0;
    int start[LAYER_SUBTREES], cap = LAYER_SUBTREES * (LAYER_SUBTREES + 3) / 2, result = -1;
    float *vals = malloc((size_t)n * S * sizeof *vals), node[LAYER_NODES];
    double *y = malloc((size_t)S * sizeof *y), w[LAYER_TERMS], c0 = 0;
    int *first = malloc((size_t)cap * sizeof *first), *second = malloc((size_t)cap * sizeof *second);
    layer L = {.S = S, .vals = vals, .first = first, .second = second,
               .f = malloc((size_t)cap * S * sizeof *L.f),
               .norm2 = malloc((size_t)cap * sizeof *L.norm2),
               .left2 = malloc((size_t)cap * sizeof *L.left2),
               .rg = malloc((size_t)cap * sizeof *L.rg),
               .score = malloc((size_t)cap * sizeof *L.score)};
    int terms[LAYER_TERMS], T = 0;
    if (!vals || !y || !first || !second || !L.f || !L.norm2 || !L.left2 || !L.rg || !L.score)
        goto done;
    for (int s = 0; s < S; ++s) {
        int c = (int)((long long)s * m / S);
        gp_interpret_nodes(codes, n, consts, d, c, node);
        for (int i = 0; i < n; ++i) vals[(size_t)i * S + s] = node[i];
        y[s] = d->y[c];
    }
    int k = distinct_subtrees(codes, n, vals, S, start);
    for (int a = 0; a < k; ++a)
        for (int b = a - 1; b < k; ++b, ++L.count) /* b = a - 1: the subtree alone */
            first[L.count] = start[a], second[L.count] = b < a ? -1 : start[b];
    /* Threads kept for the steps (one read of the candidates each): a build that started
     * threads for each step spent 5-6 ms in 16 steps at 1000 cases (H200 host, 2026-11-29). */
    gp_pool *pool = gp_pool_start(gp_cpu_threads(threads, 1 + (int)((long long)L.count * S >> 18)));
    T = choose(&L, y, most_terms, pool, terms);
    gp_pool_stop(pool);
    if (!prune(&L, y, terms, &T)) goto done;
    /* One term that is the whole program is the program with its scaling again. */
    bool same = T == 1 && first[terms[0]] == 0 && second[terms[0]] < 0;
    result = 0;
    double sse;
    if (T && !same && !weigh(&L, terms, T, y, w, &c0, &sse, NULL)) result = -1;
    else if (T && !same) {
        bool finite = isfinite(c0);
        for (int t = 0; t < T; ++t) finite = finite && isfinite(w[t]);
        if (finite) result = build(&L, terms, T, w, c0, codes, n, consts, out_codes, out_consts);
    }
done:
    free(vals), free(y), free(first), free(second), free(L.f), free(L.norm2), free(L.left2);
    free(L.rg), free(L.score);
    return result;
}
