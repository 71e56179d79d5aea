/* Bottom-up enumeration of short programs (issue 26), whose best seed the main search's first
 * generation. Every program of size 1, 2, 3, ... over the run's variables and operators is
 * built from the smaller ones, in order of size, until a budget of candidates is spent; a
 * candidate whose values on the cases equal an earlier one's is dropped (observational
 * equivalence: Udupa et al. 2013, "TRANSIT", PLDI; Albarghouthi, Gulwani, Kincaid 2013, CAV),
 * so sin(-x) and -sin(x) cost one slot and the table holds distinct functions only. This is
 * exhaustive symbolic regression's idea (Bartlett, Desmond, Ferreira, "Exhaustive symbolic
 * regression", IEEE Trans. Evol. Comput., 2023) at a small budget: a short formula (x^y as
 * exp(y log x), 2 sin(x) cos(y) as a scaled sin(x) cos(y), sin(x) + sin(y^2)) is a needle that
 * random trees and crossover draw rarely and that enumeration cannot miss. A candidate costs
 * one operator on the cases (its operands' values are kept), so 10^5 candidates on 20 cases
 * are ~2 x 10^6 operations: about one generation's node evaluations at pop 2000, 1 % of a run
 * of 100 (docs/symbolic-regression.md has the measured cost).
 *
 * The candidates are scored on at most GP_ENUM_CASES cases, a stride sample of the data (a
 * large data set costs no more), by the squared error of the run's model (a + b f under linear
 * scaling); those of the best GP_ENUM_SEEDS that fit the cases to rounding replace the last
 * programs of the first generation, where the engine evaluates them on every case like any
 * other program (a run where none fits, noisy data, is the run without the enumeration). The
 * arithmetic is the CPU interpreter's (apply.h), so a program's values here are the ones its
 * evaluation gives. */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/apply.h"
#include "gp/sr/enumerate.h"

typedef struct entry {
    uint32_t a, b; /* operands' entries (a: the variable, for a terminal) */
    uint8_t op;
} entry;

/* Candidates are made in order into a batch, their values, hashes and errors computed on
 * several threads, then kept or dropped one by one in that order: the table is the same on
 * any thread count. */
enum { BATCH = 8192, CHUNK = 256 };
typedef struct batch {
    int count;
    entry cand[BATCH];
    uint32_t hash[BATCH];
    double sse[BATCH]; /* INFINITY: a value is not finite (dropped) */
    float *vals;       /* BATCH x m */
    atomic_int next;   /* the next chunk a thread takes */
} batch;

typedef struct enumeration {
    int m;                /* cases scored */
    double *y;            /* their targets */
    bool scaling;
    int threads;
    gp_pool *pool;        /* threads kept for the whole enumeration (NULL: this one alone) */
    entry *e;
    float *vals;          /* m values per entry */
    int n, cap;
    uint32_t *slots;      /* hash set of entries + 1 (0: free), a power of two */
    size_t nslots;
    int start[GP_ENUM_MAX_SIZE + 2]; /* entries of size s: [start[s], start[s + 1]) */
    long long tried, budget;
    int best[GP_ENUM_SEEDS], nbest;
    double best_sse[GP_ENUM_SEEDS];
    batch *b;
} enumeration;

/* The hash set's key of a candidate's values: their bits mixed a word at a time (a full
 * comparison decides equality, so the key only spreads the table). zlib's CRC-32 was a third
 * of the enumeration's time (perf, 2026-11-29): a checksum does more than a table needs. */
static uint32_t hash_values(const float *v, int m)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (int k = 0; k < m; ++k) {
        uint32_t bits;
        memcpy(&bits, &v[k], sizeof bits);
        h = (h ^ bits) * 0xFF51AFD7ED558CCDu;
    }
    return (uint32_t)(h ^ h >> 32);
}

/* The squared error of the run's model of values v: a + b v with least squares' a and b
 * under linear scaling (a constant v gets b = 0), else v itself. Centred in two passes and
 * summed from the residuals, not scaling.c's closed form from raw sums: an exact fit must
 * show an error near 1e-16 of the target's spread (GP_ENUM_EXACT), which raw sums lose to
 * cancellation when the target's mean is large beside its spread. */
static double model_sse(const enumeration *E, const float *v)
{
    double a = 0, b = 1;
    if (E->scaling) {
        double mf = 0, my = 0, sff = 0, sfy = 0;
        for (int k = 0; k < E->m; ++k) mf += v[k], my += E->y[k];
        mf /= E->m, my /= E->m;
        for (int k = 0; k < E->m; ++k) {
            double f = v[k] - mf;
            sff += f * f, sfy += f * (E->y[k] - my);
        }
        b = sff > 0 ? sfy / sff : 0;
        a = my - b * mf;
    }
    double sse = 0;
    for (int k = 0; k < E->m; ++k) {
        double r = a + b * v[k] - E->y[k];
        sse += r * r;
    }
    return isfinite(sse) ? sse : INFINITY;
}

