/* The hooks front ends (the Python package) use: progress callbacks of the cellular GA, DE and
 * DSMGA-II (called when documented, with what a front end would read then, and leaving the
 * run unchanged), and user fitness given as GLSL text (registered names, compile errors that
 * name the text's own lines, the same run as the same text in a file). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "glevo/glevo.h"
#include "testutil.h"

typedef struct seen {
    long long generation[64];
    double best[64];
    long long nfe[64];
    int count;
} seen;

static void on_cga(void *user, long long generation, double best)
{
    seen *s = user;
    if (s->count < 64) s->generation[s->count] = generation, s->best[s->count++] = best;
}

START_TEST(test_cga_progress)
{
    seen s = {0};
    glevo_cga_params p = {.problem = glevo_problem_find("rastrigin"), .dim = 3, .width = 22,
                          .height = 9, .seed = 5, .report_every = 5,
                          .backend = GLEVO_BACKEND_CPU};
    glevo_cga *plain, *reported;
    ck_assert_int_eq(glevo_cga_create(&p, &plain), GLEVO_OK);
    p.progress = on_cga, p.progress_user = &s;
    ck_assert_int_eq(glevo_cga_create(&p, &reported), GLEVO_OK);
    ck_assert_int_eq(glevo_cga_step(reported, 17), GLEVO_OK);
    ck_assert_int_eq(s.count, 3);
    for (int i = 0; i < 3; ++i) {
        /* What the plain run reads at the same generations. */
        ck_assert_int_eq(glevo_cga_step(plain, 5), GLEVO_OK);
        glevo_cga_best b;
        ck_assert_int_eq(glevo_cga_best_get(plain, &b), GLEVO_OK);
        ck_assert_int_eq(s.generation[i], 5 * (i + 1));
        ck_assert_msg(s.best[i] == b.fitness, "report %d: %.17g, read %.17g", i, s.best[i], b.fitness);
    }
    ck_assert_int_eq(glevo_cga_step(plain, 2), GLEVO_OK);
    size_t n = glevo_cga_gene_floats(plain);
    float a[22 * 9 * 4], b[22 * 9 * 4];
    ck_assert_uint_eq(n, 22 * 9 * 4);
    ck_assert_int_eq(glevo_cga_read_population(plain, a, NULL), GLEVO_OK);
    ck_assert_int_eq(glevo_cga_read_population(reported, b, NULL), GLEVO_OK);
    ck_assert_msg(!memcmp(a, b, sizeof a), "progress changed the run");
    glevo_cga_destroy(plain);
    glevo_cga_destroy(reported);
}
END_TEST

START_TEST(test_de_progress)
{
    seen s = {0};
    glevo_de_params p = {.problem = glevo_problem_find("sphere"), .dim = 3, .pop = 11,
                         .max_evals = 11 * 30 + 5, .seed = 8, .check_every = 7,
                         .backend = GLEVO_BACKEND_CPU};
    glevo_de_result plain, reported;
    ck_assert_int_eq(glevo_de_run(&p, &plain), GLEVO_OK);
    p.progress = (glevo_de_progress_fn)on_cga, p.progress_user = &s;
    ck_assert_int_eq(glevo_de_run(&p, &reported), GLEVO_OK);
    /* Every 7 generations, and once more at the end of the budget: 335 evaluations are the
     * initial 11 and 29 whole generations. */
    ck_assert_int_eq(plain.generations, 29);
    long long expect[] = {7, 14, 21, 28, 29};
    ck_assert_int_eq(s.count, 5);
    for (int i = 0; i < 5; ++i) ck_assert_int_eq(s.generation[i], expect[i]);
    ck_assert(s.best[4] == reported.best_fitness);
    for (int i = 1; i < 5; ++i) ck_assert(s.best[i] <= s.best[i - 1]);
    ck_assert(plain.best_fitness == reported.best_fitness);
    ck_assert(!memcmp(plain.best_x, reported.best_x, sizeof(double) * 3));
    glevo_de_result_free(&plain);
    glevo_de_result_free(&reported);
}
END_TEST

static void on_dsmga(void *user, int generation, double best, long long nfe)
{
    seen *s = user;
    if (s->count < 64)
        s->generation[s->count] = generation, s->best[s->count] = best, s->nfe[s->count++] = nfe;
}

START_TEST(test_dsmga_progress)
{
    seen s = {0};
    glevo_dsmga_problem *pr;
    ck_assert_int_eq(glevo_dsmga_problem_create("trap", 25, NULL, 0, &pr), GLEVO_OK);
    glevo_dsmga_params p = {.pop = 30, .seed = 3, .backend = GLEVO_BACKEND_CPU,
                            .progress = on_dsmga, .progress_user = &s};
    glevo_dsmga *e;
    ck_assert_int_eq(glevo_dsmga_create(pr, &p, &e), GLEVO_OK);
    bool done = false;
    for (int g = 1; !done; ++g) {
        ck_assert_int_eq(glevo_dsmga_step(e, &done), GLEVO_OK);
        if (!done || s.count == g) {
            ck_assert_int_eq(s.count, g);
            ck_assert_int_eq(s.generation[g - 1], glevo_dsmga_generation(e));
            ck_assert_int_eq(s.nfe[g - 1], glevo_dsmga_nfe(e));
        }
    }
    glevo_dsmga_result r;
    glevo_dsmga_result_get(e, &r);
    ck_assert(s.best[s.count - 1] == r.best_fitness);
    glevo_dsmga_destroy(e);
    glevo_dsmga_problem_destroy(pr);
}
END_TEST

