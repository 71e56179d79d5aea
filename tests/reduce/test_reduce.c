/* GPU reductions against their C twins on odd sizes, plus the documented tie and NaN
 * policy, and sums against a double-precision sum. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/rng.h"
#include "reduce/reduce.h"
#include "testutil.h"

#define SEED 77u

static float *random_data(int w, int h, int channels, uint32_t salt)
{
    float *d = malloc(sizeof(float) * (size_t)w * h * channels);
    for (int i = 0; i < w * h * channels; ++i)
        d[i] = glevo_rng_u01(glevo_philox4x32((uint32_t)i, salt, 0, 0, SEED, 2).v[0]) * 200.0f - 100.0f;
    return d;
}

/* Min/max run through both drivers: the fragment reducer's 2x2 passes and the compute
 * reducer's two dispatches (tests loop over _i = 0, 1). Sums are fragment only. */
static bool compute_driver;

static void gpu_result(int w, int h, gpu_format f, const float *data, reduce_op op, int channel,
                       float out[4])
{
    gpu_texture t;
    ck_assert(gpu_texture_create(&t, w, h, f, data) == GLEVO_OK);
    gpu_reducer r;
    bool compute = compute_driver && op != REDUCE_SUM;
    ck_assert_msg(gpu_reducer_create(&r, w, h, compute) == GLEVO_OK, "%s", glevo_last_error());
    const gpu_texture *res;
    ck_assert_msg(gpu_reduce(&r, op, &t, channel, &res) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(gpu_texture_read(res, out) == GLEVO_OK);
    gpu_reducer_destroy(&r);
    gpu_texture_destroy(&t);
}

/* 600 x 120: more than 256 groups of 256, so the compute reducer's grid-stride loop wraps. */
static const int sizes[][2] = {{1, 1}, {7, 5}, {1, 13}, {33, 1}, {61, 37}, {128, 64}, {129, 255},
                               {600, 120}};

START_TEST(min_max_equal_cpu_on_odd_sizes)
{
    testutil_context();
    compute_driver = _i;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        float *d = random_data(w, h, 4, (uint32_t)s);
        for (int op = REDUCE_MIN; op <= REDUCE_MAX; ++op)
            for (int ch = 0; ch < 4; ch += 3) {
                float g[4], c[4];
                gpu_result(w, h, GPU_RGBA32F, d, op, ch, g);
                cpu_reduce(op, d, w, h, 4, ch, c);
                for (int k = 0; k < 4; ++k)
                    ck_assert_msg(g[k] == c[k], "%dx%d op %d ch %d: GPU (%g,%g,%g) CPU (%g,%g,%g)",
                                  w, h, op, ch, g[0], g[1], g[2], c[0], c[1], c[2]);
                /* and the twin found the true extreme */
                int x = (int)c[1], y = (int)c[2];
                float v = d[((size_t)y * w + x) * 4 + ch];
                ck_assert(v == c[0]);
                for (int i = 0; i < w * h; ++i)
                    ck_assert(op == REDUCE_MIN ? d[i * 4 + ch] >= v : d[i * 4 + ch] <= v);
            }
        free(d);
    }
}
END_TEST

START_TEST(sum_equals_cpu_and_double)
{
    testutil_context();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int w = sizes[s][0], h = sizes[s][1];
        float *d = random_data(w, h, 4, 100u + (uint32_t)s);
        float g[4], c[4];
        gpu_result(w, h, GPU_RGBA32F, d, REDUCE_SUM, 0, g);
        cpu_reduce(REDUCE_SUM, d, w, h, 4, 0, c);
        for (int k = 0; k < 4; ++k) {
            double exact = 0, mag = 0;
            for (int i = 0; i < w * h; ++i) exact += d[i * 4 + k], mag += fabs(d[i * 4 + k]);
            ck_assert_msg(g[k] == c[k], "%dx%d channel %d: GPU %.9g CPU twin %.9g", w, h, k,
                          g[k], c[k]);
            ck_assert_msg(fabs(g[k] - exact) <= 1e-6 * mag + 1e-6, "%dx%d: %.9g vs %.9g", w, h,
                          g[k], exact);
        }
        free(d);
    }
}
END_TEST

