/* glevo de on the command line: the JSON contract and bad input (NP < 4, CR outside [0, 1],
 * D < 1, unknown problem, ...) as one line on stderr with exit status 2 and nothing on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void expect_bad(const char *args, const char *needle)
{
    char cmd[1024], out[4096];
    /* stderr only (stdout dropped) to count its lines; then stdout only, which must be empty. */
    snprintf(cmd, sizeof cmd, "%s de %s 2>&1 >/dev/null", testutil_cli(), args);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 2, "glevo de %s: exit %d, want 2 (%s)", args, rc, out);
    int lines = 0;
    for (const char *p = out; *p; ++p) lines += *p == '\n';
    ck_assert_msg(lines == 1, "glevo de %s: %d lines on stderr: %s", args, lines, out);
    ck_assert_msg(strstr(out, needle) != NULL, "glevo de %s: '%s' not named in: %s", args,
                  needle, out);
    snprintf(cmd, sizeof cmd, "%s de %s 2>/dev/null", testutil_cli(), args);
    rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 2 && out[0] == '\0', "glevo de %s wrote to stdout: %s", args, out);
}

START_TEST(test_bad_input)
{
    expect_bad("--pop 3", "3");
    expect_bad("--CR 1.5", "1.5");
    expect_bad("--CR -0.1", "-0.1");
    expect_bad("--dim 0", "0");
    expect_bad("--problem nosuch", "nosuch");
    expect_bad("--problem camel --dim 3", "camel");
    expect_bad("--strategy rand9bin", "rand9bin");
    expect_bad("--F 0", "0");
    expect_bad("--backend cuda", "cuda");
    expect_bad("--dim 200", "200"); /* beyond the 100 CEC 2005 shift numbers */
    expect_bad("--kernel fast", "fast");
    expect_bad("--backend compute --kernel resident --dim 100 --pop 1000", "1000 x 100");
}
END_TEST

START_TEST(test_json_cpu)
{
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s de --backend cpu --problem rastrigin --dim 3 --pop 20 --max-evals 2000 "
             "--seed 4 --json --runs 3 --quiet",
             testutil_cli());
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    static const char *const keys[] = {
        "\"algorithm\":\"de\"", "\"problem\":\"rastrigin\"", "\"backend\":\"cpu\"",
        "\"renderer\":\"cpu\"", "\"seed\":", "\"best_fitness\":", "\"efv\":",
        "\"evaluations\":2000", "\"generations\":99", "\"seconds\":", "\"best_x\":[",
        "\"runs\":3", "\"success_rate\":", "\"efv_mean\":", "\"efv_std\":", "\"seconds_mean\":"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
        ck_assert_msg(strstr(out, keys[k]) != NULL, "missing %s in %s", keys[k], out);
    int lines = 0;
    for (const char *p = out; *p; ++p) lines += *p == '\n';
    ck_assert_int_eq(lines, 1);
}
END_TEST

START_TEST(test_json_fragment)
{
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s de --problem sphere --dim 4 --pop 12 --max-evals 600 --backend fragment --json",
             testutil_cli());
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(strstr(out, "\"backend\":\"fragment\"") && !strstr(out, "\"renderer\":\"cpu\"") &&
                      strstr(out, "\"evaluations\":600"),
                  "%s", out);
    /* The default, --backend auto, names the engine it ran: compute on a context that has
     * compute shaders (llvmpipe and the H200 both do), on the GPU. */
    snprintf(cmd, sizeof cmd, "%s de --problem sphere --dim 4 --pop 12 --max-evals 600 --json",
             testutil_cli());
    rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(strstr(out, "\"backend\":\"compute\"") && !strstr(out, "\"renderer\":\"cpu\""),
                  "%s", out);
}
END_TEST

