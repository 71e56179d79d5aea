/* Generational GP (the paper's Algorithm 1): ramped half-and-half initialisation on the host,
 * then per generation tournament selection, subtree crossover, subtree and point mutation,
 * elitism and a size limit (src/gp/breed.c: each child from random words keyed by (seed,
 * generation, child, purpose)), and evaluation of the whole population by the evaluator.
 * With a GPU backend the population stays on the GPU (src/gp/resident.c) and a generation
 * is one breeding pass (a compute dispatch or a draw) and the evaluation; with the compute
 * backend the fitness, best and elites stay there too (gp/fitness.glsl), read back only when
 * the host reports (gp_fitness_sync); with the CPU backend
 * the host breeds with breed.c, the GPU pass's twin, so all make the same children. create/step/destroy like the
 * other families; glevo_gp_run is create, step to the end, result. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "core/memory.h"
#include "gl/gpgpu.h"
#include "gp/eval_internal.h"
#include "gp/const_opt.h"
#include "gp/gpu.h"
#include "gp/model.h"
#include "gp/parsimony.h"
#include "gp/sr_params.h"

/* ---- individuals ---- */
static void copy_indiv(indiv *dst, const indiv *src)
{
    memcpy(dst->codes, src->codes, (size_t)src->len * sizeof *src->codes);
    memcpy(dst->consts, src->consts, (size_t)src->len * sizeof *src->consts);
    dst->len = src->len;
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
    free(r->best_sympy);
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
    gp_sr_params_defaults(&P); /* issue 26: src/gp/sr_params.c */
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
    P.eval.moments = P.linear_scaling == 1; /* issue 26: the evaluator sums f*y, f*f, f */
    *out = P;
    glevo_status sr = gp_sr_params_check(&P); /* issue 26: src/gp/sr_params.c */
    if (sr) return sr;
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

/* Ramped half-and-half: depths cycle through min..max, alternating full and grow; a tree
 * over the size limit is redrawn one level shallower. Program i draws from its own stream
 * (seed, "INIT", i), so the programs are made on several threads and the same on any count. */
typedef struct init_job {
    glevo_gp *gp;
    int first, last;
    uint32_t *codes;
    float *consts;
} init_job;

static void *initialise_range(void *arg)
{
    init_job *job = arg;
    glevo_gp *gp = job->gp;
    const glevo_gp_params *P = &gp->P;
    int ndepths = P->init_max_depth - P->init_min_depth + 1;
    gp_rng rng;
    tree_gen g = gp->g;
    g.rng = &rng;
    for (int i = job->first; i < job->last; ++i) {
        /* A huge population takes seconds: stop when asked (glevo_gp_create then refuses). */
        if ((i - job->first) % 4096 == 0 && glevo_interrupt_pending()) return NULL;
        tree_rng_init(&rng, P->seed, 0x494e4954u /* "INIT" */);
        rng.stream = (uint32_t)i;
        int depth = P->init_min_depth + (i / 2) % ndepths;
        int full = i % 2 == 0;
        for (;;) {
            int n = 0;
            int max_nodes = 1;
            for (int d = 0; d < depth && max_nodes <= gp->scratch_cap; ++d)
                max_nodes = max_nodes * gp_mask_max_arity(gp->mask) + 1;
            if (max_nodes <= gp->scratch_cap) {
                tree_random(&g, depth, full, job->codes, job->consts, &n);
                if (n <= P->max_size) {
                    indiv t = {job->codes, job->consts, n};
                    copy_indiv(&gp->pops[0][i], &t);
                    break;
                }
            }
            if (depth > 0) depth--;
        }
    }
    return NULL;
}

static glevo_status initialise(glevo_gp *gp)
{
    enum { MAX_THREADS = 16 };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    if (threads > gp->P.pop / 256) threads = gp->P.pop / 256 > 0 ? gp->P.pop / 256 : 1;
    init_job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    size_t cap = (size_t)gp->scratch_cap;
    uint32_t *codes = malloc((size_t)threads * cap * sizeof *codes);
    float *consts = malloc((size_t)threads * cap * sizeof *consts);
    if (!codes || !consts) {
        free(codes), free(consts);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", gp->P.pop);
    }
    int started = 0;
    for (int t = 0; t < threads; ++t) {
        jobs[t] = (init_job){gp, (int)((long long)gp->P.pop * t / threads),
                             (int)((long long)gp->P.pop * (t + 1) / threads), codes + t * cap,
                             consts + t * cap};
        /* The first range runs here, and any a thread could not start. */
        if (t > 0 && pthread_create(&tid[t], NULL, initialise_range, &jobs[t]) == 0)
            started |= 1 << t;
    }
    initialise_range(&jobs[0]);
    for (int t = 1; t < threads; ++t) {
        if (started >> t & 1) pthread_join(tid[t], NULL);
        else initialise_range(&jobs[t]);
    }
    free(codes), free(consts);
    if (glevo_interrupt_pending())
        return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_create: interrupted while initialising "
                          "the population");
    return GLEVO_OK;
}

