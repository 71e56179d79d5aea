/* Readable models (src/gp/simplify.c): simplification keeps the value of 1000 random programs
 * on random inputs (bit for bit wherever the original is finite), never lengthens a program,
 * and does the rewrites it documents; the SymPy string spells every operator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/gp_internal.h"
#include "gp/sr/model.h"
#include "testutil.h"

static glevo_gp_data *random_data(int vars, int cases, uint32_t seed)
{
    float *x = malloc((size_t)vars * cases * sizeof *x), *y = calloc((size_t)cases, sizeof *y);
    for (int i = 0; i < vars * cases; ++i) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 1, 0, 0, seed, 27);
        x[i] = 6.0f * glevo_rng_u01(r.v[0]) - 3.0f;
        if (r.v[1] % 9 == 0) x[i] = 0.0f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(vars, cases, x, y, &d), GLEVO_OK);
    free(x);
    free(y);
    return d;
}

typedef int (*simplifier)(const uint32_t *, int, const float *, uint32_t *, float *);

static void simplified_by(simplifier simplify, const char *program, const char *want)
{
    glevo_gp_programs *p = NULL, *q = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_create(&q), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, program, "t", 3), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    uint32_t out[64];
    float k[64];
    int n = simplify(c, len, glevo_gp_programs_constants(p), out, k);
    ck_assert_int_eq(glevo_gp_programs_add(q, out, n, k), GLEVO_OK);
    char buf[256];
    glevo_gp_program_sexpr(q, 0, buf, sizeof buf);
    ck_assert_msg(!strcmp(buf, want), "%s -> %s, not %s", program, buf, want);
    glevo_gp_programs_destroy(p);
    glevo_gp_programs_destroy(q);
}

static void simplified(const char *program, const char *want)
{
    simplified_by(gp_simplify, program, want);
}

START_TEST(test_rewrites)
{
    simplified("(cos (- x1 x1))", "1");
    simplified("(neg (neg x1))", "x1");
    simplified("(/ (sin x2) (sin x2))", "1");
    simplified("(+ x1 (neg x2))", "(- x1 x2)");
    simplified("(+ (neg x1) x2)", "(- x2 x1)");
    simplified("(- x1 (neg (neg (neg x3))))", "(+ x1 x3)");
    simplified("(* 1 (+ x1 (* 2 3)))", "(+ x1 6)");
    simplified("(- 0 (* x1 -1))", "x1");
    simplified("(+ (* x2 0) (/ x3 1))", "x3");
    simplified("(exp (log 2))", "2");
    simplified("(+ x1 (- x2 x2))", "x1");
    simplified("(log 0)", "0"); /* the protected log's value */
    simplified("(* x1 (/ (sin x2) -0))", "x1"); /* the protected division's value: 1 */
    /* Functions of |a| (log and sqrt protected so) do not see a sign or an abs inside. */
    simplified("(log (neg (abs x1)))", "(log x1)");
    simplified("(sqrt (neg x2))", "(sqrt x2)");
    simplified("(square (neg x1))", "(square x1)");
    simplified("(abs (abs (neg x3)))", "(abs x3)");
    simplified("(exp (neg x1))", "(exp (neg x1))");
}
END_TEST

/* The rewrites of real arithmetic (gp_simplify_algebra): constants gathered and folded,
 * cancellations, negations out of products, in passes until none applies. */
