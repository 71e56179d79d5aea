/* The dsm and dsmga commands: malformed population files give a one-line error naming the
 * line and exit 2; the matrix printed equals the C twin on every backend; dsmga --json carries
 * the contract, and a --backend compute run evaluates exactly as the CPU engine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    const char *backends[] = {"cpu", "fragment", "compute"};
    for (int b = 0; b < 3; ++b) {
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
    /* the same run with the model built by compute dispatches: the same evaluations */
    const char *nfe = strstr(out, "\"nfe\":");
    long long cpu_nfe = atoll(nfe + 6);
    snprintf(cmd, sizeof cmd, "%s dsmga --problem trap --ell 30 --pop 200 --model lossy --seed 3 "
             "--backend compute --json", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"backend\":\"compute\"") != NULL, "%s", out);
    ck_assert_ptr_nonnull(nfe = strstr(out, "\"nfe\":"));
    ck_assert_int_eq(atoll(nfe + 6), cpu_nfe);
    snprintf(cmd, sizeof cmd, "%s dsmga --problem trap --ell 33 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_ptr_nonnull(strstr(out, "33"));
}
END_TEST

/* Field `name` of CSV row `row` (1 = first data row) in text, copied to buf ("" if absent). */
static const char *csv_field(const char *text, int row, const char *name, char *buf, size_t size)
{
    char line[4096];
    int col = -1;
    buf[0] = '\0';
    for (int r = 0; r <= row && *text; ++r) {
        size_t len = strcspn(text, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, text);
        text += len + (text[len] == '\n');
        int c = 0;
        for (char *save = NULL, *f = strtok_r(line, ",", &save); f; f = strtok_r(NULL, ",", &save), ++c) {
            if (r == 0 && !strcmp(f, name)) col = c;
            if (r == row && r > 0 && c == col) snprintf(buf, size, "%s", f);
        }
    }
    return buf;
}

/* bench dsmga with two GPU backends: a row each, the CPU columns once, and lossless runs on
 * either backend evaluate exactly as the CPU engine. */
START_TEST(bench_dsmga_backends)
{
    char dir[] = "/tmp/glevo-bench-dsmga-XXXXXX", cmd[512], path[600], buf[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "%s bench dsmga --problems ftrap --ells 30 --pop 60 --runs 2 "
             "--backend fragment,compute --out %s --name t 2>&1", testutil_cli(), dir);
    ck_assert_msg(testutil_run(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(path, sizeof path, "%s/t.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char csv[1 << 14];
    csv[fread(csv, 1, sizeof csv - 1, f)] = '\0';
    fclose(f);
    const char *want[] = {"fragment", "compute"};
    for (int r = 1; r <= 2; ++r) {
        ck_assert_str_eq(csv_field(csv, r, "backend", buf, sizeof buf), want[r - 1]);
        ck_assert_msg(!strcmp(csv_field(csv, r, "same_nfe_original_lossless", buf, sizeof buf), "2"),
                      "%s: %s of 2 lossless runs with the CPU's NFE\n%s", want[r - 1], buf, csv);
    }
    ck_assert_str_eq(csv_field(csv, 3, "backend", buf, sizeof buf), "");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s bench dsmga --backend compute,compute 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "compute,compute") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
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
    tcase_add_test(tc, bench_dsmga_backends);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
