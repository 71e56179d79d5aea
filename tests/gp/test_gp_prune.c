/* The result's noise pruned (src/gp/sr/prune.c, gp_prune): on noisy data the terms that fit
 * the noise go and the model's criterion falls by the Bayesian information criterion's own
 * count, worked out here apart from the pruner; a real term, an exact fit and a model off
 * stay; through glevo_gp_model_layer, the run's last steps, with prune on and off. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "gp/gp_internal.h"
#include "gp/sr/model.h"
#include "testutil.h"

enum { CASES = 300, MANY = 2600 /* above the pruner's sample of 2048 */ };

/* y = x1 x2 / (x3 - 1) + extra(x1) + noise of 1 % of the target's spread (a fixed pseudo-random
 * sequence), x1 in [1, 4], x2 in [0.5, 2], x3 in [2, 5]; CASES cases, or MANY. */
static glevo_gp_data *noisy_data_of(int cases, double noise, bool with_sine)
{
    float *x = malloc(sizeof *x * 3 * (size_t)cases), *y = malloc(sizeof *y * (size_t)cases);
    ck_assert(x && y);
    for (int c = 0; c < cases; ++c) {
        float x1 = 1.0f + 3.0f * (float)(c % 17) / 16.0f, x2 = 0.5f + 1.5f * (float)(c % 7) / 6.0f;
        float x3 = 2.0f + 3.0f * (float)(c % 11) / 10.0f;
        x[c] = x1, x[cases + c] = x2, x[2 * cases + c] = x3;
        y[c] = x1 * x2 / (x3 - 1.0f) + (with_sine ? 0.5f * sinf(3.0f * x1) : 0.0f) +
               (float)(noise * sin(91.7 * c * c + 0.3 * c));
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(3, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

static glevo_gp_data *noisy_data(double noise, bool with_sine)
{
    return noisy_data_of(CASES, noise, with_sine);
}

/* program parsed into codes and k, its constants at their own positions (as the model keeps
 * them); its length. */
static int parsed(const char *program, uint32_t *codes, float *k)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, program, "t", 3), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    gp_own_constants(c, len, glevo_gp_programs_constants(p), codes, k);
    glevo_gp_programs_destroy(p);
    return len;
}

static void sexpr_of(const uint32_t *codes, const float *k, int n, char *buf, size_t size)
{
    glevo_gp_programs *q = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&q), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_add(q, codes, n, k), GLEVO_OK);
    glevo_gp_program_sexpr(q, 0, buf, size);
    glevo_gp_programs_destroy(q);
}

/* The criterion as the literature writes it: cases ln(SSE / cases) + k ln(cases), k the codes
 * and the constants, SSE from glevo_gp_interpret case by case. */
static double bic(const uint32_t *codes, const float *k, int n, const glevo_gp_data *d)
{
    double sse = 0;
    int params = n;
    for (int i = 0; i < n; ++i) params += GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST;
    int cases = glevo_gp_data_cases(d);
    for (int c = 0; c < cases; ++c) {
        double e = glevo_gp_data_target(d)[c] - glevo_gp_interpret(codes, n, k, d, c);
        sse += e * e;
    }
    return cases * log(sse / cases) + params * log((double)cases);
}

/* program pruned on d: its printed form into buf; the criterion must have fallen where it
 * changed and the program never grows. */
static bool pruned(const glevo_gp_data *d, const char *program, char *buf, size_t size)
{
    uint32_t codes[128];
    float k[128];
    int len = parsed(program, codes, k);
    double before = bic(codes, k, len, d);
    bool changed = true;
    int n = gp_prune(codes, k, len, d, &changed);
    ck_assert_int_le(n, len);
    ck_assert_int_eq(glevo_gp_program_check(codes, n), GLEVO_OK);
    sexpr_of(codes, k, n, buf, size);
    if (changed)
        ck_assert_msg(bic(codes, k, n, d) < before, "%s -> %s: criterion %g -> %g", program, buf,
                      before, bic(codes, k, n, d));
    return changed;
}