START_TEST(test_json_compute)
{
    /* The user's GLSL fitness through the compute kernels: the engine is named in the JSON. */
    const char *path = testutil_write_tmp(
        "vec4 problem_init() { return vec4(0.0); }\n"
        "vec4 problem_step(vec4 acc, int j, float z) { acc.x += abs(z - 1.0); return acc; }\n"
        "float problem_finish(vec4 acc, int D) { return acc.x; }\n");
    static const char *const kernels[2] = {"generation", "resident"};
    for (int k = 0; k < 2; ++k) {
        char cmd[1024], out[8192], want[64];
        snprintf(cmd, sizeof cmd,
                 "%s de --backend compute --kernel %s --fitness %s --dim 3 --lower -5 --upper 5 "
                 "--pop 20 --max-evals 6000 --json", testutil_cli(), kernels[k], path);
        int rc = testutil_run(cmd, out, sizeof out);
        ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
        snprintf(want, sizeof want, "\"engine\":\"compute.%s\"", kernels[k]);
        ck_assert_msg(strstr(out, "\"backend\":\"compute\"") && strstr(out, want) &&
                          strstr(out, "\"evaluations\":6000"), "%s", out);
        double best = 1.0;
        const char *b = strstr(out, "\"best_fitness\":");
        ck_assert_msg(b && sscanf(b + 15, "%lf", &best) == 1 && best < 1e-3, "%s", out);
    }
    remove(path);
}
END_TEST

START_TEST(test_bench_cells)
{
    /* glevo bench de --cells: bad cells are bad input; a run writes a CSV row per engine with
     * the renderer quoted. */
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "%s bench de --cells 10:3 2>&1 >/dev/null", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "10:3") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "%s bench de --cells 10:50,x 2>/dev/null", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 2);
    snprintf(cmd, sizeof cmd, "%s bench de --backend compute,gpu 2>/dev/null", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 2);
    char dir[] = "/tmp/glevo-bench-de-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s bench de --cells 2:6 --runs 1 --backend compute,cpu --quiet "
             "--out %s >/dev/null && cat %s/de_cells.csv", testutil_cli(), dir, dir);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(strstr(out, "2,6,compute,compute.resident,1,3332,") &&
                      strstr(out, "2,6,cpu,cpu,1,3332,") && strstr(out, ",\"cpu\"\n"),
                  "%s", out);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
}
END_TEST

START_TEST(test_user_fitness_and_no_shift)
{
    /* A user GLSL fitness (minimum 0 at x = (1, 1, 1)) on the fragment backend. */
    const char *path = testutil_write_tmp(
        "vec4 problem_init() { return vec4(0.0); }\n"
        "vec4 problem_step(vec4 acc, int j, float z) { acc.x += abs(z - 1.0); return acc; }\n"
        "float problem_finish(vec4 acc, int D) { return acc.x; }\n");
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd,
             "%s de --fitness %s --dim 3 --lower -5 --upper 5 --pop 20 --max-evals 6000 --json",
             testutil_cli(), path);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    double best = 1.0;
    const char *b = strstr(out, "\"best_fitness\":");
    ck_assert_msg(b && sscanf(b + 15, "%lf", &best) == 1, "%s", out);
    ck_assert_msg(best < 1e-3, "user fitness best %g: %s", best, out);
    ck_assert_msg(strstr(out, "\"efv\":null") != NULL, "no optimum, no EFV: %s", out);
    /* The same file on the CPU backend has no C twin: bad input. */
    snprintf(cmd, sizeof cmd, "%s de --fitness %s --dim 3 --backend cpu 2>/dev/null",
             testutil_cli(), path);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 2);
    remove(path);

    /* --shift none: the plain sphere's optimum is the origin. */
    snprintf(cmd, sizeof cmd,
             "%s de --backend cpu --shift none --dim 3 --pop 20 --max-evals 20000 --json",
             testutil_cli());
    rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0 && strstr(out, "\"shifted\":false"), "exit %d: %s", rc, out);
    const char *x = strstr(out, "\"best_x\":[");
    double x0 = 1.0;
    ck_assert_msg(x && sscanf(x + 10, "%lf", &x0) == 1 && x0 > -1e-3 && x0 < 1e-3, "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_cli");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_json_cpu);
    tcase_add_test(tc, test_json_fragment);
    tcase_add_test(tc, test_json_compute);
    tcase_add_test(tc, test_bench_cells);
    tcase_add_test(tc, test_user_fitness_and_no_shift);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
