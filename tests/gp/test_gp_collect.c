/* Like terms collected (src/gp/sr/collect.c, gp_collect): the sums of monomials it writes for
 * known programs, where it gives up, and on random polynomials the same value within the
 * rounding of the terms summed; in gp_readable, a model collected where that is shorter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/gp_internal.h"
#include "gp/sr/model.h"
#include "testutil.h"

/* program parsed, its constants at their own positions (as the model keeps them). */
static int parsed(const char *program, uint32_t *codes, float *k, glevo_gp_programs **p)
{
    ck_assert_int_eq(glevo_gp_programs_create(p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(*p, program, "t", 3), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(*p, 0, &len);
    return gp_own_constants(c, len, glevo_gp_programs_constants(*p), codes, k);
}

/* program collected (products of sums expanded where distribute) prints as want ("" where
 * gp_collect gives up). */
static void collected(const char *program, bool distribute, const char *want)
{
    glevo_gp_programs *p = NULL, *q = NULL;
    uint32_t codes[64], out[256];
    float k[64], kk[256];
    int len = parsed(program, codes, k, &p);
    int n = gp_collect(codes, len, k, distribute, out, kk, 256);
    ck_assert_int_ge(n, 0);
    char buf[512] = "";
    if (n > 0) {
        ck_assert_int_eq(glevo_gp_programs_create(&q), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_programs_add(q, out, n, kk), GLEVO_OK);
        glevo_gp_program_sexpr(q, 0, buf, sizeof buf);
    }
    ck_assert_msg(!strcmp(buf, want), "%s -> %s, not %s", program, buf, want);
    glevo_gp_programs_destroy(p);
    glevo_gp_programs_destroy(q);
}

START_TEST(test_terms_collected)
{
    collected("(+ (* 2 x1) (* x1 3))", true, "(* 5 x1)");
    collected("(- (* x1 x2) (* x2 x1))", true, "0");
    collected("(/ (* x1 x2) (* 2 x1))", true, "(* 0.5 x2)");
    collected("(+ (cos (* x1 x2)) (cos (* x2 x1)))", true, "(* 2 (cos (* x1 x2)))");
    collected("(* (+ x1 1) (- x1 1))", true, "(+ -1 (* x1 x1))");
    collected("(* (+ x1 1) (- x1 1))", false, "(* (+ 1 x1) (+ -1 x1))");
    collected("(/ x1 (+ x2 x2))", true, "(* 0.5 (/ x1 x2))");
    collected("(- x1 (* 3 x2))", true, "(- x1 (* 3 x2))");
    collected("(neg (* x1 x1))", true, "(neg (* x1 x1))");
    collected("(/ x3 (- x1 x2))", true, "(/ x3 (- x1 x2))");
    /* Odd and even functions: f(-a) and f(a) one factor. */
    collected("(- (* 3 (sin x1)) (sin (neg x1)))", true, "(* 4 (sin x1))");
    collected("(+ (cos (- x2 x1)) (cos (- x1 x2)))", true, "(* 2 (cos (- x2 x1)))");
    collected("(+ (sin (- 0.5 x1)) (sin (- x1 0.5)))", true, "0");
    /* sqrt of a square: sqrt|x| of 4 x^2 y^-2 is 2 |x| / |y|. */
    collected("(sqrt (/ (* (* 2 x1) (* x1 2)) (* x2 x2)))", true, "(* 2 (/ (abs x1) (abs x2)))");
    /* log(m) and log(1/m) one factor, written the way round that takes no minus sign. */
    collected("(- (log (/ x2 x1)) (log (/ x1 x2)))", true, "(* 2 (log (/ x2 x1)))");
    collected("(neg (* x3 (log (/ x1 x2))))", true, "(* x3 (log (/ x2 x1)))");
    /* log|m^g| = g log|m|, any sign of m. */
    collected("(log (/ (* x2 x2) (* x1 x1)))", true, "(* 2 (log (/ x2 x1)))");
    collected("(log (neg (* (* x1 x1) (* x1 x1))))", true, "(* 4 (log x1))");
    collected("(log (* 2 (* x1 x1)))", true, "(log (* 2 (* x1 x1)))");
    /* exp(c + a) = e^c exp(a). */
    collected("(* 0.5 (exp (+ (* x2 (log x1)) 0.6931472)))", true, "(exp (* x2 (log x1)))");
    collected("(+ 0.5 (* 0.25 (+ (- 2 (* x1 (/ x2 x3))) (/ (neg (* x2 x1)) (* -2 x3)))))", true,
              "(- 1 (* 0.125 (/ (* x1 x2) x3)))");
    /* Given up: if-then-else, a division by 0 (the protected division's 1), a power past 6. */
    collected("(if (< x1 x2) x1 x2)", true, "");
    collected("(/ x1 (- x2 x2))", true, "");
    collected("(* (* (* x1 x1) (* x1 x1)) (* (* x1 x1) (* x1 x1)))", true, "");
}
END_TEST

/* On random polynomials (+ - * neg of inputs and constants) the collected program's value is
 * the original's within the rounding of its terms: 1e-5 of the value of the program with every
 * input, constant and sign made positive (the magnitude of the terms summed). */
START_TEST(test_polynomials_keep_their_value)
{
    enum { CASES = 9, VARS = 3 };
    float x[VARS * CASES], ax[VARS * CASES], y[CASES] = {0};
    for (int i = 0; i < VARS * CASES; ++i) {
        x[i] = 4.0f * glevo_rng_u01(glevo_philox4x32((uint32_t)i, 2, 0, 0, 7, 27).v[0]) - 2.0f;
        ax[i] = fabsf(x[i]);
    }
    glevo_gp_data *d = NULL, *ad = NULL;
    ck_assert_int_eq(glevo_gp_data_create(VARS, CASES, x, y, &d), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_data_create(VARS, CASES, ax, y, &ad), GLEVO_OK);
    uint32_t ops = 1u << GLEVO_GP_ADD | 1u << GLEVO_GP_SUB | 1u << GLEVO_GP_MUL | 1u << GLEVO_GP_NEG;
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    for (int k = 0; k < 500; ++k)
        ck_assert_int_eq(glevo_gp_programs_random(p, 1, ops, VARS, 3 + k % 21, (uint32_t)k), GLEVO_OK);
    int made = 0, shorter = 0;
    for (int i = 0; i < 500; ++i) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
        const float *pool = glevo_gp_programs_constants(p);
        uint32_t codes[64], absolute[64], out[512];
        float k[64], ak[64], kk[512];
        for (int j = 0; j < len; ++j) {
            glevo_gp_op op = GLEVO_GP_CODE_OP(c[j]);
            bool konst = op == GLEVO_GP_CONST;
            codes[j] = konst ? GLEVO_GP_CODE(GLEVO_GP_CONST, (uint32_t)j) : c[j];
            k[j] = konst ? pool[GLEVO_GP_CODE_INDEX(c[j])] : 0;
            ak[j] = fabsf(k[j]);
            absolute[j] = op == GLEVO_GP_SUB ? GLEVO_GP_CODE(GLEVO_GP_ADD, 0)
                          : op == GLEVO_GP_NEG ? GLEVO_GP_CODE(GLEVO_GP_ABS, 0) : codes[j];
        }
        int n = gp_collect(codes, len, k, true, out, kk, 512);
        ck_assert_int_ge(n, 0);
        if (n == 0) continue;
        made++;
        shorter += n < len;
        ck_assert_int_eq(glevo_gp_program_check(out, n), GLEVO_OK);
        for (int cse = 0; cse < CASES; ++cse) {
            float a = glevo_gp_interpret(codes, len, k, d, cse);
            float b = glevo_gp_interpret(out, n, kk, d, cse);
            float magnitude = glevo_gp_interpret(absolute, len, ak, ad, cse);
            ck_assert_msg(fabsf(a - b) <= 1e-5f * magnitude, "program %d case %d: %g, collected %g "
                          "(terms of magnitude %g)", i, cse, (double)a, (double)b, (double)magnitude);
        }
    }
    ck_assert_msg(made > 400 && shorter > 100, "%d collected, %d shorter", made, shorter);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
    glevo_gp_data_destroy(ad);
}
END_TEST

/* y = x1^2 + 0.125 x2 on 50 cases, x1 in [1, 3.5] (never negative), x2 in [-1, 1]. */
static glevo_gp_data *square_plus_line(void)
{
    enum { CASES = 50 };
    float x[2 * CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        x[c] = 1.0f + 0.05f * (float)c;
        x[CASES + c] = -1.0f + 0.04f * (float)c;
        y[c] = x[c] * x[c] + 0.125f * x[CASES + c];
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, CASES, x, y, &d), GLEVO_OK);
    return d;
}

