/* mpirun -np 3 glevo gp ... --islands: unconnected islands are the plain runs with seeds
 * seed + i (CPU and fragment), a ring migrates programs (every island accepts immigrants) and
 * repeats itself exactly, --migrants above the population exits 2 naming it, and a resumed
 * job ends where the uninterrupted one does. Tiny runs: llvmpipe on two shared cores. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#ifndef GLEVO_HAVE_MPI
int main(void)
{
    printf("test_islands_gp: skipped: glevo was built without MPI (GLEVO_MPI=OFF or "
           "libopenmpi-dev missing)\n");
    return 77;
}
#else
#include "islands_test.h"

/* The string value of "key" (first occurrence) into buf. */
static const char *json_str(const char *from, const char *key, char *buf, size_t size)
{
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *p = strstr(from, pattern);
    buf[0] = 0;
    if (!p) return buf;
    p += strlen(pattern);
    size_t n = strcspn(p, "\"");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
    return buf;
}

static char gp_args[1024];

/* A small run on the projectile data: 40 programs of at most 20 nodes, 12 generations. */
static const char *GP(void)
{
    snprintf(gp_args, sizeof gp_args, "gp --data %s --pop 40 --generations 12 --max-size 20 "
             "--threads 1 --json", testutil_data_path("gp/projectile_train.csv"));
    return gp_args;
}

static void unconnected_equal_plain(const char *backend, int seed)
{
    char args[2048], single[16384], want[4096], got[4096];
    snprintf(args, sizeof args, "%s --seed %d --backend %s --topology unconnected", GP(), seed,
             backend);
    int rc = islands(3, args);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(json_nth(out, "migrations", 0) == 0, "%s", out);
    ck_assert_msg(!strstr(out, "\"best_x\""), "the program block was printed: %s", out);
    const char *rows = per_island(out);
    double lowest = INFINITY;
    for (int i = 0; i < 3; ++i) {
        /* An island runs one search: the plain run without mse's default portfolio, and
         * reports its search's model (no noise pruning, no linear layer). */
        snprintf(args, sizeof args, "%s --seed %d --backend %s --portfolio 0 --linear-layer 0 "
                 "--no-prune",
                 GP(), seed + i, backend);
        ck_assert_int_eq(plain(args, single, sizeof single), 0);
        double w = json_nth(single, "best_fitness", 0), g = json_nth(rows, "best_fitness", i);
        ck_assert_msg(g == w, "%s island %d best %.17g, plain run with seed %d: %.17g", backend,
                      i, g, seed + i, w);
        ck_assert_msg(json_nth(rows, "seed", i) == seed + i, "island %d seed: %s", i, out);
        ck_assert_msg(json_nth(rows, "evaluations", i) == json_nth(single, "evaluations", 0),
                      "island %d evaluations: %s", i, out);
        ck_assert_msg(json_nth(rows, "generations", i) == 12, "island %d: %s", i, out);
        if (g < lowest) {
            lowest = g;
            json_str(single, "best_program", want, sizeof want);
        }
    }
    /* The global best is the lowest error, printed as the program it is. */
    ck_assert_msg(json_nth(out, "best_fitness", 0) == lowest, "%s", out);
    ck_assert_str_eq(json_str(out, "best_program", got, sizeof got), want);
}

START_TEST(unconnected_islands_are_the_plain_runs_with_seed_plus_i)
{
    unconnected_equal_plain("cpu", 31);
}
END_TEST

START_TEST(unconnected_fragment_islands_are_the_plain_runs)
{
    unconnected_equal_plain("fragment", 7);
}
END_TEST

START_TEST(a_ring_migrates_programs_and_repeats_itself)
{
    char args[2048], first[65536];
    snprintf(args, sizeof args, "%s --seed 5 --backend cpu --migrate-every 4 --migrants 2", GP());
    int rc = islands(3, args);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    snprintf(first, sizeof first, "%s", out);
    expect_ring_of_three(2);
    double nodes = json_nth(out, "best_nodes", 0);
    ck_assert_msg(nodes >= 1 && nodes <= 20, "%s", out);
    rc = islands(3, args);
    ck_assert_int_eq(rc, 0);
    strip_seconds(first);
    strip_seconds(out);
    ck_assert_msg(!strcmp(first, out), "two runs differ:\n%s\n%s", first, out);
}
END_TEST

START_TEST(more_migrants_than_programs_exit_2_naming_the_value)
{
    char args[2048];
    snprintf(args, sizeof args, "%s --backend cpu --migrants 41 2>&1", GP());
    int rc = islands(3, args);
    ck_assert_msg(rc == 2 && strstr(out, "--migrants 41") && strstr(out, "40"), "exit %d: %s", rc,
                  out);
    ck_assert_msg(!strstr(out, "\"best_fitness\""), "a result was printed: %s", out);
}
END_TEST

/* Checkpoints every 4 generations, stopped at 8 (a migration point: the resumed job starts
 * with that migration), resumed to 12: the uninterrupted run's islands. */
START_TEST(a_resumed_job_ends_where_the_whole_one_does)
{
    char dir[64] = "/tmp/glevo-islands-gp-XXXXXX", args[4096], whole[65536];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char run[2048];
    snprintf(run, sizeof run, "%s --seed 9 --backend cpu --migrate-every 4 --migrants 3", GP());
    ck_assert_int_eq(islands(3, run), 0);
    snprintf(whole, sizeof whole, "%s", out);
    snprintf(args, sizeof args, "%s --generations 8 --checkpoint %s --checkpoint-every 4", run,
             dir);
    int rc = islands(3, args);
    ck_assert_msg(rc == 0 && json_nth(out, "checkpoint_generation", 0) == 8, "exit %d: %s", rc,
                  out);
    snprintf(args, sizeof args, "%s --resume %s", run, dir);
    rc = islands(3, args);
    ck_assert_msg(rc == 0 && json_nth(out, "resumed_from", 0) == 8, "exit %d: %s", rc, out);
    /* The global values and each island's (migrations once, immigrants per island). */
    const char *keys[] = {"best_fitness", "evaluations", "migrations", "immigrants"};
    const int counts[] = {4, 4, 1, 3};
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < counts[k]; ++i)
            ck_assert_msg(json_nth(out, keys[k], i) == json_nth(whole, keys[k], i),
                          "%s #%d: resumed %.17g, whole %.17g", keys[k], i,
                          json_nth(out, keys[k], i), json_nth(whole, keys[k], i));
    char a[4096], b[4096];
    ck_assert_str_eq(json_str(out, "best_program", a, sizeof a),
                     json_str(whole, "best_program", b, sizeof b));
    snprintf(args, sizeof args, "rm -rf %s", dir);
    ck_assert_int_eq(system(args), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("islands_gp");
    TCase *tc = tcase_create("gp");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, unconnected_islands_are_the_plain_runs_with_seed_plus_i);
    tcase_add_test(tc, unconnected_fragment_islands_are_the_plain_runs);
    tcase_add_test(tc, a_ring_migrates_programs_and_repeats_itself);
    tcase_add_test(tc, more_migrants_than_programs_exit_2_naming_the_value);
    tcase_add_test(tc, a_resumed_job_ends_where_the_whole_one_does);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
#endif
