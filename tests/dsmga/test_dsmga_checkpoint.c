/* DSMGA-II checkpoints (src/dsmga/checkpoint.c): N generations straight against N/2, save, a
 * new engine loaded from the file, the rest: population, keys, key multiset, random stream,
 * best and counts equal bit for bit for each model backend (compute once it is built) and
 * both models; another problem or instance and changed parameters are refused by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsmga/engine_internal.h"
#include "testutil.h"

static const char *tmp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/glevo-dsmga-ckpt-%ld-%s", (long)getpid(), name);
    return path;
}

static void assert_same(const glevo_dsmga *a, const glevo_dsmga *b, const char *what)
{
    ck_assert_msg(a->generation == b->generation && a->nfe == b->nfe, "%s: generation %d/%d, NFE "
                  "%lld/%lld", what, a->generation, b->generation, a->nfe, b->nfe);
    size_t nl = (size_t)a->n * a->ell;
    ck_assert_msg(!memcmp(a->pop, b->pop, nl), "%s: populations differ", what);
    ck_assert_msg(!memcmp(a->fit, b->fit, (size_t)a->n * sizeof *a->fit), "%s: fitness", what);
    ck_assert_msg(!memcmp(a->key, b->key, (size_t)a->n * sizeof *a->key), "%s: keys", what);
    ck_assert_msg(!memcmp(a->best, b->best, (size_t)a->ell) && a->best_fit == b->best_fit,
                  "%s: best %g vs %g", what, a->best_fit, b->best_fit);
    ck_assert_msg(a->hcap == b->hcap && a->hfill == b->hfill &&
                  !memcmp(a->hcount, b->hcount, a->hcap * sizeof *a->hcount), "%s: key table", what);
    for (size_t i = 0; i < a->hcap; ++i) /* free slots' keys are never read */
        ck_assert_msg(a->hcount[i] < 0 || a->hkeys[i] == b->hkeys[i], "%s: key slot %zu", what, i);
    ck_assert_msg(a->rng.counter_lo == b->rng.counter_lo && a->rng.counter_hi == b->rng.counter_hi &&
                  a->rng.left == b->rng.left, "%s: random stream", what);
    ck_assert_msg(a->solved == b->solved && a->stalled == b->stalled && a->done == b->done,
                  "%s: solved %d/%d stalled %d/%d done %d/%d", what, a->solved, b->solved,
                  a->stalled, b->stalled, a->done, b->done);
}

static const struct { const char *problem; int ell, pop; glevo_dsmga_model model; glevo_backend backend; } cases[] = {
    {"trap", 60, 40, GLEVO_DSMGA_LOSSLESS, GLEVO_BACKEND_CPU},
    {"spin", 64, 30, GLEVO_DSMGA_LOSSY, GLEVO_BACKEND_CPU},
    {"ftrap", 48, 36, GLEVO_DSMGA_LOSSLESS, GLEVO_BACKEND_FRAGMENT},
    {"cyctrap", 40, 30, GLEVO_DSMGA_LOSSY, GLEVO_BACKEND_FRAGMENT},
    {"trap", 60, 40, GLEVO_DSMGA_LOSSLESS, GLEVO_BACKEND_COMPUTE},
    {"trap", 60, 40, GLEVO_DSMGA_LOSSY, GLEVO_BACKEND_COMPUTE},
};

static void step_n(glevo_dsmga *e, int n)
{
    bool done = false;
    for (int k = 0; k < n && !done; ++k)
        ck_assert_msg(glevo_dsmga_step(e, &done) == GLEVO_OK, "%s", glevo_last_error());
}

