/* DE compute driver (src/de/compute.c, shaders/de/evolve*.glsl) against the CPU engine, the
 * C twins of its bodies: after every dispatch the population equals the CPU engine's bit for
 * bit and the fitness matches (exactly for sphere, whose fold is the same float adds and
 * multiplies everywhere; within the fragment tests' tolerance where sin/cos/exp may round
 * differently), for both kernels, all four strategies, odd sizes, D beyond the work-group, and
 * batches of generations inside one resident dispatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/de.h"
#include "testutil.h"

typedef struct probe {
    glevo_de *de;
    double *x;
    float *f;
} probe;

static void probe_read(probe *p, size_t n, int np)
{
    if (!p->x) {
        p->x = malloc(n * sizeof(double));
        p->f = malloc((size_t)np * sizeof(float));
    }
    ck_assert_int_eq(glevo_de_population(p->de, p->x, p->f), GLEVO_OK);
}

/* Runs `steps` calls of glevo_de_step(batch) on the compute kernel and the CPU engine and
 * compares populations after each call. */
static void compare(const char *problem, glevo_de_strategy strategy, glevo_de_kernel kernel,
                    int np, int dim, uint32_t seed, int steps, int batch)
{
    testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find(problem), .dim = dim, .pop = np,
                         .strategy = strategy, .seed = seed, .CR = 0.5, .kernel = kernel,
                         .no_shift = dim > 100 /* CEC 2005 shifts stop at 100 */,
                         .max_evals = (long long)np * (1 + steps * batch)};
    probe gpu = {0}, cpu = {0};
    ck_assert_msg(glevo_de_create((p.backend = GLEVO_BACKEND_COMPUTE, &p), &gpu.de) == GLEVO_OK,
                  "%s", glevo_last_error());
    ck_assert_int_eq(glevo_de_create((p.backend = GLEVO_BACKEND_CPU, &p), &cpu.de), GLEVO_OK);
    bool exact_fitness = !strcmp(problem, "sphere");
    size_t n = (size_t)np * (size_t)dim;
    int accepted = 0;
    for (int s = 0; s <= steps; ++s) {
        if (s) {
            ck_assert_msg(glevo_de_step(gpu.de, batch) == GLEVO_OK, "%s", glevo_last_error());
            ck_assert_int_eq(glevo_de_step(cpu.de, batch), GLEVO_OK);
        }
        float *before = s ? malloc((size_t)np * sizeof(float)) : NULL;
        if (before) memcpy(before, cpu.f, (size_t)np * sizeof(float));
        probe_read(&gpu, n, np);
        probe_read(&cpu, n, np);
        for (int i = 0; i < np; ++i) {
            for (size_t j = 0; j < (size_t)dim; ++j)
                ck_assert_msg(gpu.x[(size_t)i * dim + j] == cpu.x[(size_t)i * dim + j],
                              "%s strategy %d kernel %d NP %d D %d seed %u step %d: individual "
                              "%d gene %zu compute %.9g CPU %.9g",
                              problem, (int)strategy, (int)kernel, np, dim, seed, s, i, j,
                              gpu.x[(size_t)i * dim + j], cpu.x[(size_t)i * dim + j]);
            if (exact_fitness)
                ck_assert_msg(gpu.f[i] == cpu.f[i], "%s kernel %d step %d individual %d: "
                              "compute fitness %.9g, CPU %.9g", problem, (int)kernel, s, i,
                              gpu.f[i], cpu.f[i]);
            else
                ck_assert_msg(fabsf(gpu.f[i] - cpu.f[i]) <= 1e-5f * fabsf(cpu.f[i]) + 1e-5f,
                              "%s kernel %d step %d individual %d: compute fitness %.9g, CPU "
                              "%.9g", problem, (int)kernel, s, i, gpu.f[i], cpu.f[i]);
            if (before) accepted += cpu.f[i] != before[i];
        }
        free(before);
    }
    /* Some trials won: the comparison covered accepted genes, not only kept ones. */
    ck_assert_int_gt(accepted, 0);
    glevo_de_result r;
    ck_assert_int_eq(glevo_de_result_get(gpu.de, &r), GLEVO_OK);
    ck_assert_str_eq(r.engine, kernel == GLEVO_DE_KERNEL_RESIDENT ? "compute.resident"
                                                                  : "compute.generation");
    glevo_de_result_free(&r);
    for (probe *q = &gpu; q; q = q == &gpu ? &cpu : NULL) {
        free(q->x);
        free(q->f);
        glevo_de_destroy(q->de);
    }
}