/* Candidate i of the batch: its values from its operands', their hash and error. */
static void compute(const enumeration *E, batch *B, int i)
{
    entry c = B->cand[i];
    float *v = B->vals + (size_t)i * (size_t)E->m;
    if (c.op != GLEVO_GP_VAR) { /* a terminal's values were put in place */
        const float *a = E->vals + (size_t)c.a * (size_t)E->m;
        if (gp_op_table[c.op].arity == 1) {
            for (int k = 0; k < E->m; ++k) v[k] = gp_apply1(c.op, a[k]);
        } else {
            const float *b = E->vals + (size_t)c.b * (size_t)E->m;
            for (int k = 0; k < E->m; ++k) v[k] = gp_apply2(c.op, a[k], b[k]);
        }
    }
    B->sse[i] = INFINITY;
    for (int k = 0; k < E->m; ++k) {
        if (!isfinite(v[k])) return;
        v[k] += 0.0f; /* -0 as +0: no operator tells them apart beyond a zero's sign */
    }
    B->hash[i] = hash_values(v, E->m);
    B->sse[i] = model_sse(E, v);
    if (B->sse[i] == INFINITY) B->sse[i] = DBL_MAX; /* finite values, a huge error: kept */
}

static void *compute_chunks(void *arg)
{
    enumeration *E = arg;
    batch *B = E->b;
    for (;;) {
        int first = atomic_fetch_add(&B->next, CHUNK);
        if (first >= B->count) return NULL;
        int last = first + CHUNK < B->count ? first + CHUNK : B->count;
        for (int i = first; i < last; ++i) compute(E, B, i);
    }
}

static void keep_if_best(enumeration *E, int id, double sse)
{
    int at = E->nbest;
    while (at > 0 && sse < E->best_sse[at - 1]) at--; /* ties: the earlier (smaller) stays */
    if (at >= GP_ENUM_SEEDS) return;
    int last = E->nbest < GP_ENUM_SEEDS ? E->nbest++ : GP_ENUM_SEEDS - 1;
    memmove(&E->best[at + 1], &E->best[at], (size_t)(last - at) * sizeof E->best[0]);
    memmove(&E->best_sse[at + 1], &E->best_sse[at], (size_t)(last - at) * sizeof E->best_sse[0]);
    E->best[at] = id, E->best_sse[at] = sse;
}

static bool grow(enumeration *E)
{
    if (E->n < E->cap) return true;
    int cap = E->cap ? 2 * E->cap : 4096;
    entry *e = realloc(E->e, (size_t)cap * sizeof *e);
    if (e) E->e = e;
    float *v = realloc(E->vals, (size_t)cap * (size_t)E->m * sizeof *v);
    if (v) E->vals = v;
    if (!e || !v) return false;
    E->cap = cap;
    return true;
}

/* The batch's candidates computed, then each a new entry unless a value is not finite or an
 * earlier entry has its values. false: out of memory. */
static bool flush(enumeration *E)
{
    batch *B = E->b;
    if (!B->count) return true;
    atomic_store(&B->next, 0);
    if (B->count >= 4 * CHUNK) gp_pool_run(E->pool, compute_chunks, E);
    else compute_chunks(E);
    size_t mask = E->nslots - 1, bytes = (size_t)E->m * sizeof *E->vals;
    for (int c = 0; c < B->count; ++c) {
        if (B->sse[c] == INFINITY) continue;
        const float *v = B->vals + (size_t)c * (size_t)E->m;
        size_t i = (size_t)B->hash[c] & mask;
        while (E->slots[i] && memcmp(E->vals + (size_t)(E->slots[i] - 1) * (size_t)E->m, v, bytes))
            i = (i + 1) & mask;
        if (E->slots[i]) continue; /* an earlier entry has these values */
        if (!grow(E)) return false;
        int id = E->n++;
        E->e[id] = B->cand[c];
        memcpy(E->vals + (size_t)id * (size_t)E->m, v, bytes);
        E->slots[i] = (uint32_t)id + 1;
        keep_if_best(E, id, B->sse[c]);
    }
    B->count = 0;
    return true;
}

/* One candidate into the batch (flushed when full). false: out of memory. A large budget
 * takes seconds: an interrupt (SIGINT, SIGTERM) ends the enumeration with what it has. */
static bool make(enumeration *E, entry c)
{
    E->tried++;
    E->b->cand[E->b->count++] = c;
    if (E->b->count < BATCH) return true;
    if (glevo_interrupt_pending()) E->budget = E->tried;
    return flush(E);
}

static bool commutes(int op) { return op == GLEVO_GP_ADD || op == GLEVO_GP_MUL; }

/* Every candidate of size s (its operands' sizes below s), until the budget is spent; the
 * batch flushed at the end, so that the size's entries are all in the table. */