START_TEST(test_algebra_rewrites)
{
    simplifier a = gp_simplify_algebra;
    simplified_by(a, "(- x1 (- x1 x2))", "x2");
    simplified_by(a, "(- (+ x1 x2) x1)", "x2");
    simplified_by(a, "(+ x3 (- x2 x3))", "x2");
    simplified_by(a, "(+ 0.5 (+ 0.25 x1))", "(+ 0.75 x1)");
    simplified_by(a, "(+ (+ x1 0.25) 0.5)", "(+ 0.75 x1)");
    simplified_by(a, "(- 1 (+ 0.25 x1))", "(- 0.75 x1)");
    simplified_by(a, "(- (+ 0.5 x1) 0.25)", "(+ 0.25 x1)");
    simplified_by(a, "(* 2 (* 3 x1))", "(* 6 x1)");
    simplified_by(a, "(* 3 (/ x1 2))", "(* 1.5 x1)");
    simplified_by(a, "(* x1 (/ x2 x1))", "x2");
    simplified_by(a, "(/ (* x1 x2) x1)", "x2");
    simplified_by(a, "(neg (- x1 x2))", "(- x2 x1)");
    simplified_by(a, "(* 2 (log (exp (+ x1 x2))))", "(* 2 (+ x1 x2))");
    simplified_by(a, "(exp (log x1))", "(abs x1)"); /* |x1| but 1 near 0: gp_readable judges */
    simplified_by(a, "(* -0.5 (* x1 (* x2 (neg x2))))", "(* 0.5 (* x1 (* x2 x2)))");
    /* The exact rewrites still apply. */
    simplified_by(a, "(+ x1 (neg x2))", "(- x1 x2)");
}
END_TEST

