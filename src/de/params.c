/* DE's parameters: the strategy and kernel names, the defaults, and their validation into
 * the engine's configuration (de_config_resolve; the shift and bounds in y = x - o). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "core/names.h"
#include "core/args.h"

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

void de_config_free(de_config *c)
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

glevo_status de_config_resolve(const glevo_de_params *in, de_config *c)
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
    if ((unsigned)d.backend > GLEVO_BACKEND_LAST)
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
        de_config_free(c);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %d-dimensional DE", c->dim);
    }
    if (in->shift) {
        memcpy(c->shift, in->shift, D * sizeof(double));
        c->shifted = true;
    } else if (!in->no_shift && p->cec_shift_file) {
        glevo_status st = glevo_problem_load_shift(p, c->dim, NULL, c->shift);
        if (st != GLEVO_OK) {
            de_config_free(c);
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