static bool enumerate_size(enumeration *E, uint32_t mask, int s)
{
    bool ok = true;
    for (int op = 0; ok && op < GLEVO_GP_OP_COUNT; ++op) {
        if (!(mask >> op & 1) || op == GLEVO_GP_VAR || op == GLEVO_GP_CONST) continue;
        int arity = gp_op_table[op].arity;
        if (arity == 1) {
            for (int j = E->start[s - 1]; ok && j < E->start[s] && E->tried < E->budget; ++j)
                ok = make(E, (entry){(uint32_t)j, 0, (uint8_t)op});
        } else if (arity == 2) {
            for (int ls = 1; ok && ls <= s - 2; ++ls) {
                int rs = s - 1 - ls;
                if (commutes(op) && ls > rs) continue;
                for (int i = E->start[ls]; ok && i < E->start[ls + 1]; ++i)
                    for (int j = commutes(op) && ls == rs ? i : E->start[rs];
                         ok && j < E->start[rs + 1] && E->tried < E->budget; ++j)
                        ok = make(E, (entry){(uint32_t)i, (uint32_t)j, (uint8_t)op});
            }
        }
    }
    return ok && flush(E);
}

/* Entry id's program in prefix order from codes[at]; the index past it. */
static int emit(const enumeration *E, int id, uint32_t *codes, int at)
{
    entry c = E->e[id];
    if (c.op == GLEVO_GP_VAR) {
        codes[at] = GLEVO_GP_CODE(GLEVO_GP_VAR, c.a);
        return at + 1;
    }
    codes[at++] = GLEVO_GP_CODE(c.op, 0);
    at = emit(E, (int)c.a, codes, at);
    return gp_op_table[c.op].arity == 2 ? emit(E, (int)c.b, codes, at) : at;
}

static void release(enumeration *E)
{
    gp_pool_stop(E->pool);
    if (E->b) free(E->b->vals);
    free(E->y), free(E->e), free(E->vals), free(E->slots), free(E->b);
}

glevo_status gp_enumerate(const glevo_gp_data *d, uint32_t mask, bool scaling,
                          long long budget, int max_size, int threads, gp_enumerated *out)
{
    memset(out, 0, sizeof *out);
    if (budget <= 0 || d->cases < 1) return GLEVO_OK;
    enumeration E = {.m = d->cases < GP_ENUM_CASES ? d->cases : GP_ENUM_CASES, .budget = budget,
                     .scaling = scaling, .threads = gp_cpu_threads(threads, 64)};
    size_t slots = 1;
    while (slots < 2 * (size_t)budget + 2 * (size_t)d->vars) slots *= 2;
    E.nslots = slots;
    E.pool = gp_pool_start(E.threads);
    E.slots = calloc(slots, sizeof *E.slots);
    E.y = malloc((size_t)E.m * sizeof *E.y);
    E.b = malloc(sizeof *E.b);
    if (E.b) E.b->count = 0, E.b->vals = malloc((size_t)BATCH * (size_t)E.m * sizeof *E.vals);
    bool ok = E.slots && E.y && E.b && E.b->vals;
    for (int k = 0; ok && k < E.m; ++k) E.y[k] = d->y[(long long)k * d->cases / E.m];
    for (int v = 0; ok && v < d->vars; ++v) { /* the terminals' values put in place */
        float *vals = E.b->vals + (size_t)E.b->count * (size_t)E.m;
        for (int k = 0; k < E.m; ++k)
            vals[k] = d->x[(size_t)v * d->cases + (size_t)((long long)k * d->cases / E.m)];
        ok = make(&E, (entry){(uint32_t)v, 0, GLEVO_GP_VAR});
    }
    ok = ok && flush(&E);
    int most = max_size < GP_ENUM_MAX_SIZE ? max_size : GP_ENUM_MAX_SIZE;
    out->complete_size = 1; /* the variables */
    for (int s = 2; ok && s <= most && E.tried < E.budget; ++s) {
        E.start[s] = E.n;
        ok = enumerate_size(&E, mask, s);
        E.start[s + 1] = E.n;
        if (ok && E.tried < E.budget) out->complete_size = s;
    }
    if (!ok) {
        release(&E);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory enumerating %lld short programs "
                          "(glevo_gp_params.enumeration)", budget);
    }
    out->tried = E.tried, out->distinct = E.n, out->count = E.nbest;
    double my = 0;
    for (int k = 0; k < E.m; ++k) my += E.y[k];
    my /= E.m;
    for (int k = 0; k < E.m; ++k) out->target_ss += (E.y[k] - my) * (E.y[k] - my);
    for (int r = 0; r < E.nbest; ++r) {
        out->len[r] = emit(&E, E.best[r], out->codes[r], 0);
        out->sse[r] = E.best_sse[r];
    }
    release(&E);
    return GLEVO_OK;
}