START_TEST(test_noise_terms_go)
{
    /* On more cases than the sample the pruner weighs on, too (the criterion's fall checked
     * on all of them). */
    glevo_gp_data *d = noisy_data_of(_i ? MANY : CASES, 0.03, false);
    char buf[512];
    /* The law with an intercept, a constant 0.9975 for 1 and a term of 1e-3 that fits noise. */
    const char *found = "(+ 0.0121 (* 1.0013 (+ (/ (* x1 x2) (+ x3 -0.9975)) "
                        "(* 0.0012 (sin (* x1 (cos (* x2 x3))))))))";
    ck_assert(pruned(d, found, buf, sizeof buf));
    ck_assert_msg(!strstr(buf, "sin") && !strstr(buf, "0.0121") && !strstr(buf, "0.9975"),
                  "%s -> %s", found, buf);
    ck_assert_msg(strstr(buf, "(- x3 1)") || strstr(buf, "(+ x3 -1)") || strstr(buf, "(+ -1 x3)"),
                  "%s -> %s", found, buf);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(test_real_terms_and_exact_fits_stay)
{
    char buf[512];
    /* A term of the truth (0.5 sin(3 x1), a sixth of the output) stays beside the noise's. */
    glevo_gp_data *d = noisy_data(0.03, true);
    const char *found = "(+ (/ (* x1 x2) (- x3 1)) (+ (* 0.5003 (sin (* 3 x1))) "
                        "(* 0.0015 (cos (* x1 (* x2 x3))))))";
    ck_assert(pruned(d, found, buf, sizeof buf));
    ck_assert_msg(strstr(buf, "sin") && !strstr(buf, "cos"), "%s -> %s", found, buf);
    glevo_gp_data_destroy(d);
    /* Without noise the law is exact to rounding: nothing is tried, nothing changes. */
    d = noisy_data(0, false);
    const char *exact = "(+ 1e-7 (/ (* x1 x2) (- x3 1)))";
    uint32_t codes[16];
    float k[16];
    char as_parsed[512];
    int len = parsed(exact, codes, k);
    sexpr_of(codes, k, len, as_parsed, sizeof as_parsed);
    ck_assert(!pruned(d, exact, buf, sizeof buf));
    ck_assert_str_eq(buf, as_parsed);
    glevo_gp_data_destroy(d);
}
END_TEST

/* glevo_gp_model_layer, a run's last steps: the noise pruned with prune on (the default for
 * mse), kept with GLEVO_ZERO. */
START_TEST(test_model_layer_prunes)
{
    glevo_gp_data *d = noisy_data(0.03, false);
    const char *found = "(+ 0.0121 (* 1.0013 (+ (/ (* x1 x2) (+ x3 -0.9975)) "
                        "(* 0.0012 (sin (* x1 (cos (* x2 x3))))))))";
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, found, "t", 3), GLEVO_OK);
    for (int on = 0; on < 2; ++on) {
        glevo_gp_params given = {.metric = GLEVO_GP_MSE, .linear_scaling = GLEVO_ZERO,
                                 .linear_layer = GLEVO_ZERO, .prune = on ? 0 : GLEVO_ZERO};
        glevo_gp_params P = glevo_gp_params_defaults(&given);
        ck_assert_int_eq(P.prune, on);
        glevo_gp_result r;
        ck_assert_int_eq(glevo_gp_model(&P, d, p, 0, &r), GLEVO_OK);
        int nodes = r.best_nodes;
        double error = r.best_error;
        char before[512];
        snprintf(before, sizeof before, "%s", r.best_sexpr);
        ck_assert_int_eq(glevo_gp_model_layer(&P, d, &r), GLEVO_OK);
        if (on) {
            ck_assert_msg(!strstr(r.best_sexpr, "sin"), "%s", r.best_sexpr);
            ck_assert_int_lt(r.best_nodes, nodes);
        } else {
            ck_assert_str_eq(r.best_sexpr, before);
            ck_assert(r.best_error == error);
        }
        glevo_gp_result_free(&r);
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_prune");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_noise_terms_go, 0, 2);
    tcase_add_test(tc, test_real_terms_and_exact_fits_stay);
    tcase_add_test(tc, test_model_layer_prunes);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
