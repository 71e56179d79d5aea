/* The cellular GA's public API: parameters and their validation, engine choice, the run loop
 * step, best-so-far and population statistics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/engine_internal.h"
#include "core/names.h"
#include "core/args.h"
#include "core/memory.h"
#include "gl/gpgpu.h"

static const char *const neighbourhood_names[] = {"moore", "von-neumann", "moore5"};
static const char *const algorithm_names[] = {"cellular", "sga"};
static const char *const mutation_names[] = {"per-bit", "skip"};

const char *glevo_cga_neighbourhood_name(glevo_cga_neighbourhood n)
{
    return names_get(neighbourhood_names, NAMES_COUNT(neighbourhood_names), (int)n);
}
int glevo_cga_neighbourhood_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    return names_find(neighbourhood_names, NAMES_COUNT(neighbourhood_names), name);
}
const char *glevo_cga_algorithm_name(glevo_cga_algorithm a)
{
    return names_get(algorithm_names, NAMES_COUNT(algorithm_names), (int)a);
}
int glevo_cga_algorithm_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    return names_find(algorithm_names, NAMES_COUNT(algorithm_names), name);
}
const char *glevo_cga_mutation_name(glevo_cga_mutation m)
{
    return names_get(mutation_names, NAMES_COUNT(mutation_names), (int)m);
}
int glevo_cga_mutation_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    return names_find(mutation_names, NAMES_COUNT(mutation_names), name);
}

/* The one place the cellular GA's defaults are written (the CLI prints these in --help). */
glevo_cga_params glevo_cga_params_defaults(const glevo_cga_params *in)
{
    glevo_cga_params p = {0};
    if (in) p = *in;
    if (p.problem && !p.dim) p.dim = p.problem->fixed_dim ? p.problem->fixed_dim : p.problem->default_dim;
    if (!p.width) p.width = 64;
    if (!p.height) p.height = 64;
    if (!p.bits) p.bits = 24;
    p.pc = p.pc == GLEVO_ZERO ? 0.0 : p.pc == 0 ? 0.8 : p.pc;
    p.pm = p.pm == GLEVO_ZERO ? 0.0 : p.pm == 0 ? 0.005 : p.pm;
    if (!p.report_every) p.report_every = 25;
    return p;
}

glevo_status glevo_cga_validate(const glevo_cga_params *in)
{
    glevo_clear_error();
    ARG_NOT_NULL_AS(in, "params");
    if (!in || !in->problem) return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.problem is NULL");
    glevo_cga_params p = glevo_cga_params_defaults(in);
    glevo_status st;
    if (p.dim < 1 || p.dim > GLEVO_CGA_MAX_DIM)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.dim %d is outside 1..%d", p.dim,
                          GLEVO_CGA_MAX_DIM);
    if (p.problem->fixed_dim && p.dim != p.problem->fixed_dim)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.dim %d: problem %s is defined for "
                          "dimension %d only", p.dim, p.problem->name, p.problem->fixed_dim);
    if (p.width < 2 || p.height < 1 || p.width > 16384 || p.height > 16384)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.width x height %dx%d is outside "
                          "2x1..16384x16384", p.width, p.height);
    if (p.width % 2)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.width x height %dx%d: the width must "
                          "be even (crossover pairs texels 2i and 2i+1 of a row)", p.width, p.height);
    if (p.bits < 1 || p.bits > 24)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.bits %d is outside 1..24 (a float "
                          "holds 24-bit integers exactly)", p.bits);
    if (!(p.pc >= 0 && p.pc <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.pc %g is outside [0, 1]", p.pc);
    if (!(p.pm >= 0 && p.pm <= 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.pm %g is outside [0, 1]", p.pm);
    if (p.report_every < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.report_every %d is below 1",
                          p.report_every);
    if ((unsigned)p.mutation > GLEVO_MUTATION_SKIP)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.mutation %d is unknown", (int)p.mutation);
    if ((unsigned)p.neighbourhood > GLEVO_NEIGHBOURHOOD_MOORE5)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.neighbourhood %d is unknown",
                          (int)p.neighbourhood);
    if ((unsigned)p.rng > GLEVO_RNG_TEXTURE)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.rng %d is unknown", (int)p.rng);
    if ((unsigned)p.algorithm > GLEVO_CGA_STANDARD)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.algorithm %d is unknown",
                          (int)p.algorithm);
    if ((st = cga_block_params_check(&p))) return st;
    if ((unsigned)p.backend > GLEVO_BACKEND_LAST)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.backend %d is unknown", (int)p.backend);
    if (p.algorithm == GLEVO_CGA_STANDARD && p.backend != GLEVO_BACKEND_CPU)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.algorithm sga runs on the CPU "
                          "only: glevo_cga_params.backend must be cpu");
    if (p.backend == GLEVO_BACKEND_CPU && !p.problem->init)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.problem %s is a GLSL file: it has "
                          "no CPU twin, so glevo_cga_params.backend cannot be cpu", p.problem->name);
    if (!(p.problem->upper > p.problem->lower))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.problem %s: domain [%g, %g] is "
                          "empty", p.problem->name, p.problem->lower, p.problem->upper);
    return GLEVO_OK;
}

