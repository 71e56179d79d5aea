/* GP on the same seed gives the same programs on every backend (the README's promise; with
 * constant fitting, the default for squared errors, every backend that fits on the host, and
 * on llvmpipe those that fit on the GPU too): the evaluators' errors are the same bits
 * (src/gp/eval_internal.h's summation order), so every
 * tournament, and so the whole run, is the same on the CPU, the fragment strategies and the
 * compute kernel. The projectile example used to part at generation 4 between the CPU and the
 * fragment passes on llvmpipe (RMSE 3.32 vs 6.60). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "gp_engines.h"
#include "testutil.h"

#define GENERATIONS 6

typedef struct trace {
    double best[GENERATIONS + 1];
    char program[GENERATIONS + 1][512];
} trace;

static void record(void *user, int generation, double best_error, const char *best_sexpr)
{
    trace *t = user;
    if (generation < 0 || generation > GENERATIONS) return;
    t->best[generation] = best_error;
    snprintf(t->program[generation], sizeof t->program[generation], "%s", best_sexpr);
}

/* How a run fits constants: not at all, on the host (the twin, sr/const_opt.c) whatever the
 * backend, or where the backend fits (the GPU's pass where the context has compute shaders). */
enum fitting { NO_FIT, HOST_FIT, BACKEND_FIT };

/* Runs every engine the context has from one seed and asserts each engine's best error and
 * program, generation by generation, equal the first's. Fitting as the defaults have it for
 * rmse (one step). Fitted on the GPU (BACKEND_FIT: fragment and compute where the context has
 * compute shaders), the constants are the host twin's bits on llvmpipe but may differ in the
 * last bits on NVIDIA (tests/gp/test_gp_const_opt.c says what is asserted there): elsewhere
 * only the CPU engine, which fits on the host, takes part. */
static void assert_same_runs(const glevo_gp_data *d, enum fitting fit)
{
    static trace traces[GP_ENGINE_COUNT];
    int reference = -1;
    bool bits_promised = strstr(glevo_context_renderer(testutil_context()), "llvmpipe");
    if (fit == HOST_FIT) setenv("GLEVO_GP_HOST_CONSTFIT", "1", 1);
    /* The fragment backend's runs too, which llvmpipe would leave to the twin (its doubles
     * are emulated there): so the pass is checked on the fragment path on CI as well. */
    if (fit == BACKEND_FIT) setenv("GLEVO_GP_GPU_CONSTFIT", "1", 1);
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        if (!gp_engine_available(&gp_engines[s].params)) continue;
        if (fit == BACKEND_FIT && !bits_promised &&
            gp_engines[s].params.backend != GLEVO_BACKEND_CPU)
            continue;
        memset(&traces[s], 0, sizeof traces[s]);
        glevo_gp_params p = {.pop = 300, .generations = GENERATIONS, .seed = 1,
                             .metric = GLEVO_GP_RMSE, .backend = gp_engines[s].params.backend,
                             .eval = gp_engines[s].params, .progress = record,
                             .progress_user = &traces[s], .report_every = 1,
                             .const_opt_iters = fit != NO_FIT ? 0 : GLEVO_ZERO};
        ck_assert_int_eq(glevo_gp_params_defaults(&p).const_opt_iters, fit != NO_FIT);
        glevo_gp_result r;
        glevo_status st = glevo_gp_run(&p, d, &r);
        ck_assert_msg(st == GLEVO_OK, "%s: %s", gp_engines[s].name, glevo_last_error());
        ck_assert_int_eq(r.generations, GENERATIONS);
        glevo_gp_result_free(&r);
        if (reference < 0) {
            reference = s;
            continue;
        }
        for (int g = 0; g <= GENERATIONS; ++g) {
            const trace *a = &traces[reference], *b = &traces[s];
            ck_assert_msg(a->best[g] == b->best[g] && !strcmp(a->program[g], b->program[g]),
                          "%s, generation %d: %s best %.17g %s, %s best %.17g %s",
                          fit == NO_FIT     ? "no fitting"
                          : fit == HOST_FIT ? "host fitting"
                                            : "fitting",
                          g, gp_engines[reference].name, a->best[g], a->program[g],
                          gp_engines[s].name, b->best[g], b->program[g]);
        }
    }
    unsetenv("GLEVO_GP_HOST_CONSTFIT");
    unsetenv("GLEVO_GP_GPU_CONSTFIT");
}

START_TEST(test_same_programs_every_backend)
{
    testutil_context();
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_load_csv(testutil_data_path("gp/projectile_train.csv"), NULL,
                                            &d),
                     GLEVO_OK);
    assert_same_runs(d, NO_FIT);
    assert_same_runs(d, HOST_FIT);
    assert_same_runs(d, BACKEND_FIT);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_same");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_same_programs_every_backend);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
