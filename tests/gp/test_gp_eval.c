/* GP evaluation passes and dispatches vs the CPU interpreter: random programs of every opcode
 * on random data; the errors of PPPE, FP, PPCU and the compute kernel must equal the CPU's bit
 * for bit (node values are glevo's exact math, and every backend sums in the same order:
 * src/gp/eval_internal.h), and within a relative 1e-4 (odd sizes, so partial case-quads,
 * partial segments, partial program columns and split draws and dispatches are exercised). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp_engines.h"
#include "testutil.h"

/* The GPU computes bit-identical node values (sin, cos and division are glevo's own, defined
 * identically in src/gp/gp_math.h and shaders/gp/math.glsl) and sums them in the order the CPU
 * does: the errors must be the same doubles. */
static void compare(uint32_t ops, int pop, int size, int vars, int cases, uint32_t seed,
                    glevo_gp_metric metric)
{
    testutil_context();
    glevo_gp_data *d = testutil_gp_data(vars, cases, seed);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_random(p, pop, ops, vars, size, seed), GLEVO_OK);
    /* Every requested opcode appears (the generator is not silently narrowing the test). */
    ck_assert_uint_eq(glevo_gp_programs_ops_used(p) & ops, ops);
    double *cpu = testutil_gp_cpu_errors(d, p, metric);
    double *gpu = malloc((size_t)pop * sizeof *gpu);
    glevo_gp_evaluator *ev = NULL;
    /* Each layout with a twist: PPPE split into draws of a few columns, FP one case-quad per
     * walk, PPCU three quads per walk in 16 x 4 tiles, compute in dispatches of a few
     * work-groups (the same build as the next: llvmpipe compiles slowly), compute as it comes. */
    const gp_engine engines[] = {
        {"fragment-pppe", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_PPPE,
                           .max_draw_steps = 2000}},
        {"fragment-fp", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_FP, .lanes = 1}},
        {"fragment-ppcu", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_PPCU,
                           .lanes = 3, .tile_width = 16}},
        {"compute-split", {.backend = GLEVO_BACKEND_COMPUTE, .max_draw_steps = 50}},
        {"compute", {.backend = GLEVO_BACKEND_COMPUTE}},
    };
    int n_engines = (int)(sizeof engines / sizeof engines[0]);
    int finite = 0, differ = 0, unequal = 0;
    for (int s = 0; s < n_engines; ++s) {
        glevo_gp_eval_params gp = engines[s].params;
        if (!gp_engine_available(&gp)) continue;
        glevo_status st = glevo_gp_evaluator_create(&gp, d, &ev);
        ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
        st = glevo_gp_evaluate(ev, p, metric, gpu);
        ck_assert_msg(st == GLEVO_OK, "%s: %s", engines[s].name, glevo_last_error());
        if (gp.backend == GLEVO_BACKEND_FRAGMENT)
            ck_assert_int_eq(glevo_gp_evaluator_strategy(ev), gp.strategy);
        for (int i = 0; i < pop; ++i) {
            if (!isfinite(cpu[i])) continue; /* overflow: no defined agreement */
            finite += s == 0;
            char prog[4096];
            glevo_gp_program_sexpr(p, i, prog, sizeof prog);
            double tol = 1e-4 * fmax(fabs(cpu[i]), 1.0);
            int close = fabs(gpu[i] - cpu[i]) <= tol, same = gpu[i] == cpu[i];
            differ += !close;
            unequal += !same;
            if ((!close || !same) && differ + unequal < 6)
                fprintf(stderr, "seed %u %s program %d: gpu %.17g cpu %.17g: %s\n", seed,
                        engines[s].name, i, gpu[i], cpu[i], prog);
        }
        glevo_gp_evaluator_destroy(ev);
    }
    ck_assert_msg(finite >= pop * 3 / 4, "only %d of %d programs finite", finite, pop);
    ck_assert_msg(differ == 0, "seed %u: %d GPU errors differ from the CPU's by more than 1e-4",
                  seed, differ);
    ck_assert_msg(unequal == 0, "seed %u: %d GPU errors are not the CPU's bit for bit", seed,
                  unequal);
    free(cpu);
    free(gpu);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}

