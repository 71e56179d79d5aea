/* GP programs and data: S-expression round trips, parse errors naming line and column, CSV
 * errors, and the CPU interpreter's operators at their edge cases (include/glevo/gp.h semantics). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "testutil.h"

static glevo_gp_programs *parse_ok(const char *text, int vars)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    glevo_status st = glevo_gp_programs_parse(p, text, "t", vars);
    ck_assert_msg(st == GLEVO_OK, "parse of '%s' failed: %s", text, glevo_last_error());
    return p;
}

/* Parse must fail with a message that contains `where` ("t:LINE:COL:") and `what`. */
static void parse_fails(const char *text, const char *where, const char *what)
{
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    glevo_status st = glevo_gp_programs_parse(p, text, "t", 3);
    ck_assert_msg(st == GLEVO_ERR_INVALID, "'%s' parsed", text);
    const char *msg = glevo_last_error();
    ck_assert_msg(strstr(msg, where) && strstr(msg, what), "'%s': message '%s' lacks '%s' / '%s'",
                  text, msg, where, what);
    glevo_gp_programs_destroy(p);
}

START_TEST(test_round_trip)
{
    const char *progs[] = {"(+ x1 (* 2.5 (sin x3)))", "x2", "-0.125",
                           "(if (< x1 x2) (and x1 (not x3)) (or (= x1 0.5) (> x2 x3)))",
                           "(/ (neg x1) (cos (- x2 3)))",
                           "(pow (exp x1) (aq (log x2) (sqrt (tanh x3))))",
                           "(+ (square x1) (cube (abs x2)))"};
    for (size_t k = 0; k < sizeof progs / sizeof progs[0]; ++k) {
        glevo_gp_programs *p = parse_ok(progs[k], 3);
        ck_assert_int_eq(glevo_gp_programs_count(p), 1);
        char buf[256];
        glevo_gp_program_sexpr(p, 0, buf, sizeof buf);
        ck_assert_str_eq(buf, progs[k]);
        glevo_gp_programs_destroy(p);
    }
    /* Codes: prefix order, constants on the side. */
    glevo_gp_programs *p = parse_ok("(+ x1 (* 2.5 (sin x3)))\n\n# comment\n  (neg 7)  \n", 3);
    ck_assert_int_eq(glevo_gp_programs_count(p), 2);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    ck_assert_int_eq(len, 6);
    ck_assert_int_eq(GLEVO_GP_CODE_OP(c[0]), GLEVO_GP_ADD);
    ck_assert_uint_eq(c[1], GLEVO_GP_CODE(GLEVO_GP_VAR, 0));
    ck_assert_int_eq(GLEVO_GP_CODE_OP(c[2]), GLEVO_GP_MUL);
    ck_assert_int_eq(GLEVO_GP_CODE_OP(c[3]), GLEVO_GP_CONST);
    ck_assert(glevo_gp_programs_constants(p)[GLEVO_GP_CODE_INDEX(c[3])] == 2.5f);
    ck_assert_uint_eq(c[5], GLEVO_GP_CODE(GLEVO_GP_VAR, 2));
    ck_assert_int_eq(glevo_gp_programs_nodes(p), 8);
    char buf[256];
    glevo_gp_program_infix(p, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "(x1 + (2.5 * sin(x3)))");
    glevo_gp_program_sexpr(p, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "(neg 7)");
    glevo_gp_programs_destroy(p);
    /* The symbolic-regression primitives print in infix as function calls. */
    p = parse_ok("(pow (exp x1) (aq (log x2) (square (abs x3))))", 3);
    glevo_gp_program_infix(p, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "pow(exp(x1), aq(log(x2), square(abs(x3))))");
    glevo_gp_programs_destroy(p);
}
END_TEST

