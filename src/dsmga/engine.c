/* The DSMGA-II loop (Hsu & Yu 2015; Li & Yu 2017 Algorithm 1) on the host: random init and
 * greedy hill climbing, tournament selection, DSM, incremental linkage sets, restricted mixing
 * with optimal mixing (a donor pattern must exist), back mixing, termination. Model building
 * (BuildDSM, FindClique) runs on the CPU twins (backend cpu) or on the GPU model builder
 * (model.c: fragment passes or compute dispatches). Parameters: params.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsmga/engine_internal.h"
#include "core/args.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ---- key multiset ---- */
static size_t hslot(const glevo_dsmga *e, uint64_t k)
{
    size_t i = (size_t)(k * 0x9E3779B97F4A7C15ull >> 20) & (e->hcap - 1);
    while (e->hcount[i] >= 0 && e->hkeys[i] != k) i = (i + 1) & (e->hcap - 1);
    return i;
}
static void hrebuild(glevo_dsmga *e)
{
    for (size_t i = 0; i < e->hcap; ++i) e->hcount[i] = -1;
    e->hfill = 0;
    for (int i = 0; i < e->n; ++i) {
        size_t s = hslot(e, e->key[i]);
        if (e->hcount[s] < 0) { e->hkeys[s] = e->key[i]; e->hcount[s] = 0; ++e->hfill; }
        ++e->hcount[s];
    }
}
static bool hcontains(const glevo_dsmga *e, uint64_t k)
{
    size_t s = hslot(e, k);
    return e->hcount[s] > 0;
}
/* Call after e->key has been updated to k. */
static void hreplace(glevo_dsmga *e, uint64_t old, uint64_t k)
{
    size_t s = hslot(e, old);
    if (e->hcount[s] > 0) --e->hcount[s];
    if (e->hfill * 2 >= e->hcap) { /* dead slots pile up: start over from the population */
        hrebuild(e);
        return;
    }
    s = hslot(e, k);
    if (e->hcount[s] < 0) { e->hkeys[s] = k; e->hcount[s] = 0; ++e->hfill; }
    ++e->hcount[s];
}

static uint64_t zobrist(const glevo_dsmga *e, const uint8_t *x)
{
    uint64_t h = 0;
    for (int g = 0; g < e->ell; ++g)
        if (x[g]) h ^= e->zob[g];
    return h;
}

static double evaluate(glevo_dsmga *e, const uint8_t *x)
{
    double f = glevo_dsmga_problem_eval(e->problem, x);
    ++e->nfe;
    if (f > e->best_fit) {
        e->best_fit = f;
        memcpy(e->best, x, (size_t)e->ell);
        if (f >= e->optimum - 1e-9) e->solved = true;
    }
    return f;
}

static bool budget_left(const glevo_dsmga *e)
{
    return !e->solved && (e->p.max_nfe <= 0 || e->nfe < e->p.max_nfe);
}

