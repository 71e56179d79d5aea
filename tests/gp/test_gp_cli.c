/* glevo gp-eval / gp from the outside: one error per program line, exit 2 with line:column
 * messages for malformed programs and CSVs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char dir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[8][512];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Runs glevo with args; stdout+stderr into out; returns the exit status. */
static int run(const char *args, char *out, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", testutil_cli(), args);
    return testutil_run(cmd, out, size);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/glevo_gp_cli_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

START_TEST(test_eval_lines)
{
    setup();
    const char *data = write_file("d.csv", "a,b,y\n1,0,1\n2,1,5\n3,-1,8\n-1,2,3\n0.5,4,4.25\n");
    const char *progs = write_file("p.txt", "(+ (* x1 x1) x2)\n(/ x1 0)\n");
    const char *strategies[] = {"pppe", "fp", "ppcu", "cpu"};
    for (int s = 0; s < 4; ++s) {
        char args[1024], out[4096];
        snprintf(args, sizeof args, "gp-eval --programs %s --data %s --strategy %s", progs, data,
                 strategies[s]);
        ck_assert_int_eq(run(args, out, sizeof out), 0);
        ck_assert_msg(!strcmp(out, "0\n16.25\n"), "%s: got '%s'", strategies[s], out);
    }
    /* The compute backend (GL 4.3; llvmpipe has it), twice timed. */
    char args[1024], out[4096];
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s --backend compute --runs 2",
             progs, data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(!strcmp(out, "0\n16.25\n"), "compute: got '%s'", out);
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s --runs 0", progs, data);
    ck_assert_int_eq(run(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--runs 0"), "%s", out);
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s --json", progs, data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"errors\":[0,16.25]") && strstr(out, "\"nodes\":8") &&
                      strstr(out, "\"gpops\":") && strstr(out, "\"seconds\":"),
                  "json: %s", out);
}
END_TEST

static void expect_bad(const char *args, const char *needle)
{
    char out[4096];
    int rc = run(args, out, sizeof out);
    ck_assert_msg(rc == 2, "'%s' exited %d: %s", args, rc, out);
    ck_assert_msg(strstr(out, needle) != NULL, "'%s': output '%s' lacks '%s'", args, out, needle);
    ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "not one line: '%s'", out);
}

START_TEST(test_bad_input)
{
    setup();
    const char *data = write_file("d.csv", "a,b,y\n1,0,1\n2,1,5\n");
    const char *good = write_file("good.txt", "(+ x1 x2)\n");
    char args[1024];
    const char *bad_op = write_file("op.txt", "(+ x1 x2)\n (foo x1)\n");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s", bad_op, data);
    expect_bad(args, ":2:3: unknown operator 'foo'");
    const char *arity = write_file("arity.txt", "(* x1)\n");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s", arity, data);
    expect_bad(args, ":1:6: '*' takes 2 argument(s), got 1");
    const char *var = write_file("var.txt", "(+ x1 x3)\n");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s", var, data);
    expect_bad(args, ":1:7: variable 'x3' is out of range x1..x2");
    const char *ragged = write_file("ragged.csv", "a,b,y\n1,2,3\n1,2\n");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s", good, ragged);
    expect_bad(args, "ragged.csv:3:4: row has 2 field(s)");
    const char *nonnum = write_file("nonnum.csv", "a,b,y\n1,2,3\n1,two,3\n");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s", good, nonnum);
    expect_bad(args, "nonnum.csv:3:3: 'two' is not a finite number");
    const char *empty = write_file("empty.csv", "");
    snprintf(args, sizeof args, "gp --data %s --backend cpu", empty);
    expect_bad(args, "empty.csv:1:1: empty file");
    snprintf(args, sizeof args, "gp-eval --programs %s --data %s --strategy warp", good, data);
    expect_bad(args, "'warp'");
    snprintf(args, sizeof args, "gp --data %s --function-set logic", data);
    expect_bad(args, "'logic'");
    /* Function sets as lists (issue 26): an unknown name, an empty list, and/or/not with
     * arithmetic but no comparison. */
    snprintf(args, sizeof args, "gp --data %s --backend cpu --function-set +,-,expo", data);
    expect_bad(args, "'expo' is not an operator");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --function-set ,", data);
    expect_bad(args, "function set ',' has no operator");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --function-set +,and,exp", data);
    expect_bad(args, "function set '+,and,exp' mixes and/or/not with arithmetic");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --split 1.5", data);
    expect_bad(args, "--split 1.5");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --split 0.5 --test %s", data, data);
    expect_bad(args, "give one test set");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --const-range 1,0", data);
    expect_bad(args, "--const-range '1,0'");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --const-range 1", data);
    expect_bad(args, "--const-range '1'");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --const-opt -3", data);
    expect_bad(args, "--const-opt -3");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --const-opt-fraction 0", data);
    expect_bad(args, "--const-opt-fraction 0");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --const-prob 1.5", data);
    expect_bad(args, "--const-prob 1.5");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --portfolio 1", data);
    expect_bad(args, "--portfolio 1");
    /* The library refuses a split that leaves a search too few programs (named as typed). */
    snprintf(args, sizeof args, "gp --data %s --backend cpu --pop 20 --portfolio 0.05", data);
    expect_bad(args, "--portfolio 0.05 splits pop 20 into 19 and 1");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --split 0.1", data);
    expect_bad(args, "split fraction 0.1 leaves no case"); /* 2 rows: none to test on */
    snprintf(args, sizeof args, "gp-eval --programs %s/missing.txt --data %s", dir, data);
    expect_bad(args, "missing.txt");
    snprintf(args, sizeof args, "gp --data %s --backend cpu --trace %s/t.csv", data, dir);
    expect_bad(args, "needs --islands");
}
END_TEST

