/* The generational GP engine: recovers x1^2 + x2 on the GPU (llvmpipe on CI), is reproducible
 * by seed, and respects the size limit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp_engines.h"
#include "testutil.h"

static glevo_gp_data *square_plus(int cases)
{
    float *x = malloc(2 * (size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, 99, 1);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        x[cases + c] = 2.0f * glevo_rng_u01(r.v[1]) - 1.0f;
        y[c] = x[c] * x[c] + x[cases + c];
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, cases, x, y, &d), GLEVO_OK);
    free(x);
    free(y);
    return d;
}

START_TEST(test_recovers_square_plus)
{
    testutil_context();
    glevo_gp_data *d = square_plus(31);
    glevo_gp_params p = {.pop = 1000, .generations = 40, .seed = 3, .max_size = 30,
                         .stop_on_target = true, .target_error = 1e-3,
                         .backend = GLEVO_BACKEND_FRAGMENT, .eval = {.strategy = GLEVO_GP_PPCU}};
    glevo_gp_result r;
    glevo_status st = glevo_gp_run(&p, d, &r);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_msg(r.best_error <= 1e-3, "best %g: %s", r.best_error, r.best_sexpr);
    ck_assert_int_le(r.best_nodes, 30);
    ck_assert_int_eq(r.evaluations, (long long)(r.generations + 1) * 1000);
    /* The reported error is the program's: re-evaluate it on the CPU. */
    glevo_gp_sums s;
    ck_assert_int_eq(glevo_gp_evaluate_cpu(r.best, d, 1, &s), GLEVO_OK);
    ck_assert(fabs(s.abs_sum - r.best_error) <= 1e-4 * fmax(1.0, s.abs_sum) + 1e-5);
    /* Same seed, same run. */
    glevo_gp_result r2;
    ck_assert_int_eq(glevo_gp_run(&p, d, &r2), GLEVO_OK);
    ck_assert_str_eq(r.best_sexpr, r2.best_sexpr);
    ck_assert_int_eq(r.generations, r2.generations);
    glevo_gp_result_free(&r);
    glevo_gp_result_free(&r2);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_size_limit_and_seeds)
{
    glevo_gp_data *d = square_plus(17);
    glevo_gp_params p = {.pop = 64, .generations = 5, .seed = 1, .max_size = 9,
                         .backend = GLEVO_BACKEND_CPU, .eval = {.threads = 1}};
    glevo_gp_result a, b;
    ck_assert_int_eq(glevo_gp_run(&p, d, &a), GLEVO_OK);
    ck_assert_int_le(a.best_nodes, 9);
    ck_assert_int_eq(a.generations, 5);
    p.seed = 2;
    ck_assert_int_eq(glevo_gp_run(&p, d, &b), GLEVO_OK);
    /* Different seeds explore differently: the run's totals differ somewhere. */
    ck_assert(strcmp(a.best_sexpr, b.best_sexpr) != 0 || a.best_error != b.best_error ||
              a.nodes_evaluated != b.nodes_evaluated);
    glevo_gp_result_free(&a);
    glevo_gp_result_free(&b);
    p.pop = 1;
    ck_assert_int_eq(glevo_gp_run(&p, d, &a), GLEVO_ERR_INVALID);
    p.pop = 10;
    p.pc = 1.5;
    ck_assert_int_eq(glevo_gp_run(&p, d, &a), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "1.5") != NULL);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_classification_run)
{
    /* label = x1 > x2: exactly expressible as (> x1 x2); accuracy must reach 1. */
    int n = 40;
    float x[80], y[40];
    for (int c = 0; c < n; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, 5, 1);
        x[c] = glevo_rng_u01(r.v[0]);
        x[n + c] = glevo_rng_u01(r.v[1]);
        y[c] = x[c] > x[n + c] ? 1.0f : 0.0f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, n, x, y, &d), GLEVO_OK);
    glevo_gp_params p = {.function_set = GLEVO_GP_CLASSIFICATION, .pop = 200, .generations = 20,
                         .seed = 4, .metric = GLEVO_GP_ACCURACY, .stop_on_target = true,
                         .target_error = 0, .backend = GLEVO_BACKEND_CPU};
    glevo_gp_result r;
    ck_assert_int_eq(glevo_gp_run(&p, d, &r), GLEVO_OK);
    ck_assert_msg(r.best_error == 1.0, "accuracy %g: %s", r.best_error, r.best_sexpr);
    glevo_gp_result_free(&r);
    glevo_gp_data_destroy(d);
}
END_TEST

/* The stepping API is the run: create, uneven steps, and the result equal glevo_gp_run's for
 * the same seed; the getters describe the last evaluated generation; steps past the end do
 * nothing. */
