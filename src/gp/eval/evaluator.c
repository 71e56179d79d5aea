/* glevo_gp_evaluator: one front for every backend (the CPU interpreter, fragment passes,
 * compute dispatches), so callers pick a backend and, for the fragment passes, a layout; the
 * variable check and the metrics are the same for all. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/eval/gpu.h"
#include "core/args.h"
#include "gl/gpgpu.h"
#include "glevo/context.h"

/* GP's auto: the CPU engine on a software rasterizer (glevo/gp.h says why). */
glevo_backend glevo_gp_backend_resolve(glevo_backend b)
{
    if (b != GLEVO_BACKEND_AUTO) return b;
    glevo_features f;
    glevo_context_features(NULL, &f);
    return f.software ? GLEVO_BACKEND_CPU : glevo_backend_resolve(b);
}

glevo_gp_strategy glevo_gp_evaluator_strategy(const glevo_gp_evaluator *e)
{
    ARG_NOT_NULL_OR(e, GLEVO_GP_AUTO);
    return e->used;
}
glevo_backend glevo_gp_evaluator_backend(const glevo_gp_evaluator *e)
{
    ARG_NOT_NULL_OR(e, GLEVO_BACKEND_FRAGMENT);
    return e->backend;
}

/* The CPU backend: the threaded interpreter (interp_cpu.c), no state. */
static glevo_status cpu_create(glevo_gp_evaluator *e)
{
    (void)e;
    return GLEVO_OK;
}
static glevo_status cpu_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                 glevo_gp_sums *sums)
{
    return gp_evaluate_cpu_sums(p, e->data, e->params.threads, e->params.moments, sums);
}
static void cpu_destroy(glevo_gp_evaluator *e) { (void)e; }
const gp_eval_ops gp_cpu_ops = {cpu_create, cpu_evaluate, cpu_destroy, NULL, NULL, NULL};

glevo_status glevo_gp_evaluator_create(const glevo_gp_eval_params *params,
                                       const glevo_gp_data *data, glevo_gp_evaluator **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_gp_eval_params p = params ? *params : (glevo_gp_eval_params){0};
    if (p.lanes == 0) p.lanes = 1; /* more lanes measured slower (H100) */
    if (p.lanes < 1 || p.lanes > 8)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.lanes %d is outside 1..8",
                          p.lanes);
    if (p.prog_lanes < 0 || p.prog_lanes > GP_SUM_LANES || (p.prog_lanes & (p.prog_lanes - 1)))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.prog_lanes %d is not 0 or a "
                          "power of two up to %d", p.prog_lanes, GP_SUM_LANES);
    if (!(p.max_draw_steps >= 0 && p.max_draw_steps <= 1e18))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.max_draw_steps %g is not a "
                          "number in [0, 1e18]", p.max_draw_steps);
    if (p.threads < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.threads %d is negative",
                          p.threads);
    if (p.group < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.group %d is negative", p.group);
    if ((unsigned)p.strategy > GLEVO_GP_PPCU)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.strategy %d is unknown",
                          (int)p.strategy);
    glevo_backend backend = glevo_gp_backend_resolve(p.backend);
    glevo_status st = glevo_backend_check(backend, "glevo_gp_eval_params.backend");
    if (st) return st;
    glevo_gp_evaluator *e = calloc(1, sizeof *e);
    if (!e) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the evaluator");
    e->params = p;
    e->params.backend = backend;
    e->backend = backend;
    e->context = gpu_context_serial();
    e->used = backend == GLEVO_BACKEND_FRAGMENT ? p.strategy : GLEVO_GP_AUTO;
    e->data = data;
    for (int c = 0; c < data->cases; ++c) {
        e->sum_y += data->y[c];
        e->sum_yy += (double)data->y[c] * data->y[c];
    }
    e->ops = backend == GLEVO_BACKEND_CPU       ? &gp_cpu_ops
             : backend == GLEVO_BACKEND_COMPUTE ? &gp_compute_ops
                                                : &gp_fragment_ops;
    st = e->ops->create(e);
    if (st) {
        glevo_gp_evaluator_destroy(e);
        return st;
    }
    *out = e;
    return GLEVO_OK;
}