START_TEST(test_function_set_lists)
{
    uint32_t ops = 0, t = 1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST;
    ck_assert_int_eq(glevo_gp_function_set_parse("+,-,*,/,exp,log", &ops), GLEVO_OK);
    ck_assert_uint_eq(ops, t | 1u << GLEVO_GP_ADD | 1u << GLEVO_GP_SUB | 1u << GLEVO_GP_MUL |
                               1u << GLEVO_GP_DIV | 1u << GLEVO_GP_EXP | 1u << GLEVO_GP_LOG);
    char buf[256];
    glevo_gp_function_set_text(ops, buf, sizeof buf);
    ck_assert_str_eq(buf, "+,-,*,/,exp,log");
    ck_assert_int_eq(glevo_gp_function_set_parse(" pow , aq,tanh ", &ops), GLEVO_OK);
    ck_assert_uint_eq(ops, t | 1u << GLEVO_GP_POW | 1u << GLEVO_GP_AQ | 1u << GLEVO_GP_TANH);
    ck_assert_int_eq(glevo_gp_function_set_parse("regression", &ops), GLEVO_OK);
    ck_assert_uint_eq(ops, glevo_gp_function_set_ops(GLEVO_GP_REGRESSION));
    uint32_t sr = 1u << GLEVO_GP_SIN | 1u << GLEVO_GP_COS | 1u << GLEVO_GP_EXP |
                  1u << GLEVO_GP_LOG | 1u << GLEVO_GP_SQRT | 1u << GLEVO_GP_DIV;
    ck_assert_uint_eq(ops & sr, sr);
    ck_assert_int_eq(glevo_gp_function_set_parse("classification", &ops), GLEVO_OK);
    ck_assert_uint_eq(ops, glevo_gp_function_set_ops(GLEVO_GP_CLASSIFICATION));
    /* Comparisons with arithmetic fit (they give 0 or 1); so do and/or/not beside them. */
    ck_assert_int_eq(glevo_gp_function_set_parse("+,<,and,if", &ops), GLEVO_OK);
    const char *bad[] = {"", ",", "+,,sin,foo", "and,exp", "x", "const"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        ck_assert_int_eq(glevo_gp_function_set_parse(bad[k], &ops), GLEVO_ERR_INVALID);
        char want[64];
        snprintf(want, sizeof want, "'%s'", bad[k]);
        ck_assert_msg(strstr(glevo_last_error(), want), "%s", glevo_last_error());
    }
}
END_TEST

START_TEST(test_parse_errors)
{
    parse_fails("(+ x1 x2)\n(foo x1 x2)", "t:2:2:", "unknown operator 'foo'");
    parse_fails("(+ x1)", "t:1:6:", "'+' takes 2 argument(s), got 1");
    parse_fails("(sin x1 x2)", "t:1:9:", "'sin' takes 1 argument(s), got more");
    parse_fails("(+ x1 (* x2 x3)", "t:1:1:", "unbalanced '('");
    parse_fails("(+ x1 x2))", "t:1:10:", "unbalanced ')'");
    parse_fails("x1\n  (* x4 x1)", "t:2:6:", "'x4' is out of range x1..x3");
    parse_fails("(+ x0 x1)", "t:1:4:", "out of range");
    parse_fails("(+ x1 2.5.1)", "t:1:7:", "unknown token '2.5.1'");
    /* The data files' number grammar (src/gp/number.c): no hexadecimal, nothing beyond
     * float32's range; 3e38 is a number. */
    parse_fails("(+ x1 0x10)", "t:1:7:", "unknown token '0x10'");
    parse_fails("(+ x1 1e39)", "t:1:7:", "number '1e39' is out of float32's range");
    parse_fails("(- -4e38 x2)", "t:1:4:", "number '-4e38' is out of float32's range");
    glevo_gp_programs_destroy(parse_ok("(+ x1 3e38)", 3));
    parse_fails("(+ x1 x2) x3", "t:1:11:", "one program per line");
    parse_fails("()", "t:1:2:", "expected an operator");
}
END_TEST

START_TEST(test_stack_size)
{
    /* Footnote 7: max(1, t - floor(t / min(a, t))). */
    ck_assert_int_eq(glevo_gp_stack_size(50, 2), 25);
    ck_assert_int_eq(glevo_gp_stack_size(50, 3), 34);
    ck_assert_int_eq(glevo_gp_stack_size(1, 2), 1);
    ck_assert_int_eq(glevo_gp_stack_size(7, 1), 1);
    /* A full binary tree of 7 nodes needs 3 slots walking backwards: <= footnote's 4. */
    ck_assert_int_eq(glevo_gp_stack_size(7, 2), 4);
}
END_TEST

