/* Every command in the README runs as written (scripts/readme-commands.sh: each `./build/glevo`
 * line of a code block, on llvmpipe here), the runner notices a failing one, and the input
 * examples under data/examples/ say what the README says they do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char root[4096], build[4096];

static void paths(void)
{
    snprintf(root, sizeof root, "%s", testutil_data_path("."));
    *strrchr(root, '/') = '\0'; /* .../data/. -> .../data */
    *strrchr(root, '/') = '\0'; /* -> the source tree */
    snprintf(build, sizeof build, "%s", testutil_cli());
    *strrchr(build, '/') = '\0';
}

static int runner(const char *readme, char *out, size_t size)
{
    char cmd[12288];
    snprintf(cmd, sizeof cmd, "cd '%s' && GLEVO_BUILD='%s' scripts/readme-commands.sh %s 2>&1", root, build,
             readme ? readme : "");
    return testutil_run(cmd, out, size);
}

START_TEST(every_readme_command_runs)
{
    paths();
    static char out[1 << 16];
    int rc = runner(NULL, out, sizeof out);
    ck_assert_msg(rc == 0, "README commands failed:\n%s", out);
    int ran = 0, failed = -1;
    const char *summary = strstr(out, "readme-commands: ");
    ck_assert_msg(summary && sscanf(summary, "readme-commands: %d run, %d failed", &ran, &failed) == 2, "%s", out);
    ck_assert_msg(ran >= 10 && failed == 0, "ran %d, failed %d:\n%s", ran, failed, out);
}
END_TEST

START_TEST(a_failing_command_fails_the_run)
{
    paths();
    const char *readme = testutil_write_tmp("# t\n\n```sh\n./build/glevo info --json\n"
                                            "./build/glevo cga --grid 3x3 \\\n    --generations 1\n"
                                            "./build/glevo frobnicate   # not run: a test of skipping\n```\n");
    char out[8192];
    ck_assert_msg(runner(readme, out, sizeof out) != 0, "an odd --grid passed:\n%s", out);
    ck_assert_msg(strstr(out, "FAILED  ./build/glevo cga --grid 3x3 --generations 1"), "%s", out);
    ck_assert_msg(strstr(out, "2 run, 1 failed, 1 skipped"), "%s", out);
    remove(readme);
}
END_TEST

START_TEST(input_examples_do_what_the_readme_says)
{
    paths();
    char cmd[12288], out[4096];
    /* The third program is the law data.csv was made with: error 0. */
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' gp-eval --programs data/examples/programs.txt "
             "--data data/examples/data.csv --backend cpu", root, testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    double e[3];
    ck_assert_msg(sscanf(out, "%lf %lf %lf", &e[0], &e[1], &e[2]) == 3, "%s", out);
    ck_assert_msg(e[2] == 0 && e[0] > 0 && e[1] > 0, "errors %g %g %g, want the third 0", e[0], e[1], e[2]);
    /* An 8-bit population gives an 8x8 matrix with a zero diagonal. */
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' dsm --population data/examples/population.txt", root, testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    int rows = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), ++rows) {
        double v[9];
        int n = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                       &v[6], &v[7], &v[8]);
        ck_assert_msg(n == 8 && v[rows] == 0, "row %d: %d values, diagonal %g", rows, n, v[rows]);
    }
    ck_assert_int_eq(rows, 8);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("docs_readme");
    TCase *tc = tcase_create("readme");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_readme_command_runs);
    tcase_add_test(tc, a_failing_command_fails_the_run);
    tcase_add_test(tc, input_examples_do_what_the_readme_says);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