/* Every strategy, odd sizes, problems with sin/cos/exp and with state carried between genes. */
static const struct {
    const char *problem;
    glevo_de_strategy strategy;
    int np, dim;
    uint32_t seed;
    int steps;
} cases[] = {
    {"sphere", GLEVO_DE_RAND_1_BIN, 13, 7, 5u, 3},
    {"sphere", GLEVO_DE_BEST_1_BIN, 13, 7, 9u, 3},
    {"ackley", GLEVO_DE_CURRENT_TO_BEST_1_BIN, 11, 4, 10u, 3},
    {"camel", GLEVO_DE_RAND_1_EXP, 7, 2, 11u, 3},
    {"sphere", GLEVO_DE_RAND_1_EXP, 9, 11, 12u, 3},
    {"rastrigin", GLEVO_DE_RAND_1_BIN, 10, 5, 6u, 2},
    {"rosenbrock", GLEVO_DE_RAND_1_BIN, 9, 6, 7u, 2},
    {"griewank", GLEVO_DE_RAND_1_BIN, 17, 3, 8u, 2},
};

static void compare_cases(glevo_de_kernel kernel)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
        compare(cases[k].problem, cases[k].strategy, kernel, cases[k].np, cases[k].dim,
                cases[k].seed, cases[k].steps, 1);
}

START_TEST(test_generation_kernel) { compare_cases(GLEVO_DE_KERNEL_GENERATION); }
END_TEST

START_TEST(test_generation_kernel_wide)
{
    /* D 300 > the 256 invocations of a work-group: invocations loop over genes. */
    compare("sphere", GLEVO_DE_RAND_1_BIN, GLEVO_DE_KERNEL_GENERATION, 5, 300, 21u, 2, 1);
    compare("rosenbrock", GLEVO_DE_BEST_1_BIN, GLEVO_DE_KERNEL_GENERATION, 6, 257, 22u, 2, 1);
}
END_TEST

START_TEST(test_resident_kernel) { compare_cases(GLEVO_DE_KERNEL_RESIDENT); }
END_TEST

START_TEST(test_resident_batches)
{
    /* Several generations in one dispatch (barriers between them, choices of generation
     * g + 1 drawn by the fold phase of g), more individuals than invocations (strided
     * loops: NP 600 > 512 invocations), and D 301 (four-gene quads with a tail). The
     * compute test passes on llvmpipe's 32 KiB of shared memory; the H100 offers 48. */
    compare("sphere", GLEVO_DE_RAND_1_BIN, GLEVO_DE_KERNEL_RESIDENT, 13, 7, 31u, 3, 7);
    compare("sphere", GLEVO_DE_BEST_1_BIN, GLEVO_DE_KERNEL_RESIDENT, 600, 2, 32u, 2, 5);
    compare("sphere", GLEVO_DE_CURRENT_TO_BEST_1_BIN, GLEVO_DE_KERNEL_RESIDENT, 5, 301, 33u, 2, 4);
    compare("rastrigin", GLEVO_DE_RAND_1_EXP, GLEVO_DE_KERNEL_RESIDENT, 23, 9, 34u, 2, 6);
}
END_TEST