static float eval1(const char *prog, float x1, float x2, float x3)
{
    glevo_gp_programs *p = parse_ok(prog, 3);
    float x[3] = {x1, x2, x3}, y = 0;
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(3, 1, x, &y, &d), GLEVO_OK);
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, 0, &len);
    float v = glevo_gp_interpret(c, len, glevo_gp_programs_constants(p), d, 0);
    /* The block interpreter (used for sums) must agree with the scalar one. */
    glevo_gp_sums s;
    ck_assert_int_eq(glevo_gp_evaluate_cpu(p, d, 1, &s), GLEVO_OK);
    if (isfinite(v)) ck_assert_msg(s.abs_sum == fabsf(v), "%s: block %g vs scalar %g", prog, s.abs_sum, v);
    glevo_gp_data_destroy(d);
    glevo_gp_programs_destroy(p);
    return v;
}

START_TEST(test_operator_edges)
{
    /* Protected division: 1 when |b| < 1e-6, a real quotient at 1e-6 itself. */
    ck_assert(eval1("(/ x1 x2)", 5, 0, 0) == 1.0f);
    ck_assert(eval1("(/ x1 x2)", 5, -9.9e-7f, 0) == 1.0f);
    ck_assert(eval1("(/ x1 x2)", 5, 1e-6f, 0) == 5.0f / 1e-6f);
    ck_assert(eval1("(/ x1 x2)", 6, -3, 0) == -2.0f);
    /* Argument order: first argument minus/over second. */
    ck_assert(eval1("(- x1 x2)", 6, 2, 0) == 4.0f);
    ck_assert(eval1("(neg x1)", 6, 2, 0) == -6.0f);
    ck_assert(eval1("(sin x1)", 0.5f, 0, 0) == sinf(0.5f));
    ck_assert(eval1("(cos x1)", 0.5f, 0, 0) == cosf(0.5f));
    /* (if c a b) = a when c != 0 else b; any non-zero (negative, tiny) is true. */
    ck_assert(eval1("(if x1 x2 x3)", 0, 2, 3) == 3.0f);
    ck_assert(eval1("(if x1 x2 x3)", -1e-30f, 2, 3) == 2.0f);
    ck_assert(eval1("(if x1 x2 x3)", 7, 2, 3) == 2.0f);
    ck_assert(eval1("(< x1 x2)", 1, 2, 0) == 1.0f);
    ck_assert(eval1("(< x1 x2)", 2, 2, 0) == 0.0f);
    ck_assert(eval1("(> x1 x2)", 2, 2, 0) == 0.0f);
    ck_assert(eval1("(> x1 x2)", 3, 2, 0) == 1.0f);
    ck_assert(eval1("(= x1 x2)", 2, 2, 0) == 1.0f);
    ck_assert(eval1("(= x1 x2)", 2, 2.0000002f, 0) == 0.0f);
    ck_assert(eval1("(and x1 x2)", -3, 0.5f, 0) == 1.0f);
    ck_assert(eval1("(and x1 x2)", -3, 0, 0) == 0.0f);
    ck_assert(eval1("(or x1 x2)", 0, 0, 0) == 0.0f);
    ck_assert(eval1("(or x1 x2)", 0, -2, 0) == 1.0f);
    ck_assert(eval1("(not x1)", 0, 0, 0) == 1.0f);
    ck_assert(eval1("(not x1)", -0.0f, 0, 0) == 1.0f);
    ck_assert(eval1("(not x1)", 4, 0, 0) == 0.0f);
}
END_TEST

static void csv_fails(const char *text, const char *where, const char *what)
{
    glevo_gp_data *d = NULL;
    glevo_status st = glevo_gp_data_parse_csv(text, "f.csv", NULL, &d);
    ck_assert_msg(st == GLEVO_ERR_INVALID && !d, "'%s' was accepted", text);
    const char *msg = glevo_last_error();
    ck_assert_msg(strstr(msg, where) && strstr(msg, what), "message '%s' lacks '%s' / '%s'", msg,
                  where, what);
}

