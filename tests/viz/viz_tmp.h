/* The folder a viz test writes its pictures in: /tmp/glevo-test-NAME-XXXXXX, made by the
 * suite's fixture and removed after it (test_chart.c, test_snapshot.c). Included by one test
 * each. */
#ifndef GLEVO_TESTS_VIZ_TMP_H
#define GLEVO_TESTS_VIZ_TMP_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

static char tmpdir[256];

static inline void viz_tmpdir_make(const char *name)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/glevo-test-%s-XXXXXX", name);
    ck_assert(mkdtemp(tmpdir) != NULL);
}

static inline void viz_tmpdir_remove(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    testutil_run(cmd, NULL, 0);
}
#endif
