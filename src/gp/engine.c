/* Generational GP (the paper's Algorithm 1): ramped half-and-half initialisation on the host,
 * then per generation tournament selection, subtree crossover, subtree and point mutation,
 * elitism and a size limit (src/gp/breed/breed.c: each child from random words keyed by (seed,
 * generation, child, purpose)), and evaluation of the whole population by the evaluator.
 * With a GPU backend the population stays on the GPU (src/gp/breed/resident.c) and a generation
 * is one breeding pass (a compute dispatch or a draw) and the evaluation; with the compute
 * backend the fitness, best and elites stay there too (gp/fitness.glsl), read back only when
 * the host reports (gp_fitness_sync); with the CPU backend the host breeds with breed.c, the
 * GPU pass's twin, so all make the same children. This file runs one search: new, its
 * generations (a search beside a portfolio's main one may restart instead), destroy. Above
 * it engine_portfolio.c chains a portfolio's searches (gp->next_search) and engine_run.c is
 * the public create/step/run; below it engine_params.c (defaults, checks), engine_init.c
 * (the first generation), engine_eval.c (a generation's fitness and best), engine_sync.c
 * (the host's copies). */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "gl/gpgpu.h"
#include "gp/eval/eval_internal.h"
#include "gp/sr/const_opt.h"
#include "gp/eval/gpu.h"
#include "gp/breed/parsimony.h"
#include "gp/sr/portfolio.h"

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
    gp->sizes_mem = malloc(pop * cap * sizeof *gp->sizes_mem);
    gp->lens = calloc(pop, sizeof *gp->lens);
    if (!gp->codes_mem || !gp->consts_mem || !gp->pops[0] || !gp->pops[1] || !gp->err ||
        !gp->fit || !gp->scratch.codes || !gp->scratch.consts || !gp->sizes_mem || !gp->lens)
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", P->pop);
    for (int b = 0; b < 2; ++b)
        for (size_t i = 0; i < pop; ++i) {
            size_t at = ((size_t)b * pop + i) * cap;
            gp->pops[b][i].codes = gp->codes_mem + at;
            gp->pops[b][i].consts = gp->consts_mem + at;
        }
    return GLEVO_OK;
}

/* The next generation from the current one (breed.c's children, on the GPU or here). */
static glevo_status breed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    gp_breed_params bp;
    gp_breed_params_init(&bp, P, gp->mask, gp->data->vars, gp->generation);
    double t0 = core_seconds_now();
    glevo_status st = GLEVO_OK;
    if (gp->gpu_fit && !gp->fit_to_gpu) { /* gp/fitness.glsl's fitness and elites, in place */
        st = gp_resident_breed(gp->res, &bp, NULL, NULL);
        gp->host_stale = true;
    } else if (gp->res) {
        gp_breed_elites(&bp, gp->fit, gp->elite);
        st = gp_resident_breed(gp->res, &bp, gp->fit, gp->elite);
        gp->fit_to_gpu = false;
        gp->host_stale = true;
    } else {
        gp_breed_elites(&bp, gp->fit, gp->elite);
        size_t cap = (size_t)P->max_size, at = (size_t)gp->cur * (size_t)P->pop * cap;
        const indiv *cur = gp->pops[gp->cur];
        indiv *nxt = gp->pops[1 - gp->cur];
        for (int i = 0; i < P->pop; ++i)
            gp_subtree_sizes(cur[i].codes, cur[i].len, gp->sizes_mem + (size_t)i * cap);
        gp_parents par = {gp->codes_mem + at, gp->consts_mem + at, gp->sizes_mem, gp->lens,
                          gp->fit, P->max_size};
        gp_child_plan plan;
        for (int c = 0; c < P->pop; ++c) {
            gp_breed_plan(&bp, &par, gp->elite, c, &plan);
            for (int k = 0; k < plan.len; ++k) {
                int32_t size;
                gp_breed_node(&bp, &par, &plan, k, 0, &nxt[c].codes[k], &nxt[c].consts[k], &size);
            }
            nxt[c].len = plan.len;
        }
        for (int c = 0; c < P->pop; ++c) gp->lens[c] = nxt[c].len;
        gp->cur = 1 - gp->cur;
    }
    gp->variation_seconds += core_seconds_now() - t0;
    return st;
}

