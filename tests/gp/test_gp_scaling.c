/* Linear scaling (Keijzer 2003; src/gp/scaling.c): the evaluator's moments (sum f*y, f*f, f)
 * are the same bits on every engine, a program equal to the target up to a + b f scores the
 * target's error, and a run reports the printed model (a and b folded in) with its own error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp_engines.h"
#include "testutil.h"

static float u01(uint32_t i, uint32_t stream, uint32_t seed)
{
    return glevo_rng_u01(glevo_philox4x32(i, stream, 0, 0, seed, 26).v[0]);
}

/* x1 in [-3, 3]; y = 0.7 + 2.5 sin(1.3 x1) + noise * N. */
static glevo_gp_data *sine_data(int cases, float noise, uint32_t seed)
{
    float *x = malloc((size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        x[c] = -3.0f + 6.0f * u01((uint32_t)c, 1, seed);
        float g = u01((uint32_t)c, 2, seed) + u01((uint32_t)c, 3, seed) - 1.0f;
        y[c] = 0.7f + 2.5f * sinf(1.3f * x[c]) + noise * g;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, cases, x, y, &d), GLEVO_OK);
    free(x);
    free(y);
    return d;
}

static double eval_one(const char *program, const glevo_gp_data *d, bool moments)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, program, "t", 1), GLEVO_OK);
    glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_CPU, .threads = 1, .moments = moments};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
    double e = -1;
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_MSE, &e), GLEVO_OK);
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_programs_destroy(p);
    return e;
}

