/* DE's migration primitives (glevo_de_read_fitness, _read_genes, _write_genes) on every
 * backend and compute kernel: reads agree with the whole population, a few individuals are
 * written with their fitness without disturbing the others, written individuals take part in
 * the next generation the same way on the GPU as on the CPU, and bad indices or genes outside
 * the domain are refused naming the value. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/de.h"
#include "testutil.h"

#define SEED 3301u
#define NP 13
#define DIM 7

typedef struct engine_case {
    glevo_backend backend;
    glevo_de_kernel kernel;
    const char *name;
} engine_case;

static const engine_case engines[] = {
    {GLEVO_BACKEND_CPU, 0, "cpu"},
    {GLEVO_BACKEND_FRAGMENT, 0, "fragment"},
    {GLEVO_BACKEND_COMPUTE, GLEVO_DE_KERNEL_GENERATION, "compute generation"},
    {GLEVO_BACKEND_COMPUTE, GLEVO_DE_KERNEL_RESIDENT, "compute resident"},
};

/* Unshifted, so that x (what glevo_de_population returns) equals the genes exactly. */
static glevo_de *make(const engine_case *e)
{
    if (e->backend != GLEVO_BACKEND_CPU) testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find("rastrigin"), .dim = DIM, .pop = NP,
                         .no_shift = true, .seed = SEED, .backend = e->backend,
                         .kernel = e->kernel, .max_evals = 100000};
    glevo_de *de;
    ck_assert_msg(glevo_de_create(&p, &de) == GLEVO_OK, "%s: %s", e->name, glevo_last_error());
    return de;
}

START_TEST(reads_agree_with_the_population)
{
    const engine_case *e = &engines[_i];
    glevo_de *de = make(e);
    ck_assert(glevo_de_step(de, 5) == GLEVO_OK);
    double x[NP * DIM];
    float fit[NP], got_fit[NP], genes[3 * DIM];
    ck_assert(glevo_de_population(de, x, fit) == GLEVO_OK);
    ck_assert(glevo_de_read_fitness(de, got_fit) == GLEVO_OK);
    for (int i = 0; i < NP; ++i)
        ck_assert_msg(got_fit[i] == fit[i], "%s individual %d: %.9g vs %.9g", e->name, i,
                      got_fit[i], fit[i]);
    const int index[] = {12, 0, 5};
    ck_assert(glevo_de_read_genes(de, 3, index, genes) == GLEVO_OK);
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < DIM; ++j)
            ck_assert_msg(genes[k * DIM + j] == (float)x[index[k] * DIM + j],
                          "%s individual %d gene %d: %.9g vs %.9g", e->name, index[k], j,
                          genes[k * DIM + j], x[index[k] * DIM + j]);
    glevo_de_destroy(de);
}
END_TEST

START_TEST(writes_touch_only_the_chosen)
{
    const engine_case *e = &engines[_i];
    glevo_de *de = make(e);
    ck_assert(glevo_de_step(de, 3) == GLEVO_OK);
    double before[NP * DIM], after[NP * DIM];
    float fb[NP], fa[NP];
    ck_assert(glevo_de_population(de, before, fb) == GLEVO_OK);
    const int index[] = {4, 12};
    float genes[2 * DIM], fitness[2] = {0.25f, 0.125f};
    for (int k = 0; k < 2 * DIM; ++k) genes[k] = 0.01f * (float)(k + 1);
    ck_assert(glevo_de_write_genes(de, 2, index, genes, fitness) == GLEVO_OK);
    ck_assert(glevo_de_population(de, after, fa) == GLEVO_OK);
    for (int i = 0; i < NP; ++i) {
        int k = i == 4 ? 0 : i == 12 ? 1 : -1;
        ck_assert_msg(fa[i] == (k >= 0 ? fitness[k] : fb[i]), "%s fitness %d: %.9g", e->name, i, fa[i]);
        for (int j = 0; j < DIM; ++j) {
            double want = k >= 0 ? (double)genes[k * DIM + j] : before[i * DIM + j];
            ck_assert_msg(after[i * DIM + j] == want, "%s individual %d gene %d: %.9g, want %.9g",
                          e->name, i, j, after[i * DIM + j], want);
        }
    }
    glevo_de_destroy(de);
}
END_TEST

/* Written individuals are parents and competitors in the next generations: every engine
 * makes the same population from them (fitness within the GPU's float tolerance). */
static void run_with_immigrants(const engine_case *e, double *x, float *f)
{
    glevo_de *de = make(e);
    ck_assert(glevo_de_step(de, 4) == GLEVO_OK);
    const int index[] = {2, 9};
    float genes[2 * DIM], fitness[2];
    for (int k = 0; k < 2 * DIM; ++k) genes[k] = k < DIM ? 0.0f : 1.0f; /* f = 0 and f = DIM */
    fitness[0] = 0.0f;
    fitness[1] = (float)DIM;
    ck_assert(glevo_de_write_genes(de, 2, index, genes, fitness) == GLEVO_OK);
    ck_assert(glevo_de_step(de, 3) == GLEVO_OK);
    ck_assert(glevo_de_population(de, x, f) == GLEVO_OK);
    glevo_de_destroy(de);
}

START_TEST(engines_agree_after_writes)
{
    double xc[NP * DIM], xg[NP * DIM];
    float fc[NP], fg[NP];
    run_with_immigrants(&engines[0], xc, fc);
    for (size_t e = 1; e < sizeof engines / sizeof engines[0]; ++e) {
        run_with_immigrants(&engines[e], xg, fg);
        for (int i = 0; i < NP * DIM; ++i)
            ck_assert_msg(xg[i] == xc[i], "%s gene %d: %.9g, CPU %.9g (seed %u)", engines[e].name,
                          i, xg[i], xc[i], SEED);
        for (int i = 0; i < NP; ++i)
            ck_assert_msg(fabsf(fg[i] - fc[i]) <= 1e-5f * fabsf(fc[i]) + 1e-5f,
                          "%s fitness %d: %.9g, CPU %.9g", engines[e].name, i, fg[i], fc[i]);
    }
    /* The immigrant at the optimum survives: nothing beats f = 0. */
    ck_assert_msg(fc[2] == 0.0f, "the optimal immigrant was replaced: %.9g", fc[2]);
}
END_TEST

START_TEST(bad_writes_are_refused)
{
    glevo_de *de = make(&engines[0]);
    float genes[DIM] = {0}, fitness[1] = {1};
    ck_assert(glevo_de_write_genes(de, 1, (int[]){NP}, genes, fitness) == GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "13"), "%s", glevo_last_error());
    ck_assert(glevo_de_read_genes(de, 1, (int[]){-1}, genes) == GLEVO_ERR_INVALID);
    genes[3] = 6.5f; /* Rastrigin's domain is [-5.12, 5.12] */
    ck_assert(glevo_de_write_genes(de, 1, (int[]){0}, genes, fitness) == GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "6.5"), "%s", glevo_last_error());
    genes[3] = NAN;
    ck_assert(glevo_de_write_genes(de, 1, (int[]){0}, genes, fitness) == GLEVO_ERR_INVALID);
    glevo_de_destroy(de);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_migration");
    TCase *tc = tcase_create("migration");
    tcase_set_timeout(tc, 300);
    int n = (int)(sizeof engines / sizeof engines[0]);
    tcase_add_loop_test(tc, reads_agree_with_the_population, 0, n);
    tcase_add_loop_test(tc, writes_touch_only_the_chosen, 0, n);
    tcase_add_test(tc, engines_agree_after_writes);
    tcase_add_test(tc, bad_writes_are_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
