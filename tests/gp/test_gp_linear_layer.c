/* The result's linear layer (src/gp/sr/linear_layer.c, glevo_gp_model_layer): a sum of a
 * model's subtrees and their products with least-squares weights, taken where it halves the
 * training error; exact models, noise and the off switch leave the model as it was. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/gp_internal.h"
#include "gp/sr/model.h"
#include "testutil.h"

/* x1..x3 uniform on [1, 3] (Feynman's ranges); y = f(x) + noise x N(0, 1). */
typedef double (*target_fn)(const float *x);
static double products(const float *x) { return x[0] * x[1] - 2.0 * x[2] * x[2]; }
static double first(const float *x) { return x[0]; }

static glevo_gp_data *data_of(target_fn f, int cases, double noise)
{
    float *x = malloc(3 * (size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        float row[3];
        for (int v = 0; v < 3; ++v) {
            glevo_u32x4 r = glevo_philox4x32((uint32_t)(c * 3 + v), 2, 0, 0, 45, 27);
            row[v] = x[(size_t)v * cases + c] = 1.0f + 2.0f * glevo_rng_u01(r.v[0]);
        }
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 3, 0, 0, 45, 27);
        double u1 = glevo_rng_u01(r.v[0]) + 1e-9, u2 = glevo_rng_u01(r.v[1]);
        y[c] = (float)(f(row) + noise * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(3, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

/* glevo_gp_model then glevo_gp_model_layer on program, as glevo_gp_result_get makes a run's
 * model; out's error is the printed model's. */
static void model_of(const glevo_gp_data *d, const char *program, int terms, glevo_gp_result *out)
{
    glevo_gp_params P = {.metric = GLEVO_GP_MSE, .linear_scaling = 1, .linear_layer = terms};
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, program, "t", 3), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_model(&P, d, p, 0, out), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_model_layer(&P, d, out), GLEVO_OK);
    glevo_gp_programs_destroy(p);
}

static double variance(const glevo_gp_data *d)
{
    const float *y = glevo_gp_data_target(d);
    int n = glevo_gp_data_cases(d);
    double m = 0, v = 0;
    for (int c = 0; c < n; ++c) m += y[c];
    for (int c = 0; c < n; ++c) v += (y[c] - m / n) * (y[c] - m / n);
    return v / n;
}

/* The search's parts without their weights (x1 x2 and x3^2 added as equals): the layer
 * weighs them, and the printed model is that sum, read back with the error it reports. */
START_TEST(test_parts_weighed)
{
    glevo_gp_data *d = data_of(products, 300, 0);
    glevo_gp_result r = {0};
    model_of(d, "(+ (* x1 x2) (* x3 x3))", 0, &r); /* 0: off, as glevo_gp_model's params */
    double before = r.best_error;
    ck_assert_msg(before > 0.1 * variance(d), "the unweighted sum already fits: %g", before);
    glevo_gp_result_free(&r);
    model_of(d, "(+ (* x1 x2) (* x3 x3))", 16, &r);
    ck_assert_msg(r.best_error <= 1e-10 * variance(d), "layer's error %g (before %g): %s",
                  r.best_error, before, r.best_sexpr);
    ck_assert_msg(r.best_nodes <= 12, "%d nodes: %s", r.best_nodes, r.best_sexpr);
    double again = -1;
    ck_assert_int_eq(gp_model_error(r.best, d, GLEVO_GP_MSE, &again), GLEVO_OK);
    ck_assert_double_eq(again, r.best_error);
    glevo_gp_result_free(&r);
    glevo_gp_data_destroy(d);
}
END_TEST

/* The same terms, weights and bits on one thread as on four. */
START_TEST(test_same_on_any_thread_count)
{
    glevo_gp_data *d = data_of(products, 2000, 0.01);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ (* (sin x1) x2) (cos (* x3 x1)))", "t", 3),
                     GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    uint32_t *c1 = NULL, *c4 = NULL;
    float *k1 = NULL, *k4 = NULL;
    int n1 = gp_linear_layer(c, glevo_gp_programs_constants(p), len, d, 16, 1, &c1, &k1);
    int n4 = gp_linear_layer(c, glevo_gp_programs_constants(p), len, d, 16, 4, &c4, &k4);
    ck_assert_int_gt(n1, len);
    ck_assert_int_eq(n1, n4);
    ck_assert(!memcmp(c1, c4, (size_t)n1 * sizeof *c1));
    ck_assert(!memcmp(k1, k4, (size_t)n1 * sizeof *k1));
    free(c1), free(c4), free(k1), free(k4);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Left as found: an exact model; the right model of noisy data (the criterion takes no term
 * for the noise); the layer off (GLEVO_ZERO's resolved 0); too few cases for one weight. */
START_TEST(test_left_as_found)
{
    glevo_gp_data *d = data_of(products, 300, 0), *noisy = data_of(first, 500, 0.1);
    glevo_gp_data *few = data_of(products, 9, 0);
    struct { const glevo_gp_data *d; const char *program; int terms; } cases[] = {
        {d, "(- (* x1 x2) (* 2 (* x3 x3)))", 16},
        {noisy, "x1", 16},
        {noisy, "(+ x1 (* 0.01 (sin x2)))", 16},
        {d, "(+ (* x1 x2) (* x3 x3))", 0},
        {few, "(+ (* x1 x2) (* x3 x3))", 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        glevo_gp_result plain = {0}, r = {0};
        model_of(cases[i].d, cases[i].program, 0, &plain);
        model_of(cases[i].d, cases[i].program, cases[i].terms, &r);
        ck_assert_msg(!strcmp(plain.best_sexpr, r.best_sexpr), "case %zu: %s -> %s", i,
                      plain.best_sexpr, r.best_sexpr);
        ck_assert_double_eq(plain.best_error, r.best_error);
        glevo_gp_result_free(&plain);
        glevo_gp_result_free(&r);
    }
    glevo_gp_data_destroy(d);
    glevo_gp_data_destroy(noisy);
    glevo_gp_data_destroy(few);
}
END_TEST

/* A run's result is its search's model with the layer on top at the defaults (squared
 * error), the model alone with it off (and the noise pruning, the other last step:
 * glevo_gp_model_layer takes both); the search is the same either way. */
START_TEST(test_run_result)
{
    glevo_gp_data *d = data_of(products, 200, 0);
    glevo_gp_result on = {0}, off = {0};
    glevo_gp_params used = {0};
    for (int k = 0; k < 2; ++k) {
        glevo_gp_params P = {.pop = 100, .generations = 4, .seed = 4,
                             .backend = GLEVO_BACKEND_CPU, .metric = GLEVO_GP_MSE,
                             .enumeration = GLEVO_ZERO, .portfolio = GLEVO_ZERO,
                             .linear_layer = k ? GLEVO_ZERO : 0, .prune = k ? GLEVO_ZERO : 0};
        glevo_gp *gp = NULL;
        ck_assert_int_eq(glevo_gp_create(&P, d, &gp), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_step(gp, 4), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_params_of(gp)->linear_layer, k ? 0 : 32);
        if (!k) used = *glevo_gp_params_of(gp);
        ck_assert_int_eq(glevo_gp_result_get(gp, k ? &off : &on), GLEVO_OK);
        glevo_gp_destroy(gp);
    }
    ck_assert_int_eq(on.evaluations, off.evaluations);
    ck_assert_msg(off.best_error > 1e-10 * variance(d), "the search alone was exact");
    ck_assert_int_eq(glevo_gp_model_layer(&used, d, &off), GLEVO_OK);
    ck_assert_str_eq(on.best_sexpr, off.best_sexpr);
    ck_assert_msg(2 * on.best_error < variance(d), "layer %g: %s", on.best_error, on.best_sexpr);
    glevo_gp_result_free(&on);
    glevo_gp_result_free(&off);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_linear_layer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_parts_weighed);
    tcase_add_test(tc, test_same_on_any_thread_count);
    tcase_add_test(tc, test_left_as_found);
    tcase_add_test(tc, test_run_result);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