START_TEST(test_scaled_error_is_the_targets)
{
    /* Without noise: f = sin(1.3 x1) is the target up to 0.7 + 2.5 f, so its scaled error is
     * 0 up to the float sums' rounding (relative ~1e-7 of var(y) ~ 3). */
    glevo_gp_data *d = sine_data(301, 0.0f, 1);
    double var_y = eval_one("1.5\n", d, true); /* a constant: b = 0, a = mean y */
    ck_assert_msg(var_y > 2.5 && var_y < 3.5, "variance %g", var_y);
    double scaled = eval_one("(sin (* 1.3 x1))\n", d, true);
    double plain = eval_one("(sin (* 1.3 x1))\n", d, false);
    /* The moments alone leave ~1e-7 of var(y) of rounding; programs that close are scored
     * again as the model a + b f (evaluator.c), down to the float model's own error. */
    ck_assert_msg(scaled <= 1e-12 * var_y, "scaled mse %g", scaled);
    ck_assert_msg(plain > 0.5, "unscaled mse %g", plain);
    /* Scaled, the sign and the size of f do not matter. */
    double neg = eval_one("(* -40 (sin (* 1.3 x1)))\n", d, true);
    ck_assert_msg(neg <= 1e-12 * var_y, "scaled mse of -40 f: %g", neg);
    /* The reported model refits a and b from double sums (model.c): as exact. */
    glevo_gp_programs *sp = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&sp), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(sp, "(sin (* 1.3 x1))\n", "t", 1), GLEVO_OK);
    glevo_gp_result m;
    glevo_gp_params mp = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_MSE});
    ck_assert_int_eq(glevo_gp_model(&mp, d, sp, 0, &m), GLEVO_OK);
    ck_assert_msg(m.best_error <= 1e-12 * var_y, "model %s: %.17g", m.best_sexpr, m.best_error);
    glevo_gp_result_free(&m);
    glevo_gp_programs_destroy(sp);
    glevo_gp_data_destroy(d);
    /* With noise the scaled error of f is the error of the target itself, at most (a and b
     * are the least-squares ones) and not much less (the noise is independent of f). */
    d = sine_data(1999, 0.5f, 2);
    scaled = eval_one("(sin (* 1.3 x1))\n", d, true);
    double target = eval_one("(+ 0.7 (* 2.5 (sin (* 1.3 x1))))\n", d, false);
    ck_assert_msg(scaled <= target * (1 + 1e-5) && scaled >= 0.98 * target,
                  "scaled %g, the target's %g", scaled, target);
    /* A constant program scores the target's variance (b = 0, a = mean y). */
    double var = eval_one("1.5\n", d, true);
    ck_assert_msg(var > 2.5 && var < 3.5, "constant's scaled mse %g", var);
    /* Moments need mse or rmse. */
    glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_CPU, .moments = true};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "x1\n", "t", 1), GLEVO_OK);
    double e;
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, &e), GLEVO_ERR_INVALID);
    glevo_gp_programs_destroy(p);
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_moments_gpu_equals_cpu)
{
    testutil_context();
    glevo_gp_data *d = sine_data(2111, 0.1f, 3); /* two segments, a partial quad */
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    uint32_t ops = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION) | 1u << GLEVO_GP_TANH |
                   1u << GLEVO_GP_AQ | 1u << GLEVO_GP_POW;
    ck_assert_int_eq(glevo_gp_programs_random(p, 31, ops, 1, 13, 26), GLEVO_OK);
    int n = glevo_gp_programs_count(p);
    double *cpu = malloc((size_t)n * sizeof *cpu), *gpu = malloc((size_t)n * sizeof *gpu);
    glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU, .threads = 2, .moments = true};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&cp, d, &ev), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_RMSE, cpu), GLEVO_OK);
    glevo_gp_evaluator_destroy(ev);
    int finite = 0;
    for (int i = 0; i < n; ++i) finite += isfinite(cpu[i]) != 0;
    ck_assert_int_ge(finite, n * 3 / 4);
    /* Every engine, and the compute backend's small-data kernel (several programs a
     * work-group) beside its 64-lane one. */
    gp_engine all[GP_ENGINE_COUNT + 2];
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) all[s] = gp_engines[s];
    all[GP_ENGINE_COUNT] = (gp_engine){"compute-small-4", {.backend = GLEVO_BACKEND_COMPUTE, .prog_lanes = 4}};
    all[GP_ENGINE_COUNT + 1] = (gp_engine){"compute-small-1", {.backend = GLEVO_BACKEND_COMPUTE, .prog_lanes = 1}};
    for (int s = 0; s < GP_ENGINE_COUNT + 2; ++s) {
        glevo_gp_eval_params ep = all[s].params;
        if (!gp_engine_available(&ep) || ep.backend == GLEVO_BACKEND_CPU) continue;
        ep.moments = true;
        ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
        glevo_status st = glevo_gp_evaluate(ev, p, GLEVO_GP_RMSE, gpu);
        ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
        for (int i = 0; i < n; ++i)
            ck_assert_msg(gpu[i] == cpu[i] || (!isfinite(cpu[i]) && !isfinite(gpu[i])),
                          "%s program %d: gpu %.17g cpu %.17g", all[s].name, i, gpu[i],
                          cpu[i]);
        glevo_gp_evaluator_destroy(ev);
    }
    free(cpu);
    free(gpu);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_run_reports_printed_model)
{
    /* A run with mse (scaling on by default): the printed program, parsed back and evaluated
     * without scaling, has exactly the reported error; it is a sum (the folded a + b f, its
     * like terms collected). */
    glevo_gp_data *d = sine_data(97, 0.05f, 4);
    glevo_gp_params P = {.pop = 300, .generations = 8, .metric = GLEVO_GP_MSE,
                         .backend = GLEVO_BACKEND_CPU, .seed = 5};
    glevo_gp_result r;
    ck_assert_int_eq(glevo_gp_run(&P, d, &r), GLEVO_OK);
    ck_assert_msg(!strncmp(r.best_sexpr, "(+ ", 3) || !strncmp(r.best_sexpr, "(- ", 3), "%s",
                  r.best_sexpr);
    char *text = malloc(strlen(r.best_sexpr) + 2);
    sprintf(text, "%s\n", r.best_sexpr);
    double again = eval_one(text, d, false);
    ck_assert_msg(again == r.best_error, "printed model's mse %.17g, reported %.17g", again,
                  r.best_error);
    ck_assert_msg(r.best_error < 3.0, "mse %g", r.best_error);
    free(text);
    glevo_gp_result_free(&r);
    /* Scaling asked for with sae is refused; turned off, the run's program is not rescaled. */
    P.metric = GLEVO_GP_SAE;
    P.linear_scaling = 1;
    ck_assert_int_eq(glevo_gp_run(&P, d, &r), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "linear_scaling"), "%s", glevo_last_error());
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_scaling");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_scaled_error_is_the_targets);
    tcase_add_test(tc, test_moments_gpu_equals_cpu);
    tcase_add_test(tc, test_run_reports_printed_model);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
