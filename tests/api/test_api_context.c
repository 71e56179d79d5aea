/* An engine used without its GL context: stepped after the context was destroyed, or from a
 * thread where no context is current, every GPU family refuses with GLEVO_ERR_GL naming
 * the call and the context (the words of the pass-level check, test_front_end_hooks), instead of crashing in src/gl (issue 23, item 3). Destroying the
 * engine afterwards is safe. Tiny engines: the test is about the check, not the run. */
#include <check.h>
#include <pthread.h>
#include <string.h>

#include "glevo/cga.h"
#include "glevo/context.h"
#include "glevo/de.h"
#include "glevo/dsmga.h"
#include "glevo/gp.h"
#include "testutil.h"

typedef struct engines {
    glevo_cga *cga;
    glevo_de *de;
    glevo_gp_data *data;
    glevo_gp_evaluator *eval;
    glevo_gp_programs *progs;
    glevo_dsm_gpu *dsm;
} engines;

static glevo_context *fresh_context(void)
{
    glevo_context *ctx = NULL;
    glevo_context_params params = {0};
    ck_assert_msg(glevo_context_create(&params, &ctx) == GLEVO_OK, "%s", glevo_last_error());
    return ctx;
}

static void engines_create(engines *e)
{
    memset(e, 0, sizeof *e);
    glevo_cga_params cp = {.problem = glevo_problem_find("sphere"), .dim = 2, .width = 6,
                           .height = 6, .seed = 5};
    ck_assert_msg(glevo_cga_create(&cp, &e->cga) == GLEVO_OK, "%s", glevo_last_error());
    glevo_de_params dp = {.dim = 3, .pop = 6, .max_evals = 600, .seed = 5};
    ck_assert_msg(glevo_de_create(&dp, &e->de) == GLEVO_OK, "%s", glevo_last_error());
    static const float x[3] = {1, 2, 3}, y[3] = {2, 4, 6};
    ck_assert(glevo_gp_data_create(1, 3, x, y, &e->data) == GLEVO_OK);
    glevo_gp_eval_params ep = {.backend = GLEVO_BACKEND_FRAGMENT};
    ck_assert_msg(glevo_gp_evaluator_create(&ep, e->data, &e->eval) == GLEVO_OK, "%s",
                  glevo_last_error());
    ck_assert(glevo_gp_programs_create(&e->progs) == GLEVO_OK);
    ck_assert(glevo_gp_programs_parse(e->progs, "(* 2 x1)\n", "test", 1) == GLEVO_OK);
    ck_assert_msg(glevo_dsm_gpu_create(5, 7, GLEVO_BACKEND_FRAGMENT, &e->dsm) == GLEVO_OK, "%s",
                  glevo_last_error());
}

static void engines_destroy(engines *e)
{
    glevo_cga_destroy(e->cga);
    glevo_de_destroy(e->de);
    glevo_gp_evaluator_destroy(e->eval);
    glevo_gp_programs_destroy(e->progs);
    glevo_gp_data_destroy(e->data);
    glevo_dsm_gpu_destroy(e->dsm);
}

static void expect_refused(glevo_status st, const char *call)
{
    ck_assert_msg(st == GLEVO_ERR_GL, "%s returned %d (%s)", call, (int)st,
                  glevo_last_error());
    ck_assert_msg(strstr(glevo_last_error(), call) && strstr(glevo_last_error(), "context"),
                  "%s: the message names neither the call nor the context: %s", call,
                  glevo_last_error());
}

/* Every family's entry points that reach the GPU. */
static void expect_all_refused(engines *e)
{
    glevo_cga_best best;
    expect_refused(glevo_cga_step(e->cga, 1), "glevo_cga_step");
    expect_refused(glevo_cga_best_get(e->cga, &best), "glevo_cga_best_get");
    expect_refused(glevo_cga_evaluate(e->cga), "glevo_cga_evaluate");
    expect_refused(glevo_de_step(e->de, 1), "glevo_de_step");
    glevo_de_result r;
    expect_refused(glevo_de_result_get(e->de, &r), "glevo_de_result_get");
    double err[1];
    expect_refused(glevo_gp_evaluate(e->eval, e->progs, GLEVO_GP_SAE, err), "glevo_gp_evaluate");
    uint32_t rows[5];
    expect_refused(glevo_dsm_gpu_build(e->dsm, rows), "glevo_dsm_gpu_build");
    float mi[25];
    expect_refused(glevo_dsm_gpu_read(e->dsm, mi), "glevo_dsm_gpu_read");
}

START_TEST(step_after_context_destroyed)
{
    glevo_context *ctx = fresh_context();
    engines e;
    engines_create(&e);
    ck_assert_msg(glevo_cga_step(e.cga, 1) == GLEVO_OK, "%s", glevo_last_error());
    glevo_context_destroy(ctx);
    expect_all_refused(&e);
    /* Another context current, not the engine's: still refused (a context created after the
     * destroyed one may even have its address). */
    glevo_context *other = fresh_context();
    expect_all_refused(&e);
    engines_destroy(&e);
    glevo_context_destroy(other);
}
END_TEST

static void *step_elsewhere(void *arg)
{
    expect_all_refused(arg);
    return NULL;
}

START_TEST(step_from_thread_without_context)
{
    glevo_context *ctx = fresh_context();
    engines e;
    engines_create(&e);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, step_elsewhere, &e), 0);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    /* Where the context is current, the same engines still run. */
    ck_assert_msg(glevo_cga_step(e.cga, 1) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_msg(glevo_de_step(e.de, 1) == GLEVO_OK, "%s", glevo_last_error());
    engines_destroy(&e);
    glevo_context_destroy(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_context");
    TCase *tc = tcase_create("context");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, step_after_context_destroyed);
    tcase_add_test(tc, step_from_thread_without_context);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
