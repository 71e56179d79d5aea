/* The cellular GA as an island (glevo_island_cga): the migration calls of glevo/cga.h behind
 * the island model's ops. Emigrants are chosen on the fitness of the current genes (an extra
 * fitness pass, counted as evaluations); immigrants are written as gene integers and scored
 * by the next generation's own fitness pass, so their travelling fitness is not needed. On the
 * GPU with compute shaders the emigrants are chosen there (select_gpu): only candidates return. */
#include <stdlib.h>

#include "glevo/islands.h"
#include "islands/policy.h"
#include "core/args.h"

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

/* On the GPU: each chunk's best and worst m come back (glevo_cga_candidates), the global
 * choice among them is islands_select's order again (islands_select_among). */
static int select_limit(const void *a)
{
    return glevo_cga_candidate_count(a, 1) ? GLEVO_CGA_MAX_CANDIDATES : 0;
}

static glevo_status select_gpu(void *a, int m, int *best, double *best_score,
                               float *best_fitness, int *worst, double *worst_score)
{
    int count = glevo_cga_candidate_count(a, m), half = count / 2;
    int *cells = malloc(sizeof(int) * (size_t)(count ? count : 1));
    float *fitness_values = malloc(sizeof(float) * (size_t)(count ? count : 1));
    int *picked = malloc(sizeof(int) * (size_t)m);
    glevo_status st = GLEVO_OK;
    if (!cells || !fitness_values || !picked)
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d emigrant candidates", count);
    if (!st) st = glevo_cga_candidates(a, m, cells, fitness_values);
    bool max = maximize(a);
    int got = st ? 0 : islands_select_among(cells, fitness_values, half, max, m, picked,
                                            best_score, NULL, NULL);
    for (int e = 0; e < got; ++e) {
        best[e] = cells[picked[e]];
        best_fitness[e] = fitness_values[picked[e]];
    }
    if (!st && got == m)
        got = islands_select_among(cells + half, fitness_values + half, half, max, m, NULL,
                                   NULL, picked, worst_score);
    for (int e = 0; e < got && !st; ++e) worst[e] = cells[half + picked[e]];
    if (!st && got < 0) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory choosing emigrants");
    else if (!st && got != m)
        st = glevo_fail(GLEVO_ERR_GL, "the GPU gave %d emigrant candidates, fewer than m = %d",
                        got, m);
    free(cells), free(fitness_values), free(picked);
    return st;
}

static const glevo_island_ops cga_island_ops = {
    .family = "cga", .step = step, .done = done, .best = best, .generation = generation,
    .evaluations = evaluations, .size = size, .dim = dim, .maximize = maximize,
    .fitness = fitness, .read = read, .write = write, .save = save,
    .select_limit = select_limit, .select = select_gpu};

glevo_island glevo_island_cga(glevo_cga *cga)
{
    ARG_NOT_NULL_OR(cga, (glevo_island){0});
    /* The GPU selection's program is built now, not inside the first migration's time; a
     * failure here repeats, reported, at that migration. */
    (void)glevo_cga_candidates_prepare(cga);
    return (glevo_island){&cga_island_ops, cga};
}
