/* Differential evolution front door: the initial
 * population (drawn on the host from the shared stream so both engines start from the same
 * bits), the generation loop with best-so-far checks every K generations, and results with
 * the error value computed in double on the host (Qin et al. 2012, section 5). Parameters
 * and their validation are in params.c, migration's reads and writes in genes.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "core/clock.h"
#include "core/names.h"
#include "core/args.h"
#include "core/memory.h"
#include "gl/gpgpu.h"

/* The memory a run asks for, checked before anything is allocated (in double: no product
 * wraps): the population and its next generation in floats with their fitness, on the host
 * (CPU engine; the GPU engines upload and read back through host copies) and in R32F
 * textures on the GPU; a software renderer's textures are host memory too. */
static glevo_status check_memory(const de_config *c, glevo_backend backend)
{
    double genes = (double)c->np * c->dim * 4.0, host = 2.0 * genes + c->np * 16.0;
    char request[128];
    snprintf(request, sizeof request, "glevo_de_params.pop %d x glevo_de_params.dim %d (%s "
             "backend)", c->np, c->dim, glevo_backend_name(backend));
    if (backend == GLEVO_BACKEND_CPU) return memory_check_host(host, request);
    double device = 2.0 * genes + c->np * 32.0;
    if (gpu_context_limits()->software) return gpu_memory_check(host + device, genes, request);
    glevo_status st = memory_check_host(host, request);
    return st ? st : gpu_memory_check(device, genes, request);
}

glevo_status de_gl_ready(const glevo_de *de, const char *function)
{
    return de->backend == GLEVO_BACKEND_CPU ? GLEVO_OK : gpu_context_check(de->context, function);
}

glevo_status de_engine_new(const glevo_de_params *params, glevo_de **out)
{
    *out = NULL;
    glevo_de_params zero = {0};
    if (!params) params = &zero;
    glevo_de *de = calloc(1, sizeof *de);
    if (!de) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = de_config_resolve(params, &de->c);
    glevo_backend backend = glevo_backend_resolve(params->backend);
    if (st == GLEVO_OK) st = glevo_backend_check(backend, "glevo_de_params.backend");
    if (st == GLEVO_OK) st = check_memory(&de->c, backend);
    if (st != GLEVO_OK) {
        de_config_free(&de->c);
        free(de);
        return st;
    }
    de->backend = backend;
    de->context = gpu_context_serial();
    st = backend == GLEVO_BACKEND_CPU       ? de_cpu_create(de)
         : backend == GLEVO_BACKEND_COMPUTE ? de_compute_create(de)
                                            : de_fragment_create(de);
    if (st != GLEVO_OK) {
        de_config_free(&de->c);
        free(de);
        return st;
    }
    *out = de;
    return GLEVO_OK;
}

glevo_status glevo_de_create(const glevo_de_params *params, glevo_de **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(out);
    glevo_de *de;
    glevo_status st = de_engine_new(params, &de);
    *out = NULL;
    if (st != GLEVO_OK) return st;
    const de_config *c = &de->c;
    size_t n = (size_t)c->np * (size_t)c->dim;
    float *y = malloc(n * sizeof(float));
    if (!y) {
        glevo_de_destroy(de);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d x %d genes", c->np, c->dim);
    }
    double t0 = core_seconds_now();
    for (uint32_t i = 0; i < (uint32_t)c->np; ++i) {
        for (uint32_t j = 0; j < (uint32_t)c->dim; ++j) {
            float u = de_stream_u01(c->seed, i, 0, DE_PASS_INIT, j);
            y[(size_t)i * (size_t)c->dim + j] = c->init_lo[j] + u * (c->init_hi[j] - c->init_lo[j]);
        }
    }
    st = de->ops->init(de, y);
    free(y);
    de->seconds += core_seconds_now() - t0;
    if (st != GLEVO_OK) {
        glevo_de_destroy(de);
        return st;
    }
    de->evaluations = c->np;
    *out = de;
    return GLEVO_OK;
}

bool glevo_de_done(const glevo_de *de)
{
    ARG_NOT_NULL_OR(de, false);
    return de->target_reached || de->evaluations + de->c.np > de->c.max_evals;
}

static glevo_status best_error(glevo_de *de, float *ybest, float *fbest, double *fdouble,
                               double *efv)
{
    glevo_status st = de->ops->best(de, ybest, fbest);
    if (st != GLEVO_OK) return st;
    const de_config *c = &de->c;
    double *z = malloc(sizeof(double) * (size_t)c->dim);
    if (!z) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int j = 0; j < c->dim; ++j) z[j] = (double)ybest[j] + (double)c->shift_add;
    double f = c->problem->reference ? c->problem->reference(z, c->dim) : (double)*fbest;
    free(z);
    /* f from z = y + shift_add directly: x = y + o rounded to double would lose y near 0. */
    *fdouble = f;
    if (!c->problem->has_optimum) *efv = NAN;
    else {
        double e = f - glevo_problem_optimum(c->problem, c->dim);
        *efv = c->problem->direction == GLEVO_MAXIMIZE ? -e : e;
    }
    return GLEVO_OK;
}

/* Generations one engine call may run: up to the next best-so-far check, within the budget
 * (and 2^20, so the generation counter stays well inside 32 bits a call). */
