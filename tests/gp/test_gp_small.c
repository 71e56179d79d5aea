/* The compute backend's small-data layout (shaders/gp/eval_small.glsl, issue 24): 1 to 32
 * invocations a program and case segment, several programs a work-group. Its errors must be
 * the CPU interpreter's bit for bit (the same summation order: src/gp/eval_internal.h) on
 * random programs of every opcode at 1, 7, 100 and 1000 cases, for each layout and walk
 * width, in split dispatches, as the plan's rule picks it, and through the resident timing
 * (glevo_gp_evaluate_timed), and at 2100 cases (two segments, added by gp/combine.glsl).
 * Odd sizes on purpose: partial quads, partial work-groups,
 * invocations whose walks straddle lanes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/eval/gpu.h"
#include "gp_engines.h"
#include "testutil.h"

typedef struct layout {
    int prog_lanes, lanes; /* 0, 0: the rule */
    double max_draw_steps; /* > 0: split into many dispatches */
    int timed;             /* through glevo_gp_evaluate_timed */
} layout;

/* Errors of every layout == the CPU's, for pop programs of every opcode on `cases` cases. */
static void compare(int cases, int pop, int size, uint32_t seed, const layout *layouts, int n)
{
    testutil_context();
    glevo_gp_eval_params probe = {.backend = GLEVO_BACKEND_COMPUTE};
    if (!gp_engine_available(&probe)) return;
    uint32_t all = (1u << GLEVO_GP_OP_COUNT) - 1;
    glevo_gp_data *d = testutil_gp_data(3, cases, seed);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_random(p, pop, all, 3, size, seed), GLEVO_OK);
    ck_assert_uint_eq(glevo_gp_programs_ops_used(p), all);
    double *cpu = testutil_gp_cpu_errors(d, p, GLEVO_GP_MSE);
    double *gpu = malloc((size_t)pop * sizeof *gpu);
    glevo_gp_evaluator *ev = NULL;
    int finite = 0;
    for (int i = 0; i < pop; ++i) finite += isfinite(cpu[i]) != 0;
    ck_assert_msg(finite >= pop / 2, "only %d of %d programs finite", finite, pop);
    for (int k = 0; k < n; ++k) {
        const layout *l = &layouts[k];
        glevo_gp_eval_params gp = {.backend = GLEVO_BACKEND_COMPUTE, .prog_lanes = l->prog_lanes,
                                   .lanes = l->lanes, .max_draw_steps = l->max_draw_steps};
        ck_assert_int_eq(glevo_gp_evaluator_create(&gp, d, &ev), GLEVO_OK);
        glevo_gp_eval_timing t = {0};
        for (int i = 0; i < pop; ++i) gpu[i] = -1.0; /* nothing stale passes */
        glevo_status st = l->timed ? glevo_gp_evaluate_timed(ev, p, 3, GLEVO_GP_MSE, gpu, &t)
                                   : glevo_gp_evaluate(ev, p, GLEVO_GP_MSE, gpu);
        ck_assert_msg(st == GLEVO_OK, "%d cases, prog_lanes %d: %s", cases, l->prog_lanes,
                      glevo_last_error());
        if (l->timed) {
            ck_assert(t.upload >= 0 && t.evaluate > 0 && t.readback >= 0);
            if (l->prog_lanes) ck_assert_int_eq(t.prog_lanes, l->prog_lanes);
        }
        int unequal = 0;
        for (int i = 0; i < pop; ++i) {
            int same = memcmp(&gpu[i], &cpu[i], sizeof gpu[i]) == 0 ||
                       (isnan(gpu[i]) && isnan(cpu[i]));
            if (!same && unequal++ < 3) {
                char prog[4096];
                glevo_gp_program_sexpr(p, i, prog, sizeof prog);
                fprintf(stderr, "%d cases, prog_lanes %d, lanes %d: program %d gpu %.17g cpu "
                        "%.17g: %s\n", cases, l->prog_lanes, l->lanes, i, gpu[i], cpu[i], prog);
            }
        }
        ck_assert_msg(unequal == 0, "%d cases, prog_lanes %d, lanes %d: %d errors differ from "
                      "the CPU interpreter's", cases, l->prog_lanes, l->lanes, unequal);
        glevo_gp_evaluator_destroy(ev);
    }
    free(cpu);
    free(gpu);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}

