/* mpirun -np 3 glevo cga|de ... --islands as users run it: unconnected islands are the plain
 * runs with seeds seed + i, a ring migrates (every island accepts immigrants) and repeats
 * itself exactly, the per-island trace, bad topology / migrants / torus width exit 2 with one
 * line naming the value, and a rank that cannot open its device stops the job naming it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#ifndef GLEVO_HAVE_MPI
int main(void)
{
    printf("test_islands_cli: skipped: glevo was built without MPI (GLEVO_MPI=OFF or "
           "libopenmpi-dev missing)\n");
    return 77;
}
#else
#include "islands_test.h"

#define CGA "cga --problem rastrigin --dim 4 --grid 8x6 --generations 40 --report-every 5 --json"

START_TEST(unconnected_islands_are_the_plain_runs_with_seed_plus_i)
{
    const char *backend = "fragment";
    char args[512];
    snprintf(args, sizeof args, CGA " --seed 11 --backend %s --topology unconnected", backend);
    int rc = islands(3, args);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    ck_assert_msg(json_nth(out, "migrations", 0) == 0, "%s", out);
    const char *rows = per_island(out);
    for (int i = 0; i < 3; ++i) {
        char single[8192];
        snprintf(args, sizeof args, CGA " --seed %d --backend %s", 11 + i, backend);
        ck_assert_int_eq(plain(args, single, sizeof single), 0);
        double want = json_nth(single, "best_fitness", 0), got = json_nth(rows, "best_fitness", i);
        ck_assert_msg(got == want, "%s island %d best %.9g, plain run with seed %d: %.9g", backend,
                      i, got, 11 + i, want);
        ck_assert_msg(json_nth(rows, "seed", i) == 11 + i, "island %d seed: %s", i, out);
        ck_assert_msg(json_nth(rows, "evaluations", i) == json_nth(single, "evaluations", 0),
                      "island %d evaluations: %s", i, out);
    }
}
END_TEST

START_TEST(a_ring_migrates_and_repeats_itself)
{
    char first[65536];
    int rc = islands(3, CGA " --seed 5 --backend fragment --migrate-every 10 --migrants 2");
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    snprintf(first, sizeof first, "%s", out);
    expect_ring_of_three(3);
    rc = islands(3, CGA " --seed 5 --backend fragment --migrate-every 10 --migrants 2");
    ck_assert_int_eq(rc, 0);
    strip_seconds(first);
    strip_seconds(out);
    ck_assert_msg(!strcmp(first, out), "two runs differ:\n%s\n%s", first, out);
}
END_TEST

START_TEST(trace_has_a_row_per_island_and_point)
{
    char path[64] = "/tmp/glevo-islands-trace-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args, CGA " --backend cpu --topology fully-connected "
             "--migrate-every 10 --trace %s", path);
    int rc = islands(3, args);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    ck_assert(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "generation,island,evaluations,best_so_far,immigrants,migrations,seconds\n");
    int rows = 0, last_island = -1;
    long long gen = -1;
    while (fgets(line, sizeof line, f)) {
        long long g, imm, mig;
        int island;
        ck_assert_msg(sscanf(line, "%lld,%d,%*f,%*f,%lld,%lld", &g, &island, &imm, &mig) == 4, "%s", line);
        ck_assert_msg(island == (last_island + 1) % 3, "island order: %s", line);
        last_island = island;
        if (island == 0) gen = g;
        ck_assert_msg(g == gen && g % 5 == 0, "row off a synchronisation point: %s", line);
        rows++;
    }
    fclose(f);
    remove(path);
    /* Generations 0, 5, ..., 40: nine points, three islands. */
    ck_assert_int_eq(rows, 27);
}
END_TEST

static int one_line_named(const char *text, const char *value)
{
    /* mpirun adds its own banner after ours; ours is the glevo line, and there is one. */
    const char *g = strstr(text, "glevo cga: ");
    return g && strstr(g, value) && !strstr(g + 1, "glevo cga: ");
}

