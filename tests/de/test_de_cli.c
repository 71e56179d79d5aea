/* glevo de on the command line: the JSON contract and bad input (NP < 4, CR outside [0, 1],
 * D < 1, unknown problem, ...) as one line on stderr with exit status 2 and nothing on stdout. */
#include <stdio.h>
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
             "%s de --problem sphere --dim 4 --pop 12 --max-evals 600 --json", testutil_cli());
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(strstr(out, "\"backend\":\"fragment\"") && !strstr(out, "\"renderer\":\"cpu\"") &&
                      strstr(out, "\"evaluations\":600"),
                  "%s", out);
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
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
