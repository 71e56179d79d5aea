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
                                       "\"sync_seconds\":", "\"migration_share\":"};
    for (size_t k = 0; k < 4; ++k)
        for (char *p = strstr(s, keys[k]); p; p = strstr(p + 1, keys[k])) {
            char *v = p + strlen(keys[k]);
            char *end = v + strcspn(v, ",}");
            memmove(v, end, strlen(end) + 1);
        }
}

#endif
