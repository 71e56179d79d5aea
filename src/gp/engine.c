/* Generational GP on the host (the paper's Algorithm 1): ramped half-and-half initialisation,
 * tournament selection, subtree crossover, subtree and point mutation, elitism and a size
 * limit; evaluation of the whole population per generation by the evaluator (GPU passes or
 * the CPU interpreter). Every random choice comes from one Philox stream keyed by the seed,
 * so a run is reproducible by seed. create/step/destroy like the other families;
 * glevo_gp_run is create, step to the end, result. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "core/memory.h"
#include "gl/gpgpu.h"
#include "gp/eval_internal.h"

/* ---- individuals ---- */
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
    if (t->len > 1 && tree_rng_u01(r) < 0.9) {
        for (int tries = 0; tries < 8; ++tries) {
            int k = tree_rng_below(r, t->len);
            if (gp_code_arity(t->codes[k]) > 0) return k;
        }
    }
    return tree_rng_below(r, t->len);
}

static void point_mutate(tree_gen *g, indiv *t)
{
    int k = tree_rng_below(g->rng, t->len);
    int arity = gp_code_arity(t->codes[k]);
    if (arity == 0) {
        int n = k;
        tree_terminal(g, t->codes, t->consts, &n);
        return;
    }
    int same[GLEVO_GP_OP_COUNT], ns = 0;
    for (int i = 0; i < g->nfuncs; ++i)
        if (glevo_gp_op_arity((glevo_gp_op)g->funcs[i]) == arity) same[ns++] = g->funcs[i];
    t->codes[k] = GLEVO_GP_CODE(same[tree_rng_below(g->rng, ns)], 0);
}

double gp_fitness_of(glevo_gp_metric m, double e)
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
    if (!r) return;
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

/* The memory a run asks for, checked before anything is allocated (in double: no product
 * wraps). Host: two generations of pop programs of up to max_size codes and constants, the
 * individuals, errors and sums; GPU evaluation: the programs packed for upload (on the host
 * and in textures of GP_TEX_WIDTH words a row, which must fit the context's texture size
 * even when every program has grown to max_size). */
static glevo_status check_memory(const glevo_gp_params *P)
{
    double pop = P->pop, codes = pop * (P->max_size + 1.0);
    double host = 2.0 * codes * 8.0 + pop * (2.0 * sizeof(indiv) + 48.0), device = 0;
    glevo_backend backend = glevo_backend_resolve(P->backend);
    char request[128];
    snprintf(request, sizeof request, "glevo_gp_params.pop %d (max_size %d, %s backend)", P->pop,
             P->max_size, glevo_backend_name(backend));
    if (backend != GLEVO_BACKEND_CPU) {
        const gpu_limits *l = gpu_context_limits();
        double rows = ceil(codes / (GP_TEX_WIDTH - 1.0));
        if (l->max_texture_size > 0 && rows > l->max_texture_size)
            return glevo_fail(GLEVO_ERR_INVALID, "%s: programs of up to %.0f codes do not fit "
                              "the program texture (%d x %d words)", request, codes,
                              GP_TEX_WIDTH, l->max_texture_size);
        host += codes * 8.0;
        device = codes * 8.0 + pop * 16.0;
        if (l->software) return gpu_memory_check(host + device, rows * GP_TEX_WIDTH * 4.0, request);
        glevo_status st = gpu_memory_check(device, rows * GP_TEX_WIDTH * 4.0, request);
        if (st) return st;
    }
    return memory_check_host(host, request);
}

