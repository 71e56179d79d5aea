/* The cellular GA as an island (glevo_island_cga): the migration calls of glevo/cga.h behind
 * the island model's ops. Emigrants are chosen on the fitness of the current genes (an extra
 * fitness pass, counted as evaluations); immigrants are written as gene integers and scored
 * by the next generation's own fitness pass, so their travelling fitness is not needed. */
#include <stdlib.h>

#include "glevo/islands.h"

static glevo_status step(void *a, int generations) { return glevo_cga_step(a, generations); }
static bool done(void *a) { (void)a; return false; }

static glevo_status best(void *a, double *fitness, double *x)
{
    glevo_cga_best b;
    glevo_status st = glevo_cga_best_get(a, &b);
    if (st) return st;
    *fitness = b.fitness;
    for (int j = 0; j < glevo_cga_params_of(a)->dim; ++j) x[j] = b.x[j];
    return GLEVO_OK;
}

static long long generation(const void *a) { return glevo_cga_generation(a); }
static long long evaluations(const void *a) { return glevo_cga_evaluations(a); }
static int size(const void *a)
{
    return glevo_cga_params_of(a)->width * glevo_cga_params_of(a)->height;
}
static int dim(const void *a) { return glevo_cga_params_of(a)->dim; }
static bool maximize(const void *a)
{
    return glevo_cga_params_of(a)->problem->direction == GLEVO_MAXIMIZE;
}

static glevo_status fitness(void *a, float *out)
{
    glevo_status st = glevo_cga_evaluate(a);
    return st ? st : glevo_cga_read_fitness(a, out);
}

static glevo_status read(void *a, int count, const int *index, double *genes)
{
    size_t n = (size_t)count * (size_t)dim(a);
    float *g = malloc(sizeof(float) * (n ? n : 1));
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = glevo_cga_read_cells(a, count, index, g);
    for (size_t i = 0; i < n && !st; ++i) genes[i] = g[i];
    free(g);
    return st;
}

static glevo_status write(void *a, int count, const int *index, const double *genes,
                          const double *fitness_values)
{
    (void)fitness_values;
    size_t n = (size_t)count * (size_t)dim(a);
    float *g = malloc(sizeof(float) * (n ? n : 1));
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; ++i) g[i] = (float)genes[i];
    glevo_status st = glevo_cga_write_cells(a, count, index, g);
    free(g);
    return st;
}

static glevo_status save(void *a, const char *path) { return glevo_cga_save(a, path, NULL); }

static const glevo_island_ops cga_island_ops = {
    .family = "cga", .step = step, .done = done, .best = best, .generation = generation,
    .evaluations = evaluations, .size = size, .dim = dim, .maximize = maximize,
    .fitness = fitness, .read = read, .write = write, .save = save};

glevo_island glevo_island_cga(glevo_cga *cga) { return (glevo_island){&cga_island_ops, cga}; }
