/* Bench suites' promises (issue 12): --json prints their tables as one JSON object, and an
 * --out folder that takes no files is bad input before any run (it exited 0 with no tables). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define TINY "bench cga --table 1 --runs 1 --generations 3 --grid 6x4 --backend cpu --quiet"

static char out[1 << 16];

START_TEST(json_tables)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s " TINY " --json", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(out[0] == '{' && strchr(out, '\n') == out + strlen(out) - 1, "not one object: %s", out);
    ck_assert_msg(strstr(out, "\"suite\":\"cga\"") && strstr(out, "\"columns\":[\"function\",") &&
                  strstr(out, "[\"schwefel\",0,0,61,78]"), "%s", out);
}
END_TEST

START_TEST(unwritable_out_folder)
{
    char cmd[1024];
    /* /proc/self exists and takes no files, for root too (a chmod 555 folder would not do). */
    snprintf(cmd, sizeof cmd, "%s " TINY " --out /proc/self 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "/proc/self") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    /* A good folder gets the table and nothing else (no temporary file left). */
    char dir[] = "/tmp/glevo-bench-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s " TINY " --out %s >/dev/null 2>&1 && ls -A %s", testutil_cli(), dir, dir);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_str_eq(out, "cga_table1.md\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* glevo bench gp --whole (issue 42): EvoGP's algorithm and the defaults, each a first run
 * (seed 0 in gp_runs.csv: it builds the programs) and the timed seeds, in the CSV and the
 * table; an unknown algorithm is bad input. */
START_TEST(whole_runs_defaults_and_first_run)
{
    char cmd[1024], dir[] = "/tmp/glevo-bench-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s bench gp --whole --no-eval --whole-cells 60x12 --whole-seeds 2 "
             "--backend cpu --quiet --out %s", testutil_cli(), dir);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "| cpu, EvoGP's algorithm | cpu, defaults |") &&
                  strstr(out, "First run at 60 x 12 (it builds the programs), seconds: cpu, "
                              "EvoGP's algorithm "), "%s", out);
    snprintf(cmd, sizeof cmd, "cut -d, -f1-5 %s/gp_runs.csv", dir);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_str_eq(out, "engine,algorithm,pop,cases,seed\n"
                          "cpu,evogp,60,12,0\ncpu,evogp,60,12,1\ncpu,evogp,60,12,2\n"
                          "cpu,defaults,60,12,0\ncpu,defaults,60,12,1\ncpu,defaults,60,12,2\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s bench gp --whole --no-eval --whole-algorithms evogp,fast "
             "--backend cpu --quiet 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "'fast'") && testutil_lines(out) == 1, "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bench_contracts");
    TCase *tc = tcase_create("bench_contracts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, json_tables);
    tcase_add_test(tc, unwritable_out_folder);
    tcase_add_test(tc, whole_runs_defaults_and_first_run);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
