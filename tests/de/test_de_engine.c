/* DE engines: the fused trial pass's fitness against the C twin, GPU == CPU populations after
 * a generation (trial genes are bit-identical thanks to `precise`), convergence on the 10-D
 * shifted sphere (Qin et al. 2012 F1) within 10^5 evaluations, and parameter validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/de.h"
#include "testutil.h"

static void one_generation(const char *problem, glevo_de_strategy strategy, int np, int dim,
                           uint32_t seed)
{
    testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find(problem), .dim = dim, .pop = np,
                         .strategy = strategy, .seed = seed, .CR = 0.5};
    glevo_de *gpu, *cpu;
    ck_assert_msg(glevo_de_create((p.backend = GLEVO_BACKEND_FRAGMENT, &p), &gpu) == GLEVO_OK, "%s",
                  glevo_last_error());
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &cpu), GLEVO_OK);
    size_t n = (size_t)np * (size_t)dim;
    double *xg = malloc(n * sizeof(double)), *xc = malloc(n * sizeof(double));
    float *fg = malloc((size_t)np * sizeof(float)), *fc = malloc((size_t)np * sizeof(float));
    for (int gen = 0; gen <= 2; ++gen) {
        if (gen) {
            ck_assert_int_eq(glevo_de_step(gpu, 1), GLEVO_OK);
            ck_assert_int_eq(glevo_de_step(cpu, 1), GLEVO_OK);
        }
        ck_assert_int_eq(glevo_de_population(gpu, xg, fg), GLEVO_OK);
        ck_assert_int_eq(glevo_de_population(cpu, xc, fc), GLEVO_OK);
        for (int i = 0; i < np; ++i) {
            for (size_t j = 0; j < (size_t)dim; ++j)
                ck_assert_msg(xg[(size_t)i * dim + j] == xc[(size_t)i * dim + j],
                              "%s strategy %d seed %u gen %d: individual %d gene %zu GPU %.9g "
                              "CPU %.9g",
                              problem, (int)strategy, seed, gen, i, j, xg[(size_t)i * dim + j],
                              xc[(size_t)i * dim + j]);
            /* The GPU's fitness (from the fused trial pass) against the float twin. */
            ck_assert_msg(fabsf(fg[i] - fc[i]) <= 1e-5f * fabsf(fc[i]) + 1e-5f,
                          "%s gen %d individual %d: GPU fitness %.9g, C twin %.9g", problem, gen,
                          i, fg[i], fc[i]);
        }
    }
    free(xg);
    free(xc);
    free(fg);
    free(fc);
    glevo_de_destroy(gpu);
    glevo_de_destroy(cpu);
}

START_TEST(test_gpu_equals_cpu_rand1bin)
{
    one_generation("sphere", GLEVO_DE_RAND_1_BIN, 13, 7, 5u);
    one_generation("rastrigin", GLEVO_DE_RAND_1_BIN, 10, 5, 6u);
    one_generation("rosenbrock", GLEVO_DE_RAND_1_BIN, 9, 6, 7u);
    one_generation("griewank", GLEVO_DE_RAND_1_BIN, 17, 3, 8u);
}
END_TEST

START_TEST(test_gpu_equals_cpu_other_strategies)
{
    one_generation("sphere", GLEVO_DE_BEST_1_BIN, 13, 7, 9u);
    one_generation("ackley", GLEVO_DE_CURRENT_TO_BEST_1_BIN, 11, 4, 10u);
    one_generation("camel", GLEVO_DE_RAND_1_EXP, 7, 2, 11u);
    one_generation("schaffer", GLEVO_DE_RAND_1_BIN, 8, 2, 12u);
}
END_TEST

static void check_accepts(glevo_de *de, int np, int dim)
{
    /* Greedy selection never makes an individual worse. */
    float *before = malloc((size_t)np * sizeof(float)), *after = malloc((size_t)np * sizeof(float));
    ck_assert_int_eq(glevo_de_population(de, NULL, before), GLEVO_OK);
    ck_assert_int_eq(glevo_de_step(de, 5), GLEVO_OK);
    ck_assert_int_eq(glevo_de_population(de, NULL, after), GLEVO_OK);
    int improved = 0;
    for (int i = 0; i < np; ++i) {
        ck_assert(after[i] <= before[i]);
        improved += after[i] < before[i];
    }
    ck_assert_int_gt(improved, 0);
    (void)dim;
    free(before);
    free(after);
}