START_TEST(test_gp_run)
{
    setup();
    /* y = x1 * x2 + x1 sampled on a grid: found quickly and printed both ways. */
    char csv[8192] = "p,q,y\n";
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 5; ++j) {
            double a = -1 + 0.4 * i, b = -1 + 0.5 * j;
            char row[128];
            snprintf(row, sizeof row, "%g,%g,%.9g\n", a, b, a * b + a);
            strcat(csv, row);
        }
    const char *data = write_file("g.csv", csv);
    char args[1024], out[8192];
    snprintf(args, sizeof args,
             "gp --data %s --pop 1000 --generations 30 --target-error 1e-4 --json --quiet --seed 2",
             data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"best_program\":\"(") && strstr(out, "\"best_infix\":\"(") &&
                      strstr(out, "\"algorithm\":\"gp\"") && strstr(out, "\"renderer\":"),
                  "json: %s", out);
    const char *bf = strstr(out, "\"best_fitness\":");
    ck_assert_ptr_nonnull(bf);
    double best = atof(bf + strlen("\"best_fitness\":"));
    ck_assert_msg(best <= 1e-4, "best_fitness %g: %s", best, out);
    /* The settings the metric's defaults chose, as the run used them (src/gp/sr_params.c). */
    ck_assert_msg(strstr(out, "\"metric\":\"mse\",\"linear_scaling\":true,\"const_opt\":1,"
                              "\"const_opt_fraction\":0.14,\"const_opt_max\":1024,\"max_size\":100,\"portfolio\":0.25,"
                              "\"enumerate\":100000,\"linear_layer\":32,\"prune\":true,\"best_search\":\""), "json: %s", out);
    snprintf(args, sizeof args, "gp --data %s --pop 50 --generations 1 --json --quiet --backend "
             "cpu --metric sae --max-size 30", data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"linear_scaling\":false,\"const_opt\":0,") &&
                      strstr(out, "\"max_size\":30,\"portfolio\":0,\"enumerate\":0,"
                             "\"linear_layer\":0,\"prune\":false,\"best_search\":\"main\""),
                  "json: %s", out);
    /* The layer's terms: 0..64, another count refused naming it. */
    snprintf(args, sizeof args, "gp --data %s --linear-layer 65 --quiet --backend cpu", data);
    ck_assert_int_eq(run(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--linear-layer 65 is outside 0..64"), "%s", out);
    /* A list of operators: the printed program uses only those. */
    snprintf(args, sizeof args,
             "gp --data %s --pop 200 --generations 3 --json --quiet --seed 2 --backend cpu "
             "--function-set '*, +,square'", data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(!strstr(out, "sin") && !strstr(out, "(-") && !strstr(out, "(/"), "%s", out);
    /* --split: a test set from the data; R^2 on both sides and the SymPy string reported. */
    snprintf(args, sizeof args,
             "gp --data %s --pop 300 --generations 10 --json --quiet --seed 4 --backend cpu "
             "--metric mse --split 0.3", data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    const char *r2 = strstr(out, "\"train_r2\":"), *t2 = strstr(out, "\"test_r2\":");
    ck_assert_msg(r2 && t2 && strstr(out, "\"best_sympy\":\"") && strstr(out, "\"test_error\":"),
                  "%s", out);
    double train_r2 = atof(r2 + strlen("\"train_r2\":"));
    ck_assert_msg(train_r2 > 0.9 && train_r2 <= 1.0, "train_r2 %g: %s", train_r2, out);
    /* --profile on a GPU backend: the table of the run's passes on stderr. */
    snprintf(args, sizeof args,
             "gp --data %s --pop 100 --generations 2 --quiet --seed 4 --backend compute --profile", data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "gp.breed") && strstr(out, "all passes"), "%s", out);
}
END_TEST

/* --test is matched to --data by column name: the same rows with the columns in another
 * order score the model exactly as in the training order; a column the data lacks, or a
 * missing target, is refused (exit 2) naming it. */
START_TEST(test_columns_by_name)
{
    setup();
    const char *data = write_file("tr.csv", "a,b,y\n1,2,5\n2,1,4\n3,3,9\n0.5,2,4.5\n2,2,6\n");
    const char *same = write_file("te1.csv", "a,b,y\n1,3,7\n2,0.5,3\n4,1,6\n");
    const char *swapped = write_file("te2.csv", "b,y,a\n3,7,1\n0.5,3,2\n1,6,4\n");
    const char *other = write_file("te3.csv", "a,c,y\n1,3,7\n");
    const char *no_target = write_file("te4.csv", "a,b,z\n1,3,7\n");
    char args[1024], out[8192], first[64];
    const char *tests[] = {same, swapped};
    for (int k = 0; k < 2; ++k) {
        snprintf(args, sizeof args, "gp --data %s --test %s --pop 60 --generations 3 --backend cpu "
                 "--threads 1 --quiet --json", data, tests[k]);
        ck_assert_int_eq(run(args, out, sizeof out), 0);
        const char *r2 = strstr(out, "\"test_r2\":");
        ck_assert_msg(r2, "%s", out);
        if (k == 0) snprintf(first, sizeof first, "%.40s", r2);
        else ck_assert_msg(!strncmp(first, r2, strlen(first)), "%s vs %.40s", first, r2);
    }
    const struct { const char *file, *name, *words; } refused[] = {
        {other, "te3.csv", "column 'c'"}, {no_target, "te4.csv", "'y'"}};
    for (int k = 0; k < 2; ++k) {
        snprintf(args, sizeof args, "gp --data %s --test %s --backend cpu --quiet", data,
                 refused[k].file);
        ck_assert_int_eq(run(args, out, sizeof out), 2);
        ck_assert_msg(strstr(out, refused[k].words) && strstr(out, refused[k].name), "%s", out);
    }
}
END_TEST

/* A constant target: said once, its model the constant, R^2 1 (not NaN); a constant input
 * column said too. */
START_TEST(test_constant_columns)
{
    setup();
    const char *data = write_file("c.csv", "a,b,y\n1,2,3\n2,2,3\n3,2,3\n4,2,3\n");
    char args[1024], out[8192];
    snprintf(args, sizeof args, "gp --data %s --pop 40 --generations 2 --backend cpu --json", data);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "the target 'y' is 3 in every row") &&
                      strstr(out, "column 'b' is 2 in every row") &&
                      strstr(out, "\"best_program\":\"3\"") && strstr(out, "\"train_r2\":1"),
                  "%s", out);
}
END_TEST