static const char *const fitness =
    "vec4 problem_init() { return vec4(0.0); }\n"
    "vec4 problem_step(vec4 acc, int j, float z) { return acc + vec4((z - 1.0) * (z - 1.0)); }\n"
    "float problem_finish(vec4 acc, int D) { return acc.x; }\n";

START_TEST(test_glsl_source_names)
{
    glevo_problem a, b, c;
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, "hooks_a", 3, -5, 5, GLEVO_MINIMIZE, &a), GLEVO_OK);
    ck_assert_str_eq(a.name, "hooks_a");
    ck_assert_ptr_eq(a.snippet, a.name);
    ck_assert_ptr_null(a.init); /* GPU only */
    /* The same text again shares the name; other text under it gets the next free one. */
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, "hooks_a", 3, -5, 5, GLEVO_MINIMIZE, &b), GLEVO_OK);
    ck_assert_str_eq(b.name, "hooks_a");
    ck_assert_int_eq(glevo_problem_from_glsl_source("// other\n", "hooks_a", 3, -5, 5, GLEVO_MINIMIZE, &c), GLEVO_OK);
    ck_assert_str_eq(c.name, "hooks_a#2");
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, "../x.glsl", 3, -5, 5, GLEVO_MINIMIZE, &c),
                     GLEVO_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(glevo_last_error(), "'../x.glsl'"));
    ck_assert_int_eq(glevo_problem_from_glsl_source("", NULL, 3, -5, 5, GLEVO_MINIMIZE, &c), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, NULL, 3, 5, 5, GLEVO_MINIMIZE, &c), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, NULL, 3, -5, 5, GLEVO_MINIMIZE, &c), GLEVO_OK);
    ck_assert_str_eq(c.name, "<string>");
}
END_TEST

START_TEST(test_glsl_source_runs_as_the_file)
{
    testutil_context();
    glevo_problem text, file;
    ck_assert_int_eq(glevo_problem_from_glsl_source(fitness, "hooks_run", 3, -5, 5, GLEVO_MINIMIZE, &text), GLEVO_OK);
    ck_assert_int_eq(glevo_problem_from_glsl(testutil_write_tmp(fitness), 3, -5, 5, GLEVO_MINIMIZE, &file), GLEVO_OK);
    glevo_cga_best best[2];
    const glevo_problem *problems[2] = {&text, &file};
    for (int i = 0; i < 2; ++i) {
        glevo_cga_params p = {.problem = problems[i], .width = 14, .height = 7, .seed = 2};
        glevo_cga *cga;
        ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert_int_eq(glevo_cga_step(cga, 12), GLEVO_OK);
        ck_assert_int_eq(glevo_cga_best_get(cga, &best[i]), GLEVO_OK);
        glevo_cga_destroy(cga);
    }
    ck_assert(best[0].fitness == best[1].fitness);
    ck_assert(!memcmp(best[0].x, best[1].x, sizeof best[0].x));
}
END_TEST

START_TEST(test_glsl_source_error_names_its_line)
{
    testutil_context();
    glevo_problem bad;
    const char *text = "vec4 problem_init() { return vec4(0.0); }\n"
                       "vec4 problem_step(vec4 acc, int j, float z) { return acc + no_such; }\n"
                       "float problem_finish(vec4 acc, int D) { return acc.x; }\n";
    ck_assert_int_eq(glevo_problem_from_glsl_source(text, "hooks_bad", 2, -1, 1, GLEVO_MINIMIZE, &bad), GLEVO_OK);
    glevo_cga_params p = {.problem = &bad, .width = 6, .height = 3};
    glevo_cga *cga = NULL;
    ck_assert_int_eq(glevo_cga_create(&p, &cga), GLEVO_ERR_GL);
    ck_assert_msg(strstr(glevo_last_error(), "hooks_bad:2:") != NULL, "%s", glevo_last_error());
}
END_TEST

/* A GPU engine stepped on a thread where its context is not current is refused with a
 * sentence saying so (GL's rule), and stays usable on its own thread. */
typedef struct elsewhere {
    glevo_cga *cga;
    glevo_status status;
    char message[512];
} elsewhere;

static void *step_elsewhere(void *arg)
{
    elsewhere *e = arg;
    e->status = glevo_cga_step(e->cga, 1);
    snprintf(e->message, sizeof e->message, "%s", glevo_last_error()); /* per thread */
    return NULL;
}

START_TEST(test_other_thread_refused)
{
    testutil_context();
    glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = 6, .height = 5};
    elsewhere e = {0};
    ck_assert_int_eq(glevo_cga_create(&p, &e.cga), GLEVO_OK);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, step_elsewhere, &e), 0);
    pthread_join(t, NULL);
    ck_assert_int_eq(e.status, GLEVO_ERR_GL);
    ck_assert_msg(strstr(e.message, "no glevo GL context is current on this thread"), "%s", e.message);
    ck_assert_int_eq(glevo_cga_generation(e.cga), 0);
    ck_assert_int_eq(glevo_cga_step(e.cga, 2), GLEVO_OK);
    ck_assert_int_eq(glevo_cga_generation(e.cga), 2);
    glevo_cga_destroy(e.cga);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("front_end_hooks");
    TCase *tc = tcase_create("hooks");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cga_progress);
    tcase_add_test(tc, test_de_progress);
    tcase_add_test(tc, test_dsmga_progress);
    tcase_add_test(tc, test_glsl_source_names);
    tcase_add_test(tc, test_glsl_source_runs_as_the_file);
    tcase_add_test(tc, test_glsl_source_error_names_its_line);
    tcase_add_test(tc, test_other_thread_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