START_TEST(test_large_population)
{
    /* NP = 10^6 tiles the population over many texture rows (GPU machine only). */
    if (!testutil_large()) return;
    one_generation("rastrigin", GLEVO_DE_RAND_1_BIN, 1000000, 10, 13u);
    one_generation("sphere", GLEVO_DE_BEST_1_BIN, 1000003, 3, 14u);
}
END_TEST

START_TEST(test_selection_monotone)
{
    testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find("rastrigin"), .dim = 5, .pop = 21};
    glevo_de *de;
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_FRAGMENT, &p), &de), GLEVO_OK);
    check_accepts(de, 21, 5);
    glevo_de_destroy(de);
}
END_TEST

START_TEST(test_sphere_converges)
{
    /* Qin et al. 2012 Table 1 F1: DE/rand/1/bin F 0.5 CR 0.3 reaches EFV < 1e-8 (SR 1.00). */
    testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = 10, .pop = 50,
                         .max_evals = 100000, .seed = 1};
    for (int b = 0; b < 2; ++b) {
        glevo_de_result r;
        glevo_backend backend = b ? GLEVO_BACKEND_CPU : GLEVO_BACKEND_FRAGMENT;
        ck_assert_msg(glevo_de_run((p.backend = backend, &p), &r) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert_msg(r.efv < 1e-8, "backend %d: EFV %g after %lld evaluations", b, r.efv,
                      r.evaluations);
        ck_assert(r.efv >= 0.0);
        ck_assert_int_le(r.evaluations, 100000);
        ck_assert_int_eq(r.evaluations, 50 + 50 * r.generations);
        /* best_x is the shifted optimum o (CEC 2005 sphere_func_data.txt: -3.9311900e+001). */
        ck_assert_double_eq_tol(r.best_x[0], -39.3119, 1e-3);
        ck_assert_str_eq(r.renderer, b ? "cpu" : r.renderer);
        ck_assert(b || strcmp(r.renderer, "cpu") != 0);
        glevo_de_result_free(&r);
    }
}
END_TEST

START_TEST(test_target_stops_early)
{
    glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = 5, .pop = 20,
                         .max_evals = 1000000, .target_efv = 1e-3, .check_every = 10};
    glevo_de_result r;
    ck_assert_int_eq(glevo_de_run((p.backend = GLEVO_BACKEND_CPU, &p), &r), GLEVO_OK);
    ck_assert(r.efv < 1e-3);
    ck_assert_int_lt(r.evaluations, 1000000);
    ck_assert_int_eq(r.generations % 10, 0);
    glevo_de_result_free(&r);
}
END_TEST

START_TEST(test_bad_params)
{
    glevo_de *de = NULL;
    glevo_de_params p = {.pop = 3};
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &de), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(de);
    ck_assert_msg(strstr(glevo_last_error(), "3") != NULL, "%s", glevo_last_error());
    p = (glevo_de_params){.CR = 1.5};
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &de), GLEVO_ERR_INVALID);
    p = (glevo_de_params){.dim = -2};
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &de), GLEVO_ERR_INVALID);
    p = (glevo_de_params){.problem = glevo_problem_find("camel"), .dim = 3};
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &de), GLEVO_ERR_INVALID);
    p = (glevo_de_params){.CR = GLEVO_DE_CR_ZERO, .pop = 4, .max_evals = 8};
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &de), GLEVO_OK);
    glevo_de_destroy(de);
    ck_assert_int_eq(glevo_de_strategy_parse("rand/1/bin"), GLEVO_DE_RAND_1_BIN);
    ck_assert_int_eq(glevo_de_strategy_parse("current-to-best1bin"),
                     GLEVO_DE_CURRENT_TO_BEST_1_BIN);
    ck_assert_int_eq(glevo_de_strategy_parse("rand2bin"), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_engine");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gpu_equals_cpu_rand1bin);
    tcase_add_test(tc, test_gpu_equals_cpu_other_strategies);
    tcase_add_test(tc, test_selection_monotone);
    tcase_add_test(tc, test_large_population);
    tcase_add_test(tc, test_sphere_converges);
    tcase_add_test(tc, test_target_stops_early);
    tcase_add_test(tc, test_bad_params);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
