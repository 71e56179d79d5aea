/* The cellular GA's migration primitives (glevo_cga_evaluate, _read_fitness, _read_cells,
 * _write_cells) on every backend: evaluate gives the fitness of the current genes (the
 * fitness store held the population's before the last variation), a few cells are read and
 * written without disturbing the others, and a run with cells written mid-way stays equal
 * across backends. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cga/engine_internal.h"
#include "testutil.h"

#define SEED 4111u

static const glevo_backend backends[] = {GLEVO_BACKEND_CPU, GLEVO_BACKEND_FRAGMENT,
                                         GLEVO_BACKEND_COMPUTE};

/* Odd grid, dim 6 so a cell spans two gene textures (the second half used). */
static glevo_cga *make(glevo_backend backend, const char *problem, int dim)
{
    if (backend != GLEVO_BACKEND_CPU) testutil_context();
    glevo_cga_params p = {.problem = glevo_problem_find(problem), .dim = dim, .width = 10,
                          .height = 7, .pm = 0.05, .backend = backend, .seed = SEED};
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    return cga;
}

static float gene_at(const glevo_cga *cga, const float *genes, int cell, int j)
{
    const cga_layout *l = &cga->layout;
    return genes[cga_texel(l, j / 4, cell % l->width, cell / l->width) + j % 4];
}

START_TEST(evaluate_scores_the_current_genes)
{
    glevo_cga *cga = make(backends[_i], "rastrigin", 6);
    size_t cells = 70;
    float *genes = malloc(glevo_cga_gene_floats(cga) * sizeof(float));
    float *stale = malloc(cells * sizeof(float)), *fresh = malloc(cells * sizeof(float));
    float *twin = malloc(cells * sizeof(float));
    ck_assert(glevo_cga_step(cga, 3) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(cga, genes, stale) == GLEVO_OK);
    cga_fitness_cpu(&cga->layout, cga->params.problem, genes, twin);
    int differ = 0;
    for (size_t i = 0; i < cells; ++i) differ += stale[i] != twin[i];
    ck_assert_msg(differ > 0, "backend %d: the store already held the current fitness: the "
                  "test could not tell evaluate from a no-op", _i);
    long long evals = glevo_cga_evaluations(cga);
    ck_assert(glevo_cga_evaluate(cga) == GLEVO_OK);
    ck_assert_int_eq(glevo_cga_evaluations(cga), evals + 70);
    ck_assert(glevo_cga_read_fitness(cga, fresh) == GLEVO_OK);
    for (size_t i = 0; i < cells; ++i)
        ck_assert_msg(fabsf(fresh[i] - twin[i]) <= 1e-5f * fmaxf(1.0f, fabsf(twin[i])),
                      "backend %d cell %zu: evaluate %.9g, twin %.9g (seed %u)", _i, i, fresh[i],
                      twin[i], SEED);
    free(genes), free(stale), free(fresh), free(twin);
    glevo_cga_destroy(cga);
}
END_TEST

START_TEST(cells_are_read_and_written_alone)
{
    glevo_cga *cga = make(backends[_i], "rastrigin", 6);
    size_t n = glevo_cga_gene_floats(cga);
    float *before = malloc(n * sizeof(float)), *after = malloc(n * sizeof(float));
    ck_assert(glevo_cga_step(cga, 2) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(cga, before, NULL) == GLEVO_OK);
    /* Corners and an inner cell, in no particular order. */
    const int cells[] = {69, 0, 23, 9};
    float got[4 * 6], put[4 * 6];
    ck_assert(glevo_cga_read_cells(cga, 4, cells, got) == GLEVO_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 6; ++j)
            ck_assert_msg(got[i * 6 + j] == gene_at(cga, before, cells[i], j),
                          "backend %d cell %d gene %d: %.9g vs %.9g", _i, cells[i], j,
                          got[i * 6 + j], gene_at(cga, before, cells[i], j));
    for (int k = 0; k < 4 * 6; ++k) put[k] = (float)(1000 * k + 7);
    ck_assert(glevo_cga_write_cells(cga, 4, cells, put) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(cga, after, NULL) == GLEVO_OK);
    for (int cell = 0; cell < 70; ++cell) {
        int which = -1;
        for (int i = 0; i < 4; ++i)
            if (cells[i] == cell) which = i;
        for (int j = 0; j < 6; ++j) {
            float want = which >= 0 ? put[which * 6 + j] : gene_at(cga, before, cell, j);
            ck_assert_msg(gene_at(cga, after, cell, j) == want,
                          "backend %d cell %d gene %d: %.9g, want %.9g", _i, cell, j,
                          gene_at(cga, after, cell, j), want);
        }
    }
    /* Channels past dim stay zero (the operators rely on it). */
    for (int cell = 0; cell < 70; ++cell)
        for (int c = 6; c < 8; ++c)
            ck_assert(gene_at(cga, after, cell, c) == 0.0f);
    free(before), free(after);
    glevo_cga_destroy(cga);
}
END_TEST

START_TEST(bad_cells_are_rejected)
{
    glevo_cga *cga = make(backends[_i], "camel", 2);
    int bad[] = {3, 70};
    float genes[4] = {1, 2, 3, 4};
    ck_assert(glevo_cga_read_cells(cga, 2, bad, genes) == GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "70"), "%s", glevo_last_error());
    int good[] = {3, 4};
    float not_gene[4] = {1, 2.5f, 3, 4};
    ck_assert(glevo_cga_write_cells(cga, 2, good, not_gene) == GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "2.5"), "%s", glevo_last_error());
    float too_big[4] = {1, 2, 16777216.0f, 4};
    ck_assert(glevo_cga_write_cells(cga, 2, good, too_big) == GLEVO_ERR_INVALID);
    glevo_cga_destroy(cga);
}
END_TEST

/* A migration in miniature on each backend: evaluate, write two cells, keep stepping. The
 * GPU runs must stay equal to the CPU run bit for bit (camel's fitness is exact there). */
static void run_with_immigrants(glevo_backend backend, float *out)
{
    glevo_cga *cga = make(backend, "camel", 2);
    const int cells[] = {5, 44};
    const float genes[] = {8388608, 8388608, 123, 16777215};
    ck_assert(glevo_cga_step(cga, 4) == GLEVO_OK);
    ck_assert(glevo_cga_evaluate(cga) == GLEVO_OK);
    ck_assert(glevo_cga_write_cells(cga, 2, cells, genes) == GLEVO_OK);
    ck_assert(glevo_cga_step(cga, 5) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(cga, out, NULL) == GLEVO_OK);
    glevo_cga_destroy(cga);
}

START_TEST(runs_with_written_cells_agree_across_backends)
{
    size_t n = 70 * 4;
    float *cpu = malloc(n * sizeof(float)), *gpu = malloc(n * sizeof(float));
    run_with_immigrants(GLEVO_BACKEND_CPU, cpu);
    for (int b = 1; b < 3; ++b) {
        run_with_immigrants(backends[b], gpu);
        for (size_t i = 0; i < n; ++i)
            ck_assert_msg(gpu[i] == cpu[i], "backend %s float %zu: %.9g vs CPU %.9g (seed %u)",
                          glevo_backend_name(backends[b]), i, gpu[i], cpu[i], SEED);
    }
    free(cpu), free(gpu);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_migration");
    TCase *tc = tcase_create("migration");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, evaluate_scores_the_current_genes, 0, 3);
    tcase_add_loop_test(tc, cells_are_read_and_written_alone, 0, 3);
    tcase_add_loop_test(tc, bad_cells_are_rejected, 0, 3);
    tcase_add_test(tc, runs_with_written_cells_agree_across_backends);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
