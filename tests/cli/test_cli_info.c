/* glevo info reports what compute shaders can use (issue 23, item 11: the README promised it):
 * support with the GL version, work-group count, size and invocations, shared memory and the
 * largest SSBO, in text and --json, equal to what glevo_context_features says on the test's
 * own context (the default device, llvmpipe on CI); and where render passes and compute
 * dispatches run (the GPU's multiprocessors), as glevo_context_sm_usage says. */
#include <stdio.h>
#include <string.h>

#include "glevo/context.h"
#include "testutil.h"

START_TEST(info_reports_compute_limits)
{
    glevo_context *ctx = testutil_context();
    glevo_features f;
    glevo_context_features(ctx, &f);
    glevo_device_info d;
    glevo_context_describe(ctx, &d);
    char cmd[1024], out[1 << 15], want[512];
    snprintf(cmd, sizeof cmd, "%s info --json --device %d", testutil_cli(), d.index);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "\"compute\":{\"supported\":%s,\"gl_version\":\"%d.%d\"",
             f.compute ? "true" : "false", f.gl_major, f.gl_minor);
    ck_assert_msg(strstr(out, want), "want %s in %s", want, out);
    if (f.compute) {
        snprintf(want, sizeof want, "\"max_work_group_count\":[%d,%d,%d],\"max_work_group_size\":"
                 "[%d,%d,%d],\"max_work_group_invocations\":%d,\"max_shared_memory_bytes\":%d,"
                 "\"max_ssbo_bytes\":%lld,\"subgroup_size\":%d}", f.max_work_group_count[0],
                 f.max_work_group_count[1], f.max_work_group_count[2], f.max_work_group_size[0],
                 f.max_work_group_size[1], f.max_work_group_size[2], f.max_work_group_invocations,
                 f.max_shared_bytes, f.max_ssbo_bytes, f.subgroup_size);
        ck_assert_msg(strstr(out, want), "want %s in %s", want, out);
        /* GL 4.3's guaranteed minimums: a zero means the query went wrong. */
        ck_assert_int_ge(f.max_work_group_invocations, 1024);
        ck_assert_int_ge(f.max_shared_bytes, 32768);
        ck_assert(f.max_ssbo_bytes >= (1LL << 24));
        ck_assert_int_ge(f.max_work_group_count[0], 65535);
        /* A subgroup is a power of two where there are subgroups. */
        ck_assert(f.subgroup_size >= 0 && (f.subgroup_size & (f.subgroup_size - 1)) == 0);
    }
    snprintf(cmd, sizeof cmd, "%s info --device %d", testutil_cli(), d.index);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "compute shaders:") && (!f.compute || strstr(out, "SSBO size:")), "%s", out);
}
END_TEST

/* The multiprocessor line says what glevo_context_sm_usage says on the test's own context:
 * counts where the driver reports them (NVIDIA), "not reported" where it does not. */
START_TEST(info_reports_where_passes_run)
{
    glevo_context *ctx = testutil_context();
    glevo_sm_usage u;
    ck_assert_int_eq(glevo_context_sm_usage(ctx, &u), GLEVO_OK);
    char cmd[1024], out[1 << 15], want[256];
    snprintf(cmd, sizeof cmd, "%s info --json", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    if (u.reported)
        snprintf(want, sizeof want, "\"multiprocessors\":{\"reported\":true,\"count\":%d,"
                 "\"render_passes\":%d,\"compute_dispatches\":%d}", u.sm_count, u.fragment_sms,
                 u.compute_sms);
    else
        snprintf(want, sizeof want, "\"multiprocessors\":{\"reported\":false}");
    ck_assert_msg(strstr(out, want), "want %s in %s", want, out);
    snprintf(cmd, sizeof cmd, "%s info", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    if (u.reported)
        snprintf(want, sizeof want, "multiprocessors: %d; render passes ran on %d, compute "
                 "dispatches on %d\n", u.sm_count, u.fragment_sms, u.compute_sms);
    else
        snprintf(want, sizeof want, "multiprocessors: not reported by this driver");
    ck_assert_msg(strstr(out, want), "want %s in %s", want, out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_info");
    TCase *tc = tcase_create("cli_info");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, info_reports_compute_limits);
    tcase_add_test(tc, info_reports_where_passes_run);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
