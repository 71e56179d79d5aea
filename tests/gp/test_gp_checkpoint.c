/* GP checkpoints (src/gp/checkpoint.c): N generations straight against N/2, save, a new
 * engine loaded from the file on the same data, N/2 more: the programs, errors, best and
 * counts equal bit for bit on every evaluator backend (compute once it is built); other data
 * and changed parameters are refused by name; safe changes are taken. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "testutil.h"

static glevo_gp_data *dataset(int cases, uint32_t key)
{
    float *x = malloc(2 * (size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, key, 1);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        x[cases + c] = 2.0f * glevo_rng_u01(r.v[1]) - 1.0f;
        y[c] = x[c] * x[c] * x[cases + c] + 0.5f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

static const char *tmp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/glevo-gp-ckpt-%ld-%s", (long)getpid(), name);
    return path;
}

static void assert_same_run(glevo_gp *a, glevo_gp *b, const char *what)
{
    int ba, bb;
    const glevo_gp_programs *pa = glevo_gp_population(a, &ba), *pb = glevo_gp_population(b, &bb);
    ck_assert_msg(glevo_gp_generation(a) == glevo_gp_generation(b), "%s: generation %d vs %d", what,
                  glevo_gp_generation(a), glevo_gp_generation(b));
    ck_assert_msg(ba == bb, "%s: best index %d vs %d", what, ba, bb);
    double ea = glevo_gp_best_error(a), eb = glevo_gp_best_error(b);
    ck_assert_msg(!memcmp(&ea, &eb, sizeof ea), "%s: best error %.17g vs %.17g", what, ea, eb);
    ck_assert_int_eq(glevo_gp_programs_count(pa), glevo_gp_programs_count(pb));
    for (int i = 0; i < glevo_gp_programs_count(pa); ++i) {
        char sa[4096], sb[4096];
        glevo_gp_program_sexpr(pa, i, sa, sizeof sa);
        glevo_gp_program_sexpr(pb, i, sb, sizeof sb);
        ck_assert_msg(!strcmp(sa, sb), "%s: program %d\n  %s\n  %s", what, i, sa, sb);
        int la, lb;
        const uint32_t *ca = glevo_gp_programs_codes(pa, i, &la), *cb = glevo_gp_programs_codes(pb, i, &lb);
        ck_assert(la == lb && !memcmp(ca, cb, (size_t)la * sizeof *ca));
    }
    glevo_gp_result ra, rb;
    ck_assert(glevo_gp_result_get(a, &ra) == GLEVO_OK && glevo_gp_result_get(b, &rb) == GLEVO_OK);
    ck_assert_msg(ra.evaluations == rb.evaluations && ra.nodes_evaluated == rb.nodes_evaluated,
                  "%s: evaluations %lld/%lld, nodes %lld/%lld", what, ra.evaluations,
                  rb.evaluations, ra.nodes_evaluated, rb.nodes_evaluated);
    ck_assert_str_eq(ra.best_sexpr, rb.best_sexpr);
    glevo_gp_result_free(&ra), glevo_gp_result_free(&rb);
}

static const struct { const char *name; glevo_backend backend; glevo_gp_strategy strategy; } engines[] = {
    {"cpu", GLEVO_BACKEND_CPU, GLEVO_GP_AUTO},
    {"fragment-ppcu", GLEVO_BACKEND_FRAGMENT, GLEVO_GP_PPCU},
    {"fragment-pppe", GLEVO_BACKEND_FRAGMENT, GLEVO_GP_PPPE},
    {"compute", GLEVO_BACKEND_COMPUTE, GLEVO_GP_AUTO},
};

START_TEST(resumed_run_ends_where_the_straight_one_does)
{
    if (engines[_i].backend != GLEVO_BACKEND_CPU) testutil_context();
    glevo_gp_data *d = dataset(37, 5);
    glevo_gp_params p = {.pop = 60, .generations = 30, .seed = 11 + (uint32_t)_i, .max_size = 25,
                         .pm = 0.3, .backend = engines[_i].backend,
                         .eval = {.strategy = engines[_i].strategy, .threads = 1}};
    const int N = 8;
    glevo_gp *straight, *first, *resumed;
    glevo_status st = glevo_gp_create(&p, d, &straight);
    if (st == GLEVO_ERR_UNSUPPORTED) { /* the compute evaluator is not built on this branch */
        glevo_gp_data_destroy(d);
        return;
    }
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_gp_step(straight, N) == GLEVO_OK);
    ck_assert(glevo_gp_create(&p, d, &first) == GLEVO_OK);
    ck_assert(glevo_gp_step(first, N / 2) == GLEVO_OK);
    const char *path = tmp_path("resume.ckpt");
    ck_assert_msg(glevo_gp_save(first, path, NULL) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_msg(glevo_gp_load(path, NULL, d, &resumed) == GLEVO_OK, "%s", glevo_last_error());
    assert_same_run(first, resumed, "just loaded");
    glevo_gp_destroy(first);
    ck_assert(glevo_gp_step(resumed, N - N / 2) == GLEVO_OK);
    char what[64];
    snprintf(what, sizeof what, "%s seed %u", engines[_i].name, p.seed);
    assert_same_run(straight, resumed, what);
    /* Constants too, bit for bit. */
    const glevo_gp_programs *pa = glevo_gp_population(straight, NULL);
    const glevo_gp_programs *pb = glevo_gp_population(resumed, NULL);
    for (int i = 0; i < glevo_gp_programs_count(pa); ++i) {
        int la;
        const uint32_t *c = glevo_gp_programs_codes(pa, i, &la);
        const uint32_t *cb = glevo_gp_programs_codes(pb, i, &la);
        for (int k = 0; k < la; ++k)
            if (GLEVO_GP_CODE_OP(c[k]) == GLEVO_GP_CONST) {
                float fa = glevo_gp_programs_constants(pa)[GLEVO_GP_CODE_INDEX(c[k])];
                float fb = glevo_gp_programs_constants(pb)[GLEVO_GP_CODE_INDEX(cb[k])];
                ck_assert_msg(!memcmp(&fa, &fb, sizeof fa), "%s: program %d constant %d", what, i, k);
            }
    }
    glevo_gp_destroy(straight);
    glevo_gp_destroy(resumed);
    glevo_gp_data_destroy(d);
    unlink(path);
}
END_TEST