START_TEST(test_one_case)
{
    const layout l[] = {{1, 1, 0, 0}, {4, 2, 0, 0}, {0, 0, 0, 1}};
    compare(1, 71, 23, 31, l, 3);
}
END_TEST

START_TEST(test_seven_cases)
{
    const layout l[] = {{1, 3, 0, 0}, {2, 1, 0, 0}, {8, 2, 40, 0}, {0, 0, 0, 1}};
    compare(7, 67, 27, 32, l, 4);
}
END_TEST

START_TEST(test_hundred_cases)
{
    const layout l[] = {{1, 4, 0, 0}, {4, 3, 0, 1}, {16, 1, 0, 0}, {32, 2, 0, 0}, {0, 0, 0, 1}};
    compare(100, 97, 31, 33, l, 5);
}
END_TEST

START_TEST(test_thousand_cases)
{
    const layout l[] = {{1, 2, 0, 0}, {8, 4, 0, 0}, {16, 3, 300, 0}, {0, 0, 0, 0}};
    compare(1000, 61, 29, 34, l, 4);
}
END_TEST

START_TEST(test_two_segments)
{
    /* 2100 cases: two case segments, so the kernels write segment sums for gp/combine.glsl
     * instead of the results themselves. */
    const layout l[] = {{32, 1, 0, 1}, {4, 2, 0, 0}, {64, 1, 0, 0}};
    compare(2100, 37, 21, 35, l, 3);
}
END_TEST

START_TEST(test_bad_prog_lanes)
{
    testutil_context();
    float x[2] = {1, 2}, y[2] = {0, 0};
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, 2, x, y, &d), GLEVO_OK);
    glevo_gp_evaluator *ev = NULL;
    glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_COMPUTE, .prog_lanes = 3};
    ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "prog_lanes 3"));
    ep.prog_lanes = 128;
    ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_ERR_INVALID);
    /* The resident timing is the compute backend's. */
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ x1 1)\n", "t", 0), GLEVO_OK);
    glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU};
    ck_assert_int_eq(glevo_gp_evaluator_create(&cp, d, &ev), GLEVO_OK);
    double e;
    glevo_gp_eval_timing t;
    ck_assert_int_eq(glevo_gp_evaluate_timed(ev, p, 5, GLEVO_GP_SAE, &e, &t), GLEVO_ERR_UNSUPPORTED);
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_stale_result_refused)
{
    /* Results are not cleared between evaluations: each carries the evaluation's stamp, and
     * one left from the evaluation before (a dispatch that did not run) must not pass. */
    gp_plan plan = {.nseg = 1};
    float counts[4] = {3.0f, (float)GP_SUM_LANES, 1.0f, 1.0f + 7.0f};
    uint32_t bits[4] = {0, 0x40000000u, 0, 0x40100000u}; /* 2.0 and 4.0 */
    glevo_gp_sums s;
    ck_assert_int_eq(gp_gpu_take_sums(bits, (const uint32_t *)counts, 4, 1, &plan, GP_SUM_LANES,
                                      7, "test", &s), GLEVO_OK);
    ck_assert(s.abs_sum == 2.0 && s.sq_sum == 4.0 && s.hits == 3.0);
    ck_assert_int_eq(gp_gpu_take_sums(bits, (const uint32_t *)counts, 4, 1, &plan, GP_SUM_LANES,
                                      8, "test", &s), GLEVO_ERR_GL);
    ck_assert(strstr(glevo_last_error(), "did not run"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_small");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_bad_prog_lanes);
    tcase_add_test(tc, test_stale_result_refused);
    tcase_add_test(tc, test_one_case);
    tcase_add_test(tc, test_seven_cases);
    tcase_add_test(tc, test_hundred_cases);
    tcase_add_test(tc, test_thousand_cases);
    tcase_add_test(tc, test_two_segments);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