/* The best program of the current generation alone in out (from the GPU when resident). */
static glevo_status best_program(const glevo_gp *gp, glevo_gp_programs *out)
{
    glevo_gp_programs_clear(out);
    if (gp->res && gp->host_stale) {
        int len = 0;
        glevo_status st = gp_resident_read_slot(gp->res, gp->best, gp->scratch.codes,
                                                gp->scratch.consts, &len);
        return st ? st : glevo_gp_programs_add(out, gp->scratch.codes, len, gp->scratch.consts);
    }
    const indiv *b = &gp->pops[gp->cur][gp->best];
    return glevo_gp_programs_add(out, b->codes, b->len, b->consts);
}

/* The evaluator's container of the host population (what glevo_gp_population returns). */
static glevo_status pack_host(glevo_gp *gp)
{
    const indiv *pop = gp->pops[gp->cur];
    glevo_status st = GLEVO_OK;
    glevo_gp_programs_clear(gp->progs);
    for (int i = 0; i < gp->P.pop && !st; ++i)
        st = glevo_gp_programs_add(gp->progs, pop[i].codes, pop[i].len, pop[i].consts);
    return st;
}

/* GLEVO_OK for CPU evaluation, and where the evaluator's GL context is current on this
 * thread (gpu_context_check): the resident engine breeds and reads on the GPU. */
static glevo_status gp_gl_ready(const glevo_gp *gp, const char *function)
{
    if (!gp->ev || gp->ev->backend == GLEVO_BACKEND_CPU) return GLEVO_OK;
    return gpu_context_check(gp->ev->context, function);
}

glevo_status gp_fitness_sync(const glevo_gp *cgp)
{
    if (!cgp->fit_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    glevo_gp *gp = (glevo_gp *)cgp; /* a cache of the GPU's, as in gp_host_sync */
    const glevo_gp_params *P = &gp->P;
    gp_fit_head head;
    glevo_status st = gp_resident_read_fitness(gp->res, gp->err, gp->fit, &head);
    if (!st) st = gp_resident_read_stats(gp->res);
    if (st) return st;
    if (head.bad >= 0)
        return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back with "
                          "wrong run marks from the compute dispatches (a shader loop cut "
                          "short, a lost context or a driver timeout)", head.bad + 1);
    memcpy(gp->lens, gp->res->lens, sizeof *gp->lens * (size_t)P->pop);
    gp->best = head.best;
    memcpy(gp->elite, head.elite, sizeof head.elite);
    gp->nodes_evaluated += (long long)(head.codes - gp->codes_seen) * gp->data->cases;
    gp->codes_seen = head.codes;
    gp->fit_stale = false;
    return GLEVO_OK;
}