static const cga_engine_ops *engine_for(const glevo_cga_params *p)
{
    switch (p->backend) {
    case GLEVO_BACKEND_CPU: return p->algorithm == GLEVO_CGA_STANDARD ? &cga_sga_ops : &cga_cpu_ops;
    case GLEVO_BACKEND_COMPUTE: return &cga_compute_ops;
    default: return &cga_fragment_ops;
    }
}

/* The memory a run of p asks for, checked before anything is allocated (sizes in double: no
 * product can wrap). Host: the initial population, and for the CPU engines their selected,
 * crossed and crossover-point copies and the fitness; GPU: the same stages as textures (the
 * compute backend fuses selection, crossover and mutation: no crossed stage, no points). A
 * software renderer's textures are host memory too. */
static glevo_status check_memory(const glevo_cga_params *p)
{
    double cells = (double)p->width * p->height;
    double genes = cells * 16.0 * ((p->dim + 3) / 4); /* RGBA32F per gene texture (at most) */
    double host = genes, device = 0;
    if (p->backend == GLEVO_BACKEND_CPU)
        host += 2.5 * genes + cells * (p->algorithm == GLEVO_CGA_STANDARD ? 12.0 : 4.0);
    else
        device = (p->backend == GLEVO_BACKEND_COMPUTE ? 2.0 : 3.5) * genes + 12.0 * cells;
    char request[160];
    snprintf(request, sizeof request, "glevo_cga_params.width x height %dx%d (dim %d, %s backend)",
             p->width, p->height, p->dim, glevo_backend_name(p->backend));
    if (p->backend == GLEVO_BACKEND_CPU) return memory_check_host(host, request);
    double texture = cells * 16.0;
    if (gpu_context_limits()->software) return gpu_memory_check(host + device, texture, request);
    glevo_status st = memory_check_host(host, request);
    return st ? st : gpu_memory_check(device, texture, request);
}

glevo_status glevo_cga_create(const glevo_cga_params *params, glevo_cga **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_status st = glevo_cga_validate(params);
    if (st) return st;
    glevo_cga_params resolved = glevo_cga_params_defaults(params);
    resolved.backend = glevo_backend_resolve(resolved.backend);
    if ((st = glevo_backend_check(resolved.backend, "glevo_cga_params.backend"))) return st;
    if ((st = check_memory(&resolved))) return st;
    glevo_cga *cga = calloc(1, sizeof *cga);
    if (!cga) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    cga->params = resolved;
    cga->ops = engine_for(&resolved);
    const glevo_problem *pr = cga->params.problem;
    cga_layout *l = &cga->layout;
    l->width = cga->params.width;
    l->height = cga->params.height;
    l->dim = cga->params.dim;
    l->textures = (l->dim + 3) / 4;
    l->bits = cga->params.bits;
    l->lower = (float)pr->lower;
    l->step = (float)((pr->upper - pr->lower) / (double)((1u << l->bits) - 1u));
    l->sign = pr->direction == GLEVO_MAXIMIZE ? 1.0f : -1.0f;
    l->neighbourhood = cga->params.neighbourhood;
    cga_mutation_init(&cga->mutation, cga->params.mutation, cga->params.pm);
    st = glevo_rng_source_init(&cga->rng, cga->params.rng, cga->params.seed, 0);
    size_t cells = (size_t)l->width * l->height;
    cga->gene_floats = cells * 4 * (size_t)l->textures;
    cga->genes = st ? NULL : calloc(cga->gene_floats, sizeof(float));
    cga->record = st ? NULL : calloc(4 + 4 * (size_t)l->textures, sizeof(float));
    if (!st && (!cga->genes || !cga->record))
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the population");
    if (!st) cga_init_cpu(l, cga->params.seed, cga->genes);
    if (!st && glevo_interrupt_pending())
        st = glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_cga_create: interrupted while initialising "
                        "the population");
    if (!st) st = cga->ops->create(cga);
    if (st) {
        glevo_cga_destroy(cga);
        return st;
    }
    *out = cga;
    return GLEVO_OK;
}