void glevo_gp_evaluator_destroy(glevo_gp_evaluator *e)
{
    if (!e) return;
    e->ops->destroy(e);
    free(e->sums);
    free(e);
}

/* Linear scaling's second look: the moments' closed form cannot tell errors below ~1e-7 of
 * the target's variance from rounding (src/gp/eval/scaling.c), so the programs whose estimate is
 * that close to exact (R^2 above 1 - GP_SCALED_REFINE) are evaluated again as the model
 * (+ a (* b f)) with a and b as floats, without moments: their error is then that of the
 * printed model, down to 0, and an exact program beats a nearly exact one. The same
 * programs on every backend (a, b come from the same sums), so the errors stay the same bits. */
#define GP_SCALED_REFINE 1e-4

/* Program i's codes (constants indexed into consts) for the second look: from a container,
 * or from wherever a caller keeps them (the resident population's slots). */
static glevo_status codes_of_container(void *user, int i, uint32_t *codes, float *consts,
                                       int *len)
{
    const glevo_gp_programs *p = user;
    const uint32_t *c = glevo_gp_programs_codes(p, i, len);
    for (int k = 0; k < *len; ++k) {
        codes[k] = c[k];
        if (GLEVO_GP_CODE_OP(c[k]) == GLEVO_GP_CONST) {
            consts[k] = p->consts[GLEVO_GP_CODE_INDEX(c[k])];
            codes[k] = GLEVO_GP_CODE(GLEVO_GP_CONST, (uint32_t)k);
        }
    }
    return GLEVO_OK;
}

/* Past this many programs the compute backend takes the second look on the GPU: below it,
 * reading a few programs from their slots costs less than evaluating the population again. */
#define GP_REFINE_ON_GPU 32

/* The second look on the compute backend: the programs of p evaluated again with each
 * flagged one's a and b applied to its result (e->affine; gp/interp.glsl, u_moments 2),
 * where the host path reads them back (a converged population of 10^5: the whole of it,
 * every generation), wraps each in (+ a (* b f)) and uploads that. The same sums, bit for bit:
 * the same walk of f, the same two roundings, the same summation order. */
static glevo_status refine_scaled_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                      glevo_gp_metric metric, const double *sse,
                                      const double *ab, double limit, double *errors)
{
    int pop = p->count, n = e->data->cases;
    float *affine = malloc((size_t)pop * 2 * sizeof *affine);
    glevo_gp_sums *s = malloc((size_t)pop * sizeof *s);
    glevo_status st = affine && s ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < pop && !st; ++i) {
        bool look = sse[i] <= limit;
        affine[2 * i] = look ? (float)ab[2 * i] : 0.0f;
        affine[2 * i + 1] = look ? (float)ab[2 * i + 1] : 1.0f;
    }
    if (!st) {
        e->params.moments = false;
        e->affine = affine;
        st = e->ops->evaluate(e, p, s);
        e->affine = NULL;
        e->params.moments = true;
    }
    for (int i = 0; i < pop && !st; ++i)
        if (sse[i] <= limit) errors[i] = glevo_gp_metric_value(metric, &s[i], n);
    free(affine);
    free(s);
    return st;
}

double gp_evaluator_refine_limit(const glevo_gp_evaluator *e)
{
    int n = e->data->cases;
    double syy_c = e->sum_yy - e->sum_y * (e->sum_y / n);
    return GP_SCALED_REFINE * syy_c;
}