/* The population in pops[cur] is the generation from now on: its lengths, and the GPU's
 * copy when resident. */
static glevo_status host_population_changed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    for (int i = 0; i < P->pop; ++i) gp->lens[i] = gp->pops[gp->cur][i].len;
    gp->host_stale = false;
    if (!gp->res) return GLEVO_OK;
    size_t at = (size_t)gp->cur * (size_t)P->pop * (size_t)P->max_size;
    gp->res->cur = 0;
    return gp_resident_upload(gp->res, gp->codes_mem + at, gp->consts_mem + at, gp->lens);
}

/* The GPU backends keep the population on the GPU (gp_engine_new refused what it cannot
 * hold), bred by the backend's own driver; GLEVO_GP_HOST_BREED=1 breeds on the host instead
 * (for measuring). */
static glevo_status make_resident(glevo_gp *gp)
{
    const char *host = getenv("GLEVO_GP_HOST_BREED");
    glevo_backend b = glevo_gp_evaluator_backend(gp->ev);
    /* Constant fitting (issue 26) on the GPU: the compute pass shaders/gp/const_fit.glsl fits
     * the resident programs, where the driver runs its loops whole (gp_const_fitter_fits), on
     * the compute backend and, where the context has compute shaders, the fragment backend's
     * runs too (fitting has no render-pass form: it is Levenberg-Marquardt a program to a
     * subgroup; their breeding and evaluation stay render passes). Not the fragment backend's
     * on a software rasterizer, which emulates the pass's doubles (a default run of 1000 x
     * 100 took 14.8 s against 2 s with the twin on llvmpipe, 2026-11-29); there, and on a
     * GL 4.1 context, the host twin (src/gp/sr/const_opt.c) fits the host's copy: then the
     * host breeds and the evaluator reads the programs from the host.
     * GLEVO_GP_HOST_CONSTFIT=1 fits on the host, GLEVO_GP_GPU_CONSTFIT=1 on the GPU where it
     * can (for measuring and the tests). */
    const char *hc = getenv("GLEVO_GP_HOST_CONSTFIT"), *gc = getenv("GLEVO_GP_GPU_CONSTFIT");
    const gpu_limits *l = gpu_context_limits();
    bool fit = gp->P.const_opt_iters > 0;
    bool pass_pays = b == GLEVO_BACKEND_COMPUTE || !l->software || (gc && *gc == '1');
    bool gpu_fitting = fit && b != GLEVO_BACKEND_CPU && l->compute && pass_pays &&
                       !(hc && *hc == '1') && gp_const_fitter_fits(&gp->P, gp->fit_data);
    if (b == GLEVO_BACKEND_CPU || (host && *host == '1') || (fit && !gpu_fitting))
        return GLEVO_OK;
    if (gpu_fitting) {
        gp->fitter = calloc(1, sizeof *gp->fitter);
        if (!gp->fitter) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        int fits = (int)ceil(gp_const_fit_share(&gp->P) * gp->P.pop);
        glevo_status st = gp_const_fitter_create(gp->fitter, gp->fit_data, gp->P.max_size,
                                                 gp->mask, fits);
        if (st) return st;
    }
    gp->res = calloc(1, sizeof *gp->res);
    if (!gp->res) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    /* Fitness on the GPU where its arithmetic is pinned to the host's: sums, quotients by a
     * case count below 2^26 rounded as C rounds them, and linear scaling's closed form and
     * second look (gp/fitness.glsl, gp/scaling.glsl: correctly rounded divisions); not RMSE,
     * whose square root GLSL does not promise to round correctly: it reads the sums back each
     * generation. GLEVO_GP_HOST_FITNESS=1 reads them back every generation (for measuring). */
    const char *hf = getenv("GLEVO_GP_HOST_FITNESS");
    gp->gpu_fit = b == GLEVO_BACKEND_COMPUTE && gp->P.metric != GLEVO_GP_RMSE &&
                  gp->data->cases < (1 << 26) && !(hf && *hf == '1');
    return gp_resident_create(gp->res, gp->P.pop, gp->P.max_size, gp->mask,
                              b == GLEVO_BACKEND_COMPUTE);
}

