/* DSMGA-II on the host: trap-5 ell = 50 solved in each of 10 seeded runs; the GPU model gives
 * the same run as the CPU twins when the DSM agrees; lossy also solves. */
#include <stdio.h>

#include "glevo/dsmga.h"
#include "testutil.h"

static glevo_dsmga_result run(const char *problem, int ell, int pop, uint32_t seed,
                              glevo_dsmga_model model, bool gpu)
{
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create(problem, ell, NULL, seed, &p), GLEVO_OK);
    glevo_dsmga_params params = {.pop = pop, .seed = seed, .model = model,
                                 .backend = gpu ? GLEVO_BACKEND_FRAGMENT : GLEVO_BACKEND_CPU};
    glevo_dsmga *e;
    ck_assert_msg(glevo_dsmga_create(p, &params, &e) == GLEVO_OK, "%s", glevo_last_error());
    glevo_dsmga_result r;
    ck_assert_msg(glevo_dsmga_run(e, &r) == GLEVO_OK, "%s", glevo_last_error());
    if (r.solved) ck_assert_double_eq_tol(r.best_fitness, glevo_dsmga_problem_optimum(p), 1e-9);
    ck_assert_double_eq(glevo_dsmga_problem_eval(p, glevo_dsmga_best(e)), r.best_fitness);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(p);
    return r;
}

START_TEST(trap50_ten_seeds)
{
    for (uint32_t seed = 1; seed <= 10; ++seed) {
        glevo_dsmga_result r = run("trap", 50, 100, seed, GLEVO_DSMGA_LOSSLESS, false);
        ck_assert_msg(r.solved, "seed %u: not solved, best %g after %lld NFE, %d generations", seed,
                      r.best_fitness, r.nfe, r.generations);
        ck_assert_int_gt(r.nfe, 100);
    }
}
END_TEST

START_TEST(trap50_lossy_and_gpu)
{
    testutil_context();
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        glevo_dsmga_result a = run("trap", 50, 100, seed, GLEVO_DSMGA_LOSSY, false);
        ck_assert_msg(a.solved, "lossy CPU seed %u: best %g", seed, a.best_fitness);
        glevo_dsmga_result b = run("trap", 50, 100, seed, GLEVO_DSMGA_LOSSY, true);
        ck_assert_msg(b.solved, "lossy GPU seed %u: best %g", seed, b.best_fitness);
    }
    glevo_dsmga_result g = run("trap", 50, 100, 4, GLEVO_DSMGA_LOSSLESS, true);
    ck_assert_msg(g.solved, "lossless GPU seed 4: best %g", g.best_fitness);
}
END_TEST

START_TEST(budget_stops)
{
    /* unbudgeted, this run solves after about 7400 NFE (hill climbing alone takes 6060) */
    glevo_dsmga_result r = run("trap", 100, 60, 1, GLEVO_DSMGA_LOSSLESS, false);
    ck_assert(r.solved && r.nfe > 6500);
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("trap", 100, NULL, 1, &p), GLEVO_OK);
    glevo_dsmga_params params = {.pop = 60, .seed = 1, .max_nfe = 6500};
    glevo_dsmga *e;
    ck_assert_int_eq(glevo_dsmga_create(p, &params, &e), GLEVO_OK);
    glevo_dsmga_result b;
    ck_assert_int_eq(glevo_dsmga_run(e, &b), GLEVO_OK);
    ck_assert(!b.solved);
    ck_assert_int_eq(b.nfe, 6500);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(p);
}
END_TEST

START_TEST(sweep_from_guess)
{
    /* from a first guess the sweep halves down, then bisects: the answer is at most the guess
     * and solves every one of its runs */
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("trap", 30, NULL, 1, &p), GLEVO_OK);
    glevo_dsmga_params base = {.pop = 256, .seed = 5};
    glevo_dsmga_sweep_result sw;
    ck_assert_msg(glevo_dsmga_sweep(p, &base, 3, &sw) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_ge(sw.pop, 2);
    ck_assert_int_le(sw.pop, 256); /* 256 solves these three seeds */
    ck_assert_int_eq(sw.runs, 3);
    for (uint32_t r = 0; r < 3; ++r) {
        glevo_dsmga_params q = {.pop = sw.pop, .seed = 5 + r};
        glevo_dsmga_result res;
        ck_assert_int_eq(glevo_dsmga_solve(p, &q, &res), GLEVO_OK);
        ck_assert_msg(res.solved, "seed %u at the swept population %d", 5 + r, sw.pop);
    }
    glevo_dsmga_problem_destroy(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dsmga_engine");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, trap50_ten_seeds);
    tcase_add_test(tc, trap50_lossy_and_gpu);
    tcase_add_test(tc, budget_stops);
    tcase_add_test(tc, sweep_from_guess);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
