/* What the island CLI suites share: a job of N ranks of glevo ... --islands (mpirun.h), the
 * plain run to compare with, and reading numbers and per-island rows out of the JSON. */
#ifndef GLEVO_TEST_ISLANDS_TEST_H
#define GLEVO_TEST_ISLANDS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpirun.h"
#include "testutil.h"

static char out[65536];

static inline int islands(int ranks, const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s %s --islands --quiet", mpirun_prefix(ranks, 300),
             testutil_cli(), args);
    return testutil_run(cmd, out, sizeof out);
}

static inline int plain(const char *args, char *into, size_t size)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s --quiet", testutil_cli(), args);
    return testutil_run(cmd, into, size);
}

/* The number after "key": at its n-th occurrence from `from` (NaN when absent). */
static inline double json_nth(const char *from, const char *key, int n)
{
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = from;
    for (int i = 0; p && i <= n; ++i) {
        p = strstr(p, pattern);
        if (p && i < n) p += strlen(pattern);
    }
    return p ? strtod(p + strlen(pattern), NULL) : NAN;
}

static inline const char *per_island(const char *json)
{
    const char *p = strstr(json, "\"per_island\":");
    ck_assert_msg(p, "no per_island rows: %s", json);
    return p;
}

/* Drops the wall-clock fields so that two runs' JSON can be compared. */
static inline void strip_seconds(char *s)
{
    static const char *const keys[] = {"\"seconds\":", "\"migration_seconds\":",
                                       "\"sync_seconds\":", "\"migration_share\":",
                                       "\"step_seconds\":", "\"other_seconds\":"};
    for (size_t k = 0; k < 6; ++k)
        for (char *p = strstr(s, keys[k]); p; p = strstr(p + 1, keys[k])) {
            char *v = p + strlen(keys[k]);
            char *end = v + strcspn(v, ",}");
            memmove(v, end, strlen(end) + 1);
        }
}

/* The JSON in `out` of a ring of 3 minimising islands after `migrations` migrations: every
 * island accepted immigrants, the job's evaluations are the islands' sum and its best the
 * lowest island best. */
static inline void expect_ring_of_three(int migrations)
{
    ck_assert_msg(json_nth(out, "migrations", 0) == migrations, "not %d migrations: %s",
                  migrations, out);
    ck_assert_msg(strstr(out, "\"topology\":\"ring\"") && strstr(out, "\"count\":3"), "%s", out);
    const char *rows = per_island(out);
    double total = 0, lowest = INFINITY;
    for (int i = 0; i < 3; ++i) {
        ck_assert_msg(json_nth(rows, "immigrants", i) > 0, "island %d accepted none: %s", i, out);
        /* The time split: the engine's generations, migration and status checks are disjoint
         * spans of the island's run. */
        double step = json_nth(rows, "step_seconds", i), all = json_nth(rows, "seconds", i);
        double parts = step + json_nth(rows, "migration_seconds", i) + json_nth(rows, "sync_seconds", i);
        ck_assert_msg(step > 0 && parts <= all + 1e-6 && json_nth(rows, "other_seconds", i) >= 0,
                      "island %d's time split: %s", i, out);
        total += json_nth(rows, "evaluations", i);
        lowest = fmin(lowest, json_nth(rows, "best_fitness", i));
    }
    ck_assert_msg(json_nth(out, "evaluations", 0) == total, "evaluations are not the sum: %s", out);
    ck_assert_msg(json_nth(out, "best_fitness", 0) == lowest, "global best is not the lowest: %s",
                  out);
}

#endif