glevo_status gp_host_sync(const glevo_gp *cgp)
{
    glevo_status fst = gp_fitness_sync(cgp);
    if (fst) return fst;
    if (!cgp->res || !cgp->host_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    /* The host copy is a cache of the GPU's population: filling it changes no state a caller
     * can see, hence the cast. */
    glevo_gp *gp = (glevo_gp *)cgp;
    size_t at = (size_t)gp->cur * (size_t)gp->P.pop * (size_t)gp->P.max_size;
    glevo_status st = gp_resident_download(gp->res, gp->codes_mem + at, gp->consts_mem + at,
                                           gp->lens);
    for (int i = 0; i < gp->P.pop && !st; ++i) gp->pops[gp->cur][i].len = gp->lens[i];
    if (!st) st = pack_host(gp);
    if (!st) gp->host_stale = false;
    return st;
}

/* Evaluates the current population, finds its best, reports progress and decides whether
 * the run is over (the last generation, or the target reached). */
static glevo_status report(glevo_gp *gp);
static glevo_status evaluate(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    glevo_status st = GLEVO_OK;
    long long nodes;
    if (gp->gpu_fit) {
        double te = seconds_now();
        gp_resident_lend(gp->res, gp->ev);
        gp_gpu_results res;
        st = gp_compute_evaluate_on_gpu(gp->ev, &gp->res->shape, &res);
        int elites = P->elitism < GP_ELITE_MAX ? P->elitism : GP_ELITE_MAX;
        if (!st) st = gp_resident_fitness(gp->res, &res, P->metric, gp->data->cases, elites);
        gp->eval_seconds += seconds_now() - te;
        if (st) return st;
        gp->evaluations += P->pop;
        gp->fit_stale = true;
        gp->fit_to_gpu = false;
        /* Progress and the target need this generation's best now; otherwise nothing comes
         * back until the host reports. */
        if ((P->progress || P->stop_on_target) && (st = gp_fitness_sync(gp))) return st;
        return report(gp);
    }
    if (gp->res) {
        double te = seconds_now();
        gp_resident_lend(gp->res, gp->ev);
        st = gp_evaluate_unchecked(gp->ev, &gp->res->shape, P->metric, gp->err);
        gp->eval_seconds += seconds_now() - te;
        if (!st) st = gp_resident_read_stats(gp->res);
        if (!st) memcpy(gp->lens, gp->res->lens, sizeof *gp->lens * (size_t)P->pop);
        nodes = gp->res->total;
    } else {
        if ((st = pack_host(gp))) return st;
        double te = seconds_now();
        st = glevo_gp_evaluate(gp->ev, gp->progs, P->metric, gp->err);
        gp->eval_seconds += seconds_now() - te;
        nodes = glevo_gp_programs_nodes(gp->progs);
    }
    if (st) return st;
    gp->evaluations += P->pop;
    gp->nodes_evaluated += nodes * (long long)gp->data->cases;
    for (int i = 0; i < P->pop; ++i) gp->fit[i] = gp_fitness_of(P->metric, gp->err[i]);
    gp->best = gp_find_best(gp);
    return report(gp);
}

/* Progress and the end test of an evaluated generation (its best on the host where they are
 * asked for). */
static glevo_status report(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    glevo_status st;
    int best = gp->best;
    if (P->progress) {
        if ((st = best_program(gp, gp->one))) return st;
        char *s = print_alloc(gp->one, 0, 0);
        P->progress(P->progress_user, gp->generation, gp->err[best], s ? s : "");
        free(s);
    }
    gp->done = gp->generation == P->generations ||
               (P->stop_on_target && gp->fit[best] <= P->target_error);
    return GLEVO_OK;
}

int gp_find_best(const glevo_gp *gp)
{
    int best = 0;
    for (int i = 0; i < gp->P.pop; ++i)
        /* Ties go to the smaller program (parsimony). */
        if (gp->fit[i] < gp->fit[best] ||
            (gp->fit[i] == gp->fit[best] && gp->lens[i] < gp->lens[best]))
            best = i;
    return best;
}

/* The next generation from the current one (breed.c's children, on the GPU or here). */
static glevo_status breed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    gp_breed_params bp;
    gp_breed_params_init(&bp, P, gp->mask, gp->data->vars, gp->generation);
    double t0 = seconds_now();
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
    gp->variation_seconds += seconds_now() - t0;
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
    /* issue 26: the resident path has no parsimony in its GPU tournament (src/gp/parsimony.h
     * says what it must compare), no second look at nearly exact scaled programs (it needs
     * their codes, evaluator.c) and no constant fitting: with any of them on, the host breeds
     * and the evaluator reads the programs from the host, as before the resident engine. */
    if (b == GLEVO_BACKEND_CPU || (host && *host == '1') || gp->P.parsimony > 0 ||
        gp->P.linear_scaling == 1 || gp->P.const_opt_iters > 0)
        return GLEVO_OK;
    gp->res = calloc(1, sizeof *gp->res);
    if (!gp->res) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    /* Fitness on the GPU where its arithmetic is pinned to the host's: sums, and quotients
     * by a case count below 2^26 rounded as C rounds them (gp/fitness.glsl); not RMSE, whose square root GLSL does not
     * promise to round correctly. Opt-in (GLEVO_GP_GPU_FITNESS=1) for now: on the H100 the
     * merged build's fitness pass reported wrong run marks on every run (program 1, from the
     * first generation; llvmpipe agrees with the host), while the host's fitness runs there
     * were right; docs/performance.md, "GP on the GPU: open". */
    const char *gf = getenv("GLEVO_GP_GPU_FITNESS");
    gp->gpu_fit = b == GLEVO_BACKEND_COMPUTE && gp->P.metric != GLEVO_GP_RMSE &&
                  gp->data->cases < (1 << 26) && gf && *gf == '1';
    return gp_resident_create(gp->res, gp->P.pop, gp->P.max_size, gp->mask,
                              b == GLEVO_BACKEND_COMPUTE);
}