static void count_progress(void *user, int generation, double best_error, const char *best)
{
    (void)best_error, (void)best;
    int *calls = user;
    ck_assert_int_eq(generation, calls[0]); /* generations in order, each once */
    calls[0]++;
}

START_TEST(test_steps_equal_the_run)
{
    glevo_gp_data *d = square_plus(23);
    int calls[1] = {0};
    glevo_gp_params p = {.pop = 80, .generations = 7, .seed = 5, .max_size = 20,
                         .backend = GLEVO_BACKEND_CPU, .eval = {.threads = 1},
                         .progress = count_progress, .progress_user = calls, .report_every = 1};
    glevo_gp_result whole, stepped;
    ck_assert_int_eq(glevo_gp_run(&p, d, &whole), GLEVO_OK);
    ck_assert_int_eq(calls[0], 8);
    calls[0] = 0;
    glevo_gp *gp = NULL;
    ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_generation(gp), 0);
    ck_assert(!glevo_gp_done(gp));
    ck_assert_int_eq(glevo_gp_step(gp, 3), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_generation(gp), 3);
    ck_assert_int_eq(glevo_gp_step(gp, 10), GLEVO_OK); /* stops at generation 7 */
    ck_assert(glevo_gp_done(gp));
    ck_assert_int_eq(glevo_gp_generation(gp), 7);
    ck_assert_int_eq(glevo_gp_step(gp, 1), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_generation(gp), 7);
    ck_assert_int_eq(calls[0], 8);
    ck_assert_int_eq(glevo_gp_step(gp, -1), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_gp_result_get(gp, &stepped), GLEVO_OK);
    ck_assert_str_eq(stepped.best_sexpr, whole.best_sexpr);
    ck_assert(stepped.best_error == whole.best_error);
    ck_assert(glevo_gp_best_error(gp) == whole.best_error);
    ck_assert_int_eq(stepped.generations, whole.generations);
    ck_assert_int_eq(stepped.evaluations, whole.evaluations);
    ck_assert_int_eq(stepped.nodes_evaluated, whole.nodes_evaluated);
    int best = -1;
    const glevo_gp_programs *pop = glevo_gp_population(gp, &best);
    ck_assert_int_eq(glevo_gp_programs_count(pop), 80);
    /* The result reports the best program as a model (simplified, with linear scaling
     * folded in where on: glevo_gp_model), the population holds it as evolved. */
    glevo_gp_result model;
    ck_assert_int_eq(glevo_gp_model(glevo_gp_params_of(gp), d, pop, best, &model), GLEVO_OK);
    ck_assert_str_eq(model.best_sexpr, whole.best_sexpr);
    ck_assert(model.best_error == whole.best_error);
    glevo_gp_result_free(&model);
    glevo_gp_destroy(gp);
    glevo_gp_result_free(&whole);
    glevo_gp_result_free(&stepped);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Progress at generation 0, every report_every generations and the last, and only there;
 * the same run as with a report every generation (a report only reads results), with the
 * portfolio (whose run reports) and without, on the CPU and on the GPU where the population
 * lives (a report there is a read-back the other generations skip). */
static void record_generation(void *user, int generation, double best_error, const char *best)
{
    (void)best_error, (void)best;
    int *seen = user;
    seen[++seen[0]] = generation;
}

START_TEST(test_progress_every_report)
{
    testutil_context();
    glevo_gp_data *d = square_plus(29);
    for (int k = 0; k < 4; ++k) {
        glevo_backend b = k < 2 ? GLEVO_BACKEND_CPU : GLEVO_BACKEND_COMPUTE;
        if (!gp_engine_available(&(glevo_gp_eval_params){.backend = b})) continue;
        int seen[16] = {0}, every[16] = {0};
        glevo_gp_params p = {.pop = 80, .generations = 7, .seed = 3, .max_size = 20,
                             .backend = b, .portfolio = k % 2 ? 0.25 : GLEVO_ZERO,
                             .progress = record_generation, .progress_user = seen,
                             .report_every = 3};
        glevo_gp_result r3, r1;
        ck_assert_int_eq(glevo_gp_run(&p, d, &r3), GLEVO_OK);
        ck_assert_int_eq(seen[0], 4);
        ck_assert(seen[1] == 0 && seen[2] == 3 && seen[3] == 6 && seen[4] == 7);
        p.report_every = 1, p.progress_user = every;
        ck_assert_int_eq(glevo_gp_run(&p, d, &r1), GLEVO_OK);
        ck_assert_int_eq(every[0], 8);
        ck_assert_str_eq(r3.best_sexpr, r1.best_sexpr);
        ck_assert(r3.best_error == r1.best_error);
        glevo_gp_result_free(&r3);
        glevo_gp_result_free(&r1);
    }
    glevo_gp_params bad = {.report_every = -2};
    ck_assert_int_eq(glevo_gp_run(&bad, d, &(glevo_gp_result){0}), GLEVO_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(glevo_last_error(), "report_every -2"));
    glevo_gp_data_destroy(d);
}
END_TEST