static void shuffle(host_rng *r, int *a, int n)
{
    for (int i = 0; i < n; ++i) a[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = host_rng_below(r, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void glevo_dsmga_destroy(glevo_dsmga *e)
{
    if (!e) return;
    glevo_dsm_gpu_destroy(e->gpu);
    free(e->pop); free(e->fit); free(e->key); free(e->zob); free(e->sel); free(e->rows);
    free(e->prows); free(e->mi); free(e->ils); free(e->len); free(e->trial); free(e->order);
    free(e->cand); free(e->visit); free(e->tour); free(e->hkeys); free(e->hcount); free(e->best);
    free(e);
}

/* Greedy hill climbing (Hsu & Yu 2015 §3): one pass over the genes in random order, keeping
 * each flip that strictly improves. */
static void hill_climb(glevo_dsmga *e, int i)
{
    uint8_t *x = e->pop + (size_t)i * e->ell;
    shuffle(&e->rng, e->order, e->ell);
    for (int k = 0; k < e->ell && budget_left(e); ++k) {
        int g = e->order[k];
        x[g] ^= 1u;
        double f = evaluate(e, x);
        if (f > e->fit[i]) e->fit[i] = f;
        else x[g] ^= 1u;
    }
    e->key[i] = zobrist(e, x);
}

glevo_status dsmga_engine_new(const glevo_dsmga_problem *problem, const glevo_dsmga_params *resolved,
                              glevo_dsmga **out)
{
    *out = NULL;
    int ell = glevo_dsmga_problem_ell(problem);
    const glevo_dsmga_params p = *resolved;
    bool gpu = p.backend != GLEVO_BACKEND_CPU;
    glevo_dsmga *e = calloc(1, sizeof *e);
    if (!e) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for DSMGA-II");
    e->problem = problem;
    e->p = p;
    e->ell = ell;
    e->n = p.pop;
    e->words = glevo_dsm_words(p.pop);
    size_t nl = (size_t)e->n * ell, ll = (size_t)ell * ell;
    e->pop = malloc(nl);
    e->fit = malloc(e->n * sizeof *e->fit);
    e->key = malloc(e->n * sizeof *e->key);
    e->zob = malloc(ell * sizeof *e->zob);
    e->sel = malloc(nl);
    /* GPU models pack on the GPU from the bytes (glevo_dsm_gpu_build_bits, pop_bits). */
    e->rows = gpu ? NULL : malloc((size_t)ell * e->words * sizeof *e->rows);
    e->prows = gpu ? NULL : malloc((size_t)ell * e->words * sizeof *e->prows);
    e->mi = gpu ? NULL : malloc(ll * sizeof *e->mi);
    e->ils = malloc(ll * sizeof *e->ils);
    e->len = malloc(ell * sizeof *e->len);
    e->trial = malloc(ell);
    e->order = malloc((ell > e->n ? ell : e->n) * sizeof *e->order);
    e->cand = malloc(e->n * sizeof *e->cand);
    e->visit = malloc(e->n * sizeof *e->visit);
    e->tour = malloc((size_t)p.selection_pressure * e->n * sizeof *e->tour);
    e->best = calloc(ell, 1);
    e->hcap = 16;
    while (e->hcap < (size_t)e->n * 4) e->hcap *= 2;
    e->hkeys = malloc(e->hcap * sizeof *e->hkeys);
    e->hcount = malloc(e->hcap * sizeof *e->hcount);
    if (!e->pop || !e->fit || !e->key || !e->zob || !e->sel ||
        (!gpu && (!e->rows || !e->prows || !e->mi)) || !e->ils || !e->len || !e->trial || !e->order || !e->cand || !e->visit || !e->tour ||
        !e->best || !e->hkeys || !e->hcount) {
        glevo_dsmga_destroy(e);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for DSMGA-II (ell %d, pop %d)", ell, p.pop);
    }
    if (gpu) {
        glevo_status st = glevo_dsm_gpu_create(ell, e->n, p.backend, &e->gpu);
        if (st != GLEVO_OK) {
            glevo_dsmga_destroy(e);
            return st;
        }
    }
    host_rng_init(&e->rng, p.seed);
    for (int g = 0; g < ell; ++g)
        e->zob[g] = (uint64_t)host_rng_u32(&e->rng) << 32 | host_rng_u32(&e->rng);
    e->optimum = glevo_dsmga_problem_optimum(problem);
    e->best_fit = -INFINITY;
    *out = e;
    return GLEVO_OK;
}

glevo_status glevo_dsmga_create(const glevo_dsmga_problem *problem, const glevo_dsmga_params *params,
                                glevo_dsmga **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(problem);
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_dsmga_params p;
    glevo_dsmga *e;
    glevo_status st = dsmga_resolve_params(problem, params, &p);
    if (!st) st = dsmga_engine_new(problem, &p, &e);
    if (st) return st;
    int ell = e->ell;
    double t0 = now_ms();
    for (int i = 0; i < e->n; ++i) {
        /* Hill climbing a large population takes tens of seconds: stop when asked. */
        if (glevo_interrupt_pending()) {
            glevo_dsmga_destroy(e);
            return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_dsmga_create: interrupted while "
                              "initialising the population");
        }
        uint8_t *x = e->pop + (size_t)i * ell;
        for (int g = 0; g < ell; ++g) x[g] = (uint8_t)(host_rng_u32(&e->rng) >> 31);
        e->fit[i] = evaluate(e, x);
        hill_climb(e, i);
    }
    hrebuild(e);
    e->seconds = (now_ms() - t0) * 1e-3;
    *out = e;
    return GLEVO_OK;
}

/* Tournament selection without replacement (as Hsu & Yu's code): s random permutations of
 * the population laid end to end, tournament i among entries s*i .. s*i+s-1, so that every
 * individual enters exactly s tournaments. */
static void tournament(glevo_dsmga *e)
{
    int s = e->p.selection_pressure, n = e->n;
    for (int k = 0; k < s; ++k) shuffle(&e->rng, e->tour + (size_t)k * n, n);
    for (int i = 0; i < n; ++i) {
        const int *t = e->tour + (size_t)s * i;
        int w = t[0];
        for (int k = 1; k < s; ++k)
            if (e->fit[t[k]] > e->fit[w]) w = t[k];
        memcpy(e->sel + (size_t)i * e->ell, e->pop + (size_t)w * e->ell, (size_t)e->ell);
    }
}

/* The timers charge what each model really costs: the CPU engine packs FastCounting rows on
 * the host; a GPU model gets the population bytes and packs them itself. Neither fills the
 * linkage sets past their ends (sets_only): restricted and back mixing read no further. */
static glevo_status build_model(glevo_dsmga *e)
{
    double t0 = now_ms();
    glevo_status st = GLEVO_OK;
    if (e->gpu) {
        st = glevo_dsm_gpu_build_bits(e->gpu, e->sel);
    } else {
        glevo_dsm_pack(e->sel, e->n, e->ell, e->rows);
        glevo_dsm_mi_cpu(e->rows, e->n, e->ell, e->mi);
    }
    if (st != GLEVO_OK) return st;
    double t1 = now_ms();
    e->dsm_ms += t1 - t0;
    glevo_clique_params cp = {.seed = e->p.seed, .generation = (uint32_t)e->generation,
                              .lossy = e->p.model == GLEVO_DSMGA_LOSSY, .pop_n = e->n,
                              .sets_only = true};
    if (e->gpu) {
        cp.pop_bits = e->pop;
        st = glevo_dsm_gpu_clique(e->gpu, &cp, e->ils, e->len);
    } else {
        cp.pop_rows = e->prows;
        if (cp.lossy) glevo_dsm_pack(e->pop, e->n, e->ell, e->prows);
        glevo_find_clique_cpu(e->mi, e->ell, &cp, e->ils, e->len);
    }
    e->ils_ms += now_ms() - t1;
    return st;
}

/* Longest prefix of the mask on which some individual is the complement of x: the donor
 * must exist (Hsu & Yu 2015, restricted mixing). */
static int donor_prefix(glevo_dsmga *e, const uint8_t *x, const int32_t *mask, int mlen)
{
    int nc = e->n;
    for (int i = 0; i < nc; ++i) e->cand[i] = i;
    int size = 0;
    for (int t = 0; t < mlen; ++t) {
        int g = mask[t], keep = 0;
        for (int k = 0; k < nc; ++k)
            if (e->pop[(size_t)e->cand[k] * e->ell + g] != x[g]) e->cand[keep++] = e->cand[k];
        nc = keep;
        if (nc == 0) break;
        ++size;
    }
    return size;
}

static void set_individual(glevo_dsmga *e, int i, const uint8_t *x, double f, uint64_t k)
{
    memcpy(e->pop + (size_t)i * e->ell, x, (size_t)e->ell);
    e->fit[i] = f;
    uint64_t old = e->key[i];
    e->key[i] = k; /* before hreplace: a rebuild there reads e->key */
    hreplace(e, old, k);
    e->changed = true;
}

/* Restricted mixing of individual i on a random start gene's linkage set, then back mixing
 * of the accepted pattern into every other individual. */
static void restricted_mixing(glevo_dsmga *e, int i)
{
    int ell = e->ell;
    int r = host_rng_below(&e->rng, ell);
    const int32_t *mask = e->ils + (size_t)r * ell;
    int mlen = e->len[r];
    uint8_t *x = e->pop + (size_t)i * ell;
    int size = donor_prefix(e, x, mask, mlen);
    if (size > ell / 2) size = ell / 2;
    int taken = 0;
    uint64_t k = e->key[i];
    memcpy(e->trial, x, (size_t)ell);
    for (int ub = 1; ub <= size && budget_left(e); ++ub) {
        int g = mask[ub - 1];
        e->trial[g] ^= 1u;
        k ^= e->zob[g];
        /* A trial already in the population is not evaluated: the authors' code from 2016 on
         * stops here, their 2015 code goes on to the next longer prefix (skip_duplicates). */
        if (hcontains(e, k)) {
            if (e->p.skip_duplicates) continue;
            break;
        }
        double f = evaluate(e, e->trial);
        if (f >= e->fit[i]) {
            set_individual(e, i, e->trial, f, k);
            taken = ub;
            break;
        }
    }
    if (!taken) return;
    bool eq = true;
    int *order = e->order;
    shuffle(&e->rng, order, e->n);
    for (int o = 0; o < e->n && budget_left(e); ++o) {
        int j = order[o];
        if (j == i) continue;
        const uint8_t *y = e->pop + (size_t)j * ell;
        memcpy(e->trial, y, (size_t)ell);
        uint64_t kj = e->key[j];
        bool changed = false;
        for (int t = 0; t < taken; ++t) {
            int g = mask[t];
            if (e->trial[g] != x[g]) {
                e->trial[g] = x[g];
                kj ^= e->zob[g];
                changed = true;
            }
        }
        if (!changed) continue;
        double f = evaluate(e, e->trial);
        if (f > e->fit[j]) {
            set_individual(e, j, e->trial, f, kj);
            eq = false;
        } else if (eq && f >= e->fit[j]) {
            set_individual(e, j, e->trial, f, kj);
        }
    }
}

static bool converged(const glevo_dsmga *e)
{
    double mx = e->fit[0], mean = 0.0;
    for (int i = 0; i < e->n; ++i) {
        if (e->fit[i] > mx) mx = e->fit[i];
        mean += e->fit[i];
    }
    mean /= e->n;
    return mx - 1e-10 <= mean;
}

/* Hsu & Yu's criteria (optimum, NFE budget, generations, fitness converged: max - 1e-10 <=
 * mean) plus one of ours: a population that no mixing changed for stall_generations (20)
 * generations in a row ends the run. The 2015 code has no such test (its sweep caps a run at
 * 200 generations instead); an unchanged population only redraws selection and masks, so
 * this ends failing runs early and can at most turn a very late success into a failure. */
static bool should_terminate(const glevo_dsmga *e)
{
    int stall = e->p.stall_generations;
    return e->solved || (e->p.max_nfe > 0 && e->nfe >= e->p.max_nfe) ||
           e->generation >= e->p.max_generations || converged(e) || (stall > 0 && e->stalled >= stall);
}

glevo_status glevo_dsmga_step(glevo_dsmga *e, bool *done)
{
    glevo_clear_error();
    ARG_NOT_NULL(e);
    ARG_NOT_NULL(done);
    *done = false;
    if (glevo_interrupt_pending())
        return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_dsmga_step: interrupted after generation "
                          "%d", e->generation);
    if (e->done || should_terminate(e)) {
        e->done = true;
        *done = true;
        return GLEVO_OK;
    }
    double t0 = now_ms();
    e->changed = false;
    tournament(e);
    glevo_status st = build_model(e);
    if (st != GLEVO_OK) return st;
    for (int k = 0; k < e->p.repeat && budget_left(e); ++k) {
        shuffle(&e->rng, e->visit, e->n);
        for (int v = 0; v < e->n && budget_left(e); ++v) restricted_mixing(e, e->visit[v]);
    }
    ++e->generation;
    e->stalled = e->changed ? 0 : e->stalled + 1;
    e->seconds += (now_ms() - t0) * 1e-3;
    e->done = should_terminate(e);
    *done = e->done;
    if (e->p.progress) e->p.progress(e->p.progress_user, e->generation, e->best_fit, e->nfe);
    return GLEVO_OK;
}

void glevo_dsmga_result_get(const glevo_dsmga *e, glevo_dsmga_result *out)
{
    ARG_NOT_NULL_OR(e, );
    ARG_NOT_NULL_OR(out, );
    out->solved = e->solved;
    out->best_fitness = e->best_fit;
    out->nfe = e->nfe;
    out->generations = e->generation;
    out->dsm_ms = e->dsm_ms;
    out->ils_ms = e->ils_ms;
    out->seconds = e->seconds;
}

glevo_status glevo_dsmga_run(glevo_dsmga *e, glevo_dsmga_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(e);
    bool done = false;
    while (!done) {
        glevo_status st = glevo_dsmga_step(e, &done);
        if (st != GLEVO_OK) return st;
    }
    if (out) glevo_dsmga_result_get(e, out);
    return GLEVO_OK;
}

const uint8_t *glevo_dsmga_best(const glevo_dsmga *e) {
    ARG_NOT_NULL_OR(e, NULL);
    return e->best;
}
int glevo_dsmga_generation(const glevo_dsmga *e) {
    ARG_NOT_NULL_OR(e, -1);
    return e->generation;
}
long long glevo_dsmga_nfe(const glevo_dsmga *e) {
    ARG_NOT_NULL_OR(e, -1);
    return e->nfe;
}