START_TEST(test_csv)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("a, b ,y\n1,2,3\n\n4, 5e-1 ,-6\r\n", "f.csv", NULL, &d),
                     GLEVO_OK);
    ck_assert_int_eq(glevo_gp_data_vars(d), 2);
    ck_assert_int_eq(glevo_gp_data_cases(d), 2);
    ck_assert(glevo_gp_data_row(d, 1)[1] == 0.5f);
    ck_assert(glevo_gp_data_row(d, 0)[1] == 4.0f);
    ck_assert(glevo_gp_data_target(d)[1] == -6.0f);
    ck_assert_str_eq(glevo_gp_data_var_name(d, 1), "b");
    glevo_gp_data_destroy(d);
    /* Named target in the middle: the other columns keep their order. */
    ck_assert_int_eq(glevo_gp_data_parse_csv("a,t,c\n1,2,3\n", "f.csv", "t", &d), GLEVO_OK);
    ck_assert(glevo_gp_data_target(d)[0] == 2.0f && glevo_gp_data_row(d, 1)[0] == 3.0f);
    glevo_gp_data_destroy(d);

    csv_fails("", "f.csv:1:1:", "empty file");
    csv_fails("\n  \n", "f.csv:1:1:", "empty file");
    csv_fails("a,b\n", "f.csv:", "no data rows");
    csv_fails("a,b,y\n1,2,3\n4,5\n", "f.csv:3:4:", "row has 2 field(s), the header has 3");
    csv_fails("a,b,y\n1,2,3\n4,5,6,7\n", "f.csv:3:7:", "row has 4 field(s)");
    csv_fails("a,b,y\n1,2,3\n4,x5,6\n", "f.csv:3:3:", "'x5' is not a finite number");
    csv_fails("a,b,y\n1,,3\n", "f.csv:2:3:", "is not a finite number");
    csv_fails("a,b,y\n1,2,nan\n", "f.csv:2:5:", "'nan' is not a finite number");
    csv_fails("a,,y\n1,2,3\n", "f.csv:1:3:", "empty column name");
    /* Issue 23: strtod reads C's hexadecimal floats (0x10 was 16), and two columns of one name
     * were taken. */
    csv_fails("a,b,y\n0x10,2,3\n", "f.csv:2:1:", "'0x10' is not a finite number");
    csv_fails("a,b,y\n1,2,0X1p3\n", "f.csv:2:5:", "'0X1p3' is not a finite number");
    csv_fails("a,b,a\n1,2,3\n", "f.csv:1:5:", "column name 'a' appears twice (columns 1 and 3)");
    glevo_status st = glevo_gp_data_parse_csv("a,b\n1,2\n", "f.csv", "zz", &d);
    ck_assert(st == GLEVO_ERR_INVALID && strstr(glevo_last_error(), "'zz'"));
}
END_TEST

START_TEST(test_metrics)
{
    /* y = x1 on 4 cases; program (+ x1 0.25) errs by 0.25 everywhere, (* x1 2) by |x1|. */
    float x[4] = {1, -2, 0.25f, 0}, y[4] = {1, -2, 0.25f, 0};
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, 4, x, y, &d), GLEVO_OK);
    glevo_gp_programs *p = parse_ok("(+ x1 0.25)\n(* x1 2)\n", 1);
    glevo_gp_sums s[2];
    ck_assert_int_eq(glevo_gp_evaluate_cpu(p, d, 2, s), GLEVO_OK);
    ck_assert(fabs(glevo_gp_metric_value(GLEVO_GP_SAE, &s[0], 4) - 1.0) < 1e-12);
    ck_assert(fabs(glevo_gp_metric_value(GLEVO_GP_MSE, &s[0], 4) - 0.0625) < 1e-12);
    ck_assert(fabs(glevo_gp_metric_value(GLEVO_GP_RMSE, &s[0], 4) - 0.25) < 1e-12);
    ck_assert(glevo_gp_metric_value(GLEVO_GP_ACCURACY, &s[0], 4) == 1.0);
    ck_assert(fabs(glevo_gp_metric_value(GLEVO_GP_SAE, &s[1], 4) - 3.25) < 1e-12);
    ck_assert(glevo_gp_metric_value(GLEVO_GP_ACCURACY, &s[1], 4) == 0.5);
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_parse");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_function_set_lists);
    tcase_add_test(tc, test_stack_size);
    tcase_add_test(tc, test_operator_edges);
    tcase_add_test(tc, test_csv);
    tcase_add_test(tc, test_metrics);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