static glevo_status refine_scaled(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                  const gp_program_source *src, glevo_gp_metric metric,
                                  const double *sse, const double *ab, double *errors)
{
    int n = e->data->cases, count = 0, pop = p->count, max_length = p->max_length;
    double limit = gp_evaluator_refine_limit(e);
    for (int i = 0; i < pop; ++i) count += sse[i] <= limit;
    if (count == 0) return GLEVO_OK;
    if (e->backend == GLEVO_BACKEND_COMPUTE && count > GP_REFINE_ON_GPU &&
        !getenv("GLEVO_GP_REFINE_ON_HOST"))
        return refine_scaled_gpu(e, p, metric, sse, ab, limit, errors);
    int *idx = malloc((size_t)count * sizeof *idx);
    glevo_gp_sums *s = malloc((size_t)count * sizeof *s);
    uint32_t *codes = malloc(((size_t)max_length + 4) * 2 * sizeof *codes);
    float *consts = malloc(((size_t)max_length + 4) * 2 * sizeof *consts);
    glevo_gp_programs *q = NULL;
    glevo_status st = idx && s && codes && consts ? glevo_gp_programs_create(&q)
                                                  : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    uint32_t *mine = codes + max_length + 4;
    float *mine_consts = consts + max_length + 4;
    for (int i = 0, k = 0; i < pop && !st; ++i) {
        if (!(sse[i] <= limit)) continue;
        int len;
        st = src->get(src->user, i, mine, mine_consts, &len);
        if (st) break;
        int m = gp_scaled_program(mine, len, mine_consts, (float)ab[2 * i], (float)ab[2 * i + 1],
                                  codes, consts);
        st = glevo_gp_programs_add(q, codes, m, consts);
        idx[k++] = i;
    }
    if (!st) {
        /* On a resident population the evaluator reads its slots: q goes to its own textures. */
        struct gp_gpu *g = gp_evaluator_gpu(e);
        bool swap = g && g->resident;
        if (swap) gp_gpu_swap_own(g);
        e->params.moments = false;
        /* The layout of the population's evaluation, so that its build serves (a few
         * programs would otherwise pick the 64-lane kernel where the population ran the
         * small-data one); a driver's loop limit may refuse it for these longer programs. */
        int asked = e->params.prog_lanes;
        if (!asked) e->params.prog_lanes = e->last_prog_lanes;
        st = e->ops->evaluate(e, q, s);
        if (st == GLEVO_ERR_UNSUPPORTED && !asked && e->last_prog_lanes) {
            e->params.prog_lanes = 0;
            st = e->ops->evaluate(e, q, s);
        }
        e->params.prog_lanes = asked;
        e->params.moments = true;
        if (swap) gp_gpu_swap_own(g);
    }
    for (int k = 0; k < count && !st; ++k)
        errors[idx[k]] = glevo_gp_metric_value(metric, &s[k], n);
    glevo_gp_programs_destroy(q);
    free(idx), free(s), free(codes), free(consts);
    return st;
}

/* Room for pop sums; first, that a GPU evaluator's context is current on this thread
 * (gpu_context_check): every evaluation passes here. */
static glevo_status room_for(glevo_gp_evaluator *e, int pop, const char *function)
{
    if (e->backend != GLEVO_BACKEND_CPU) {
        glevo_status ready = gpu_context_check(e->context, function);
        if (ready) return ready;
    }
    if (e->sums_cap < pop) {
        glevo_gp_sums *n = realloc(e->sums, (size_t)pop * sizeof *n);
        if (!n) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d errors", pop);
        e->sums = n;
        e->sums_cap = pop;
    }
    return GLEVO_OK;
}

/* Room for pop sums, and every variable a program reads present in the data. */
static glevo_status check_programs(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                   const char *function)
{
    int pop = p->count;
    glevo_status st = room_for(e, pop, function);
    if (st) return st;
    for (int i = 0; i < pop; ++i) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
        for (int k = 0; k < len; ++k)
            if (GLEVO_GP_CODE_OP(c[k]) == GLEVO_GP_VAR &&
                (int)GLEVO_GP_CODE_INDEX(c[k]) >= e->data->vars)
                return glevo_fail(GLEVO_ERR_INVALID,
                                  "program %d uses x%u but the data has %d input variable(s)",
                                  i + 1, GLEVO_GP_CODE_INDEX(c[k]) + 1, e->data->vars);
    }
    return GLEVO_OK;
}

static glevo_status check_moments(const glevo_gp_evaluator *e, glevo_gp_metric metric)
{
    if (e->params.moments && metric != GLEVO_GP_MSE && metric != GLEVO_GP_RMSE)
        return glevo_fail(GLEVO_ERR_INVALID, "linear scaling (glevo_gp_eval_params.moments) "
                          "needs metric mse or rmse, not %s", glevo_gp_metric_name(metric));
    return GLEVO_OK;
}

