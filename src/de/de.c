/* Differential evolution front door: parameter defaults and validation, the initial
 * population (drawn on the host from the shared stream so both engines start from the same
 * bits), the generation loop with best-so-far checks every K generations, and results with
 * the error value computed in double on the host (Qin et al. 2012, section 5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "de/de_internal.h"
#include "core/names.h"
#include "core/args.h"
#include "core/memory.h"
#include "gl/gpgpu.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const strategy_names[] = {"rand1bin", "best1bin", "current-to-best1bin",
                                             "rand1exp"};

const char *glevo_de_strategy_name(glevo_de_strategy s)
{
    return names_get(strategy_names, NAMES_COUNT(strategy_names), (int)s);
}

int glevo_de_strategy_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    if (!name) return -1;
    char plain[64];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof plain; ++p)
        if (*p != '/') plain[n++] = *p;
    plain[n] = '\0';
    for (int k = 0; k < 4; ++k)
        if (strcmp(plain, strategy_names[k]) == 0) return k;
    return -1;
}

static const char *const kernel_names[] = {"auto", "generation", "resident"};

const char *glevo_de_kernel_name(glevo_de_kernel k)
{
    return names_get(kernel_names, NAMES_COUNT(kernel_names), (int)k);
}

int glevo_de_kernel_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    return names_find(kernel_names, NAMES_COUNT(kernel_names), name);
}

void de_shader_defines(const de_config *c, char *out, size_t size)
{
    snprintf(out, size,
             "#define DE_STRATEGY %d\n%s#define DE_PASS_INDEX %uu\n#define DE_PASS_CROSS %uu\n"
             "#define DE_PASS_BOUND %uu\n", (int)c->strategy,
             c->problem->direction == GLEVO_MAXIMIZE ? "#define DE_MAXIMIZE 1\n" : "",
             DE_PASS_INDEX, DE_PASS_CROSS, DE_PASS_BOUND);
}

static void config_free(de_config *c)
{
    free(c->shift);
    free(c->lo);
    free(c->hi);
    free(c->init_lo);
    free(c->init_hi);
    memset(c, 0, sizeof *c);
}

glevo_de_params glevo_de_params_defaults(const glevo_de_params *in)
{
    glevo_de_params p = {0};
    if (in) p = *in;
    if (!p.problem) p.problem = glevo_problem_find("sphere");
    if (!p.dim && p.problem) p.dim = p.problem->fixed_dim ? p.problem->fixed_dim : 10;
    if (!p.pop) p.pop = 100;
    if (p.F == 0.0) p.F = 0.5;
    p.CR = p.CR == GLEVO_ZERO ? 0.0 : p.CR == 0.0 ? 0.3 : p.CR;
    if (!p.max_evals) p.max_evals = 10000LL * p.dim;
    if (!p.check_every) p.check_every = 100;
    return p;
}

static glevo_status config_resolve(const glevo_de_params *in, de_config *c)
{
    memset(c, 0, sizeof *c);
    glevo_de_params d = glevo_de_params_defaults(in);
    c->problem = d.problem;
    const glevo_problem *p = c->problem;
    if (!p) return GLEVO_ERR_INVALID;
    c->dim = d.dim;
    c->np = d.pop;
    double F = d.F, CR = d.CR;
    if (c->dim < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.dim %d is below 1", c->dim);
    if (p->fixed_dim && c->dim != p->fixed_dim)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.dim %d: problem '%s' is "
                          "%d-dimensional", c->dim, p->name, p->fixed_dim);
    if (c->np < 4)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.pop %d is below 4 (DE needs i, r1, "
                          "r2, r3)", c->np);
    if (!(CR >= 0.0 && CR <= 1.0))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.CR %g is outside [0, 1]", CR);
    if (!(F > 0.0 && F <= 2.0))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.F %g is outside (0, 2]", F);
    if ((unsigned)d.strategy > GLEVO_DE_RAND_1_EXP)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.strategy %d is unknown",
                          (int)d.strategy);
    if ((unsigned)d.kernel > GLEVO_DE_KERNEL_RESIDENT)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.kernel %d is unknown (auto, "
                          "generation, resident)", (int)d.kernel);
    if (d.max_evals < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.max_evals %lld is negative",
                          d.max_evals);
    if (d.check_every < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.check_every %d is negative",
                          d.check_every);
    /* GLEVO_ZERO (a resume's "no target") is the one negative value: 0, the full budget. */
    if (d.target_efv == GLEVO_ZERO) d.target_efv = 0;
    if (!(d.target_efv >= 0 && isfinite(d.target_efv)))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.target_efv %g is not a finite "
                          "number >= 0", d.target_efv);
    if (in && in->shift)
        for (int j = 0; j < c->dim; ++j)
            if (!isfinite(in->shift[j]))
                return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.shift[%d] %g is not a finite "
                                  "number", j, in->shift[j]);
    if (!(p->upper > p->lower && isfinite(p->lower) && isfinite(p->upper)))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.problem '%s': domain [%g, %g] is not "
                          "a finite range", p->name, p->lower, p->upper);
    if ((unsigned)d.backend > GLEVO_BACKEND_AUTO)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.backend %d is unknown",
                          (int)d.backend);
    if (d.backend == GLEVO_BACKEND_CPU && !p->init)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.problem '%s' is a GLSL file without "
                          "a C twin: glevo_de_params.backend cannot be cpu", p->name);
    c->F = (float)F;
    c->CR = (float)CR;
    c->strategy = d.strategy;
    c->kernel = d.kernel;
    c->max_evals = d.max_evals;
    c->seed = d.seed;
    c->check_every = d.check_every;
    c->target_efv = d.target_efv;
    c->progress = d.progress;
    c->progress_user = d.progress_user;

    size_t D = (size_t)c->dim;
    c->shift = calloc(D, sizeof(double));
    c->lo = malloc(D * sizeof(float));
    c->hi = malloc(D * sizeof(float));
    c->init_lo = malloc(D * sizeof(float));
    c->init_hi = malloc(D * sizeof(float));
    if (!c->shift || !c->lo || !c->hi || !c->init_lo || !c->init_hi) {
        config_free(c);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %d-dimensional DE", c->dim);
    }
    if (in->shift) {
        memcpy(c->shift, in->shift, D * sizeof(double));
        c->shifted = true;
    } else if (!in->no_shift && p->cec_shift_file) {
        glevo_status st = glevo_problem_load_shift(p, c->dim, NULL, c->shift);
        if (st != GLEVO_OK) {
            config_free(c);
            return st;
        }
        c->shifted = true;
    }
    c->shift_add = c->shifted ? p->shift_add : 0.0f;
    for (size_t j = 0; j < D; ++j) {
        /* Bounds move with the shift: lower <= x <= upper  <=>  lower - o <= y <= upper - o. */
        c->lo[j] = (float)(p->lower - c->shift[j]);
        c->hi[j] = (float)(p->upper - c->shift[j]);
        c->init_lo[j] = (float)(p->init_lower - c->shift[j]);
        c->init_hi[j] = (float)(p->init_upper - c->shift[j]);
    }
    return GLEVO_OK;
}

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
    glevo_status st = config_resolve(params, &de->c);
    glevo_backend backend = glevo_backend_resolve(params->backend);
    if (st == GLEVO_OK) st = glevo_backend_check(backend, "glevo_de_params.backend");
    if (st == GLEVO_OK) st = check_memory(&de->c, backend);
    if (st != GLEVO_OK) {
        config_free(&de->c);
        free(de);
        return st;
    }
    de->backend = backend;
    de->context = gpu_context_serial();
    st = backend == GLEVO_BACKEND_CPU       ? de_cpu_create(de)
         : backend == GLEVO_BACKEND_COMPUTE ? de_compute_create(de)
                                            : de_fragment_create(de);
    if (st != GLEVO_OK) {
        config_free(&de->c);
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
    double t0 = now_seconds();
    for (uint32_t i = 0; i < (uint32_t)c->np; ++i) {
        for (uint32_t j = 0; j < (uint32_t)c->dim; ++j) {
            float u = de_stream_u01(c->seed, i, 0, DE_PASS_INIT, j);
            y[(size_t)i * (size_t)c->dim + j] = c->init_lo[j] + u * (c->init_hi[j] - c->init_lo[j]);
        }
    }
    st = de->ops->init(de, y);
    free(y);
    de->seconds += now_seconds() - t0;
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
    double t0 = now_seconds();
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
    de->seconds += now_seconds() - t0;
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
    double t0 = now_seconds();
    float fb;
    glevo_status st = best_error(de, ybest, &fb, &out->best_fitness, &out->efv);
    de->seconds += now_seconds() - t0;
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

glevo_status glevo_de_read_fitness(glevo_de *de, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(fitness);
    return de->ops->read_fitness(de, fitness);
}

static glevo_status check_indices(const glevo_de *de, int count, const int *index)
{
    if (count < 0) return glevo_fail(GLEVO_ERR_INVALID, "individual count %d is negative", count);
    for (int k = 0; k < count; ++k)
        if (index[k] < 0 || index[k] >= de->c.np)
            return glevo_fail(GLEVO_ERR_INVALID, "individual %d is outside the population "
                              "(0..%d)", index[k], de->c.np - 1);
    return GLEVO_OK;
}

glevo_status glevo_de_read_genes(glevo_de *de, int count, const int *index, float *genes)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(genes);
    glevo_status st = check_indices(de, count, index);
    return st ? st : de->ops->read_genes(de, count, index, genes);
}

/* Inside the domain, as every individual DE makes (its bound handling re-draws the rest). */
glevo_status glevo_de_write_genes(glevo_de *de, int count, const int *index,
                                  const float *genes, const float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(genes);
    ARG_NOT_NULL(fitness);
    glevo_status st = check_indices(de, count, index);
    const de_config *c = &de->c;
    for (int k = 0; k < count && !st; ++k)
        for (int j = 0; j < c->dim && !st; ++j) {
            float y = genes[(size_t)k * (size_t)c->dim + (size_t)j];
            if (!(y >= c->lo[j] && y <= c->hi[j]))
                st = glevo_fail(GLEVO_ERR_INVALID, "gene %d of individual %d, %g, is outside "
                                "[%g, %g]", j, index[k], y, c->lo[j], c->hi[j]);
        }
    return st ? st : de->ops->write_genes(de, count, index, genes, fitness);
}

void glevo_de_destroy(glevo_de *de)
{
    if (!de) return;
    if (de->ops) de->ops->destroy(de);
    config_free(&de->c);
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