/* A program whose error is NaN prints "nan" on every engine (the CPU printed "-nan"). */
START_TEST(test_nan_is_nan)
{
    setup();
    const char *data = write_file("n.csv", "a,y\n100,1\n2,3\n");
    const char *progs = write_file("n.txt", "(- (exp x1) (exp x1))\n");
    static const char *backends[] = {"cpu", "fragment", "compute"};
    for (int b = 0; b < 3; ++b) {
        char args[1024], out[4096];
        snprintf(args, sizeof args, "gp-eval --programs %s --data %s --backend %s", progs, data,
                 backends[b]);
        ck_assert_int_eq(run(args, out, sizeof out), 0);
        ck_assert_msg(!strcmp(out, "nan\n"), "%s: '%s'", backends[b], out);
    }
}
END_TEST

/* A resume refuses every option that would change the run, naming the option and both
 * values in the user's terms (--function-set as lists); --generations may change. */
START_TEST(test_resume_refuses_changes)
{
    setup();
    const char *data = write_file("r.csv", "a,b,y\n1,2,5\n2,1,4\n3,3,9\n0.5,2,4.5\n2,2,6\n");
    char args[1024], out[8192];
    snprintf(args, sizeof args, "gp --data %s --pop 30 --generations 2 --backend cpu --quiet "
             "--checkpoint %s/r.ckpt", data, dir);
    ck_assert_int_eq(run(args, out, sizeof out), 0);
    static const struct { const char *option, *words; } bad[] = {
        {"--parsimony 0.1", "--parsimony 0.1 differs from the checkpoint's 0"},
        {"--const-opt 3", "--const-opt 3 differs from the checkpoint's 1"},
        {"--const-opt-fraction 0.5", "--const-opt-fraction 0.5 differs from the checkpoint's 0.14"},
        {"--no-linear-scaling", "off differs from the checkpoint's on"},
        {"--const-range -2,2", "--const-range (low) -2 differs from the checkpoint's -1"},
        {"--function-set +,-,pow", "--function-set +,-,pow differs from the checkpoint's +,-,*,/"},
        {"--metric sae", "--metric sae differs from the checkpoint's mse"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(args, sizeof args, "gp --data %s --resume %s/r.ckpt %s --backend cpu --quiet",
                 data, dir, bad[i].option);
        ck_assert_int_eq(run(args, out, sizeof out), 2);
        ck_assert_msg(strstr(out, bad[i].words), "%s: '%s' lacks '%s'", bad[i].option, out,
                      bad[i].words);
    }
    /* The result's linear layer only prints the model: a resume takes a change. */
    snprintf(args, sizeof args, "gp --data %s --resume %s/r.ckpt --generations 3 --const-opt 1 "
             "--linear-layer 4 --backend cpu --quiet", data, dir);
    ck_assert_msg(run(args, out, sizeof out) == 0, "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_cli");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_eval_lines);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_gp_run);
    tcase_add_test(tc, test_columns_by_name);
    tcase_add_test(tc, test_resume_refuses_changes);
    tcase_add_test(tc, test_nan_is_nan);
    tcase_add_test(tc, test_constant_columns);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