START_TEST(single_channel_texture_sums_and_counts)
{
    testutil_context();
    const int w = 9, h = 7;
    float d[63];
    for (int i = 0; i < w * h; ++i) d[i] = (float)i;
    float g[4], c[4];
    gpu_result(w, h, GPU_R32F, d, REDUCE_SUM, 0, g);
    cpu_reduce(REDUCE_SUM, d, w, h, 1, 0, c);
    ck_assert_float_eq(g[0], 62.0f * 63.0f / 2.0f);
    ck_assert_float_eq(g[3], 63.0f); /* alpha reads 1 per texel: the count */
    for (int k = 0; k < 4; ++k) ck_assert_float_eq(g[k], c[k]);
}
END_TEST

START_TEST(ties_go_to_lowest_index_and_nan_never_wins)
{
    testutil_context();
    compute_driver = _i;
    const int w = 7, h = 5;
    float d[35];
    for (int i = 0; i < w * h; ++i) d[i] = 3.0f;
    d[2 * w + 4] = d[1 * w + 6] = d[4 * w + 0] = -1.0f; /* three equal minima */
    d[0] = NAN;
    d[3 * w + 3] = NAN;
    float g[4], c[4];
    gpu_result(w, h, GPU_R32F, d, REDUCE_MIN, 0, g);
    cpu_reduce(REDUCE_MIN, d, w, h, 1, 0, c);
    ck_assert_float_eq(g[0], -1.0f);
    ck_assert_msg(g[1] == 6.0f && g[2] == 1.0f, "min at (%g,%g), want lowest index (6,1)", g[1], g[2]);
    for (int k = 0; k < 4; ++k) ck_assert_float_eq(g[k], c[k]);
    gpu_result(w, h, GPU_R32F, d, REDUCE_MAX, 0, g);
    ck_assert_msg(g[0] == 3.0f && g[1] == 1.0f && g[2] == 0.0f, "max (%g at %g,%g)", g[0], g[1], g[2]);
    for (int i = 0; i < w * h; ++i) d[i] = NAN;
    gpu_result(w, h, GPU_R32F, d, REDUCE_MAX, 0, g);
    ck_assert_msg(isnan(g[0]) && g[1] == 0.0f && g[2] == 0.0f, "all-NaN: first texel");
}
END_TEST