/* Constant fitting of the resident generation on the GPU (issue 26), where it runs there:
 * the host's copy is behind from then on. */
static glevo_status fit_on_gpu(glevo_gp *gp)
{
    if (!gp->fitter) return GLEVO_OK;
    double t0 = core_seconds_now();
    glevo_status st = gp_const_fitter_run(gp->fitter, gp->res, &gp->P, gp->generation);
    gp->host_stale = true;
    gp->variation_seconds += core_seconds_now() - t0;
    return st;
}

glevo_status gp_engine_new(const glevo_gp_params *P, const glevo_gp_data *data, glevo_gp **out)
{
    *out = NULL;
    /* A GPU run whose population the GPU cannot hold is refused before any allocation. */
    glevo_backend b = glevo_gp_backend_resolve(P->eval.backend);
    if (b != GLEVO_BACKEND_CPU) {
        glevo_status st = glevo_backend_check(b, "glevo_gp_params.backend");
        if (!st) st = gp_resident_check(P->pop, P->max_size,
                                        P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set));
        if (st) return st;
    }
    glevo_gp *gp = calloc(1, sizeof *gp);
    if (!gp) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    gp->t0 = core_seconds_now();
    gp->restart_best = INFINITY;
    gp->restart_known = -1;
    gp->P = *P;
    gp->asked = *P;
    gp->data = data;
    gp->mask = P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set);
    tree_rng_init(&gp->rng, P->seed, 0x454e474eu);
    tree_gen_init(&gp->g, &gp->rng, gp->mask, data->vars, P->const_prob, P->const_min, P->const_max);
    glevo_status st = allocate(gp);
    /* GLEVO_GP_FIT_ALL_CASES=1 fits on every case (for measuring what the spread saves). */
    const char *all = getenv("GLEVO_GP_FIT_ALL_CASES");
    gp->fit_data = data;
    if (!st && P->const_opt_iters > 0 && !(all && *all == '1'))
        st = gp_const_fit_data(data, &gp->fit_data, &gp->fit_data_owned);
    if (!st) st = glevo_gp_programs_create(&gp->progs);
    if (!st) st = glevo_gp_programs_create(&gp->one);
    if (!st) st = glevo_gp_evaluator_create(&gp->P.eval, data, &gp->ev);
    if (!st) st = make_resident(gp);
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
    glevo_status st = host_population_changed(gp);
    if (!st) st = gp_engine_pack_host(gp);
    gp->fit_to_gpu = true; /* the fitness restored or written is the host's */
    gp->done = gp->generation >= P->generations ||
               (P->stop_on_target && gp->fit[gp->best] <= P->target_error);
    return st;
}

/* The host's fitting of a generation, its programs shared out to threads (each program's fit
 * is its own: the result does not depend on the threads). */
typedef struct fit_job {
    glevo_gp *gp;
    atomic_int next;
} fit_job;

static void *fit_worker(void *arg)
{
    fit_job *job = arg;
    glevo_gp *gp = job->gp;
    const glevo_gp_params *P = &gp->P;
    indiv *pop = gp->pops[gp->cur];
    for (int i; (i = atomic_fetch_add(&job->next, 1)) < P->pop;)
        if (gp_const_fit_chosen(P, i, gp->generation))
            gp_const_fit(&pop[i], gp->fit_data, P->const_opt_iters, P->linear_scaling == 1);
    return NULL;
}