/* y = x1^2 + sin(x2) on n cases (64; 1000 also makes gp_readable screen on a sample). */
static glevo_gp_data *square_plus_sine_n(bool with_zeros, int n)
{
    float *x = malloc(sizeof *x * 2 * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    for (int c = 0; c < n; ++c) {
        float t = 64.0f * (float)c / (float)n;
        x[c] = with_zeros && c % 8 == 0 ? 0.0f : 0.5f + 0.05f * t;
        x[n + c] = -2.0f + 0.07f * t;
        y[c] = x[c] * x[c] + sinf(x[n + c]);
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, n, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

static glevo_gp_data *square_plus_sine(bool with_zeros) { return square_plus_sine_n(with_zeros, 64); }

/* Program `text` made readable on d (gp_readable) is `want`, and its error is within the
 * rounding gp_readable allows of the error before. */
static void readable(const glevo_gp_data *d, const char *text, const char *want)
{
    glevo_gp_programs *p = NULL, *q = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_create(&q), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, text, "t", 2), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    uint32_t codes[64];
    float k[64];
    gp_own_constants(c, len, glevo_gp_programs_constants(p), codes, k); /* as the model keeps them */
    int n = gp_readable(codes, k, len, d, GLEVO_GP_MSE, true);
    ck_assert_int_eq(glevo_gp_programs_add(q, codes, n, k), GLEVO_OK);
    char buf[256];
    glevo_gp_program_sexpr(q, 0, buf, sizeof buf);
    ck_assert_msg(!strcmp(buf, want), "%s -> %s, not %s", text, buf, want);
    double before, after;
    ck_assert_int_eq(gp_model_error(p, d, GLEVO_GP_MSE, &before), GLEVO_OK);
    ck_assert_int_eq(gp_model_error(q, d, GLEVO_GP_MSE, &after), GLEVO_OK);
    ck_assert_msg(fabs(after - before) <= 1e-6 * before + 1e-10, "%s: error %g before, %g after",
                  text, before, after);
    glevo_gp_programs_destroy(p);
    glevo_gp_programs_destroy(q);
}

/* The reported model made readable where the training error stays: a constant within rounding
 * of 0 dropped, one that matters kept, a cancelled division kept only where the protected
 * division never held (a divisor of 0 in the data makes it another function), a subtree
 * constant on the data replaced by its value (and dropped where that is 0 or 1). */
START_TEST(test_readable_keeps_the_error)
{
    glevo_gp_data *d = square_plus_sine(false), *z = square_plus_sine(true);
    readable(d, "(+ 1e-09 (+ (* x1 x1) (sin x2)))", "(+ (* x1 x1) (sin x2))");
    readable(d, "(+ 0.125 (+ (* x1 x1) (sin x2)))", "(+ 0.125 (+ (* x1 x1) (sin x2)))");
    readable(d, "(* 1.0000001 (+ (* x1 x1) (sin x2)))", "(+ (* x1 x1) (sin x2))");
    readable(d, "(+ (* x1 (/ x1 x1)) (* x1 (- (sin x2) (- (sin x2) x1))))",
             "(+ x1 (* x1 x1))");
    readable(z, "(+ (sin x2) (/ (* x1 x1) x1))", "(+ (sin x2) (/ (* x1 x1) x1))");
    /* Dead terms: 0 (an exp of a large negative) and 1 (a cosine of a tiny argument) on every
     * case, gone; a subtree that varies stays. */
    readable(d, "(+ (+ (* x1 x1) (sin x2)) (exp (- -200 (* x1 x1))))", "(+ (* x1 x1) (sin x2))");
    readable(d, "(* (+ (* x1 x1) (sin x2)) (cos (* 1e-06 x1)))", "(+ (* x1 x1) (sin x2))");
    readable(d, "(+ (* x1 x1) (sin (+ x2 (exp (- -200 x1)))))", "(+ (* x1 x1) (sin x2))");
    readable(d, "(+ (* x1 x1) (sin (exp (neg (* x2 x2)))))",
             "(+ (* x1 x1) (sin (exp (neg (* x2 x2)))))");
    /* A term that varies but that the error does not see (scaled to nothing: the dead weight
     * of exact fits) goes; one the error sees, even a better one, stays. */
    glevo_gp_data *many = square_plus_sine_n(false, 1000); /* judged on a sample first */
    for (int k = 0; k < 2; ++k) {
        const glevo_gp_data *on = k ? many : d;
        readable(on, "(+ (+ (* x1 x1) (sin x2)) (* 1e-09 (sin (* 3.5 x1))))", "(+ (* x1 x1) (sin x2))");
        readable(on, "(+ (+ (* x1 x1) (sin x2)) (* 0.5 (sin (* 3.5 x1))))",
                 "(+ (+ (* x1 x1) (sin x2)) (* 0.5 (sin (* 3.5 x1))))");
    }
    glevo_gp_data_destroy(many);
    glevo_gp_data_destroy(d);
    glevo_gp_data_destroy(z);
}
END_TEST

START_TEST(test_value_kept)
{
    glevo_gp_data *d = random_data(3, 17, 1);
    uint32_t ops = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION);
    for (int op = GLEVO_GP_EXP; op <= GLEVO_GP_AQ; ++op) ops |= 1u << op;
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    /* Small programs with many constants and repeated variables: rewrites fire often. */
    for (int k = 0; k < 1000; ++k)
        ck_assert_int_eq(glevo_gp_programs_random(p, 1, ops, 2, 1 + k % 23, (uint32_t)k), GLEVO_OK);
    const float *consts = glevo_gp_programs_constants(p);
    int shorter = 0, compared = 0;
    uint32_t out[64];
    float kk[64];
    for (int i = 0; i < 1000; ++i) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
        int n = gp_simplify(c, len, consts, out, kk);
        ck_assert_int_ge(n, 1);
        ck_assert_int_le(n, len);
        ck_assert_int_eq(glevo_gp_program_check(out, n), GLEVO_OK);
        shorter += n < len;
        for (int cse = 0; cse < 17; ++cse) {
            float a = glevo_gp_interpret(c, len, consts, d, cse);
            float b = glevo_gp_interpret(out, n, kk, d, cse);
            if (!isfinite(a)) continue;
            compared++;
            if (a != b) {
                char s[512];
                glevo_gp_program_sexpr(p, i, s, sizeof s);
                ck_abort_msg("program %d case %d: %a before, %a after: %s", i, cse, (double)a,
                             (double)b, s);
            }
        }
    }
    ck_assert_msg(shorter > 200, "only %d of 1000 programs got shorter", shorter);
    ck_assert_int_gt(compared, 1000 * 17 * 3 / 4);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Programs 0..count-1 of p as SymPy expressions (data d, may be NULL) are want[0..count). */
static void expect_sympy(const glevo_gp_programs *p, const glevo_gp_data *d,
                         const char *const *want, int count)
{
    for (int i = 0; i < count; ++i) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
        char *s = gp_program_sympy(c, len, glevo_gp_programs_constants(p), NULL, d);
        ck_assert_ptr_nonnull(s);
        ck_assert_str_eq(s, want[i]);
        free(s);
    }
}

