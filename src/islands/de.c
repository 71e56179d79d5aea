/* Differential evolution as an island (glevo_island_de): the migration calls of glevo/de.h
 * behind the island model's ops. DE keeps the fitness of its population, so choosing
 * emigrants costs no evaluation; immigrants arrive with their fitness and genes in the
 * engine's shifted coordinates (the same on every island of a problem). */
#include <stdlib.h>

#include "glevo/islands.h"
#include "core/args.h"

static glevo_status step(void *a, int generations) { return glevo_de_step(a, generations); }
static bool done(void *a) { return glevo_de_done(a); }

static glevo_status best(void *a, double *fitness, double *x)
{
    glevo_de_result r;
    glevo_status st = glevo_de_result_get(a, &r);
    if (st) return st;
    *fitness = r.best_fitness;
    for (int j = 0; j < r.dim; ++j) x[j] = r.best_x[j];
    glevo_de_result_free(&r);
    return GLEVO_OK;
}

static long long generation(const void *a) { return glevo_de_generation(a); }
static long long evaluations(const void *a) { return glevo_de_evaluations(a); }
static int size(const void *a) { return glevo_de_pop(a); }
static int dim(const void *a) { return glevo_de_dim(a); }
static bool maximize(const void *a) { return glevo_de_problem(a)->direction == GLEVO_MAXIMIZE; }

static glevo_status fitness(void *a, float *out) { return glevo_de_read_fitness(a, out); }

static glevo_status read(void *a, int count, const int *index, double *genes)
{
    size_t n = (size_t)count * (size_t)dim(a);
    float *g = malloc(sizeof(float) * (n ? n : 1));
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = glevo_de_read_genes(a, count, index, g);
    for (size_t i = 0; i < n && !st; ++i) genes[i] = g[i];
    free(g);
    return st;
}

static glevo_status write(void *a, int count, const int *index, const double *genes,
                          const double *fitness_values)
{
    size_t n = (size_t)count * (size_t)dim(a);
    float *g = malloc(sizeof(float) * (n ? n : 1));
    float *f = malloc(sizeof(float) * (size_t)(count ? count : 1));
    glevo_status st = g && f ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n && !st; ++i) g[i] = (float)genes[i];
    for (int k = 0; k < count && !st; ++k) f[k] = (float)fitness_values[k];
    if (!st) st = glevo_de_write_genes(a, count, index, g, f);
    free(g), free(f);
    return st;
}

static glevo_status save(void *a, const char *path) { return glevo_de_save(a, path, NULL); }

static const glevo_island_ops de_island_ops = {
    .family = "de", .step = step, .done = done, .best = best, .generation = generation,
    .evaluations = evaluations, .size = size, .dim = dim, .maximize = maximize,
    .fitness = fitness, .read = read, .write = write, .save = save};

glevo_island glevo_island_de(glevo_de *de) {
    ARG_NOT_NULL_OR(de, (glevo_island){0});
    return (glevo_island){&de_island_ops, de};
}