/* Constant fitting by the host twin (sr/const_opt.c): the chosen programs of the current
 * population, fitted before it is evaluated. */
static void const_opt_generation(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    if (P->const_opt_iters <= 0 || P->const_opt_fraction <= 0) return;
    /* The CPU evaluator's threads (glevo_gp_eval_params.threads: 0 = every core). */
    fit_job job = {.gp = gp};
    atomic_init(&job.next, 0);
    gp_run_on_threads(gp_cpu_threads(P->eval.threads, P->pop), fit_worker, &job);
}

/* A grown population in pops[0] (generation 0's or a restart's): fitted, on the GPU where it
 * lives, its evaluation issued. */
static glevo_status grown_generation_submit(glevo_gp *gp)
{
    if (!gp->fitter) const_opt_generation(gp);
    glevo_status st = host_population_changed(gp);
    if (!st) st = fit_on_gpu(gp);
    if (!st) st = gp_engine_evaluate_submit(gp);
    return st;
}

glevo_status gp_engine_prebuild(glevo_gp *gp)
{
    if (!gp->res) return GLEVO_OK;
    glevo_status st = GLEVO_OK;
    /* For generation 0's depth (its walks need at most init_max_depth + 1 slots), not the
     * bound's: a run never builds a shallower stack than one it has (gp_build_stack), and
     * the bound's deeper one would slow every generation (H200, 2026-11-29: 10^5 x 1000 with
     * EvoGP's algorithm 0.45 s against 0.33). */
    glevo_gp_programs shape;
    gp_resident_grown_shape(gp->res, gp->P.init_max_depth + 1, &shape);
    if (glevo_gp_evaluator_backend(gp->ev) == GLEVO_BACKEND_COMPUTE)
        st = gp_compute_prebuild(gp->ev, &shape);
    if (!st && gp->gpu_fit) st = gp_resident_fitness_prebuild(gp->res);
    if (!st && gp->fitter) st = gp_const_fitter_prebuild(gp->fitter);
    return st;
}

/* Generation 0 of one search: grown (with the enumeration's short programs where it has
 * them), fitted, evaluated. */
glevo_status gp_engine_first_generation(glevo_gp *gp)
{
    glevo_status st = gp_engine_initialise(gp);
    if (!st) st = gp_enumerate_seed(gp);
    if (!st) st = grown_generation_submit(gp);
    return st ? st : gp_engine_evaluate_collect(gp);
}

/* The next generation of one search: bred, fitted, its evaluation issued. */
static glevo_status next_generation_submit(glevo_gp *gp)
{
    glevo_status st = breed(gp);
    if (st) return st;
    gp->generation++;
    if (gp->fitter) {
        st = fit_on_gpu(gp);
    } else if (gp->P.const_opt_iters > 0) { /* the host twin on the host's copy */
        if (!(st = gp_host_sync(gp))) {
            const_opt_generation(gp);
            st = host_population_changed(gp);
        }
    }
    return st ? st : gp_engine_evaluate_submit(gp);
}

/* The record of search s's best (restart_best, the generation restart_since it was reached)
 * takes in the bests of generations restart_known + 1 .. through, in order: the host's where
 * it holds them, else gp/fitness.glsl's record of each generation's (one read). */
glevo_status gp_restart_take(glevo_gp *s, int through)
{
    int first = s->restart_known + 1, n = through - s->restart_known;
    if (s->restart_after <= 0 || n <= 0) return GLEVO_OK;
    double f[GP_BEST_HISTORY];
    glevo_status st = GLEVO_OK;
    if (s->fit_stale || n > 1)
        st = gp_resident_read_best_history(s->res, first, n, f);
    else
        f[0] = s->fit[s->best];
    for (int k = 0; k < n && !st; ++k)
        if (f[k] < s->restart_best) s->restart_best = f[k], s->restart_since = first + k;
    if (!st) s->restart_known = through;
    return st;
}

