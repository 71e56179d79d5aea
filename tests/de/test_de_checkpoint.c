/* DE checkpoints (src/de/checkpoint.c): N generations straight against N/2, save, a new
 * engine loaded from the file, N/2 more: population, fitness, best and counts equal bit for
 * bit on the CPU, fragment and both compute kernels; sphere checkpoints move between backends
 * (the engines agree exactly there); changed parameters are refused by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/de.h"
#include "testutil.h"

typedef struct snap {
    double *x;
    float *f;
    glevo_de_result r;
    size_t n;
    int np;
} snap;

static void take(glevo_de *de, int np, int dim, snap *s)
{
    s->n = (size_t)np * dim, s->np = np;
    s->x = malloc(s->n * sizeof(double));
    s->f = malloc((size_t)np * sizeof(float));
    ck_assert(glevo_de_population(de, s->x, s->f) == GLEVO_OK);
    ck_assert(glevo_de_result_get(de, &s->r) == GLEVO_OK);
}

static void drop(snap *s) { free(s->x), free(s->f), glevo_de_result_free(&s->r); }

static void assert_same(const snap *a, const snap *b, const char *what)
{
    ck_assert_msg(a->r.generations == b->r.generations && a->r.evaluations == b->r.evaluations,
                  "%s: generations %lld/%lld evaluations %lld/%lld", what, a->r.generations,
                  b->r.generations, a->r.evaluations, b->r.evaluations);
    ck_assert_msg(!memcmp(a->x, b->x, a->n * sizeof(double)), "%s: populations differ", what);
    ck_assert_msg(!memcmp(a->f, b->f, (size_t)a->np * sizeof(float)), "%s: fitness differs", what);
    ck_assert_msg(!memcmp(a->r.best_x, b->r.best_x, (size_t)a->r.dim * sizeof(double)) &&
                  a->r.best_fitness == b->r.best_fitness, "%s: best %.17g vs %.17g", what,
                  a->r.best_fitness, b->r.best_fitness);
}

static const char *tmp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/glevo-de-ckpt-%ld-%s", (long)getpid(), name);
    return path;
}

static const struct {
    const char *problem;
    int dim, np;
    glevo_de_strategy strategy;
    glevo_backend backend;
    glevo_de_kernel kernel;
    bool no_shift;
} cases[] = {
    {"rastrigin", 7, 23, GLEVO_DE_RAND_1_BIN, GLEVO_BACKEND_CPU, 0, false},
    {"griewank", 5, 19, GLEVO_DE_CURRENT_TO_BEST_1_BIN, GLEVO_BACKEND_CPU, 0, true},
    {"rastrigin", 7, 23, GLEVO_DE_RAND_1_BIN, GLEVO_BACKEND_FRAGMENT, 0, false},
    {"sphere", 6, 17, GLEVO_DE_BEST_1_BIN, GLEVO_BACKEND_FRAGMENT, 0, false},
    {"rosenbrock", 9, 21, GLEVO_DE_RAND_1_EXP, GLEVO_BACKEND_COMPUTE, GLEVO_DE_KERNEL_GENERATION, false},
    {"sphere", 6, 17, GLEVO_DE_BEST_1_BIN, GLEVO_BACKEND_COMPUTE, GLEVO_DE_KERNEL_RESIDENT, true},
};

START_TEST(resumed_run_ends_where_the_straight_one_does)
{
    if (cases[_i].backend != GLEVO_BACKEND_CPU) testutil_context();
    glevo_de_params p = {.problem = glevo_problem_find(cases[_i].problem), .dim = cases[_i].dim,
                         .pop = cases[_i].np, .strategy = cases[_i].strategy,
                         .backend = cases[_i].backend, .kernel = cases[_i].kernel,
                         .no_shift = cases[_i].no_shift, .seed = 700 + (uint32_t)_i, .CR = 0.6};
    const int N = 14;
    glevo_de *straight, *first, *resumed;
    ck_assert_msg(glevo_de_create(&p, &straight) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_de_step(straight, N) == GLEVO_OK);
    snap want, half, loaded, got;
    take(straight, p.pop, p.dim, &want);
    glevo_de_destroy(straight);
    ck_assert(glevo_de_create(&p, &first) == GLEVO_OK);
    ck_assert(glevo_de_step(first, N / 2) == GLEVO_OK);
    const char *path = tmp_path("resume.ckpt");
    ck_assert_msg(glevo_de_save(first, path, NULL) == GLEVO_OK, "%s", glevo_last_error());
    take(first, p.pop, p.dim, &half);
    glevo_de_destroy(first);
    ck_assert_msg(glevo_de_load(path, NULL, &resumed) == GLEVO_OK, "%s", glevo_last_error());
    take(resumed, p.pop, p.dim, &loaded);
    assert_same(&half, &loaded, "just loaded");
    ck_assert_str_eq(loaded.r.engine, half.r.engine);
    ck_assert(glevo_de_step(resumed, N - N / 2) == GLEVO_OK);
    take(resumed, p.pop, p.dim, &got);
    char what[96];
    snprintf(what, sizeof what, "case %d (%s, %s %s)", _i, cases[_i].problem,
             glevo_backend_name(cases[_i].backend), want.r.engine);
    assert_same(&want, &got, what);
    glevo_de_destroy(resumed);
    drop(&want), drop(&half), drop(&loaded), drop(&got);
    unlink(path);
}
END_TEST

START_TEST(sphere_checkpoints_move_between_backends)
{
    testutil_context();
    static const glevo_backend moves[][2] = {{GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_CPU},
                                             {GLEVO_BACKEND_CPU, GLEVO_BACKEND_COMPUTE},
                                             {GLEVO_BACKEND_COMPUTE, GLEVO_BACKEND_FRAGMENT}};
    for (size_t m = 0; m < 3; ++m) {
        glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = 8, .pop = 13,
                             .seed = 41 + (uint32_t)m, .backend = moves[m][1]};
        glevo_de *straight, *first, *resumed;
        ck_assert(glevo_de_create(&p, &straight) == GLEVO_OK);
        ck_assert(glevo_de_step(straight, 10) == GLEVO_OK);
        snap want, got;
        take(straight, p.pop, p.dim, &want);
        glevo_de_destroy(straight);
        p.backend = moves[m][0];
        ck_assert(glevo_de_create(&p, &first) == GLEVO_OK);
        ck_assert(glevo_de_step(first, 4) == GLEVO_OK);
        const char *path = tmp_path("move.ckpt");
        ck_assert(glevo_de_save(first, path, NULL) == GLEVO_OK);
        glevo_de_destroy(first);
        glevo_de_params change = {.backend = (glevo_backend)GLEVO_LITERAL((int)moves[m][1])};
        ck_assert_msg(glevo_de_load(path, &change, &resumed) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(glevo_de_step(resumed, 6) == GLEVO_OK);
        take(resumed, p.pop, p.dim, &got);
        char what[64];
        snprintf(what, sizeof what, "sphere %s -> %s", glevo_backend_name(moves[m][0]),
                 glevo_backend_name(moves[m][1]));
        assert_same(&want, &got, what);
        glevo_de_destroy(resumed);
        drop(&want), drop(&got);
        unlink(path);
    }
}
END_TEST

START_TEST(changed_parameters_are_refused_by_name)
{
    glevo_de_params p = {.problem = glevo_problem_find("rastrigin"), .dim = 4, .pop = 12,
                         .seed = 8, .backend = GLEVO_BACKEND_CPU};
    glevo_de *de;
    ck_assert(glevo_de_create(&p, &de) == GLEVO_OK);
    ck_assert(glevo_de_step(de, 3) == GLEVO_OK);
    const char *path = tmp_path("params.ckpt");
    ck_assert(glevo_de_save(de, path, NULL) == GLEVO_OK);
    glevo_de_destroy(de);
    static const double other_shift[4] = {1, 2, 3, 4};
    static const struct { glevo_de_params change; const char *words; } bad[] = {
        {{.pop = 13}, "glevo_de_params.pop 13 differs from the checkpoint's 12"},
        {{.dim = 5}, "glevo_de_params.dim 5"},
        {{.F = 0.7}, "glevo_de_params.F 0.7 differs from the checkpoint's 0.5"},
        {{.CR = GLEVO_ZERO}, "glevo_de_params.CR 0 differs"},
        {{.seed = 9}, "glevo_de_params.seed 9"},
        {{.strategy = GLEVO_DE_BEST_1_BIN}, "glevo_de_params.strategy best1bin differs from the "
                                            "checkpoint's rand1bin"},
        {{.no_shift = true}, "glevo_de_params.no_shift"},
        {{.shift = other_shift}, "glevo_de_params.shift"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        de = (glevo_de *)1;
        ck_assert_int_eq(glevo_de_load(path, &bad[i].change, &de), GLEVO_ERR_INVALID);
        ck_assert_ptr_null(de);
        ck_assert_msg(strstr(glevo_last_error(), bad[i].words), "case %zu: '%s' lacks '%s'", i,
                      glevo_last_error(), bad[i].words);
    }
    glevo_de_params sphere = {.problem = glevo_problem_find("sphere")};
    ck_assert_int_eq(glevo_de_load(path, &sphere, &de), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "glevo_de_params.problem sphere differs from the "
                                         "checkpoint's rastrigin"));
    /* The same values (CR as the float it runs with) and a larger budget are fine. */
    glevo_de_params same = {.pop = 12, .F = 0.5, .CR = 0.3, .max_evals = 12 * 20};
    ck_assert_msg(glevo_de_load(path, &same, &de) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_de_generation(de), 3);
    ck_assert(glevo_de_step(de, 1000) == GLEVO_OK);
    ck_assert_int_eq(glevo_de_evaluations(de), 12 * 20);
    glevo_de_destroy(de);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_checkpoint");
    TCase *tc = tcase_create("checkpoint");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, resumed_run_ends_where_the_straight_one_does, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, sphere_checkpoints_move_between_backends);
    tcase_add_test(tc, changed_parameters_are_refused_by_name);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