glevo_status gp_resolve_params(const glevo_gp_params *params, const glevo_gp_data *data,
                               glevo_gp_params *out)
{
    glevo_gp_params P = glevo_gp_params_defaults(params);
    P.eval.backend = P.backend;
    *out = P;
    if (P.pop < 2) return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pop %d is below 2", P.pop);
    if (P.generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.generations %d is negative", P.generations);
    if (P.tournament < 1 || P.tournament > P.pop)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.tournament %d is outside 1..pop (%d)",
                          P.tournament, P.pop);
    /* Written so that NaN fails every range. */
    if (!(P.pc >= 0 && P.pc <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pc %g is outside [0, 1]", P.pc);
    if (!(P.pm >= 0 && P.pm <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pm %g is outside [0, 1]", P.pm);
    if (!(P.const_prob >= 0 && P.const_prob <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_prob %g is outside [0, 1]",
                          P.const_prob);
    if (!(isfinite(P.const_min) && isfinite(P.const_max) && P.const_min <= P.const_max))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.const_min..const_max %g..%g is not "
                          "a finite range", P.const_min, P.const_max);
    if ((unsigned)P.function_set > GLEVO_GP_CLASSIFICATION)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.function_set %d is unknown "
                          "(regression 0, classification 1)", (int)P.function_set);
    if ((unsigned)P.metric > GLEVO_GP_ACCURACY)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.metric %d is unknown (sae, mse, "
                          "rmse, accuracy: 0..3)", (int)P.metric);
    if ((unsigned)P.backend > GLEVO_BACKEND_AUTO)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.backend %d is unknown",
                          (int)P.backend);
    if (P.stop_on_target && isnan(P.target_error))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.target_error is NaN with "
                          "stop_on_target");
    if (P.eval.threads < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.eval.threads %d is negative",
                          P.eval.threads);
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
    return check_memory(&P);
}

static glevo_status allocate(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    /* Generation buffers hold max_size codes per individual, plus scratch for a tree being
     * generated (full trees can exceed max_size before they are rejected). */
    int deep = 1;
    int deepest = P->init_max_depth > 4 ? P->init_max_depth : 4; /* 4: subtree mutation */
    for (int d = 0; d <= deepest && deep < (1 << 20); ++d) deep *= gp_mask_max_arity(gp->mask);
    int scratch_cap = (deep * 2 > P->max_size ? deep * 2 : P->max_size) + 8;
    if (scratch_cap > (1 << 22)) scratch_cap = 1 << 22;
    gp->scratch_cap = scratch_cap;
    size_t cap = (size_t)P->max_size, pop = (size_t)P->pop;
    gp->codes_mem = malloc(2 * pop * cap * sizeof(uint32_t));
    gp->consts_mem = malloc(2 * pop * cap * sizeof(float));
    gp->pops[0] = calloc(pop, sizeof(indiv));
    gp->pops[1] = calloc(pop, sizeof(indiv));
    gp->err = malloc(pop * sizeof *gp->err);
    gp->fit = malloc(pop * sizeof *gp->fit);
    gp->scratch = (indiv){malloc((size_t)scratch_cap * sizeof(uint32_t)),
                          malloc((size_t)scratch_cap * sizeof(float)), 0};
    gp->tmp = (indiv){malloc(cap * sizeof(uint32_t)), malloc(cap * sizeof(float)), 0};
    for (int k = 0; k < 2; ++k)
        gp->kids[k] = (indiv){malloc(cap * sizeof(uint32_t)), malloc(cap * sizeof(float)), 0};
    if (!gp->codes_mem || !gp->consts_mem || !gp->pops[0] || !gp->pops[1] || !gp->err ||
        !gp->fit || !gp->scratch.codes || !gp->scratch.consts || !gp->kids[0].codes ||
        !gp->kids[0].consts || !gp->kids[1].codes || !gp->kids[1].consts || !gp->tmp.codes ||
        !gp->tmp.consts)
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", P->pop);
    for (int b = 0; b < 2; ++b)
        for (size_t i = 0; i < pop; ++i) {
            size_t at = ((size_t)b * pop + i) * cap;
            gp->pops[b][i].codes = gp->codes_mem + at;
            gp->pops[b][i].consts = gp->consts_mem + at;
        }
    return GLEVO_OK;
}

/* Ramped half-and-half: depths cycle through min..max, alternating full and grow; a tree
 * over the size limit is redrawn one level shallower. */
static void initialise(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    int ndepths = P->init_max_depth - P->init_min_depth + 1;
    for (int i = 0; i < P->pop; ++i) {
        /* A huge population takes seconds: stop when asked (glevo_gp_create then refuses). */
        if (i % 4096 == 0 && glevo_interrupt_pending()) return;
        int depth = P->init_min_depth + (i / 2) % ndepths;
        int full = i % 2 == 0;
        for (;;) {
            int n = 0;
            int max_nodes = 1;
            for (int d = 0; d < depth && max_nodes <= gp->scratch_cap; ++d)
                max_nodes = max_nodes * gp_mask_max_arity(gp->mask) + 1;
            if (max_nodes <= gp->scratch_cap) {
                tree_random(&gp->g, depth, full, gp->scratch.codes, gp->scratch.consts, &n);
                if (n <= P->max_size) {
                    gp->scratch.len = n;
                    copy_indiv(&gp->pops[0][i], &gp->scratch);
                    break;
                }
            }
            if (depth > 0) depth--;
        }
    }
}

/* Evaluates the current population, finds its best, reports progress and decides whether
 * the run is over (the last generation, or the target reached). */
static glevo_status evaluate(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    indiv *pop = gp->pops[gp->cur];
    glevo_status st = GLEVO_OK;
    glevo_gp_programs_clear(gp->progs);
    for (int i = 0; i < P->pop && !st; ++i)
        st = glevo_gp_programs_add(gp->progs, pop[i].codes, pop[i].len, pop[i].consts);
    if (st) return st;
    double te = seconds_now();
    if ((st = glevo_gp_evaluate(gp->ev, gp->progs, P->metric, gp->err))) return st;
    gp->eval_seconds += seconds_now() - te;
    gp->evaluations += P->pop;
    gp->nodes_evaluated += glevo_gp_programs_nodes(gp->progs) * (long long)gp->data->cases;
    for (int i = 0; i < P->pop; ++i) gp->fit[i] = gp_fitness_of(P->metric, gp->err[i]);
    int best = gp->best = gp_find_best(gp);
    if (P->progress) {
        char *s = print_alloc(gp->progs, best, 0);
        P->progress(P->progress_user, gp->generation, gp->err[best], s ? s : "");
        free(s);
    }
    gp->done = gp->generation == P->generations ||
               (P->stop_on_target && gp->fit[best] <= P->target_error);
    return GLEVO_OK;
}

int gp_find_best(const glevo_gp *gp)
{
    const indiv *pop = gp->pops[gp->cur];
    int best = 0;
    for (int i = 0; i < gp->P.pop; ++i)
        /* Ties go to the smaller program (parsimony). */
        if (gp->fit[i] < gp->fit[best] ||
            (gp->fit[i] == gp->fit[best] && pop[i].len < pop[best].len))
            best = i;
    return best;
}

/* The next generation from the current one: elites, then tournament pairs crossed and mutated. */
static void breed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    const double *fit = gp->fit;
    gp_rng *rng = &gp->rng;
    indiv *cur = gp->pops[gp->cur], *nxt = gp->pops[1 - gp->cur], *kids = gp->kids;
    int filled = 0;
    int order_best[64];
    int ne = P->elitism < 64 ? P->elitism : 64;
    for (int e = 0; e < ne; ++e) { /* the e best, by repeated selection */
        int b = -1;
        for (int i = 0; i < P->pop; ++i) {
            int taken = 0;
            for (int k = 0; k < e; ++k) taken |= order_best[k] == i;
            if (!taken && (b < 0 || fit[i] < fit[b])) b = i;
        }
        order_best[e] = b;
        copy_indiv(&nxt[filled++], &cur[b]);
    }
    while (filled < P->pop) {
        int par[2];
        for (int k = 0; k < 2; ++k) {
            int w = tree_rng_below(rng, P->pop);
            for (int t = 1; t < P->tournament; ++t) {
                int c = tree_rng_below(rng, P->pop);
                if (fit[c] < fit[w]) w = c;
            }
            par[k] = w;
        }
        const indiv *a = &cur[par[0]], *b = &cur[par[1]];
        if (tree_rng_u01(rng) < P->pc) {
            int i = pick_point(rng, a), j = pick_point(rng, b);
            if (!splice(&kids[0], a, i, b, j, P->max_size)) copy_indiv(&kids[0], a);
            if (!splice(&kids[1], b, j, a, i, P->max_size)) copy_indiv(&kids[1], b);
        } else {
            copy_indiv(&kids[0], a);
            copy_indiv(&kids[1], b);
        }
        for (int k = 0; k < 2; ++k) {
            if (tree_rng_u01(rng) >= P->pm) continue;
            if (tree_rng_u01(rng) < 0.5) {
                point_mutate(&gp->g, &kids[k]);
            } else { /* subtree mutation: a grown tree of depth <= 4 at a random point */
                int n = 0;
                tree_random(&gp->g, tree_rng_below(rng, 5), 0, gp->scratch.codes,
                            gp->scratch.consts, &n);
                gp->scratch.len = n;
                copy_indiv(&gp->tmp, &kids[k]);
                int at = tree_rng_below(rng, kids[k].len);
                if (!splice(&kids[k], &gp->tmp, at, &gp->scratch, 0, P->max_size))
                    copy_indiv(&kids[k], &gp->tmp);
            }
        }
        for (int k = 0; k < 2 && filled < P->pop; ++k) copy_indiv(&nxt[filled++], &kids[k]);
    }
    gp->cur = 1 - gp->cur;
}

