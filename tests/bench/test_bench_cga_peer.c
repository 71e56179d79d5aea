/* glevo bench cga --peer (issue 25): the compute backend timed beside a peer's JSON lines,
 * grid by grid, into a table, a long-format CSV and its picture; a malformed peer file is bad
 * input naming the line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16];

START_TEST(peer_beside_glevo)
{
    char dir[] = "/tmp/glevo-bench-peer-XXXXXX", cmd[2048], path[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/jax.jsonl", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"peer\": \"jax-cga\", \"width\": 8, \"height\": 4, \"generations\": 3, "
               "\"seconds\": 0.012, \"best\": -1.0}\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s bench cga --peer %s --out %s/t --runs 1 --backend compute "
             "--quiet >/dev/null && ls %s/t && cat %s/t/cga_peer.csv", testutil_cli(), path,
             dir, dir, dir);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "cga_peer.csv\ncga_peer.md\ncga_peer.png\nseries,x,y\n"), "%s", out);
    /* the peer's 0.012 s over 3 generations of 32 individuals: 4000 us a generation */
    ck_assert_msg(strstr(out, "\npeer,32,4000.000\n"), "%s", out);
    ck_assert_msg(strstr(out, "\nglevo compute blocked,32,") &&
                  strstr(out, "\nglevo compute one a dispatch,32,"), "%s", out);

    f = fopen(path, "w");
    fprintf(f, "{\"width\": 8, \"height\": 4, \"generations\": 3}\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s bench cga --peer %s --backend compute 2>&1", testutil_cli(), path);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "line 1") && strstr(out, "seconds"), "%s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bench_cga_peer");
    TCase *tc = tcase_create("bench_cga_peer");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, peer_beside_glevo);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
