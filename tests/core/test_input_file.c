/* Input caps (issue 12, defect 7): endless or binary input given as a dataset, program file or
 * population ends at once in a one-line error naming the file, never in unbounded memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_file.h"
#include "glevo/dsmga.h"
#include "glevo/gp.h"
#include "testutil.h"

START_TEST(cap_and_binary_check)
{
    const char *path = testutil_write_tmp("0123456789abcdef0123456789abcdef");
    char *text = NULL;
    size_t len = 0;
    ck_assert_int_eq(input_read_text(path, "test file", 32, &text, &len), GLEVO_OK);
    ck_assert_uint_eq(len, 32);
    ck_assert_str_eq(text, "0123456789abcdef0123456789abcdef");
    free(text);
    ck_assert_int_eq(input_read_text(path, "test file", 31, &text, &len), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(text);
    ck_assert_msg(strstr(glevo_last_error(), path), "%s", glevo_last_error());
    remove(path);
    ck_assert_int_eq(input_read_text("/tmp", "test file", 1 << 20, &text, &len), GLEVO_ERR_INVALID);
    ck_assert_int_eq(input_read_text("/nonexistent/x", "test file", 1 << 20, &text, &len),
                     GLEVO_ERR_INVALID);
}
END_TEST

START_TEST(dev_zero_as_every_input)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_load_csv("/dev/zero", NULL, &d), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "/dev/zero"), "%s", glevo_last_error());
    uint8_t *bits = NULL;
    int n, ell;
    ck_assert_int_eq(glevo_dsm_population_read("/dev/zero", &bits, &n, &ell), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "/dev/zero"), "%s", glevo_last_error());
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_load(p, "/dev/zero", 0), GLEVO_ERR_INVALID);
    glevo_gp_programs_destroy(p);
}
END_TEST

static int run_cli(const char *args, char *out, size_t size)
{
    char cmd[1400];
    /* The old readers grew until malloc failed (no address-space limit here: ASan needs one
     * far larger than any sane limit). */
    snprintf(cmd, sizeof cmd, "timeout 60 %s %s 2>&1", testutil_cli(), args);
    return testutil_run(cmd, out, size);
}

START_TEST(cli_dev_zero)
{
    char out[4096], args[1024];
    const char *csv = testutil_write_tmp("x,y\n1,2\n3,4\n");
    static const char *const forms[] = {"gp --backend cpu --generations 1 --data /dev/zero",
                                        "gp-eval --backend cpu --data %s --programs /dev/zero",
                                        "dsm --backend cpu --population /dev/zero"};
    for (int i = 0; i < 3; ++i) {
        snprintf(args, sizeof args, forms[i], csv);
        ck_assert_int_eq(run_cli(args, out, sizeof out), 2);
        ck_assert_msg(strstr(out, "binary") && strchr(out, '\n') == out + strlen(out) - 1,
                      "%s: %s", args, out);
    }
    remove(csv);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("input_file");
    TCase *tc = tcase_create("input_file");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cap_and_binary_check);
    tcase_add_test(tc, dev_zero_as_every_input);
    tcase_add_test(tc, cli_dev_zero);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