glevo_status gp_engine_new(const glevo_gp_params *P, const glevo_gp_data *data, glevo_gp **out)
{
    *out = NULL;
    glevo_gp *gp = calloc(1, sizeof *gp);
    if (!gp) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    gp->t0 = seconds_now();
    gp->P = *P;
    gp->data = data;
    gp->mask = glevo_gp_function_set_ops(P->function_set);
    tree_rng_init(&gp->rng, P->seed, 0x454e474eu);
    tree_gen_init(&gp->g, &gp->rng, gp->mask, data->vars, P->const_prob, P->const_min, P->const_max);
    glevo_status st = allocate(gp);
    if (!st) st = glevo_gp_programs_create(&gp->progs);
    if (!st) st = glevo_gp_evaluator_create(&gp->P.eval, data, &gp->ev);
    if (st) {
        glevo_gp_destroy(gp);
        return st;
    }
    *out = gp;
    return GLEVO_OK;
}

glevo_status gp_engine_resumed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    const indiv *pop = gp->pops[gp->cur];
    glevo_status st = GLEVO_OK;
    glevo_gp_programs_clear(gp->progs);
    for (int i = 0; i < P->pop && !st; ++i)
        st = glevo_gp_programs_add(gp->progs, pop[i].codes, pop[i].len, pop[i].consts);
    gp->done = gp->generation >= P->generations ||
               (P->stop_on_target && gp->fit[gp->best] <= P->target_error);
    return st;
}

