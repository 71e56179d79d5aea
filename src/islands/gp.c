/* Genetic programming as an island (glevo_island_gp): the migration calls of glevo/gp.h behind
 * the island model's ops. An individual is [error, program block] (glevo_gp_program_encode),
 * so programs of any length travel as dim = 2 + 2 max_size numbers. GP keeps its generation's
 * errors, so choosing emigrants costs no evaluation; islands share the data, so an
 * immigrant's error is the one it had, taken exact from its first number (the ops' fitness,
 * which ranks emigrants and decides replacement, is a float). Accuracy is maximised. */
#include <stdlib.h>

#include "glevo/islands.h"
#include "core/args.h"

static glevo_status step(void *a, int generations) { return glevo_gp_step(a, generations); }
static bool done(void *a) { return glevo_gp_done(a); }
static long long generation(const void *a) { return glevo_gp_generation(a); }
static long long evaluations(const void *a) { return glevo_gp_evaluations(a); }
static int size(const void *a) { return glevo_gp_params_of(a)->pop; }
static int block(const void *a) { return glevo_gp_block_size(glevo_gp_params_of(a)->max_size); }
static int dim(const void *a) { return 1 + block(a); }
static bool maximize(const void *a) { return glevo_gp_params_of(a)->metric == GLEVO_GP_ACCURACY; }

/* Individuals index[0..count) as [error, block] rows of dim numbers. */
static glevo_status read(void *a, int count, const int *index, double *genes)
{
    int n = size(a), d = dim(a);
    double *err = malloc(sizeof(double) * (size_t)n);
    double *blocks = malloc(sizeof(double) * (size_t)block(a) * (size_t)(count ? count : 1));
    glevo_status st = err && blocks ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!st) st = glevo_gp_read_programs(a, count, index, blocks);
    if (!st) st = glevo_gp_read_errors(a, err);
    for (int k = 0; k < count && !st; ++k) {
        double *row = genes + (size_t)k * (size_t)d;
        row[0] = err[index[k]];
        for (int j = 0; j < block(a); ++j) row[1 + j] = blocks[(size_t)k * (size_t)block(a) + j];
    }
    free(err), free(blocks);
    return st;
}

/* The island's best: its program block, and the error a plain run reports for it (the
 * printed model's, glevo_gp_best_error). */
static glevo_status best(void *a, double *fitness, double *x)
{
    int b;
    glevo_gp_population(a, &b);
    *fitness = glevo_gp_best_error(a);
    return read(a, 1, &b, x);
}

static glevo_status fitness(void *a, float *out)
{
    int n = size(a);
    double *err = malloc(sizeof(double) * (size_t)n);
    if (!err) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = glevo_gp_read_errors(a, err);
    for (int i = 0; i < n && !st; ++i) out[i] = (float)err[i];
    free(err);
    return st;
}

static glevo_status write(void *a, int count, const int *index, const double *genes,
                          const double *fitness_values)
{
    (void)fitness_values; /* the float-rounded ranking value; the exact error is row[0] */
    int d = dim(a), b = block(a);
    double *err = malloc(sizeof(double) * (size_t)(count ? count : 1));
    double *blocks = malloc(sizeof(double) * (size_t)b * (size_t)(count ? count : 1));
    glevo_status st = err && blocks ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int k = 0; k < count && !st; ++k) {
        const double *row = genes + (size_t)k * (size_t)d;
        err[k] = row[0];
        for (int j = 0; j < b; ++j) blocks[(size_t)k * (size_t)b + j] = row[1 + j];
    }
    if (!st) st = glevo_gp_write_programs(a, count, index, blocks, err);
    free(err), free(blocks);
    return st;
}

static glevo_status save(void *a, const char *path) { return glevo_gp_save(a, path, NULL); }

static const glevo_island_ops gp_island_ops = {
    .family = "gp", .step = step, .done = done, .best = best, .generation = generation,
    .evaluations = evaluations, .size = size, .dim = dim, .maximize = maximize,
    .fitness = fitness, .read = read, .write = write, .save = save};

glevo_island glevo_island_gp(glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, (glevo_island){0});
    return (glevo_island){&gp_island_ops, gp};
}
