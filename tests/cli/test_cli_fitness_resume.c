/* A --fitness run resumes with --resume alone (issue 23): the checkpoint records the GLSL
 * file's absolute path, its CRC-32, domain and direction, so a resume from another folder
 * finds it, and a changed or missing file is refused with one line saying so. It used to say
 * "give it again in --problem", which then called the file an unknown problem. llvmpipe,
 * 8x4 grid: a few seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16];
static char dir[64];

/* from / : the checkpoint's relative names would not be found from here */
#define glevo(...) testutil_glevo("/", out, sizeof out, __VA_ARGS__)

#define lines testutil_lines

START_TEST(fitness_run_resumes_alone)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp %s %s/f.glsl", testutil_data_path("examples/fitness.glsl"), dir);
    ck_assert_int_eq(system(cmd), 0);
    /* Written from the test's folder with a relative --fitness path. */
    snprintf(cmd, sizeof cmd, "cd %s && %s cga --fitness f.glsl --dim 3 --lower -2 --upper 3 --maximize "
             "--grid 8x4 --generations 3 --checkpoint c.ckpt --quiet >/dev/null 2>&1", dir, testutil_cli());
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "cd %s && %s de --fitness f.glsl --dim 2 --lower -1 --upper 1 --max-evals 400 "
             "--checkpoint d.ckpt --quiet >/dev/null 2>&1", dir, testutil_cli());
    ck_assert_int_eq(system(cmd), 0);
    /* --resume alone, from another folder: the domain, direction and dimension come along. */
    ck_assert_int_eq(glevo("cga --resume %s/c.ckpt --generations 5 --json --quiet", dir), 0);
    ck_assert_msg(strstr(out, "\"dim\":3,") && strstr(out, "f.glsl"), "%s", out);
    ck_assert_int_eq(glevo("de --resume %s/d.ckpt --max-evals 600 --json --quiet", dir), 0);
    ck_assert_msg(strstr(out, "\"dim\":2,") && strstr(out, "\"evaluations\":600"), "%s", out);
    /* --fitness given again: its domain still comes from the checkpoint. */
    ck_assert_int_eq(glevo("de --resume %s/d.ckpt --fitness %s/f.glsl --max-evals 600 --quiet", dir, dir), 0);
    /* A changed file is refused, naming it and saying it changed. */
    snprintf(cmd, sizeof cmd, "echo '// edited' >> %s/f.glsl", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(glevo("de --resume %s/d.ckpt --max-evals 600 --quiet", dir), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "f.glsl") && strstr(out, "changed"), "%s", out);
    ck_assert_int_eq(glevo("cga --resume %s/c.ckpt --generations 5 --quiet", dir), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "changed"), "%s", out);
    /* A missing one too. */
    snprintf(cmd, sizeof cmd, "rm %s/f.glsl", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(glevo("cga --resume %s/c.ckpt --generations 5 --quiet", dir), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "f.glsl") && strstr(out, "cannot be read"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_fitness_resume");
    TCase *tc = tcase_create("cli_fitness_resume");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, fitness_run_resumes_alone);
    suite_add_tcase(s, tc);
    return testutil_run_suite_in_tmp(s, dir, sizeof dir, "fitres");
}