START_TEST(keep_best_merges_history)
{
    testutil_context();
    gpu_reducer r;
    ck_assert(gpu_reducer_create(&r, 3, 3, false) == GLEVO_OK);
    const float cases[][2][4] = {
        {{5, 1, 1, 1}, {0, 0, 0, 0}}, /* empty history takes current */
        {{5, 1, 1, 1}, {4, 2, 2, 1}}, /* min: history is better */
        {{3, 1, 1, 1}, {4, 2, 2, 1}}, /* min: current is better */
        {{4, 1, 1, 1}, {4, 2, 2, 1}}, /* tie keeps the earlier find */
        {{NAN, 1, 1, 1}, {4, 2, 2, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gpu_texture cur, hin, hout;
        ck_assert(gpu_texture_create(&cur, 1, 1, GPU_RGBA32F, cases[i][0]) == GLEVO_OK);
        ck_assert(gpu_texture_create(&hin, 1, 1, GPU_RGBA32F, cases[i][1]) == GLEVO_OK);
        ck_assert(gpu_texture_create(&hout, 1, 1, GPU_RGBA32F, NULL) == GLEVO_OK);
        for (int op = REDUCE_MIN; op <= REDUCE_MAX; ++op) {
            ck_assert(gpu_reduce_keep_best(&r, op, &cur, &hin, &hout) == GLEVO_OK);
            float g[4], c[4];
            gpu_texture_read(&hout, g);
            cpu_reduce_keep_best(op, cases[i][0], cases[i][1], c);
            for (int k = 0; k < 4; ++k)
                ck_assert_msg(g[k] == c[k] || (isnan(g[k]) && isnan(c[k])), "case %zu op %d", i, op);
        }
        float c[4];
        cpu_reduce_keep_best(REDUCE_MIN, cases[2][0], cases[2][1], c);
        ck_assert_float_eq(c[0], 3.0f);
        gpu_texture_destroy(&cur), gpu_texture_destroy(&hin), gpu_texture_destroy(&hout);
    }
    gpu_reducer_destroy(&r);
}
END_TEST

/* The two-word keys that the subgroup reductions compare (better_key, shaders/reduce/
 * better.glsl) order texels as the C twin does, on this GPU, for min and max: every pair of
 * edge values (infinities, zeros of both signs, denormals, NaN, absent texels) at tied and
 * different positions. A GPU without subgroups never reduces by keys, but the keys are the
 * same GLSL everywhere. */
START_TEST(subgroup_keys_order_as_the_c_twin)
{
    testutil_context();
    const float values[] = {-INFINITY, -1e30f, -1.0f, -1e-40f, -0.0f, 0.0f, 1e-40f, 1.5f, 1e30f,
                            INFINITY, NAN, -NAN};
    const float positions[][2] = {{0, 0}, {3, 1}, {1, 3}, {2, 1}};
    enum { V = sizeof values / sizeof *values, P = sizeof positions / sizeof *positions, N = V * P + 2 };
    float texels[N][4];
    for (int i = 0; i < V * P; ++i) {
        texels[i][0] = values[i / P];
        texels[i][1] = positions[i % P][0], texels[i][2] = positions[i % P][1], texels[i][3] = 1;
    }
    memset(texels[V * P], 0, 2 * sizeof texels[0]); /* absent: (0, 0, 0, 0) and (1.5, 2, 1, 0) */
    texels[N - 1][0] = 1.5f, texels[N - 1][1] = 2, texels[N - 1][2] = 1;
    char dir[] = "/tmp/glevo-keys-XXXXXX", path[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/keys.glsl", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#include \"reduce/better.glsl\"\n"
               "layout(local_size_x = 1) in;\n"
               "layout(std430) buffer texels { vec4 t[]; };\n"
               "layout(std430) buffer verdicts { uint v[]; };\n"
               "void main()\n{\n"
               "    for (int i = 0; i < %d; ++i)\n"
               "        for (int j = 0; j < %d; ++j) {\n"
               "            uvec2 a = better_key(t[i]), b = better_key(t[j]);\n"
               "            v[i * %d + j] = uint(a.x < b.x || (a.x == b.x && a.y < b.y));\n"
               "        }\n}\n", N, N, N);
    fclose(f);
    /* Both builds before any check, so that a failing check leaves no file behind. */
    gpu_program progs[2];
    glevo_status built[2];
    const gpu_slot buffers[] = {{"texels", 0}, {"verdicts", 0}, {0}};
    for (int op = REDUCE_MIN; op <= REDUCE_MAX; ++op)
        built[op] = gpu_program_build(&progs[op], &(gpu_program_desc){
                        .name = "test.keys", .compute = path, .buffers = buffers,
                        .defines = op == REDUCE_MAX ? "#define REDUCE_MAX 1\n" : ""});
    unlink(path);
    rmdir(dir);
    for (int op = REDUCE_MIN; op <= REDUCE_MAX; ++op) {
        ck_assert_msg(built[op] == GLEVO_OK, "%s", glevo_last_error());
        gpu_buffer in, out;
        ck_assert(gpu_buffer_create(&in, sizeof texels, texels) == GLEVO_OK);
        ck_assert(gpu_buffer_create(&out, sizeof(uint32_t) * N * N, NULL) == GLEVO_OK);
        gpu_pass pass = {.name = "test.keys", .program = &progs[op], .groups = {1, 1, 1}};
        gpu_pass_buffer(&pass, 0, &in);
        gpu_pass_buffer(&pass, 1, &out);
        ck_assert_msg(gpu_pass_dispatch(&pass) == GLEVO_OK, "%s", glevo_last_error());
        static uint32_t verdicts[N * N];
        ck_assert(gpu_buffer_read(&out, 0, sizeof verdicts, verdicts) == GLEVO_OK);
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j)
                ck_assert_msg((int)verdicts[i * N + j] == cpu_better((reduce_op)op, texels[i], texels[j]),
                              "op %d: (%g, %g, %g, %g) before (%g, %g, %g, %g): GPU keys %u, C twin %d",
                              op, texels[i][0], texels[i][1], texels[i][2], texels[i][3],
                              texels[j][0], texels[j][1], texels[j][2], texels[j][3],
                              verdicts[i * N + j], cpu_better((reduce_op)op, texels[i], texels[j]));
        gpu_buffer_destroy(&in), gpu_buffer_destroy(&out);
        gpu_program_destroy(&progs[op]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create("reduce");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, min_max_equal_cpu_on_odd_sizes, 0, 2);
    tcase_add_test(tc, sum_equals_cpu_and_double);
    tcase_add_test(tc, single_channel_texture_sums_and_counts);
    tcase_add_loop_test(tc, ties_go_to_lowest_index_and_nan_never_wins, 0, 2);
    tcase_add_test(tc, keep_best_merges_history);
    tcase_add_test(tc, subgroup_keys_order_as_the_c_twin);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