START_TEST(resumed_run_ends_where_the_straight_one_does)
{
    if (cases[_i].backend != GLEVO_BACKEND_CPU) testutil_context();
    uint32_t seed = 31 + (uint32_t)_i;
    glevo_dsmga_problem *pr;
    ck_assert_int_eq(glevo_dsmga_problem_create(cases[_i].problem, cases[_i].ell, NULL, seed, &pr),
                     GLEVO_OK);
    glevo_dsmga_params p = {.pop = cases[_i].pop, .seed = seed, .model = cases[_i].model,
                            .backend = cases[_i].backend, .stall_generations = 3};
    const int N = 8;
    glevo_dsmga *straight, *first, *resumed;
    glevo_status st = glevo_dsmga_create(pr, &p, &straight);
    if (st == GLEVO_ERR_UNSUPPORTED) { /* the compute model builder is not built on this branch */
        glevo_dsmga_problem_destroy(pr);
        return;
    }
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    step_n(straight, N);
    ck_assert_msg(straight->generation >= 3, "case %d ends after %d generations: too short to "
                  "test", _i, straight->generation);
    ck_assert(glevo_dsmga_create(pr, &p, &first) == GLEVO_OK);
    step_n(first, N / 2);
    const char *path = tmp_path("resume.ckpt");
    ck_assert_msg(glevo_dsmga_save(first, path, NULL) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_msg(glevo_dsmga_load(path, pr, NULL, &resumed) == GLEVO_OK, "%s", glevo_last_error());
    first->done = false; /* a loaded engine decides at its next step, as the saved one would */
    assert_same(first, resumed, "just loaded");
    glevo_dsmga_destroy(first);
    step_n(resumed, N - N / 2);
    char what[96];
    snprintf(what, sizeof what, "case %d (%s %d, %s, seed %u)", _i, cases[_i].problem,
             cases[_i].ell, glevo_backend_name(cases[_i].backend), seed);
    assert_same(straight, resumed, what);
    glevo_dsmga_result ra, rb;
    glevo_dsmga_result_get(straight, &ra);
    glevo_dsmga_result_get(resumed, &rb);
    ck_assert(ra.nfe == rb.nfe && ra.generations == rb.generations && ra.solved == rb.solved &&
              ra.best_fitness == rb.best_fitness);
    glevo_dsmga_destroy(straight);
    glevo_dsmga_destroy(resumed);
    glevo_dsmga_problem_destroy(pr);
    unlink(path);
}
END_TEST

START_TEST(other_problems_and_changed_parameters_are_refused)
{
    glevo_dsmga_problem *spin, *other_spin, *trap;
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 64, NULL, 1, &spin), GLEVO_OK);
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 64, NULL, 2, &other_spin), GLEVO_OK);
    ck_assert_int_eq(glevo_dsmga_problem_create("trap", 15, NULL, 1, &trap), GLEVO_OK);
    glevo_dsmga_params p = {.pop = 20, .seed = 3, .backend = GLEVO_BACKEND_CPU};
    glevo_dsmga *e;
    ck_assert(glevo_dsmga_create(spin, &p, &e) == GLEVO_OK);
    step_n(e, 1);
    const char *path = tmp_path("params.ckpt");
    ck_assert(glevo_dsmga_save(e, path, NULL) == GLEVO_OK);
    glevo_dsmga_destroy(e);
    ck_assert_int_eq(glevo_dsmga_load(path, other_spin, NULL, &e), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "other couplings"), "%s", glevo_last_error());
    ck_assert_int_eq(glevo_dsmga_load(path, trap, NULL, &e), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "problem trap with ell 15 differs from the checkpoint's spin"));
    static const struct { glevo_dsmga_params change; const char *words; } bad[] = {
        {{.pop = 21}, "glevo_dsmga_params.pop 21 differs from the checkpoint's 20"},
        {{.seed = 4}, "glevo_dsmga_params.seed 4"},
        {{.selection_pressure = 3}, "glevo_dsmga_params.selection_pressure 3"},
        {{.repeat = 2}, "glevo_dsmga_params.repeat 2"},
        {{.model = GLEVO_DSMGA_LOSSY}, "glevo_dsmga_params.model lossy"},
        {{.skip_duplicates = true}, "glevo_dsmga_params.skip_duplicates 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        e = (glevo_dsmga *)1;
        ck_assert_int_eq(glevo_dsmga_load(path, spin, &bad[i].change, &e), GLEVO_ERR_INVALID);
        ck_assert_ptr_null(e);
        ck_assert_msg(strstr(glevo_last_error(), bad[i].words), "case %zu: '%s' lacks '%s'", i,
                      glevo_last_error(), bad[i].words);
    }
    glevo_dsmga_params budget = {.max_generations = 2, .pop = 20};
    ck_assert_msg(glevo_dsmga_load(path, spin, &budget, &e) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_dsmga_generation(e), 1);
    glevo_dsmga_result r;
    ck_assert(glevo_dsmga_run(e, &r) == GLEVO_OK);
    ck_assert_msg(r.generations == 2 || r.solved, "%d generations", r.generations);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(spin), glevo_dsmga_problem_destroy(other_spin);
    glevo_dsmga_problem_destroy(trap);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dsmga_checkpoint");
    TCase *tc = tcase_create("checkpoint");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, resumed_run_ends_where_the_straight_one_does, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, other_problems_and_changed_parameters_are_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
