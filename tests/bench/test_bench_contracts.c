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

int main(void)
{
    Suite *s = suite_create("bench_contracts");
    TCase *tc = tcase_create("bench_contracts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, json_tables);
    tcase_add_test(tc, unwritable_out_folder);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