glevo_status gp_engine_new(const glevo_gp_params *P, const glevo_gp_data *data, glevo_gp **out)
{
    *out = NULL;
    /* A GPU run whose population the GPU cannot hold is refused before any allocation. */
    glevo_backend b = glevo_backend_resolve(P->eval.backend);
    if (b != GLEVO_BACKEND_CPU) {
        glevo_status st = glevo_backend_check(b, "glevo_gp_params.backend");
        if (!st) st = gp_resident_check(P->pop, P->max_size,
                                        P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set));
        if (st) return st;
    }
    glevo_gp *gp = calloc(1, sizeof *gp);
    if (!gp) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    gp->t0 = seconds_now();
    gp->P = *P;
    gp->data = data;
    gp->mask = P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set);
    tree_rng_init(&gp->rng, P->seed, 0x454e474eu);
    tree_gen_init(&gp->g, &gp->rng, gp->mask, data->vars, P->const_prob, P->const_min, P->const_max);
    glevo_status st = allocate(gp);
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
    if (!st) st = pack_host(gp);
    gp->fit_to_gpu = true; /* the fitness restored or written is the host's */
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
    if (!(st = initialise(gp))) gp_const_opt_generation(gp); /* issue 26: src/gp/const_opt.c */
    if (st || (st = host_population_changed(gp)) || (st = evaluate(gp))) {
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
    glevo_status st = gp_gl_ready(gp, __func__);
    if (st) return st;
    for (int k = 0; k < generations && !gp->done && !st; ++k) {
        if (glevo_interrupt_pending())
            return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_step: interrupted after "
                              "generation %d", gp->generation);
        if ((st = breed(gp))) break;
        gp->generation++;
        if (gp->P.const_opt_iters > 0) { /* issue 26: constant fitting on the host copy */
            if ((st = gp_host_sync(gp))) break;
            gp_const_opt_generation(gp);
            if ((st = host_population_changed(gp))) break;
        }
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
double glevo_gp_best_error(const glevo_gp *gp)
{
    ARG_NOT_NULL_OR(gp, NAN);
    return gp_fitness_sync(gp) ? NAN : gp->err[gp->best];
}

const glevo_gp_programs *glevo_gp_population(const glevo_gp *gp, int *best)
{
    ARG_NOT_NULL_OR(gp, NULL);
    /* Resident: the programs come back from the GPU (a failure leaves the last copy). The
     * container is packed here, on demand: GPU runs never fill it on their own, and a
     * container of an earlier generation (or none, right after create) would not match
     * *best. */
    if (!gp_host_sync(gp)) pack_host((glevo_gp *)gp);
    if (best) *best = gp->best;
    return gp->progs;
}

glevo_status glevo_gp_result_get(const glevo_gp *gp, glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_status fst = gp_fitness_sync(gp);
    if (fst) return fst;
    out->best_error = gp->err[gp->best];
    out->best_nodes = gp->lens[gp->best];
    out->evaluations = gp->evaluations;
    out->nodes_evaluated = gp->nodes_evaluated;
    out->generations = gp->generation;
    out->eval_seconds = gp->eval_seconds;
    out->variation_seconds = gp->variation_seconds;
    glevo_status st = glevo_gp_programs_create(&out->best);
    if (!st) st = best_program(gp, out->best);
    if (!st) {
        out->best_sexpr = print_alloc(out->best, 0, 0);
        out->best_infix = print_alloc(out->best, 0, 1);
    }
    if (!st) st = gp_model_finish(&gp->P, gp->data, out); /* issue 26: the printed model */
    if (!st && (!out->best_sexpr || !out->best_infix))
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    out->seconds = seconds_now() - gp->t0;
    if (st) glevo_gp_result_free(out);
    return st;
}

void glevo_gp_destroy(glevo_gp *gp)
{
    if (!gp) return;
    if (gp->res) gp_resident_destroy(gp->res);
    free(gp->res);
    glevo_gp_evaluator_destroy(gp->ev);
    glevo_gp_programs_destroy(gp->progs);
    glevo_gp_programs_destroy(gp->one);
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
