/* Values the library reads as "the default" or "a literal 0" never pass through the command
 * line by accident (issue 23): the params structs take 0 as "default" and -1 (GLEVO_ZERO) as
 * "exactly 0", so `cga --pc -1 --pm -1` ran with pc = pm = 0 and `cga --dim -1` meant the
 * default dimension, both exit 0. Every flag is refused with one line naming the value. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static void expect_refused(const char *args, const char *needle)
{
    char cmd[2048], out[4096];
    snprintf(cmd, sizeof cmd, "timeout 30 %s %s 2>&1 >/dev/null", testutil_cli(), args);
    int rc = testutil_run(cmd, out, sizeof out);
    int lines = 0;
    for (const char *p = out; *p; ++p) lines += *p == '\n';
    ck_assert_msg(rc == 2 && lines == 1 && strstr(out, needle), "glevo %s: exit %d, want 2 and one "
                  "line naming '%s': %s", args, rc, needle, out);
}

START_TEST(sentinels_are_refused)
{
    const char *csv = testutil_data_path("examples/data.csv");
    char gp[1024];
    expect_refused("cga --backend cpu --grid 8x4 --generations 1 --pc -1 --pm -1", "--pc -1");
    expect_refused("cga --backend cpu --grid 8x4 --generations 1 --pm -1", "--pm -1");
    expect_refused("cga --backend cpu --grid 8x4 --generations 1 --pc 1.5", "--pc 1.5");
    expect_refused("cga --backend cpu --grid 8x4 --generations 1 --dim -1", "--dim -1");
    snprintf(gp, sizeof gp, "gp --backend cpu --data %s --pop 8 --generations 1 --pc -1", csv);
    expect_refused(gp, "--pc -1");
    snprintf(gp, sizeof gp, "gp --backend cpu --data %s --pop 8 --generations 1 --pm -1", csv);
    expect_refused(gp, "--pm -1");
    snprintf(gp, sizeof gp, "gp --backend cpu --data %s --pop 8 --generations 1 --target-error -5", csv);
    expect_refused(gp, "--target-error -5");
    expect_refused("bench cga --generations -1", "--generations -1");
    expect_refused("bench cga --cpu-budget -1", "--cpu-budget -1");
    expect_refused("bench gp --lanes -1", "--lanes -1");
    expect_refused("bench gp --tile-w -8", "--tile-w -8");
    snprintf(gp, sizeof gp, "gp-eval --data %s --programs x1 --tile-width 3", csv);
    expect_refused(gp, "--tile-width 3");
    /* Already refused, kept that way. */
    expect_refused("de --backend cpu --dim -1", "--dim -1");
    expect_refused("de --backend cpu --CR -1", "--CR -1");
    expect_refused("dsmga --backend cpu --ell -1", "--ell -1");
}
END_TEST

START_TEST(literal_zero_still_means_zero)
{
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd, "%s cga --backend cpu --grid 8x4 --generations 2 --pc 0 --pm 0 --json --quiet",
             testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"pc\":0,") && strstr(out, "\"pm\":0,"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_values");
    TCase *tc = tcase_create("cli_values");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sentinels_are_refused);
    tcase_add_test(tc, literal_zero_still_means_zero);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