/* In gp_readable: the model collected where that is shorter and the training error stays. */
START_TEST(test_readable_collects)
{
    glevo_gp_data *d = square_plus_line();
    /* exp(log(a)) is |a|, and |a| is a where a is never negative on the data. */
    const char *text[2] = {"(+ (* 0.5 (* x1 x1)) (+ (* 0.0625 (+ x2 x2)) (* x1 (* x1 0.5))))",
                           "(+ (* 0.5 (exp (log (* x1 x1)))) (+ (* 0.0625 (+ x2 x2)) (* 0.5 (* x1 x1))))"};
    for (int t = 0; t < 2; ++t) {
        glevo_gp_programs *p = NULL, *q = NULL;
        uint32_t codes[64];
        float k[64];
        int len = parsed(text[t], codes, k, &p);
        int n = gp_readable(codes, k, len, d, GLEVO_GP_MSE, true);
        ck_assert_int_eq(glevo_gp_programs_create(&q), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_programs_add(q, codes, n, k), GLEVO_OK);
        char buf[256];
        glevo_gp_program_sexpr(q, 0, buf, sizeof buf);
        ck_assert_msg(!strcmp(buf, "(+ (* x1 x1) (* 0.125 x2))"), "%s -> %s", text[t], buf);
        glevo_gp_programs_destroy(p);
        glevo_gp_programs_destroy(q);
    }
    glevo_gp_data_destroy(d);
}
END_TEST

