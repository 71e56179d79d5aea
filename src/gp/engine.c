/* Generational GP on the host (the paper's Algorithm 1): ramped half-and-half initialisation,
 * tournament selection, subtree crossover, subtree and point mutation, elitism and a size
 * limit; evaluation of the whole population per generation by the evaluator (GPU passes or
 * the CPU interpreter). Every random choice comes from one Philox stream keyed by the seed,
 * so a run is reproducible by seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glevo/rng.h"
#include "gp/gp_internal.h"

/* ---- random numbers: Philox4x32 counted by (block, stream tag) under (seed, purpose) ---- */
typedef struct gp_rng {
    uint32_t key0, key1, counter;
    uint32_t buf[4];
    int left;
} gp_rng;

static void rng_init(gp_rng *r, uint32_t seed, uint32_t purpose)
{
    memset(r, 0, sizeof *r);
    r->key0 = seed;
    r->key1 = purpose;
}

static uint32_t rng_u32(gp_rng *r)
{
    if (r->left == 0) {
        glevo_u32x4 v = glevo_philox4x32(r->counter++, 0x47502047u /* "GP G" */, 0, 0, r->key0,
                                         r->key1);
        memcpy(r->buf, v.v, sizeof r->buf);
        r->left = 4;
    }
    return r->buf[--r->left];
}

static int rng_below(gp_rng *r, int n) { return (int)glevo_rng_below(rng_u32(r), (uint32_t)n); }
static double rng_u01(gp_rng *r) { return glevo_rng_u01(rng_u32(r)); }

/* ---- random trees ---- */
typedef struct tree_gen {
    gp_rng *rng;
    int funcs[GLEVO_GP_OP_COUNT], nfuncs;
    int vars;
    double const_prob, cmin, cmax;
} tree_gen;

static void gen_init(tree_gen *g, gp_rng *rng, uint32_t mask, int vars, double const_prob,
                     double cmin, double cmax)
{
    memset(g, 0, sizeof *g);
    g->rng = rng;
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if (mask >> op & 1u) g->funcs[g->nfuncs++] = op;
    g->vars = vars;
    g->const_prob = vars > 0 ? const_prob : 1.0;
    g->cmin = cmin;
    g->cmax = cmax;
}

/* One terminal into codes[*n]; constants go to consts[*n] (index = position). */
static void gen_terminal(tree_gen *g, uint32_t *codes, float *consts, int *n)
{
    if (rng_u01(g->rng) < g->const_prob) {
        consts[*n] = (float)(g->cmin + (g->cmax - g->cmin) * rng_u01(g->rng));
        codes[*n] = GLEVO_GP_CODE(GLEVO_GP_CONST, *n);
    } else {
        codes[*n] = GLEVO_GP_CODE(GLEVO_GP_VAR, rng_below(g->rng, g->vars));
    }
    (*n)++;
}

/* Koza's full (every branch to depth) or grow (terminals allowed early) method. */
static void gen_tree(tree_gen *g, int depth, int full, uint32_t *codes, float *consts, int *n)
{
    int nt = 1, nf = g->nfuncs;
    if (depth <= 0 || nf == 0 || (!full && rng_below(g->rng, nf + nt) < nt)) {
        gen_terminal(g, codes, consts, n);
        return;
    }
    int op = g->funcs[rng_below(g->rng, nf)];
    codes[(*n)++] = GLEVO_GP_CODE(op, 0);
    for (int a = 0; a < glevo_gp_op_arity((glevo_gp_op)op); ++a)
        gen_tree(g, depth - 1, full, codes, consts, n);
}

/* A random tree of exactly `size` nodes (the benchmark's fixed tree size). */
static void gen_sized(tree_gen *g, int size, uint32_t *codes, float *consts, int *n)
{
    int fits[GLEVO_GP_OP_COUNT], nfits = 0;
    for (int i = 0; i < g->nfuncs; ++i)
        if (glevo_gp_op_arity((glevo_gp_op)g->funcs[i]) <= size - 1) fits[nfits++] = g->funcs[i];
    if (size <= 1 || nfits == 0) {
        gen_terminal(g, codes, consts, n);
        return;
    }
    int op = fits[rng_below(g->rng, nfits)];
    int arity = glevo_gp_op_arity((glevo_gp_op)op);
    codes[(*n)++] = GLEVO_GP_CODE(op, 0);
    int rest = size - 1;
    for (int a = 0; a < arity; ++a) {
        int others = arity - a - 1;
        int take = a == arity - 1 ? rest : 1 + rng_below(g->rng, rest - others);
        gen_sized(g, take, codes, consts, n);
        rest -= take;
    }
}