START_TEST(test_regression_ops)
{
    compare(glevo_gp_function_set_ops(GLEVO_GP_REGRESSION), 37, 21, 5, 53, 11, GLEVO_GP_SAE);
}
END_TEST

START_TEST(test_symbolic_regression_ops)
{
    /* The symbolic-regression primitives (exp, log, sqrt, square, cube, pow, tanh, abs, aq)
     * beside + - * /, in hidden-style random programs. */
    uint32_t ops = 1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST | 1u << GLEVO_GP_ADD |
                   1u << GLEVO_GP_SUB | 1u << GLEVO_GP_MUL | 1u << GLEVO_GP_DIV;
    for (int op = GLEVO_GP_EXP; op <= GLEVO_GP_AQ; ++op) ops |= 1u << op;
    compare(ops, 43, 17, 3, 37, 17, GLEVO_GP_MSE);
}
END_TEST

START_TEST(test_classification_ops)
{
    compare(glevo_gp_function_set_ops(GLEVO_GP_CLASSIFICATION), 29, 19, 4, 47, 12, GLEVO_GP_SAE);
}
END_TEST

START_TEST(test_all_ops_metrics)
{
    uint32_t all = (1u << GLEVO_GP_OP_COUNT) - 1;
    compare(all, 41, 25, 3, 30, 13, GLEVO_GP_MSE);
    compare(all, 23, 15, 3, 9, 14, GLEVO_GP_ACCURACY);
}
END_TEST

START_TEST(test_many_programs_columns)
{
    /* More programs than one column of the program grid holds only on the GPU machine. */
    if (!testutil_large()) return;
    compare(glevo_gp_function_set_ops(GLEVO_GP_REGRESSION), 9001, 50, 10, 301, 15, GLEVO_GP_SAE);
    compare((1u << GLEVO_GP_OP_COUNT) - 1, 3001, 50, 10, 203, 16, GLEVO_GP_SAE);
}
END_TEST

START_TEST(test_known_values)
{
    /* Exact values a human can check: SAE of x1*x1 + x2 against y = x1*x1 + x2 + 1. */
    testutil_context();
    float x[2 * 5] = {1, 2, 3, -1, 0.5f, 0, 1, -1, 2, 4};
    float y[5];
    for (int c = 0; c < 5; ++c) y[c] = x[c] * x[c] + x[5 + c] + 1;
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, 5, x, y, &d), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ (* x1 x1) x2)\n(/ x1 0)\n(if (< x1 x2) 1 2)\n",
                                             "t", 2), GLEVO_OK);
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        glevo_gp_eval_params ep = gp_engines[s].params;
        if (!gp_engine_available(&ep)) continue;
        glevo_gp_evaluator *ev = NULL;
        ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
        double e[3];
        ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, e), GLEVO_OK);
        ck_assert_msg(e[0] == 5.0, "%s: %g", gp_engines[s].name, e[0]);
        /* (/ x1 0) = 1 everywhere: |1 - y| summed. */
        double w1 = 0, w2 = 0;
        for (int c = 0; c < 5; ++c) {
            w1 += fabs(1.0 - y[c]);
            w2 += fabs((x[c] < x[5 + c] ? 1.0 : 2.0) - y[c]);
        }
        ck_assert_msg(fabs(e[1] - w1) < 1e-5, "%s: %g vs %g", gp_engines[s].name, e[1], w1);
        ck_assert_msg(fabs(e[2] - w2) < 1e-5, "%s: %g vs %g", gp_engines[s].name, e[2], w2);
        glevo_gp_evaluator_destroy(ev);
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_bad_variable)
{
    testutil_context();
    float x[2] = {1, 2}, y[2] = {0, 0};
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, 2, x, y, &d), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ x1 x3)\n", "t", 0), GLEVO_OK);
    glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_PPCU};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
    double e;
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, &e), GLEVO_ERR_INVALID);
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_eval");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_known_values);
    tcase_add_test(tc, test_regression_ops);
    tcase_add_test(tc, test_classification_ops);
    tcase_add_test(tc, test_symbolic_regression_ops);
    tcase_add_test(tc, test_all_ops_metrics);
    tcase_add_test(tc, test_many_programs_columns);
    tcase_add_test(tc, test_bad_variable);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
