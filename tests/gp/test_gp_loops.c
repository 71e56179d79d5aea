/* Long interpreter loops (issue 12, defect 3): Mesa llvmpipe stops the loops of one shader
 * invocation after 65535 iterations in all and carries on, so a long program or many cases per
 * fragment came back with a wrong error and exit 0. The GPU drivers now split the work below
 * the driver's budget (tiles, walk and lane ranges continued from the last draw), every
 * invocation counts its walks and codes into the run marks, and a single walk longer than the
 * budget is refused naming the CPU backend. */
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "gp_engines.h"
#include "testutil.h"

/* A balanced sum of `leaves` variables (x1 and x2 in turn) in prefix codes: 2 * leaves - 1
 * nodes, a shallow stack however long. */
static void balanced(uint32_t *codes, int *n, int leaves, int *next_var)
{
    if (leaves == 1) {
        codes[(*n)++] = GLEVO_GP_CODE(GLEVO_GP_VAR, *next_var);
        *next_var = 1 - *next_var;
        return;
    }
    codes[(*n)++] = GLEVO_GP_CODE(GLEVO_GP_ADD, 0);
    balanced(codes, n, leaves / 2, next_var);
    balanced(codes, n, leaves - leaves / 2, next_var);
}

static glevo_gp_programs *long_programs(const int *nodes, int count)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    for (int i = 0; i < count; ++i) {
        uint32_t *codes = malloc((size_t)nodes[i] * sizeof *codes);
        int n = 0, var = i % 2;
        balanced(codes, &n, (nodes[i] + 1) / 2, &var);
        ck_assert_int_eq(glevo_gp_programs_add(p, codes, n, NULL), GLEVO_OK);
        free(codes);
    }
    return p;
}

/* x1 small and varied, x2 = 0.5, target 0: the error of a sum is the sum itself. */
static glevo_gp_data *data_of(int cases)
{
    float *x = malloc(2 * (size_t)cases * sizeof *x), *y = calloc((size_t)cases, sizeof *y);
    for (int c = 0; c < cases; ++c) {
        x[c] = 0.001f * (float)(c % 97 + 1);
        x[cases + c] = 0.5f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, cases, x, y, &d), GLEVO_OK);
    free(x);
    free(y);
    return d;
}

static int driver_limits_loops(void)
{
    return strstr(glevo_context_renderer(testutil_context()), "llvmpipe") != NULL;
}

/* Errors of p on d by engine e into out; returns the status. */
static glevo_status evaluate(const glevo_gp_eval_params *e, const glevo_gp_data *d,
                             const glevo_gp_programs *p, double *out)
{
    glevo_gp_eval_params ep = *e;
    glevo_gp_evaluator *ev = NULL;
    glevo_status st = glevo_gp_evaluator_create(&ep, d, &ev);
    if (!st) st = glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, out);
    glevo_gp_evaluator_destroy(ev);
    return st;
}

START_TEST(test_long_programs_match_cpu)
{
    /* 30001 nodes: 3 case-quads per fragment were already past 65535 iterations (PPPE on 12
     * cases, 540 instead of 1170), 2100 cases cut the PPCU fragments' 9 quads. */
    testutil_context();
    const int nodes[] = {30001, 3, 2001};
    const int cases[] = {12, 2100};
    glevo_gp_programs *p = long_programs(nodes, 3);
    for (int c = 0; c < 2; ++c) {
        glevo_gp_data *d = data_of(cases[c]);
        double cpu[3], gpu[3];
        glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU};
        ck_assert_int_eq(evaluate(&cp, d, p, cpu), GLEVO_OK);
        for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
            const glevo_gp_eval_params *e = &gp_engines[s].params;
            if (e->backend == GLEVO_BACKEND_CPU || !gp_engine_available(e)) continue;
            glevo_status st = evaluate(e, d, p, gpu);
            if (st == GLEVO_ERR_UNSUPPORTED && e->strategy == GLEVO_GP_PPPE && driver_limits_loops()) {
                /* One PPPE lane of 8 walks of 30001 codes cannot fit: refused, not wrong. */
                ck_assert_msg(strstr(glevo_last_error(), "ppcu"), "%s", glevo_last_error());
                continue;
            }
            ck_assert_msg(st == GLEVO_OK, "%s, %d cases: %s", gp_engines[s].name, cases[c],
                          glevo_last_error());
            for (int i = 0; i < 3; ++i)
                ck_assert_msg(gpu[i] == cpu[i], "%s, %d cases, program %d of %d nodes: %.17g, "
                              "CPU %.17g", gp_engines[s].name, cases[c], i + 1, nodes[i], gpu[i],
                              cpu[i]);
        }
        glevo_gp_data_destroy(d);
    }
    glevo_gp_programs_destroy(p);
}
END_TEST

START_TEST(test_cut_loops_fail_loudly)
{
    /* Planned as if the driver had no limit, llvmpipe cuts the loops: the run marks must say
     * so instead of an error coming back small. */
    if (!driver_limits_loops()) return;
    const int nodes[] = {30001, 3};
    glevo_gp_programs *p = long_programs(nodes, 2);
    glevo_gp_data *small = data_of(12), *big = data_of(2100);
    setenv("GLEVO_GP_LOOP_BUDGET", "0", 1);
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        const glevo_gp_eval_params *e = &gp_engines[s].params;
        if (e->backend == GLEVO_BACKEND_CPU || !gp_engine_available(e)) continue;
        double out[2];
        glevo_status st = evaluate(e, e->strategy == GLEVO_GP_PPPE ? small : big, p, out);
        ck_assert_msg(st == GLEVO_ERR_GL && strstr(glevo_last_error(), "cut short"),
                      "%s: status %d, errors %g %g: %s", gp_engines[s].name, (int)st, out[0],
                      out[1], st ? glevo_last_error() : "");
    }
    unsetenv("GLEVO_GP_LOOP_BUDGET");
    glevo_gp_data_destroy(small);
    glevo_gp_data_destroy(big);
    glevo_gp_programs_destroy(p);
}
END_TEST

START_TEST(test_walk_past_the_budget)
{
    /* One walk of 70001 codes is past llvmpipe's budget by itself: refused, naming the CPU
     * backend; without a limit (the H100) it evaluates like the CPU. */
    testutil_context();
    const int nodes[] = {70001};
    glevo_gp_programs *p = long_programs(nodes, 1);
    glevo_gp_data *d = data_of(5);
    double cpu, gpu;
    glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU};
    ck_assert_int_eq(evaluate(&cp, d, p, &cpu), GLEVO_OK);
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        const glevo_gp_eval_params *e = &gp_engines[s].params;
        if (e->backend == GLEVO_BACKEND_CPU || !gp_engine_available(e)) continue;
        glevo_status st = evaluate(e, d, p, &gpu);
        if (driver_limits_loops()) {
            ck_assert_msg(st == GLEVO_ERR_UNSUPPORTED && strstr(glevo_last_error(), "--backend cpu"),
                          "%s: status %d: %s", gp_engines[s].name, (int)st, glevo_last_error());
        } else {
            ck_assert_msg(st == GLEVO_OK, "%s: %s", gp_engines[s].name, glevo_last_error());
            ck_assert_msg(gpu == cpu, "%s: %.17g, CPU %.17g", gp_engines[s].name, gpu, cpu);
        }
    }
    glevo_gp_data_destroy(d);
    glevo_gp_programs_destroy(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_loops");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_long_programs_match_cpu);
    tcase_add_test(tc, test_cut_loops_fail_loudly);
    tcase_add_test(tc, test_walk_past_the_budget);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
