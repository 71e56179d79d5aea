/* mpirun -np 2 glevo cga|gp ... --islands shows where each island runs: one stderr line a rank
 * (rank -> host, EGL device -> renderer) unless --quiet, and the same map as the JSON's
 * islands.placement array. The warning's rule is tested on its own in test_islands_policy. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#ifndef GLEVO_HAVE_MPI
int main(void)
{
    printf("test_islands_placement: skipped: glevo was built without MPI\n");
    return 77;
}
#else
#include "mpirun.h"

static char out[65536];

static int job(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s %s --islands --json 2>&1", mpirun_prefix(2, 300),
             testutil_cli(), args);
    return testutil_run(cmd, out, sizeof out);
}

static int count(const char *from, const char *what)
{
    int n = 0;
    for (const char *p = strstr(from, what); p; p = strstr(p + 1, what)) ++n;
    return n;
}

/* Both ranks' lines on stderr, and a placement array of two entries, ranks 0 and 1, each with
 * its device and renderer; returns the array. */
static const char *expect_map(const char *family, const char *device_text)
{
    char line[64];
    for (int r = 0; r < 2; ++r) {
        snprintf(line, sizeof line, "glevo %s: rank %d -> ", family, r);
        ck_assert_msg(count(out, line) == 1, "no line '%s' once:\n%s", line, out);
    }
    ck_assert_msg(count(out, device_text) == 2, "not 2 x '%s':\n%s", device_text, out);
    const char *p = strstr(out, "\"placement\":[");
    ck_assert_msg(p, "no placement array:\n%s", out);
    const char *end = strchr(p, ']');
    ck_assert_ptr_nonnull(end);
    static char array[4096];
    snprintf(array, sizeof array, "%.*s", (int)(end - p), p);
    ck_assert_msg(count(array, "{\"rank\":") == 2, "not 2 entries: %s", array);
    ck_assert_msg(strstr(array, "{\"rank\":0,") && strstr(array, "{\"rank\":1,"), "%s", array);
    ck_assert_msg(count(array, "\"device\":") == 2 && count(array, "\"renderer\":\"") == 2, "%s", array);
    return array;
}

START_TEST(the_map_names_every_rank_on_stderr_and_in_the_json)
{
    int rc = job("cga --problem rastrigin --dim 4 --grid 8x6 --generations 10 --backend fragment");
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    const char *map = expect_map("cga", ", EGL device ");
    ck_assert_msg(count(map, "\"device\":-1") == 0, "a GL rank without a device: %s", map);
}
END_TEST

START_TEST(a_cpu_run_shows_no_device)
{
    char args[1024];
    snprintf(args, sizeof args, "gp --data %s --pop 40 --generations 3 --threads 1 --backend cpu",
             testutil_data_path("gp/projectile_train.csv"));
    int rc = job(args);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    const char *map = expect_map("gp", "no EGL device -> cpu");
    ck_assert_msg(count(map, "\"device\":-1,\"renderer\":\"cpu\"") == 2, "%s", map);
}
END_TEST

START_TEST(quiet_keeps_the_map_out_of_stderr_but_in_the_json)
{
    int rc = job("de --problem sphere --dim 4 --pop 20 --max-evals 400 --backend cpu --quiet");
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    ck_assert_msg(count(out, " -> ") == 0, "map printed with --quiet:\n%s", out);
    ck_assert_msg(count(out, "\"placement\":[{\"rank\":0,") == 1 && count(out, "{\"rank\":") == 2,
                  "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("islands_placement");
    TCase *tc = tcase_create("placement");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, the_map_names_every_rank_on_stderr_and_in_the_json);
    tcase_add_test(tc, a_cpu_run_shows_no_device);
    tcase_add_test(tc, quiet_keeps_the_map_out_of_stderr_but_in_the_json);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
#endif
