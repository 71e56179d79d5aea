/* The glevo command's contract: info names the renderer, --help and --version work, and bad
 * input gets one line on stderr with exit status 2. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static int run(const char *args, char *out, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", testutil_cli(), args);
    return testutil_run(cmd, out, size);
}

START_TEST(info_json_names_renderer)
{
    char out[8192];
    ck_assert_int_eq(run("info --json", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "\"renderer\":\""), "%s", out);
    ck_assert_msg(strstr(out, "\"egl_device_count\":"), "%s", out);
    ck_assert_msg(out[0] == '{' && strchr(out, '\n') == strrchr(out, '\n'), "not one object: %s", out);
}
END_TEST

START_TEST(help_and_version)
{
    char out[8192];
    ck_assert_int_eq(run("--version", out, sizeof out), 0);
    ck_assert_msg(!strncmp(out, "glevo ", 6), "%s", out);
    ck_assert_int_eq(run("--help", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "cga") && strstr(out, "bench"), "%s", out);
    ck_assert_int_eq(run("info --help", out, sizeof out), 0);
    ck_assert_msg(strstr(out, "--device"), "%s", out);
}
END_TEST

START_TEST(bad_input_is_one_line_exit_2)
{
    char out[8192];
    ck_assert_int_eq(run("frobnicate 2>&1", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "frobnicate"), "%s", out);
    ck_assert_int_eq(run("info --nonsense 2>&1", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--nonsense") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    ck_assert_int_eq(run("info --device 99 2>&1", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "99"), "%s", out);
    ck_assert_int_eq(run("info --device x 2>&1", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "'x'"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, info_json_names_renderer);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, bad_input_is_one_line_exit_2);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