static long long batch_size(const glevo_de *de, long long wanted)
{
    const de_config *c = &de->c;
    long long n = wanted, left = (c->max_evals - de->evaluations) / c->np;
    if (n > left) n = left;
    if (c->target_efv > 0.0 || c->progress) {
        long long to_check = c->check_every - de->generations % c->check_every;
        if (n > to_check) n = to_check;
    }
    return n < (1LL << 20) ? n : 1LL << 20;
}

glevo_status glevo_de_step(glevo_de *de, long long generations)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    if (generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "%s: generations %lld is negative", __func__,
                          generations);
    DE_GL_READY(de);
    double t0 = core_seconds_now();
    glevo_status st = GLEVO_OK;
    float *ybest = NULL;
    for (long long k = 0; k < generations && !glevo_de_done(de);) {
        if (glevo_interrupt_pending()) {
            st = glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_de_step: interrupted after generation "
                            "%lld", de->generations);
            break;
        }
        long long n = batch_size(de, generations - k);
        st = de->ops->generations(de, (uint32_t)(de->generations + 1), (uint32_t)n);
        if (st != GLEVO_OK) break;
        k += n;
        de->generations += n;
        de->evaluations += n * de->c.np;
        bool check = de->generations % de->c.check_every == 0;
        if ((de->c.target_efv > 0.0 && check) ||
            (de->c.progress && (check || glevo_de_done(de)))) {
            if (!ybest) ybest = malloc(sizeof(float) * (size_t)de->c.dim);
            if (!ybest) {
                st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
                break;
            }
            float fb;
            double fd, efv;
            st = best_error(de, ybest, &fb, &fd, &efv);
            if (st != GLEVO_OK) break;
            if (de->c.target_efv > 0.0 && check && efv < de->c.target_efv)
                de->target_reached = true;
            if (de->c.progress) de->c.progress(de->c.progress_user, de->generations, fd);
        }
    }
    free(ybest);
    de->seconds += core_seconds_now() - t0;
    return st;
}

glevo_status glevo_de_result_get(glevo_de *de, glevo_de_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    const de_config *c = &de->c;
    float *ybest = malloc(sizeof(float) * (size_t)c->dim);
    out->best_x = malloc(sizeof(double) * (size_t)c->dim);
    if (!ybest || !out->best_x) {
        free(ybest);
        free(out->best_x);
        out->best_x = NULL;
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    double t0 = core_seconds_now();
    float fb;
    glevo_status st = best_error(de, ybest, &fb, &out->best_fitness, &out->efv);
    de->seconds += core_seconds_now() - t0;
    if (st != GLEVO_OK) {
        free(ybest);
        glevo_de_result_free(out);
        return st;
    }
    out->dim = c->dim;
    for (int j = 0; j < c->dim; ++j) out->best_x[j] = (double)ybest[j] + c->shift[j];
    free(ybest);
    out->evaluations = de->evaluations;
    out->generations = de->generations;
    out->seconds = de->seconds;
    snprintf(out->renderer, sizeof out->renderer, "%s", de->renderer);
    snprintf(out->engine, sizeof out->engine, "%s", de->engine);
    return GLEVO_OK;
}

glevo_status glevo_de_population(glevo_de *de, double *x, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    const de_config *c = &de->c;
    size_t n = (size_t)c->np * (size_t)c->dim;
    float *y = malloc(n * sizeof(float));
    float *f = malloc((size_t)c->np * sizeof(float));
    if (!y || !f) {
        free(y);
        free(f);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    glevo_status st = de->ops->population(de, y, f);
    if (st == GLEVO_OK) {
        if (x)
            for (size_t k = 0; k < n; ++k) x[k] = (double)y[k] + c->shift[k % (size_t)c->dim];
        if (fitness) memcpy(fitness, f, (size_t)c->np * sizeof(float));
    }
    free(y);
    free(f);
    return st;
}

long long glevo_de_generation(const glevo_de *de) {
    ARG_NOT_NULL_OR(de, -1);
    return de->generations;
}
long long glevo_de_evaluations(const glevo_de *de) {
    ARG_NOT_NULL_OR(de, -1);
    return de->evaluations;
}
int glevo_de_pop(const glevo_de *de) {
    ARG_NOT_NULL_OR(de, -1);
    return de->c.np;
}
int glevo_de_dim(const glevo_de *de) {
    ARG_NOT_NULL_OR(de, -1);
    return de->c.dim;
}
const glevo_problem *glevo_de_problem(const glevo_de *de) {
    ARG_NOT_NULL_OR(de, NULL);
    return de->c.problem;
}

void glevo_de_destroy(glevo_de *de)
{
    if (!de) return;
    if (de->ops) de->ops->destroy(de);
    de_config_free(&de->c);
    free(de);
}

glevo_status glevo_de_run(const glevo_de_params *params, glevo_de_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_de *de;
    glevo_status st = glevo_de_create(params, &de);
    if (st != GLEVO_OK) return st;
    st = glevo_de_step(de, 1LL << 62);
    if (st == GLEVO_OK) st = glevo_de_result_get(de, out);
    glevo_de_destroy(de);
    return st;
}

void glevo_de_result_free(glevo_de_result *r)
{
    if (!r) return;
    free(r->best_x);
    r->best_x = NULL;
}