START_TEST(test_sympy_string)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ (pow x1 -2) (aq (log x2) (sqrt (neg x3))))\n"
                                                "(if (< x1 x2) (square x1) (tanh (abs x3)))\n"
                                                "(sqrt (exp (neg (* x1 x1))))\n",
                                             "t", 3),
                     GLEVO_OK);
    /* sqrt(exp(a)) as exp(a/2), the same real function (SymPy's complex symbols would not
     * equate the two). */
    const char *want[3] = {"((Abs(x1)**((-2))) + ((log(Abs(x2)))/sqrt(1 + (sqrt(Abs((-x3))))**2)))",
                           "Piecewise(((x1)**2, Ne(Piecewise((1, Lt(x1, x2)), (0, True)), 0)), "
                           "(tanh(Abs(x3)), True))",
                           "exp(((-(x1*x1)))/2)"};
    expect_sympy(p, NULL, want, 3);
    glevo_gp_programs_destroy(p);
}
END_TEST

/* With the training data, the protected operators print as the plain ones they equal there:
 * log and pow of an argument positive on every case, sqrt of one never negative; an argument
 * of both signs on the data (or zero, for log) keeps its Abs. */
START_TEST(test_sympy_plain_on_data)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("a,b,y\n1,-2,0\n2,0,0\n3,1,0\n", "t", NULL, &d),
                     GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ (log x1) (sqrt (* x1 x1)))\n"
                                                "(+ (log x2) (sqrt x2))\n"
                                                "(+ (pow x1 x2) (pow x2 x1))\n"
                                                "(+ (log (* x2 x2)) (sqrt (* x2 x2)))\n",
                                             "t", 2),
                     GLEVO_OK);
    const char *want[4] = {"(log(x1) + sqrt((x1*x1)))", "(log(Abs(x2)) + sqrt(Abs(x2)))",
                           "(((x1)**(x2)) + (Abs(x2)**(x1)))",
                           "(log(Abs((x2*x2))) + sqrt((x2*x2)))"};
    expect_sympy(p, d, want, 4);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Models print the data's columns as identifiers (src/gp/identifiers.c): invalid characters
 * and a leading digit fixed, reserved words (Python's, SymPy's) and collisions suffixed. */
START_TEST(test_names_as_identifiers)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("m_0,2nd speed,lambda,E,a b,a_b,y\n1,2,3,4,5,6,7\n",
                                             "t", NULL, &d),
                     GLEVO_OK);
    char **names = gp_data_identifiers(d);
    ck_assert_ptr_nonnull(names);
    const char *want[] = {"m_0", "_2nd_speed", "lambda_", "E_", "a_b", "a_b_"};
    for (int v = 0; v < 6; ++v) ck_assert_str_eq(names[v], want[v]);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, "(+ x1 (* x3 (sin x2)))\n", "t", 6), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    char buf[256];
    char *s = gp_program_sympy(c, len, glevo_gp_programs_constants(p), (const char *const *)names,
                               NULL);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, "(m_0 + (lambda_*sin(_2nd_speed)))");
    free(s);
    gp_program_infix_named(p, 0, (const char *const *)names, buf, sizeof buf);
    ck_assert_str_eq(buf, "(m_0 + (lambda_ * sin(_2nd_speed)))");
    /* The S-expression, the format programs are read back in, keeps x1, x2, ... */
    glevo_gp_program_sexpr(p, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "(+ x1 (* x3 (sin x2)))");
    gp_identifiers_free(names, 6);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_simplify");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rewrites);
    tcase_add_test(tc, test_value_kept);
    tcase_add_test(tc, test_sympy_string);
    tcase_add_test(tc, test_sympy_plain_on_data);
    tcase_add_test(tc, test_names_as_identifiers);
    tcase_add_test(tc, test_algebra_rewrites);
    tcase_add_test(tc, test_readable_keeps_the_error);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
