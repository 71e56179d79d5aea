/* Oversized requests are refused before any allocation, at once, with one line naming the
 * request and the limit, exit 2 from the CLI (issue 23, item 5): a grid whose textures exceed
 * what the renderer can hold, a population whose programs cannot fit the program texture or
 * the host. GLEVO_MEMORY_LIMIT pins the host's memory to 1 GiB, so the refusals do not
 * depend on the machine (on a large GPU the grid would otherwise be a legitimate run). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/gp.h"
#include "testutil.h"

/* Runs the CLI with the host pinned to 1 GiB; returns the exit code, stderr in err. */
static int run_cli(const char *args, char *err, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "GLEVO_MEMORY_LIMIT=1G %s %s 2>&1 >/dev/null", testutil_cli(),
             args);
    return testutil_run(cmd, err, size);
}

static void expect_refused(const char *args, const char *names, const char *limit)
{
    char err[2048];
    int rc = run_cli(args, err, sizeof err);
    ck_assert_msg(rc == 2, "glevo %s exited %d: %s", args, rc, err);
    ck_assert_msg(strstr(err, names) && strstr(err, limit), "glevo %s: \"%s\" names not '%s' and "
                  "'%s'", args, err, names, limit);
    char *nl = strchr(err, '\n');
    ck_assert_msg(nl && nl[1] == '\0', "glevo %s: not one line: \"%s\"", args, err);
    ck_assert_msg(!strstr(err, ": :") && !strstr(err, ":\n"), "dangling colon: \"%s\"", err);
}

START_TEST(cli_grid_refused)
{
    expect_refused("cga --grid 16384x16384 --generations 1 --quiet", "--grid 16384x16384",
                   "GiB");
    expect_refused("cga --grid 16384x16384 --backend cpu --generations 1 --quiet",
                   "--grid 16384x16384 (dim 2, cpu backend) needs", "1.0 GiB available");
}
END_TEST

START_TEST(cli_gp_population_refused)
{
    char args[512];
    snprintf(args, sizeof args, "gp --data %s --pop 10000000 --generations 1 --quiet",
             testutil_data_path("gp/alarm_train.csv"));
    expect_refused(args, "--pop 10000000", "max_size 100");
    snprintf(args, sizeof args, "gp --data %s --pop 10000000 --generations 1 --backend cpu "
             "--quiet", testutil_data_path("gp/alarm_train.csv"));
    expect_refused(args, "--pop 10000000 (max_size 100, cpu backend) needs", "1.0 GiB available");
}
END_TEST

START_TEST(library_refuses_before_allocating)
{
    setenv("GLEVO_MEMORY_LIMIT", "64M", 1);
    glevo_cga *cga = NULL;
    glevo_cga_params p = {.problem = glevo_problem_find("sphere"), .dim = 5, .width = 4096,
                          .height = 4096, .backend = GLEVO_BACKEND_CPU};
    ck_assert_int_eq(glevo_cga_create(&p, &cga), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(cga);
    ck_assert_msg(strstr(glevo_last_error(), "4096x4096") &&
                  strstr(glevo_last_error(), "64 MiB available (GLEVO_MEMORY_LIMIT)"), "%s",
                  glevo_last_error());
    /* What fits still runs. */
    p.width = 16, p.height = 8;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    glevo_cga_destroy(cga);
    glevo_de *de = NULL;
    glevo_de_params dp = {.dim = 100, .pop = 100000, .backend = GLEVO_BACKEND_CPU};
    ck_assert_int_eq(glevo_de_create(&dp, &de), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(de);
    ck_assert_msg(strstr(glevo_last_error(), "pop 100000 x glevo_de_params.dim 100 (cpu backend)") &&
                  strstr(glevo_last_error(), "64 MiB available"), "%s", glevo_last_error());
    unsetenv("GLEVO_MEMORY_LIMIT");
}
END_TEST

/* A message built from the previous one ("...: %s", glevo_last_error()) is that message
 * once, not a garbled double: glevo_fail formats aside before writing. */
START_TEST(fail_may_quote_last_error)
{
    glevo_fail(GLEVO_ERR_GL, "texture create: GL_OUT_OF_MEMORY (0x505)");
    glevo_fail(GLEVO_ERR_GL, "could not create a texture: %s", glevo_last_error());
    ck_assert_str_eq(glevo_last_error(),
                     "could not create a texture: texture create: GL_OUT_OF_MEMORY (0x505)");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_sizes");
    TCase *tc = tcase_create("sizes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cli_grid_refused);
    tcase_add_test(tc, cli_gp_population_refused);
    tcase_add_test(tc, library_refuses_before_allocating);
    tcase_add_test(tc, fail_may_quote_last_error);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