glevo_status glevo_gp_programs_random(glevo_gp_programs *p, int count, uint32_t ops, int vars,
                                      int size, uint32_t seed)
{
    if (size < 1 || count < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "random programs need size >= 1 (got %d)", size);
    gp_rng rng;
    rng_init(&rng, seed, 0x52414e44u);
    tree_gen g;
    gen_init(&g, &rng, ops, vars, 0.3, -1.0, 1.0);
    uint32_t *codes = malloc((size_t)size * sizeof *codes);
    float *consts = malloc((size_t)size * sizeof *consts);
    glevo_status st = codes && consts ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < count && !st; ++i) {
        int n = 0;
        gen_sized(&g, size, codes, consts, &n);
        st = glevo_gp_programs_add(p, codes, n, consts);
    }
    free(codes);
    free(consts);
    return st;
}

/* ---- individuals: codes with constants kept beside each code (consts[i] for codes[i]) ---- */
typedef struct indiv {
    uint32_t *codes;
    float *consts;
    int len;
} indiv;

static void copy_indiv(indiv *dst, const indiv *src)
{
    memcpy(dst->codes, src->codes, (size_t)src->len * sizeof *src->codes);
    memcpy(dst->consts, src->consts, (size_t)src->len * sizeof *src->consts);
    dst->len = src->len;
}

/* dst = a with the subtree at i replaced by b's subtree at j; 0 when over max_size. */
static int splice(indiv *dst, const indiv *a, int i, const indiv *b, int j, int max_size)
{
    int ie = gp_subtree_end(a->codes, a->len, i), je = gp_subtree_end(b->codes, b->len, j);
    int len = i + (je - j) + (a->len - ie);
    if (len > max_size) return 0;
    memcpy(dst->codes, a->codes, (size_t)i * sizeof(uint32_t));
    memcpy(dst->consts, a->consts, (size_t)i * sizeof(float));
    memcpy(dst->codes + i, b->codes + j, (size_t)(je - j) * sizeof(uint32_t));
    memcpy(dst->consts + i, b->consts + j, (size_t)(je - j) * sizeof(float));
    memcpy(dst->codes + i + (je - j), a->codes + ie, (size_t)(a->len - ie) * sizeof(uint32_t));
    memcpy(dst->consts + i + (je - j), a->consts + ie, (size_t)(a->len - ie) * sizeof(float));
    dst->len = len;
    /* Constant codes index their own position. */
    for (int k = 0; k < len; ++k)
        if (GLEVO_GP_CODE_OP(dst->codes[k]) == GLEVO_GP_CONST)
            dst->codes[k] = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
    return 1;
}

/* Crossover points prefer functions 90% of the time (Koza), when the tree has any. */
static int pick_point(gp_rng *r, const indiv *t)
{
    if (t->len > 1 && rng_u01(r) < 0.9) {
        for (int tries = 0; tries < 8; ++tries) {
            int k = rng_below(r, t->len);
            if (gp_code_arity(t->codes[k]) > 0) return k;
        }
    }
    return rng_below(r, t->len);
}

static void point_mutate(tree_gen *g, indiv *t)
{
    int k = rng_below(g->rng, t->len);
    int arity = gp_code_arity(t->codes[k]);
    if (arity == 0) {
        int n = k;
        gen_terminal(g, t->codes, t->consts, &n);
        return;
    }
    int same[GLEVO_GP_OP_COUNT], ns = 0;
    for (int i = 0; i < g->nfuncs; ++i)
        if (glevo_gp_op_arity((glevo_gp_op)g->funcs[i]) == arity) same[ns++] = g->funcs[i];
    t->codes[k] = GLEVO_GP_CODE(same[rng_below(g->rng, ns)], 0);
}