START_TEST(test_whole_runs_equal_cpu)
{
    /* A whole run (with target checks, which end batches) ends where the CPU engine's does. */
    testutil_context();
    for (int k = 0; k < 3; ++k) {
        glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = 10, .pop = 20,
                             .max_evals = 20000, .seed = 1, .target_efv = 1e-30,
                             .check_every = 37, .kernel = (glevo_de_kernel)k};
        glevo_de_result rc, rg;
        ck_assert_int_eq(glevo_de_run((p.backend = GLEVO_BACKEND_CPU, &p), &rc), GLEVO_OK);
        ck_assert_msg(glevo_de_run((p.backend = GLEVO_BACKEND_COMPUTE, &p), &rg) == GLEVO_OK, "%s",
                      glevo_last_error());
        ck_assert_int_eq(rg.generations, rc.generations);
        ck_assert_msg(rg.efv == rc.efv, "kernel %d: EFV compute %g CPU %g", k, rg.efv, rc.efv);
        for (int j = 0; j < 10; ++j) ck_assert(rg.best_x[j] == rc.best_x[j]);
        ck_assert(rc.efv < 1e-3);
        /* auto picks the resident kernel for a population this small */
        ck_assert_str_eq(rg.engine, k == 1 ? "compute.generation" : "compute.resident");
        glevo_de_result_free(&rc);
        glevo_de_result_free(&rg);
    }
}
END_TEST

START_TEST(test_resident_batches_fit_the_loop_budget)
{
    /* A long fold a generation (D 500): on llvmpipe, where every loop iteration of an
     * invocation counts against one budget of 65535, a 256-generation batch was cut short and
     * returned another population without an error (best 1635726.79 instead of the CPU's
     * 269416.42); batches are now sized to the budget. Same result as the CPU engine. */
    testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find("sphere"), .no_shift = true, .dim = 500,
                         .pop = 7, .max_evals = 7000, .seed = 1,
                         .kernel = GLEVO_DE_KERNEL_RESIDENT};
    glevo_de_result rc, rg;
    ck_assert_int_eq(glevo_de_run((p.backend = GLEVO_BACKEND_CPU, &p), &rc), GLEVO_OK);
    ck_assert_msg(glevo_de_run((p.backend = GLEVO_BACKEND_COMPUTE, &p), &rg) == GLEVO_OK, "%s",
                  glevo_last_error());
    ck_assert_str_eq(rg.engine, "compute.resident");
    ck_assert_msg(rg.best_fitness == rc.best_fitness, "resident %.17g CPU %.17g", rg.best_fitness,
                  rc.best_fitness);
    glevo_de_result_free(&rc);
    glevo_de_result_free(&rg);
}
END_TEST

START_TEST(test_resident_too_large)
{
    testutil_context();
    glevo_de *de = NULL;
    glevo_de_params p = {.dim = 100, .pop = 1000, .backend = GLEVO_BACKEND_COMPUTE,
                         .kernel = GLEVO_DE_KERNEL_RESIDENT};
    ck_assert_int_eq(glevo_de_create(&p, &de), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(de);
    ck_assert_msg(strstr(glevo_last_error(), "1000 x 100") != NULL, "%s", glevo_last_error());
    p.kernel = (glevo_de_kernel)7;
    ck_assert_int_eq(glevo_de_create(&p, &de), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "7") != NULL, "%s", glevo_last_error());
    /* auto falls back to the generation kernel */
    p.kernel = GLEVO_DE_KERNEL_AUTO;
    p.max_evals = 1000;
    glevo_de_result r;
    ck_assert_int_eq(glevo_de_run(&p, &r), GLEVO_OK);
    ck_assert_str_eq(r.engine, "compute.generation");
    glevo_de_result_free(&r);
}
END_TEST

START_TEST(test_large_population)
{
    /* More work-groups than the 65535 GL guarantees along x (they wrap into y); GPU machine. */
    if (!testutil_large()) return;
    compare("sphere", GLEVO_DE_RAND_1_BIN, GLEVO_DE_KERNEL_GENERATION, 4200007, 1, 13u, 2, 1);
    compare("rastrigin", GLEVO_DE_BEST_1_BIN, GLEVO_DE_KERNEL_GENERATION, 1000003, 10, 14u, 2, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_compute");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_generation_kernel);
    tcase_add_test(tc, test_generation_kernel_wide);
    tcase_add_test(tc, test_resident_kernel);
    tcase_add_test(tc, test_resident_batches);
    tcase_add_test(tc, test_whole_runs_equal_cpu);
    tcase_add_test(tc, test_resident_batches_fit_the_loop_budget);
    tcase_add_test(tc, test_resident_too_large);
    tcase_add_test(tc, test_large_population);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
