/* One-line errors that name the right thing (issue 23, item 10): a --fitness file without
 * problem_step blamed glevo's own cga/fitness.glsl:16:8 (exit 1); dsmga --problem trap
 * --spin-file F --ell 20 said "--ell 0 must be positive"; /proc/x.out "No such file or
 * directory" for a folder that exists; bench plot drew an empty chart (exit 0) for a NaN or a
 * point at x <= 0 on a log axis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static void expect_bad(const char *args, const char *needle, const char *not_needle)
{
    char cmd[2048], out[4096];
    snprintf(cmd, sizeof cmd, "timeout 60 %s %s 2>&1 >/dev/null", testutil_cli(), args);
    int rc = testutil_run(cmd, out, sizeof out);
    int lines = 0;
    for (const char *p = out; *p; ++p) lines += *p == '\n';
    ck_assert_msg(rc == 2 && lines == 1 && strstr(out, needle) &&
                      (!not_needle || !strstr(out, not_needle)),
                  "glevo %s: exit %d, want 2 and one line naming '%s': %s", args, rc, needle, out);
}

START_TEST(fitness_without_problem_step_blames_the_file)
{
    const char *fit = testutil_write_tmp("vec4 problem_init() { return vec4(0.0); }\n"
                                         "// problem_step( is only mentioned here\n"
                                         "float problem_finish(vec4 a, int d) { return a.x; }\n");
    char args[1024];
    snprintf(args, sizeof args, "cga --fitness %s --grid 8x4 --generations 1 --quiet", fit);
    expect_bad(args, "problem_step", "cga/fitness.glsl");
    snprintf(args, sizeof args, "de --fitness %s --dim 2 --max-evals 100 --quiet", fit);
    expect_bad(args, fit, "de/fold.glsl");
    remove(fit);
}
END_TEST

START_TEST(spin_file_of_another_problem)
{
    char args[1024];
    snprintf(args, sizeof args, "dsmga --backend cpu --problem trap --spin-file %s --ell 20 --quiet",
             testutil_data_path("spin/spin_L4_s1.txt"));
    expect_bad(args, "--problem spin", "--ell 0");
    snprintf(args, sizeof args, "dsmga --backend cpu --problem spin --spin-file %s --ell 20 --quiet",
             testutil_data_path("spin/spin_L4_s1.txt"));
    expect_bad(args, "--ell 20", NULL);
}
END_TEST

START_TEST(virtual_folder_reason)
{
    expect_bad("cga --backend cpu --grid 8x4 --generations 1 --trace /proc/x.out", "takes no new files",
               "No such file");
}
END_TEST

START_TEST(plot_refuses_points_it_cannot_draw)
{
    const char *nan = testutil_write_tmp("series,x,y\na,1,2\na,2,nan\n");
    const char *zero = testutil_write_tmp("series,x,y\na,0,2\na,2,3\n");
    char args[1024], png[64];
    snprintf(png, sizeof png, "/tmp/glevo-plot-%d.png", (int)getpid());
    snprintf(args, sizeof args, "bench plot --data %s --out %s", nan, png);
    expect_bad(args, "line 3: y nan", NULL);
    snprintf(args, sizeof args, "bench plot --data %s --out %s", zero, png);
    expect_bad(args, "line 2: x 0", NULL);
    snprintf(args, sizeof args, "bench plot --data %s --out %s --y-scale linear", zero, png);
    expect_bad(args, "logarithmic", NULL);
    FILE *f = fopen(png, "rb");
    ck_assert_msg(f == NULL, "a chart was written");
    snprintf(args, sizeof args, "bench plot --data %s --out %s.jpg --x-scale linear", zero, png);
    expect_bad(args, ".jpg", NULL);
    /* A linear axis takes the point. */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s bench plot --data %s --out %s --x-scale linear 2>&1", testutil_cli(), zero, png);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
    ck_assert_int_eq(remove(png), 0);
    remove(nan);
    remove(zero);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_messages");
    TCase *tc = tcase_create("cli_messages");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fitness_without_problem_step_blames_the_file);
    tcase_add_test(tc, spin_file_of_another_problem);
    tcase_add_test(tc, virtual_folder_reason);
    tcase_add_test(tc, plot_refuses_points_it_cannot_draw);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