glevo_status glevo_gp_create(const glevo_gp_params *params, const glevo_gp_data *data,
                             glevo_gp **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_gp_params P;
    glevo_status st = gp_resolve_params(params, data, &P);
    glevo_gp *gp = NULL;
    if (!st) st = gp_engine_new(&P, data, &gp);
    if (st) return st;
    initialise(gp);
    if (glevo_interrupt_pending())
        st = glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_create: interrupted while initialising "
                        "the population");
    if (st || (st = evaluate(gp))) {
        glevo_gp_destroy(gp);
        return st;
    }
    *out = gp;
    return GLEVO_OK;
}

glevo_status glevo_gp_step(glevo_gp *gp, int generations)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    if (generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "%s: generations %d is negative", __func__,
                          generations);
    glevo_status st = GLEVO_OK;
    for (int k = 0; k < generations && !gp->done && !st; ++k) {
        if (glevo_interrupt_pending())
            return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_step: interrupted after "
                              "generation %d", gp->generation);
        breed(gp);
        gp->generation++;
        st = evaluate(gp);
    }
    return st;
}

bool glevo_gp_done(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, false);
    return gp->done;
}
int glevo_gp_generation(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, -1);
    return gp->generation;
}
double glevo_gp_best_error(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, NAN);
    return gp->err[gp->best];
}

const glevo_gp_programs *glevo_gp_population(const glevo_gp *gp, int *best)
{
    ARG_NOT_NULL_OR(gp, NULL);
    if (best) *best = gp->best;
    return gp->progs;
}

glevo_status glevo_gp_result_get(const glevo_gp *gp, glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    const indiv *b = &gp->pops[gp->cur][gp->best];
    out->best_error = gp->err[gp->best];
    out->best_nodes = b->len;
    out->evaluations = gp->evaluations;
    out->nodes_evaluated = gp->nodes_evaluated;
    out->generations = gp->generation;
    out->eval_seconds = gp->eval_seconds;
    out->best_sexpr = print_alloc(gp->progs, gp->best, 0);
    out->best_infix = print_alloc(gp->progs, gp->best, 1);
    glevo_status st = glevo_gp_programs_create(&out->best);
    if (!st) st = glevo_gp_programs_add(out->best, b->codes, b->len, b->consts);
    if (!st && (!out->best_sexpr || !out->best_infix))
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    out->seconds = seconds_now() - gp->t0;
    if (st) glevo_gp_result_free(out);
    return st;
}

void glevo_gp_destroy(glevo_gp *gp)
{
    if (!gp) return;
    glevo_gp_evaluator_destroy(gp->ev);
    glevo_gp_programs_destroy(gp->progs);
    free(gp->codes_mem);
    free(gp->consts_mem);
    free(gp->pops[0]);
    free(gp->pops[1]);
    free(gp->err);
    free(gp->fit);
    indiv *bufs[4] = {&gp->scratch, &gp->tmp, &gp->kids[0], &gp->kids[1]};
    for (int k = 0; k < 4; ++k) free(bufs[k]->codes), free(bufs[k]->consts);
    free(gp);
}

/* Result: the best program of the last evaluated generation (elitism keeps the best). */
glevo_status glevo_gp_run(const glevo_gp_params *params, const glevo_gp_data *data,
                          glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_gp *gp = NULL;
    glevo_status st = glevo_gp_create(params, data, &gp);
    while (!st && !glevo_gp_done(gp)) st = glevo_gp_step(gp, 1);
    if (!st) st = glevo_gp_result_get(gp, out);
    glevo_gp_destroy(gp);
    return st;
}