/* Whether search s starts again instead of breeding its next generation: it has gone
 * s->restart_after generations without a better best and as many remain. The bests not
 * taken in yet can only move restart_since later, so where the record says no restart is
 * due, none is: where the fitness stays on the GPU (gpu_fit) the bests are read only where
 * one may be (or before the record of GP_BEST_HISTORY generations comes round), each read a
 * wait for the GPU, not every generation (four a generation at the defaults, one a helper). */
static glevo_status restart_due(glevo_gp *s, bool *due)
{
    *due = false;
    if (s->restart_after <= 0) return GLEVO_OK;
    int g = s->generation;
    bool may = g - s->restart_since >= s->restart_after && g + s->restart_after < s->P.generations;
    glevo_status st = GLEVO_OK;
    if (may || !s->gpu_fit || g - s->restart_known >= GP_BEST_HISTORY - 1)
        st = gp_restart_take(s, g);
    *due = !st && g - s->restart_since >= s->restart_after && g + s->restart_after < s->P.generations;
    return st;
}

/* A search that starts again (restart_due; sr/portfolio.c says why) in place of breeding a
 * generation: generation 0's way (grown, fitted, its evaluation issued) from its next restart
 * seed, with its best program in slot 0. */
static glevo_status restart_search(glevo_gp *gp)
{
    /* The best alone comes back from the GPU (its index, then its slot), not the population. */
    int best = gp->best;
    double fit;
    indiv kept = gp->scratch;
    glevo_status st = gp->fit_stale ? gp_resident_read_best(gp->res, &best, &fit) : GLEVO_OK;
    if (!st) st = gp_engine_program(gp, best, kept.codes, kept.consts, &kept.len);
    if (st) return st;
    uint32_t seed = gp->P.seed;
    gp->P.seed = gp_portfolio_restart_seed(seed, ++gp->restarts);
    st = gp_engine_initialise(gp); /* into pops[0] */
    gp->P.seed = seed;
    if (st) return st;
    gp->cur = 0;
    indiv *slot = &gp->pops[0][0];
    memcpy(slot->codes, kept.codes, sizeof *kept.codes * (size_t)kept.len);
    memcpy(slot->consts, kept.consts, sizeof *kept.consts * (size_t)kept.len);
    slot->len = kept.len;
    gp->generation++;
    gp->restart_since = gp->generation;
    return grown_generation_submit(gp);
}

/* Search s's next generation: bred, or a restart; its evaluation issued. */
glevo_status gp_engine_step_submit(glevo_gp *s)
{
    bool restart;
    glevo_status st = restart_due(s, &restart);
    if (st) return st;
    return restart ? restart_search(s) : next_generation_submit(s);
}

void glevo_gp_destroy(glevo_gp *gp)
{
    if (!gp) return;
    gp_enumerate_abandon(gp);
    glevo_gp_destroy(gp->next_search);
    if (gp->res) gp_resident_destroy(gp->res);
    free(gp->res);
    if (gp->fitter) gp_const_fitter_destroy(gp->fitter);
    free(gp->fitter);
    glevo_gp_data_destroy(gp->fit_data_owned);
    glevo_gp_evaluator_destroy(gp->ev);
    glevo_gp_programs_destroy(gp->progs);
    glevo_gp_programs_destroy(gp->one);
    free(gp->model_cache.codes);
    free(gp->model_cache.consts);
    free(gp->model_cache.sexpr);
    free(gp->codes_mem);
    free(gp->consts_mem);
    free(gp->pops[0]);
    free(gp->pops[1]);
    free(gp->err);
    free(gp->fit);
    free(gp->scratch.codes);
    free(gp->scratch.consts);
    free(gp->sizes_mem);
    free(gp->lens);
    free(gp);
}

