/* DSMGA-II on the host: trap-5 ell = 50 solved in each of 10 seeded runs; the GPU model
 * (fragment passes or compute dispatches) gives exactly the CPU twins' run, lossless and lossy;
 * lossy also solves. */
#include <stdio.h>
#include <string.h>

#include "glevo/dsmga.h"
#include "testutil.h"

/* One run on the given model backend; best (ell bytes, may be NULL) receives the best individual. */
static glevo_dsmga_result run_on(const char *problem, int ell, int pop, uint32_t seed,
                                 glevo_dsmga_model model, glevo_backend backend, uint8_t *best)
{
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create(problem, ell, NULL, seed, &p), GLEVO_OK);
    glevo_dsmga_params params = {.pop = pop, .seed = seed, .model = model, .backend = backend};
    glevo_dsmga *e;
    ck_assert_msg(glevo_dsmga_create(p, &params, &e) == GLEVO_OK, "%s", glevo_last_error());
    glevo_dsmga_result r;
    ck_assert_msg(glevo_dsmga_run(e, &r) == GLEVO_OK, "%s", glevo_last_error());
    if (r.solved) ck_assert_double_eq_tol(r.best_fitness, glevo_dsmga_problem_optimum(p), 1e-9);
    ck_assert_double_eq(glevo_dsmga_problem_eval(p, glevo_dsmga_best(e)), r.best_fitness);
    if (best) memcpy(best, glevo_dsmga_best(e), (size_t)ell);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(p);
    return r;
}

static glevo_dsmga_result run(const char *problem, int ell, int pop, uint32_t seed,
                              glevo_dsmga_model model, bool gpu)
{
    return run_on(problem, ell, pop, seed, model,
                  gpu ? GLEVO_BACKEND_FRAGMENT : GLEVO_BACKEND_CPU, NULL);
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

/* The GPU builds the DSM bit for bit and the ILS exactly as the CPU twins, so a whole run
 * takes the same evaluations, generations and best individual on every backend. The cases run
 * many generations (folded trap: 17 lossless, 23 lossy), so a single differing linkage set
 * would show. */
START_TEST(gpu_runs_equal_cpu)
{
    testutil_context();
    static const struct { const char *problem; int ell, pop; uint32_t seed; } cases[] = {
        {"ftrap", 48, 50, 2}, {"cyctrap", 40, 50, 2}, {"spin", 36, 30, 2}};
    static const glevo_backend gpus[] = {GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_COMPUTE};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        for (int m = 0; m < 2; ++m) {
            glevo_dsmga_model model = m ? GLEVO_DSMGA_LOSSY : GLEVO_DSMGA_LOSSLESS;
            int ell = cases[c].ell;
            uint8_t want_best[64], got_best[64];
            glevo_dsmga_result want = run_on(cases[c].problem, ell, cases[c].pop, cases[c].seed,
                                             model, GLEVO_BACKEND_CPU, want_best);
            for (size_t b = 0; b < 2; ++b) {
                glevo_dsmga_result got = run_on(cases[c].problem, ell, cases[c].pop,
                                                cases[c].seed, model, gpus[b], got_best);
                ck_assert_msg(got.nfe == want.nfe && got.generations == want.generations &&
                                  got.best_fitness == want.best_fitness &&
                                  memcmp(got_best, want_best, (size_t)ell) == 0,
                              "%s ell %d pop %d seed %u %s on %s: nfe %lld gens %d best %g, CPU "
                              "nfe %lld gens %d best %g", cases[c].problem, ell, cases[c].pop,
                              cases[c].seed, m ? "lossy" : "lossless",
                              glevo_backend_name(gpus[b]), got.nfe, got.generations,
                              got.best_fitness, want.nfe, want.generations, want.best_fitness);
            }
        }
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
    tcase_add_test(tc, gpu_runs_equal_cpu);
    tcase_add_test(tc, budget_stops);
    tcase_add_test(tc, sweep_from_guess);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
