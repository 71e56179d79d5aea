/* glevo_context_sm_usage (src/gl/sm_probe.c): where the driver names the multiprocessor an
 * invocation runs on (NVIDIA's GL_NV_shader_thread_group), a render pass and a compute
 * dispatch each ran on at least one and at most all of them, and the compute dispatch's
 * 4096 work-groups on every one (a data-centre GPU may shade pixels on only a few: the H200's
 * render passes ran on 4 of 132); elsewhere (llvmpipe) nothing is reported and nothing fails.
 * NULL arguments are refused as every public function refuses them. */
#include <string.h>

#include "gl/context_internal.h"
#include "gl/gpgpu.h"
#include "testutil.h"

START_TEST(probe_counts_or_says_not)
{
    glevo_context *ctx = testutil_context();
    glevo_sm_usage u;
    memset(&u, 0x5a, sizeof u);
    ck_assert_int_eq(glevo_context_sm_usage(ctx, &u), GLEVO_OK);
    if (!ctx->limits.sm_ids) {
        ck_assert(!u.reported);
        ck_assert_int_eq(u.sm_count, 0);
        ck_assert_int_eq(u.fragment_sms, 0);
        ck_assert_int_eq(u.compute_sms, 0);
        return;
    }
    ck_assert(u.reported);
    ck_assert_int_ge(u.sm_count, 1);
    ck_assert_int_ge(u.fragment_sms, 1);
    ck_assert_int_le(u.fragment_sms, u.sm_count);
    if (ctx->limits.compute) ck_assert_int_eq(u.compute_sms, u.sm_count);
}
END_TEST

START_TEST(probe_refuses_null)
{
    glevo_context *ctx = testutil_context();
    glevo_sm_usage u;
    ck_assert_int_eq(glevo_context_sm_usage(NULL, &u), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_context_sm_usage(ctx, NULL), GLEVO_ERR_INVALID);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sm_probe");
    TCase *tc = tcase_create("sm_probe");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, probe_counts_or_says_not);
    tcase_add_test(tc, probe_refuses_null);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
