/* The dsm and dsmga commands: malformed population files give a one-line error naming the
 * line and exit 2; the matrix printed equals the C twin; dsmga --json carries the contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/dsmga.h"
#include "testutil.h"

static char out[1 << 16];

static void expect_bad(const char *text, const char *needle)
{
    const char *path = testutil_write_tmp(text);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s dsm --population %s --backend cpu 2>&1", testutil_cli(), path);
    int rc = testutil_run(cmd, out, sizeof out);
    ck_assert_msg(rc == 2, "%s: exit %d, output %s", cmd, rc, out);
    ck_assert_msg(strstr(out, needle) != NULL, "'%s' lacks '%s'", out, needle);
    ck_assert_msg(strchr(out, '\n') == strrchr(out, '\n'), "more than one line: %s", out);
    remove(path);
}

START_TEST(dsm_malformed_files)
{
    expect_bad("0101\n0110\n011\n", "line 3");
    expect_bad("0101\n0120\n", "line 2");
    expect_bad("", "empty");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s dsm --population /nonexistent/pop.txt 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
}
END_TEST

START_TEST(dsm_prints_matrix)
{
    const char *text = "00110\n01011\n11000\n10101\n00111\n";
    const char *path = testutil_write_tmp(text);
    uint8_t *bits;
    int n, ell;
    ck_assert_int_eq(glevo_dsm_population_read(path, &bits, &n, &ell), GLEVO_OK);
    uint32_t rows[5];
    float mi[25];
    glevo_dsm_pack(bits, n, ell, rows);
    glevo_dsm_mi_cpu(rows, n, ell, mi);
    free(bits);
    const char *backends[] = {"cpu", "fragment"};
    for (int b = 0; b < 2; ++b) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s dsm --population %s --backend %s", testutil_cli(), path, backends[b]);
        ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
        char *p = out;
        for (int i = 0; i < 25; ++i) {
            char *end;
            double v = strtod(p, &end);
            ck_assert_msg(end != p, "%s: only %d numbers in: %s", backends[b], i, out);
            ck_assert_msg(fabs(v - mi[i]) < 1e-6, "%s entry %d: %g vs %g", backends[b], i, v, mi[i]);
            p = end;
        }
    }
    remove(path);
}
END_TEST

START_TEST(dsmga_json)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s dsmga --problem trap --ell 30 --pop 200 --model lossy --seed 3 "
             "--backend cpu --json", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    const char *keys[] = {"\"algorithm\":\"dsmga2\"", "\"solved\":true", "\"nfe\":", "\"dsm_ms\":",
                          "\"ils_ms\":", "\"best_x\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
                          "\"evaluations\":", "\"generations\":", "\"renderer\":", "\"seed\":3"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        ck_assert_msg(strstr(out, keys[i]) != NULL, "no %s in %s", keys[i], out);
    snprintf(cmd, sizeof cmd, "%s dsmga --problem trap --ell 33 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_ptr_nonnull(strstr(out, "33"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dsmga_cli");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dsm_malformed_files);
    tcase_add_test(tc, dsm_prints_matrix);
    tcase_add_test(tc, dsmga_json);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