void glevo_cga_destroy(glevo_cga *cga)
{
    if (!cga) return;
    if (cga->ops) cga->ops->destroy(cga);
    glevo_rng_source_free(&cga->rng);
    free(cga->genes), free(cga->record);
    free(cga);
}

glevo_status cga_gl_ready(const glevo_cga *cga, const char *function)
{
    return cga->gpu ? gpu_context_check(cga->context, function) : GLEVO_OK;
}

glevo_status glevo_cga_step(glevo_cga *cga, int generations)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    if (generations < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "%s: generations %d is negative", __func__,
                          generations);
    CGA_GL_READY(cga);
    for (int i = 0; i < generations;) {
        if (glevo_interrupt_pending())
            return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_cga_step: interrupted after "
                              "generation %lld", cga->generation);
        glevo_rng_source_set_generation(&cga->rng, (uint32_t)cga->generation);
        /* A block of generations ends where the progress callback must see the generation. */
        int left = generations - i;
        if (cga->params.progress) {
            long long to_report = cga->params.report_every - cga->generation % cga->params.report_every;
            if (to_report < left) left = (int)to_report;
        }
        int done = 1;
        glevo_status st = cga->ops->generations ? cga->ops->generations(cga, left, &done)
                                                : cga->ops->generation(cga);
        if (st) return st;
        i += done;
        cga->generation += done;
        cga->evaluations += (long long)done * cga->layout.width * cga->layout.height;
        if (cga->params.progress && cga->generation % cga->params.report_every == 0) {
            glevo_cga_best best;
            if ((st = glevo_cga_best_get(cga, &best))) return st;
            cga->params.progress(cga->params.progress_user, cga->generation, best.fitness);
        }
    }
    /* Where one generation at a time leaves it (a block starts it at its first generation). */
    if (generations > 0) glevo_rng_source_set_generation(&cga->rng, (uint32_t)(cga->generation - 1));
    return GLEVO_OK;
}

double glevo_cga_decode(const glevo_cga *cga, float gene)
{
    ARG_NOT_NULL_OR(cga, NAN);
    /* The float the fitness pass computed, widened: reported x is exactly what was scored. */
    float x = cga->layout.lower + gene * cga->layout.step;
    return (double)x;
}

glevo_status glevo_cga_best_get(glevo_cga *cga, glevo_cga_best *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    glevo_status st = cga->ops->read_record(cga, cga->record);
    if (st) return st;
    const float *r = cga->record;
    if (r[3] == 0.0f) {
        out->fitness = NAN;
        out->generation = -1;
        return GLEVO_OK;
    }
    out->fitness = r[0];
    out->x_cell = (int)r[1];
    out->y_cell = (int)r[2];
    out->generation = (long long)r[3] - 1;
    for (int j = 0; j < cga->layout.dim; ++j) out->x[j] = glevo_cga_decode(cga, r[4 + j]);
    return GLEVO_OK;
}

size_t glevo_cga_gene_floats(const glevo_cga *cga) {
    ARG_NOT_NULL_OR(cga, 0);
    return cga->gene_floats;
}
long long glevo_cga_generation(const glevo_cga *cga) {
    ARG_NOT_NULL_OR(cga, -1);
    return cga->generation;
}
long long glevo_cga_evaluations(const glevo_cga *cga) {
    ARG_NOT_NULL_OR(cga, -1);
    return cga->evaluations;
}
const glevo_cga_params *glevo_cga_params_of(const glevo_cga *cga) {
    ARG_NOT_NULL_OR(cga, NULL);
    return &cga->params;
}

