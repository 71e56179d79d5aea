/* Float-coded bit operations (2008 paper) against integer C code: the C twin exhaustively
 * over bit positions on random values, and the GLSL pass against the same integer results. */
#include <stdlib.h>

#include "gl/gpgpu.h"
#include "glevo/bits.h"
#include "glevo/rng.h"
#include "testutil.h"

#define SEED 2008u

static uint32_t random24(uint32_t i, uint32_t k)
{
    return glevo_philox4x32(i, k, 0, 0, SEED, 1).v[0] & 0xFFFFFFu;
}

/* Integer references. */
static uint32_t low_bits(uint32_t v, int p) { return p >= 24 ? v : v & ((1u << p) - 1u); }
static uint32_t splice(uint32_t lo, uint32_t hi, int p) { return low_bits(lo, p) | (hi & ~low_bits(0xFFFFFFu, p) & 0xFFFFFFu); }

START_TEST(c_twin_equals_integer_ops)
{
    for (uint32_t n = 0; n < 4000; ++n) {
        uint32_t v = random24(n, 0), w = random24(n, 1);
        if (n == 0) v = 0, w = 0xFFFFFFu; /* the extremes too */
        for (int i = 0; i < 24; ++i) {
            uint32_t bit = (v >> i) & 1u;
            ck_assert_msg(glevo_fbit_get((float)v, i) == (float)bit, "get v=%06x i=%d", v, i);
            ck_assert_msg(glevo_fbit_set((float)v, i, 1.0f) == (float)(v | (1u << i)),
                          "set1 v=%06x i=%d", v, i);
            ck_assert_msg(glevo_fbit_set((float)v, i, 0.0f) == (float)(v & ~(1u << i)),
                          "set0 v=%06x i=%d", v, i);
            ck_assert_msg(glevo_fbit_flip((float)v, i) == (float)(v ^ (1u << i)),
                          "flip v=%06x i=%d", v, i);
        }
        for (int p = 0; p <= 24; ++p) {
            ck_assert_msg(glevo_fbits_low((float)v, p) == (float)low_bits(v, p),
                          "low v=%06x p=%d", v, p);
            ck_assert_msg(glevo_fbits_splice((float)v, (float)w, p) == (float)splice(v, w, p),
                          "splice v=%06x w=%06x p=%d", v, w, p);
        }
    }
}
END_TEST

START_TEST(glsl_equals_integer_ops)
{
    testutil_context();
    const int w = 97, h = 23; /* odd on purpose; every (i, p) pair appears many times */
    float *values = malloc(sizeof(float) * 4 * w * h), *args = malloc(sizeof(float) * 4 * w * h);
    for (int t = 0; t < w * h; ++t) {
        values[4 * t] = (float)random24((uint32_t)t, 2);
        values[4 * t + 1] = (float)random24((uint32_t)t, 3);
        values[4 * t + 2] = values[4 * t + 3] = 0;
        args[4 * t] = (float)(t % 24);
        args[4 * t + 1] = (float)((t / 24) % 2);
        args[4 * t + 2] = (float)(t % 25);
        args[4 * t + 3] = 0;
    }
    gpu_texture tv, ta, out0, out1;
    ck_assert(gpu_texture_create(&tv, w, h, GPU_RGBA32F, values) == GLEVO_OK);
    ck_assert(gpu_texture_create(&ta, w, h, GPU_RGBA32F, args) == GLEVO_OK);
    ck_assert(gpu_texture_create(&out0, w, h, GPU_RGBA32F, NULL) == GLEVO_OK);
    ck_assert(gpu_texture_create(&out1, w, h, GPU_RGBA32F, NULL) == GLEVO_OK);
    gpu_program prog;
    static const gpu_slot samplers[] = {{"t_values", 0}, {"t_args", 0}, {0}};
    ck_assert_msg(gpu_program_build(&prog, &(gpu_program_desc){.name = "test.fbits",
                                    .fragment = "bits/test_ops.glsl",
                                    .samplers = samplers}) == GLEVO_OK,
                  "%s", glevo_last_error());
    gpu_pass p = {.name = "test.fbits", .program = &prog};
    gpu_pass_input(&p, 0, &tv);
    gpu_pass_input(&p, 1, &ta);
    gpu_pass_target(&p, &out0);
    gpu_pass_target(&p, &out1);
    ck_assert_msg(gpu_pass_draw(&p) == GLEVO_OK, "%s", glevo_last_error());
    float *r0 = malloc(sizeof(float) * 4 * w * h), *r1 = malloc(sizeof(float) * 4 * w * h);
    ck_assert(gpu_texture_read(&out0, r0) == GLEVO_OK);
    ck_assert(gpu_texture_read(&out1, r1) == GLEVO_OK);
    for (int t = 0; t < w * h; ++t) {
        uint32_t v = (uint32_t)values[4 * t], x = (uint32_t)values[4 * t + 1];
        int i = (int)args[4 * t], b = (int)args[4 * t + 1], q = (int)args[4 * t + 2];
        uint32_t set = b ? v | (1u << i) : v & ~(1u << i);
        ck_assert_msg(r0[4 * t] == (float)((v >> i) & 1u), "get texel %d v=%06x i=%d", t, v, i);
        ck_assert_msg(r0[4 * t + 1] == (float)set, "set texel %d v=%06x i=%d b=%d", t, v, i, b);
        ck_assert_msg(r0[4 * t + 2] == (float)(v ^ (1u << i)), "flip texel %d", t);
        ck_assert_msg(r0[4 * t + 3] == (float)low_bits(v, q), "low texel %d p=%d", t, q);
        ck_assert_msg(r1[4 * t] == (float)splice(v, x, q), "splice texel %d p=%d", t, q);
        ck_assert_msg(r1[4 * t + 1] == (float)splice(x, v, q), "splice' texel %d p=%d", t, q);
    }
    free(values), free(args), free(r0), free(r1);
    gpu_texture_destroy(&tv), gpu_texture_destroy(&ta);
    gpu_texture_destroy(&out0), gpu_texture_destroy(&out1);
    gpu_program_destroy(&prog);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bits");
    TCase *tc = tcase_create("fbits");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, c_twin_equals_integer_ops);
    tcase_add_test(tc, glsl_equals_integer_ops);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