/* The errors from the sums: the metric, or with moments linear scaling's closed form and the
 * second look at nearly exact programs, whose codes come from src. */
static glevo_status finish(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                           glevo_gp_metric metric, double *errors, const gp_program_source *src)
{
    int n = e->data->cases, pop = p->count;
    if (!e->params.moments) {
        for (int i = 0; i < pop; ++i) errors[i] = glevo_gp_metric_value(metric, &e->sums[i], n);
        return GLEVO_OK;
    }
    double *sse = malloc((size_t)pop * 3 * sizeof *sse), *ab = sse + pop;
    if (!sse) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d errors", pop);
    for (int i = 0; i < pop; ++i) {
        gp_scaling_from_moments(&e->sums[i], e->sum_y, e->sum_yy, n, &ab[2 * i], &ab[2 * i + 1],
                                &sse[i]);
        errors[i] = metric == GLEVO_GP_MSE ? sse[i] / n : sqrt(sse[i] / n);
    }
    glevo_status st = refine_scaled(e, p, src, metric, sse, ab, errors);
    free(sse);
    return st;
}

glevo_status glevo_gp_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                               glevo_gp_metric metric, double *errors)
{
    glevo_clear_error();
    ARG_NOT_NULL(e);
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(errors);
    ARG_ENUM(metric, GLEVO_GP_SAE, GLEVO_GP_ACCURACY);
    int pop = p->count;
    glevo_status st = check_programs(e, p, __func__);
    if (st || pop == 0) return st;
    st = check_moments(e, metric);
    if (!st) st = e->ops->evaluate(e, p, e->sums);
    gp_program_source src = {codes_of_container, (void *)p};
    return st ? st : finish(e, p, metric, errors, &src);
}

struct gp_gpu *gp_evaluator_gpu(glevo_gp_evaluator *e)
{
    /* gp_fragment and gp_compute (fragment.c, compute.c) both begin with their gp_gpu. */
    return e->backend == GLEVO_BACKEND_CPU ? NULL : (struct gp_gpu *)e->impl;
}

glevo_status gp_evaluate_submit(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                glevo_gp_metric metric)
{
    e->submitted = false;
    int pop = p->count;
    glevo_status st = room_for(e, pop, "glevo_gp_step");
    if (st || pop == 0) return st;
    st = check_moments(e, metric);
    if (!st && e->ops->submit) st = e->ops->submit(e, p);
    e->submitted = !st && e->ops->submit;
    return st;
}

glevo_status gp_evaluate_collect(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                 glevo_gp_metric metric, double *errors,
                                 const gp_program_source *src)
{
    if (p->count == 0) return GLEVO_OK;
    glevo_status st = e->submitted ? e->ops->collect(e, p, e->sums)
                                   : e->ops->evaluate(e, p, e->sums);
    e->submitted = false;
    return st ? st : finish(e, p, metric, errors, src);
}

glevo_status gp_evaluate_unchecked(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                   glevo_gp_metric metric, double *errors,
                                   const gp_program_source *src)
{
    glevo_status st = gp_evaluate_submit(e, p, metric);
    return st ? st : gp_evaluate_collect(e, p, metric, errors, src);
}

glevo_status glevo_gp_evaluate_timed(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                     int reps, glevo_gp_metric metric, double *errors,
                                     glevo_gp_eval_timing *timing)
{
    glevo_clear_error();
    ARG_NOT_NULL(e);
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(errors);
    ARG_NOT_NULL(timing);
    ARG_ENUM(metric, GLEVO_GP_SAE, GLEVO_GP_ACCURACY);
    int pop = p->count;
    *timing = (glevo_gp_eval_timing){0};
    if (!e->ops->timed)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "the resident timing is the compute "
                          "backend's; this evaluator runs on %s", glevo_backend_name(e->backend));
    if (reps < 1) return glevo_fail(GLEVO_ERR_INVALID, "%d timed evaluations", reps);
    glevo_status st = check_programs(e, p, __func__);
    if (st || pop == 0) return st;
    st = check_moments(e, metric);
    if (!st) st = e->ops->timed(e, p, reps, e->sums, timing);
    gp_program_source src = {codes_of_container, (void *)p};
    return st ? st : finish(e, p, metric, errors, &src);
}