/* A run builds its GL programs when it is created (generation 0) and none after: one
 * interpreter serves every generation, whatever depth and operators the population reaches,
 * and the portfolio's searches share theirs (a build mid-run cost the H200 0.3-2 s cold). */
START_TEST(test_programs_built_at_create)
{
    testutil_context();
    glevo_gp_data *d = square_plus(37);
    for (int k = 0; k < 2; ++k) {
        glevo_backend b = k ? GLEVO_BACKEND_COMPUTE : GLEVO_BACKEND_FRAGMENT;
        /* The defaults (portfolio, linear scaling, fitting, enumeration): the run finds
         * x1^2 + x2 early, so linear scaling's second look evaluates nearly exact programs
         * in most generations, through the same build. */
        glevo_gp_params p = {.pop = 120, .generations = 20, .seed = 3, .backend = b,
                             .metric = GLEVO_GP_MSE, .init_max_depth = 2};
        glevo_gp *gp = NULL;
        ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_OK);
        int built = glevo_context_builds(NULL, NULL, 0);
        ck_assert_int_eq(glevo_gp_step(gp, 20), GLEVO_OK);
        ck_assert(glevo_gp_done(gp));
        ck_assert_msg(glevo_gp_best_error(gp) < 1e-6, "%s: best error %g",
                      glevo_backend_name(b), glevo_gp_best_error(gp));
        ck_assert_msg(glevo_context_builds(NULL, NULL, 0) == built,
                      "%s: %d programs built after create", glevo_backend_name(b),
                      glevo_context_builds(NULL, NULL, 0) - built);
        glevo_gp_destroy(gp);
    }
    glevo_gp_data_destroy(d);
}
END_TEST

/* --backend auto, every command's default: compute where the context has compute shaders;
 * for GP the CPU engine on a software rasterizer. */
START_TEST(test_auto_backend)
{
    testutil_context();
    glevo_features f;
    glevo_context_features(NULL, &f);
    glevo_backend any = glevo_backend_resolve(GLEVO_BACKEND_AUTO);
    ck_assert_int_eq(any, f.compute ? GLEVO_BACKEND_COMPUTE : GLEVO_BACKEND_FRAGMENT);
    glevo_backend gp = glevo_gp_backend_resolve(GLEVO_BACKEND_AUTO);
    ck_assert_int_eq(gp, f.software ? GLEVO_BACKEND_CPU : any);
    ck_assert_int_eq(glevo_gp_backend_resolve(GLEVO_BACKEND_FRAGMENT), GLEVO_BACKEND_FRAGMENT);
}
END_TEST

/* glevo_gp_population on the GPU backends: the resident population comes back whole, right
 * after create (the demo's first frame read program 110 of an empty container) and after a
 * step, and *best is its best program's index, the one the result prints. */
START_TEST(test_population_of_gpu_runs)
{
    testutil_context();
    glevo_gp_data *d = square_plus(19);
    glevo_backend backends[] = {GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_COMPUTE};
    for (int b = 0; b < 2; ++b) {
        glevo_gp_params p = {.pop = 53, .generations = 4, .seed = 3, .max_size = 20,
                             .backend = backends[b]};
        glevo_gp *gp = NULL;
        ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_OK);
        for (int round = 0; round < 2; ++round) {
            int best = -1;
            const glevo_gp_programs *pop = glevo_gp_population(gp, &best);
            ck_assert_int_eq(glevo_gp_programs_count(pop), 53);
            ck_assert(best >= 0 && best < 53);
            glevo_gp_result r;
            ck_assert_int_eq(glevo_gp_result_get(gp, &r), GLEVO_OK);
            glevo_gp_result model;
            ck_assert_int_eq(glevo_gp_model(glevo_gp_params_of(gp), d, pop, best, &model),
                             GLEVO_OK);
            ck_assert_str_eq(model.best_sexpr, r.best_sexpr);
            glevo_gp_result_free(&model);
            glevo_gp_result_free(&r);
            ck_assert_int_eq(glevo_gp_step(gp, 2), GLEVO_OK);
        }
        glevo_gp_destroy(gp);
    }
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_engine");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_recovers_square_plus);
    tcase_add_test(tc, test_size_limit_and_seeds);
    tcase_add_test(tc, test_classification_run);
    tcase_add_test(tc, test_steps_equal_the_run);
    tcase_add_test(tc, test_progress_every_report);
    tcase_add_test(tc, test_population_of_gpu_runs);
    tcase_add_test(tc, test_programs_built_at_create);
    tcase_add_test(tc, test_auto_backend);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