START_TEST(bad_island_options_exit_2_naming_the_value)
{
    static const struct { const char *args, *value; } bad[] = {
        {"--topology star", "star"},
        {"--migrants 49", "49"},
        {"--migrants 0", "0"},
        {"--migrate-every 0", "--migrate-every 0"},
        {"--topology torus --torus-width 2", "2"},
        {"--topology torus --torus-width 0", "--torus-width 0"},
        {"--sync-timeout -1", "--sync-timeout -1"},
        {"--island-devices 0,x", "0,x"},
        {"--trace /nonexistent/dir/trace.csv", "/nonexistent/dir/trace.csv"},
        {"--pc 3", "--pc 3"}, /* the family's own options too: one line, from rank 0 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[512];
        snprintf(args, sizeof args, CGA " --backend cpu %s 2>&1", bad[i].args);
        int rc = islands(3, args);
        ck_assert_msg(rc == 2, "'%s': exit %d: %s", bad[i].args, rc, out);
        ck_assert_msg(one_line_named(out, bad[i].value), "'%s': %s", bad[i].args, out);
    }
}
END_TEST

/* Device 7 does not exist here: bad input, found by rank 1 alone when it opens its device. */
START_TEST(a_rank_without_its_device_stops_the_job_naming_it)
{
    int rc = islands(3, CGA " --backend fragment --island-devices 0,7 2>&1");
    ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
    ck_assert_msg(one_line_named(out, "island 1 (rank 1, EGL device 7) failed"), "%s", out);
    ck_assert_msg(!strstr(out, "\"best_fitness\""), "a result was printed: %s", out);
}
END_TEST

/* --checkpoint DIR every 10 generations, 20 of 40, then --resume DIR to 40: the result of
 * the uninterrupted run; a job of another size is refused naming both sizes. */
START_TEST(islands_checkpoint_and_resume)
{
    char dir[64] = "/tmp/glevo-islands-cli-XXXXXX", args[512], whole[65536];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *run = CGA " --backend fragment --migrate-every 10 --migrants 2";
    snprintf(args, sizeof args, "%s", run);
    ck_assert_int_eq(islands(3, args), 0);
    snprintf(whole, sizeof whole, "%s", out);
    snprintf(args, sizeof args, "%s --generations 20 --checkpoint %s --checkpoint-every 10", run, dir);
    int rc = islands(3, args);
    ck_assert_msg(rc == 0 && json_nth(out, "checkpoint_generation", 0) == 20, "exit %d: %s", rc, out);
    snprintf(args, sizeof args, "%s --resume %s", run, dir);
    rc = islands(3, args);
    ck_assert_msg(rc == 0 && json_nth(out, "resumed_from", 0) == 20, "exit %d: %s", rc, out);
    /* The same islands, bests, evaluations and migrations (the resumed JSON says more). */
    const char *keys[] = {"best_fitness", "evaluations", "migrations", "immigrants"};
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 4; ++i)
            ck_assert_msg(json_nth(out, keys[k], i) == json_nth(whole, keys[k], i) ||
                              (isnan(json_nth(out, keys[k], i)) && isnan(json_nth(whole, keys[k], i))),
                          "%s #%d: resumed %.17g, whole %.17g", keys[k], i,
                          json_nth(out, keys[k], i), json_nth(whole, keys[k], i));
    snprintf(args, sizeof args, "%s --resume %s 2>&1", run, dir);
    rc = islands(2, args);
    ck_assert_msg(rc == 2 && one_line_named(out, "holds 3 islands, this job has 2"), "exit %d: %s", rc, out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    ck_assert_int_eq(system(args), 0);
}
END_TEST

#define DE "de --problem rastrigin --dim 5 --pop 20 --max-evals 4000 --check-every 20 --json"

/* Unconnected DE islands on the CPU are the plain runs; a ring on the compute backend
 * migrates and repeats itself. */
START_TEST(de_islands_unconnected_equal_plain_runs_and_a_ring_migrates)
{
    char args[512];
    int rc = islands(3, DE " --seed 21 --backend cpu --topology unconnected");
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    const char *rows = per_island(out);
    for (int i = 0; i < 3; ++i) {
        char single[8192];
        snprintf(args, sizeof args, DE " --seed %d --backend cpu", 21 + i);
        ck_assert_int_eq(plain(args, single, sizeof single), 0);
        double want = json_nth(single, "best_fitness", 0), got = json_nth(rows, "best_fitness", i);
        ck_assert_msg(got == want, "island %d best %.17g, plain run with seed %d: %.17g", i, got,
                      21 + i, want);
        ck_assert_msg(json_nth(rows, "evaluations", i) == 4000, "island %d: %s", i, out);
    }
    char first[65536];
    const char *ring = DE " --seed 21 --backend compute --migrate-every 20 --migrants 3";
    ck_assert_int_eq(islands(3, ring), 0);
    snprintf(first, sizeof first, "%s", out);
    /* 4000 evaluations of 20: the first evaluation and 199 generations; migrations at 20..180. */
    ck_assert_msg(json_nth(out, "migrations", 0) == 9, "%s", out);
    rows = per_island(out);
    for (int i = 0; i < 3; ++i)
        ck_assert_msg(json_nth(rows, "immigrants", i) > 0, "island %d accepted none: %s", i, out);
    ck_assert_int_eq(islands(3, ring), 0);
    strip_seconds(first);
    strip_seconds(out);
    ck_assert_msg(!strcmp(first, out), "two runs differ:\n%s\n%s", first, out);
}
END_TEST

START_TEST(de_islands_refuse_runs_and_big_migrations)
{
    int rc = islands(3, DE " --backend cpu --runs 2 2>&1");
    ck_assert_msg(rc == 2 && strstr(out, "--runs 2"), "exit %d: %s", rc, out);
    rc = islands(3, DE " --backend cpu --migrants 21 2>&1");
    ck_assert_msg(rc == 2 && strstr(out, "--migrants 21") && strstr(out, "20"), "exit %d: %s", rc, out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("islands_cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, unconnected_islands_are_the_plain_runs_with_seed_plus_i);
    tcase_add_test(tc, a_ring_migrates_and_repeats_itself);
    tcase_add_test(tc, trace_has_a_row_per_island_and_point);
    tcase_add_test(tc, bad_island_options_exit_2_naming_the_value);
    tcase_add_test(tc, a_rank_without_its_device_stops_the_job_naming_it);
    tcase_add_test(tc, de_islands_unconnected_equal_plain_runs_and_a_ring_migrates);
    tcase_add_test(tc, de_islands_refuse_runs_and_big_migrations);
    tcase_add_test(tc, islands_checkpoint_and_resume);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
#endif