START_TEST(other_data_and_changed_parameters_are_refused)
{
    glevo_gp_data *d = dataset(23, 5), *other = dataset(23, 6), *shorter = dataset(22, 5);
    glevo_gp_params p = {.pop = 20, .generations = 6, .seed = 3, .backend = GLEVO_BACKEND_CPU,
                         .eval = {.threads = 1}};
    glevo_gp *gp;
    ck_assert(glevo_gp_create(&p, d, &gp) == GLEVO_OK);
    ck_assert(glevo_gp_step(gp, 2) == GLEVO_OK);
    const char *path = tmp_path("params.ckpt");
    ck_assert(glevo_gp_save(gp, path, NULL) == GLEVO_OK);
    glevo_gp_destroy(gp);
    ck_assert_int_eq(glevo_gp_load(path, NULL, other, &gp), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "is not the data"), "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_load(path, NULL, shorter, &gp), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "2 variables x 22 cases"));
    static const struct { glevo_gp_params change; const char *words; } bad[] = {
        {{.pop = 21}, "glevo_gp_params.pop 21 differs from the checkpoint's 20"},
        {{.seed = 4}, "glevo_gp_params.seed 4"},
        {{.tournament = 7}, "glevo_gp_params.tournament 7"},
        {{.pc = 0.5}, "glevo_gp_params.pc 0.5"},
        {{.elitism = GLEVO_ZERO}, "glevo_gp_params.elitism 0 differs from the checkpoint's 1"},
        {{.max_size = 12}, "glevo_gp_params.max_size 12"},
        {{.const_min = -2, .const_max = 2}, "glevo_gp_params.const_min -2"},
        {{.function_set = GLEVO_GP_CLASSIFICATION}, "glevo_gp_params.function_set classification"},
        {{.metric = GLEVO_GP_MSE}, "glevo_gp_params.metric mse differs from the checkpoint's sae"},
        /* The search's own settings (a resume once ignored them silently). */
        {{.parsimony = 0.1}, "glevo_gp_params.parsimony 0.1 differs from the checkpoint's 0"},
        {{.const_opt_iters = 2}, "glevo_gp_params.const_opt_iters 2 differs from the checkpoint's 0"},
        {{.const_opt_fraction = 0.5}, "glevo_gp_params.const_opt_fraction 0.5 differs"},
        {{.const_opt_max = 7}, "glevo_gp_params.const_opt_max 7 differs from the checkpoint's 1024"},
        {{.linear_scaling = 1}, "glevo_gp_params.linear_scaling on differs from the checkpoint's off"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        gp = (glevo_gp *)1;
        ck_assert_int_eq(glevo_gp_load(path, &bad[i].change, d, &gp), GLEVO_ERR_INVALID);
        ck_assert_ptr_null(gp);
        ck_assert_msg(strstr(glevo_last_error(), bad[i].words), "case %zu: '%s' lacks '%s'", i,
                      glevo_last_error(), bad[i].words);
    }
    /* Another operator list is named as lists, not bit masks. */
    glevo_gp_params ops = {0};
    ck_assert_int_eq(glevo_gp_function_set_parse("+,-,pow", &ops.ops), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_load(path, &ops, d, &gp), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "glevo_gp_params.ops +,-,pow differs from the "
                         "checkpoint's +,-,*,/,neg,sin,cos"), "%s", glevo_last_error());
    /* Safe: more generations, another evaluator. */
    glevo_gp_params more = {.generations = 9, .pop = 20, .eval = {.threads = 2}};
    ck_assert_msg(glevo_gp_load(path, &more, d, &gp) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_generation(gp), 2);
    int steps = 0;
    while (!glevo_gp_done(gp) && steps < 100) ck_assert(glevo_gp_step(gp, 1) == GLEVO_OK), ++steps;
    ck_assert_int_eq(glevo_gp_generation(gp), 9);
    glevo_gp_destroy(gp);
    glevo_gp_data_destroy(d), glevo_gp_data_destroy(other), glevo_gp_data_destroy(shorter);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_checkpoint");
    TCase *tc = tcase_create("checkpoint");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, resumed_run_ends_where_the_straight_one_does, 0,
                        (int)(sizeof engines / sizeof engines[0]));
    tcase_add_test(tc, other_data_and_changed_parameters_are_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