glevo_status glevo_cga_read_population(glevo_cga *cga, float *genes, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    return cga->ops->read(cga, genes, fitness);
}

glevo_status glevo_cga_write_population(glevo_cga *cga, const float *genes)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(genes);
    return cga->ops->write(cga, genes);
}

glevo_status glevo_cga_evaluate(glevo_cga *cga)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    glevo_status st = cga->ops->evaluate(cga);
    if (!st) cga->evaluations += (long long)cga->layout.width * cga->layout.height;
    return st;
}

glevo_status glevo_cga_read_fitness(glevo_cga *cga, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(fitness);
    return cga->ops->read(cga, NULL, fitness);
}

static glevo_status check_cells(const glevo_cga *cga, int count, const int *cells)
{
    int n = cga->layout.width * cga->layout.height;
    if (count < 0) return glevo_fail(GLEVO_ERR_INVALID, "cell count %d is negative", count);
    for (int i = 0; i < count; ++i)
        if (cells[i] < 0 || cells[i] >= n)
            return glevo_fail(GLEVO_ERR_INVALID, "cell %d is outside the %dx%d grid (0..%d)",
                              cells[i], cga->layout.width, cga->layout.height, n - 1);
    return GLEVO_OK;
}

glevo_status glevo_cga_read_cells(glevo_cga *cga, int count, const int *cells, float *genes)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(cells);
    ARG_NOT_NULL(genes);
    glevo_status st = check_cells(cga, count, cells);
    return st ? st : cga->ops->read_cells(cga, count, cells, genes);
}

/* Genes are 24-bit integers held in floats (cga.h): anything else would decode outside the
 * domain or break the float bit arithmetic of crossover and mutation. */
glevo_status glevo_cga_write_cells(glevo_cga *cga, int count, const int *cells, const float *genes)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(cells);
    ARG_NOT_NULL(genes);
    glevo_status st = check_cells(cga, count, cells);
    float limit = (float)(1u << cga->layout.bits);
    for (int i = 0; i < count * cga->layout.dim && !st; ++i)
        if (!(genes[i] >= 0 && genes[i] < limit && genes[i] == floorf(genes[i])))
            st = glevo_fail(GLEVO_ERR_INVALID, "gene %g of cell %d is not an integer in 0..2^%d-1",
                            genes[i], cells[i / cga->layout.dim], cga->layout.bits);
    return st ? st : cga->ops->write_cells(cga, count, cells, genes);
}

glevo_status glevo_cga_stats_get(glevo_cga *cga, glevo_cga_stats *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(out);
    const cga_layout *l = &cga->layout;
    size_t cells = (size_t)l->width * l->height;
    float *fitness = malloc(cells * sizeof(float));
    float *genes = malloc(cga->gene_floats * sizeof(float));
    if (!fitness || !genes) {
        free(fitness), free(genes);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for statistics");
    }
    glevo_status st = glevo_cga_read_population(cga, genes, fitness);
    if (!st) {
        double sum = 0, best = -INFINITY, worst = INFINITY;
        for (size_t i = 0; i < cells; ++i) {
            double s = l->sign * fitness[i];
            sum += fitness[i];
            best = fmax(best, s);
            worst = fmin(worst, s);
        }
        out->mean = sum / (double)cells;
        out->best = l->sign * best;
        out->worst = l->sign * worst;
        double range = cga->params.problem->upper - cga->params.problem->lower, div = 0;
        for (int j = 0; j < l->dim; ++j) {
            double m = 0, m2 = 0;
            for (int y = 0; y < l->height; ++y)
                for (int x = 0; x < l->width; ++x) {
                    double v = glevo_cga_decode(cga, genes[cga_texel(l, j / 4, x, y) + (size_t)(j % 4)]);
                    m += v, m2 += v * v;
                }
            m /= (double)cells;
            div += sqrt(fmax(0.0, m2 / (double)cells - m * m)) / range;
        }
        out->diversity = div / l->dim;
    }
    free(fitness), free(genes);
    return st;
}

unsigned glevo_cga_texture(const glevo_cga *cga, glevo_cga_stage stage, int index)
{
    ARG_NOT_NULL_OR(cga, 0);
    return cga_gpu_texture(cga, stage, index);
}