/* A noisy fit's terms collected: its error moves by more than 1e-6 of it (the rounding
 * differs), its values on every case stay within float rounding, and it is taken. */
START_TEST(test_noisy_fit_collected)
{
    enum { CASES = 200 };
    float x[2 * CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        x[c] = 1.0f + 4.0f * (float)(c % 20) / 20.0f;
        x[CASES + c] = 1.0f + 4.0f * (float)(c / 20) / 10.0f;
        y[c] = x[c] * x[CASES + c] + 0.1f * sinf(37.0f * (float)c); /* noise, 1 % of the spread */
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, CASES, x, y, &d), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    uint32_t codes[64];
    float k[64];
    int len = parsed("(+ -137.308533 (* -48.223999 (- -2.84733415 (* 0.0207442027 (* x1 x2)))))",
                     codes, k, &p);
    uint32_t before[64];
    float kb[64];
    memcpy(before, codes, sizeof before), memcpy(kb, k, sizeof kb);
    int n = gp_readable(codes, k, len, d, GLEVO_GP_MSE, true);
    ck_assert_int_le(n, 7); /* c0 + c1 * (x1 * x2) */
    for (int c = 0; c < CASES; ++c) {
        float a = glevo_gp_interpret(before, len, kb, d, c), b = glevo_gp_interpret(codes, n, k, d, c);
        ck_assert_msg(fabsf(a - b) <= 1e-5f * (fabsf(a) + 10.0f), "case %d: %g, collected %g", c,
                      (double)a, (double)b);
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

/* glevo_gp_model: the printed model collected, the form before it kept as the layer's parts
 * (glevo_gp_result.layer_parts), none where collecting changed nothing. */
START_TEST(test_model_keeps_layer_parts)
{
    glevo_gp_data *d = square_plus_line();
    glevo_gp_params P = {.metric = GLEVO_GP_MSE, .linear_scaling = GLEVO_ZERO}; /* no a + b f */
    const char *text[2] = {"(+ (* x1 (* 0.5 x1)) (+ (* 0.0625 (+ x2 x2)) (* x1 (* x1 0.5))))",
                           "(+ (* x1 x1) (* 0.125 x2))"};
    for (int t = 0; t < 2; ++t) {
        glevo_gp_programs *p = NULL;
        ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_programs_parse(p, text[t], "t", 3), GLEVO_OK);
        glevo_gp_result r;
        ck_assert_int_eq(glevo_gp_model(&P, d, p, 0, &r), GLEVO_OK);
        ck_assert_str_eq(r.best_sexpr, "(+ (* x1 x1) (* 0.125 x2))");
        if (t == 0) {
            ck_assert_ptr_nonnull(r.layer_parts);
            ck_assert_int_gt(glevo_gp_programs_nodes(r.layer_parts), r.best_nodes);
        } else {
            ck_assert_ptr_null(r.layer_parts);
        }
        glevo_gp_result_free(&r);
        glevo_gp_programs_destroy(p);
    }
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_collect");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_terms_collected);
    tcase_add_test(tc, test_polynomials_keep_their_value);
    tcase_add_test(tc, test_readable_collects);
    tcase_add_test(tc, test_model_keeps_layer_parts);
    tcase_add_test(tc, test_noisy_fit_collected);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