static double fitness_of(glevo_gp_metric m, double e)
{
    if (m == GLEVO_GP_ACCURACY) e = 1.0 - e;
    return isfinite(e) ? e : INFINITY;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void glevo_gp_result_free(glevo_gp_result *r)
{
    free(r->best_sexpr);
    free(r->best_infix);
    glevo_gp_programs_destroy(r->best);
    memset(r, 0, sizeof *r);
}

static char *print_alloc(const glevo_gp_programs *p, int i, int infix)
{
    int n = infix ? glevo_gp_program_infix(p, i, NULL, 0) : glevo_gp_program_sexpr(p, i, NULL, 0);
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    if (infix)
        glevo_gp_program_infix(p, i, s, (size_t)n + 1);
    else
        glevo_gp_program_sexpr(p, i, s, (size_t)n + 1);
    return s;
}

/* The one place GP's defaults are written (the CLI prints these in --help). */
glevo_gp_params glevo_gp_params_defaults(const glevo_gp_params *in)
{
    glevo_gp_params P = {0};
    if (in) P = *in;
    if (!P.pop) P.pop = 1000;
    P.generations = P.generations == GLEVO_ZERO ? 0 : P.generations ? P.generations : 50;
    if (!P.tournament) P.tournament = 4;
    P.pc = P.pc == GLEVO_ZERO ? 0.0 : P.pc == 0 ? 0.9 : P.pc;
    P.pm = P.pm == GLEVO_ZERO ? 0.0 : P.pm == 0 ? 0.1 : P.pm;
    P.elitism = P.elitism == GLEVO_ZERO ? 0 : P.elitism ? P.elitism : 1;
    if (!P.max_size) P.max_size = 50;
    if (!P.init_min_depth) P.init_min_depth = 2;
    if (!P.init_max_depth) P.init_max_depth = 6;
    if (P.const_min == 0 && P.const_max == 0) P.const_min = -1, P.const_max = 1;
    P.const_prob = P.const_prob == GLEVO_ZERO ? 0.0 : P.const_prob == 0 ? 0.25 : P.const_prob;
    return P;
}

glevo_status glevo_gp_run(const glevo_gp_params *params, const glevo_gp_data *data,
                          glevo_gp_result *out)
{
    memset(out, 0, sizeof *out);
    glevo_gp_params P = glevo_gp_params_defaults(params);
    P.eval.backend = P.backend;
    if (P.pop < 2) return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pop %d is below 2", P.pop);
    if (P.generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.generations %d is negative", P.generations);
    if (P.tournament < 1 || P.tournament > P.pop)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.tournament %d is outside 1..pop (%d)",
                          P.tournament, P.pop);
    if (P.pc < 0 || P.pc > 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pc %g is outside [0, 1]", P.pc);
    if (P.pm < 0 || P.pm > 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pm %g is outside [0, 1]", P.pm);
    if (P.const_prob < 0 || P.const_prob > 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_prob %g is outside [0, 1]",
                          P.const_prob);
    if (P.max_size < 1 || P.max_size > 100000)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.max_size %d is outside 1..100000",
                          P.max_size);
    if (P.elitism < 0 || P.elitism >= P.pop)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.elitism %d is not in 0..pop-1 (%d)",
                          P.elitism, P.pop - 1);
    if (P.init_min_depth < 0 || P.init_max_depth < P.init_min_depth)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.init_min_depth..init_max_depth "
                          "%d..%d is not a range", P.init_min_depth, P.init_max_depth);
    if (data->vars < 1) return glevo_fail(GLEVO_ERR_INVALID, "the data has no input variables");

    double t0 = seconds_now();
    uint32_t mask = glevo_gp_function_set_ops(P.function_set);
    gp_rng rng;
    rng_init(&rng, P.seed, 0x454e474eu);
    tree_gen g;
    gen_init(&g, &rng, mask, data->vars, P.const_prob, P.const_min, P.const_max);

    /* Generation buffers hold max_size codes per individual, plus scratch for a tree being
     * generated (full trees can exceed max_size before they are rejected). */
    int deep = 1;
    int deepest = P.init_max_depth > 4 ? P.init_max_depth : 4; /* 4: subtree mutation */
    for (int d = 0; d <= deepest && deep < (1 << 20); ++d) deep *= gp_mask_max_arity(mask);
    int scratch_cap = (deep * 2 > P.max_size ? deep * 2 : P.max_size) + 8;
    if (scratch_cap > (1 << 22)) scratch_cap = 1 << 22;
    size_t cap = (size_t)P.max_size;
    indiv *pops[2];
    uint32_t *codes_mem = malloc(2 * (size_t)P.pop * cap * sizeof(uint32_t));
    float *consts_mem = malloc(2 * (size_t)P.pop * cap * sizeof(float));
    pops[0] = calloc((size_t)P.pop, sizeof(indiv));
    pops[1] = calloc((size_t)P.pop, sizeof(indiv));
    double *err = malloc((size_t)P.pop * sizeof *err);
    double *fit = malloc((size_t)P.pop * sizeof *fit);
    indiv scratch = {malloc((size_t)scratch_cap * sizeof(uint32_t)), malloc((size_t)scratch_cap * sizeof(float)), 0};
    indiv tmp = {malloc(cap * sizeof(uint32_t)), malloc(cap * sizeof(float)), 0};
    indiv kids[2] = {{malloc(cap * sizeof(uint32_t)), malloc(cap * sizeof(float)), 0},
                     {malloc(cap * sizeof(uint32_t)), malloc(cap * sizeof(float)), 0}};
    glevo_gp_programs *progs = NULL;
    glevo_gp_evaluator *ev = NULL;
    glevo_status st = GLEVO_OK;
    if (!codes_mem || !consts_mem || !pops[0] || !pops[1] || !err || !fit || !scratch.codes ||
        !scratch.consts || !kids[0].codes || !kids[0].consts || !kids[1].codes || !kids[1].consts || !tmp.codes || !tmp.consts) {
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", P.pop);
        goto done;
    }
    for (int b = 0; b < 2; ++b)
        for (int i = 0; i < P.pop; ++i) {
            size_t at = ((size_t)b * P.pop + i) * cap;
            pops[b][i].codes = codes_mem + at;
            pops[b][i].consts = consts_mem + at;
        }
    if ((st = glevo_gp_programs_create(&progs))) goto done;
    if ((st = glevo_gp_evaluator_create(&P.eval, data, &ev))) goto done;

    /* Ramped half-and-half: depths cycle through min..max, alternating full and grow; a tree
     * over the size limit is redrawn one level shallower. */
    int ndepths = P.init_max_depth - P.init_min_depth + 1;
    for (int i = 0; i < P.pop; ++i) {
        int depth = P.init_min_depth + (i / 2) % ndepths;
        int full = i % 2 == 0;
        for (;;) {
            int n = 0;
            int max_nodes = 1;
            for (int d = 0; d < depth && max_nodes <= scratch_cap; ++d)
                max_nodes = max_nodes * gp_mask_max_arity(mask) + 1;
            if (max_nodes <= scratch_cap) {
                gen_tree(&g, depth, full, scratch.codes, scratch.consts, &n);
                if (n <= P.max_size) {
                    scratch.len = n;
                    copy_indiv(&pops[0][i], &scratch);
                    break;
                }
            }
            if (depth > 0) depth--;
        }
    }

    int cur = 0, best = 0;
    for (int gen = 0;; ++gen) {
        glevo_gp_programs_clear(progs);
        for (int i = 0; i < P.pop && !st; ++i)
            st = glevo_gp_programs_add(progs, pops[cur][i].codes, pops[cur][i].len,
                                       pops[cur][i].consts);
        if (st) goto done;
        double te = seconds_now();
        if ((st = glevo_gp_evaluate(ev, progs, P.metric, err))) goto done;
        out->eval_seconds += seconds_now() - te;
        out->evaluations += P.pop;
        out->nodes_evaluated += glevo_gp_programs_nodes(progs) * (long long)data->cases;
        best = 0;
        for (int i = 0; i < P.pop; ++i) {
            fit[i] = fitness_of(P.metric, err[i]);
            /* Ties go to the smaller program (parsimony). */
            if (fit[i] < fit[best] || (fit[i] == fit[best] && pops[cur][i].len < pops[cur][best].len))
                best = i;
        }
        out->generations = gen;
        if (P.progress) {
            char *s = print_alloc(progs, best, 0);
            P.progress(P.progress_user, gen, err[best], s ? s : "");
            free(s);
        }
        if (gen == P.generations || (P.stop_on_target && fit[best] <= P.target_error)) break;

        /* Breed the next generation. */
        int nxt = 1 - cur, filled = 0;
        int order_best[64];
        int ne = P.elitism < 64 ? P.elitism : 64;
        for (int e = 0; e < ne; ++e) { /* the e best, by repeated selection */
            int b = -1;
            for (int i = 0; i < P.pop; ++i) {
                int taken = 0;
                for (int k = 0; k < e; ++k) taken |= order_best[k] == i;
                if (!taken && (b < 0 || fit[i] < fit[b])) b = i;
            }
            order_best[e] = b;
            copy_indiv(&pops[nxt][filled++], &pops[cur][b]);
        }
        while (filled < P.pop) {
            int par[2];
            for (int k = 0; k < 2; ++k) {
                int w = rng_below(&rng, P.pop);
                for (int t = 1; t < P.tournament; ++t) {
                    int c = rng_below(&rng, P.pop);
                    if (fit[c] < fit[w]) w = c;
                }
                par[k] = w;
            }
            const indiv *a = &pops[cur][par[0]], *b = &pops[cur][par[1]];
            if (rng_u01(&rng) < P.pc) {
                int i = pick_point(&rng, a), j = pick_point(&rng, b);
                if (!splice(&kids[0], a, i, b, j, P.max_size)) copy_indiv(&kids[0], a);
                if (!splice(&kids[1], b, j, a, i, P.max_size)) copy_indiv(&kids[1], b);
            } else {
                copy_indiv(&kids[0], a);
                copy_indiv(&kids[1], b);
            }
            for (int k = 0; k < 2; ++k) {
                if (rng_u01(&rng) >= P.pm) continue;
                if (rng_u01(&rng) < 0.5) {
                    point_mutate(&g, &kids[k]);
                } else { /* subtree mutation: a grown tree of depth <= 4 at a random point */
                    int n = 0;
                    gen_tree(&g, rng_below(&rng, 5), 0, scratch.codes, scratch.consts, &n);
                    scratch.len = n;
                    copy_indiv(&tmp, &kids[k]);
                    int at = rng_below(&rng, kids[k].len);
                    if (!splice(&kids[k], &tmp, at, &scratch, 0, P.max_size)) copy_indiv(&kids[k], &tmp);
                }
            }
            for (int k = 0; k < 2 && filled < P.pop; ++k) copy_indiv(&pops[nxt][filled++], &kids[k]);
        }
        cur = nxt;
    }

    /* Result: the best program of the last evaluated generation (elitism keeps the best). */
    out->best_error = err[best];
    out->best_nodes = pops[cur][best].len;
    out->best_sexpr = print_alloc(progs, best, 0);
    out->best_infix = print_alloc(progs, best, 1);
    if ((st = glevo_gp_programs_create(&out->best))) goto done;
    if ((st = glevo_gp_programs_add(out->best, pops[cur][best].codes, pops[cur][best].len,
                                    pops[cur][best].consts)))
        goto done;
    if (!out->best_sexpr || !out->best_infix) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
done:
    out->seconds = seconds_now() - t0;
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_programs_destroy(progs);
    free(codes_mem);
    free(consts_mem);
    free(pops[0]);
    free(pops[1]);
    free(err);
    free(fit);
    free(scratch.codes);
    free(scratch.consts);
    free(tmp.codes);
    free(tmp.consts);
    for (int k = 0; k < 2; ++k) {
        free(kids[k].codes);
        free(kids[k].consts);
    }
    if (st) glevo_gp_result_free(out);
    return st;
}
