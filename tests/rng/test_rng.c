/* Philox twins: known answers from Random123, GLSL == C over many counters, and a
 * statistical sanity check of the uniform floats. */
#include <math.h>
#include <stdlib.h>

#include "gl/gpgpu.h"
#include "glevo/rng.h"
#include "glevo/rng_source.h"
#include "testutil.h"

/* The pass blocks of shaders/rng/test_stream.glsl and test_source.glsl (std140). */
typedef struct stream_uniforms { uint32_t key[2], generation, pass, draw, width, pad[2]; } stream_uniforms;
typedef struct source_uniforms {
    uint32_t offset[4], key[2], generation, pass, draw, width, pad[2];
} source_uniforms;

START_TEST(philox_known_answers)
{
    /* Random123's kat_vectors for philox4x32_10. */
    glevo_u32x4 a = glevo_philox4x32(0, 0, 0, 0, 0, 0);
    ck_assert_uint_eq(a.v[0], 0x6627e8d5u);
    ck_assert_uint_eq(a.v[1], 0xe169c58du);
    ck_assert_uint_eq(a.v[2], 0xbc57ac4cu);
    ck_assert_uint_eq(a.v[3], 0x9b00dbd8u);
    glevo_u32x4 b = glevo_philox4x32(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                     0xffffffffu, 0xffffffffu);
    ck_assert_uint_eq(b.v[0], 0x408f276du);
    ck_assert_uint_eq(b.v[1], 0x41c83b0eu);
    ck_assert_uint_eq(b.v[2], 0xa20bc7c6u);
    ck_assert_uint_eq(b.v[3], 0x6d5451fdu);
    glevo_u32x4 c = glevo_philox4x32(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u,
                                     0xa4093822u, 0x299f31d0u);
    ck_assert_uint_eq(c.v[0], 0xd16cfe09u);
    ck_assert_uint_eq(c.v[1], 0x94fdccebu);
    ck_assert_uint_eq(c.v[2], 0x5001e420u);
    ck_assert_uint_eq(c.v[3], 0x24126ea1u);
}
END_TEST

/* 61 x 37 texels, 4 words each: counter = (texel, generation, pass, draw). */
START_TEST(glsl_stream_equals_c_stream)
{
    testutil_context();
    const int w = 61, h = 37;
    const uint32_t seed = 20261123u, stream = 7u, generation = 12345u, pass = 3u;
    gpu_program prog;
    stream_uniforms u;
    ck_assert_msg(gpu_program_build(&prog, &(gpu_program_desc){.name = "test.rng",
                                    .fragment = "rng/test_stream.glsl",
                                    .uniform_size = sizeof u}) == GLEVO_OK,
                  "%s", glevo_last_error());
    gpu_texture bits, floats;
    ck_assert(gpu_texture_create(&bits, w, h, GPU_RGBA32UI, NULL) == GLEVO_OK);
    ck_assert(gpu_texture_create(&floats, w, h, GPU_RGBA32F, NULL) == GLEVO_OK);
    for (uint32_t draw = 0; draw < 3; ++draw) {
        gpu_pass p = {.name = "test.rng", .program = &prog};
        gpu_pass_target(&p, &bits);
        gpu_pass_target(&p, &floats);
        u = (stream_uniforms){{seed, stream}, generation, pass, draw, (uint32_t)w, {0, 0}};
        gpu_pass_uniforms(&p, &u, sizeof u);
        ck_assert_msg(gpu_pass_draw(&p) == GLEVO_OK, "%s", glevo_last_error());
        uint32_t *got = malloc(sizeof(uint32_t) * 4 * w * h);
        float *got_f = malloc(sizeof(float) * 4 * w * h);
        ck_assert(gpu_texture_read(&bits, got) == GLEVO_OK);
        ck_assert(gpu_texture_read(&floats, got_f) == GLEVO_OK);
        for (int i = 0; i < w * h; ++i) {
            glevo_u32x4 want = glevo_philox4x32((uint32_t)i, generation, pass, draw, seed, stream);
            for (int k = 0; k < 4; ++k) {
                ck_assert_msg(got[4 * i + k] == want.v[k],
                              "texel %d word %d draw %u: GLSL %08x, C %08x (seed %u)", i, k,
                              draw, got[4 * i + k], want.v[k], seed);
                ck_assert_msg(got_f[4 * i + k] == glevo_rng_u01(want.v[k]),
                              "texel %d word %d: rng_u01 differs", i, k);
            }
            ck_assert_uint_eq(glevo_rng_below(want.v[0], 9u), (uint32_t)(((uint64_t)want.v[0] * 9u) >> 32));
        }
        free(got);
        free(got_f);
    }
    gpu_texture_destroy(&bits);
    gpu_texture_destroy(&floats);
    gpu_program_destroy(&prog);
}
END_TEST

START_TEST(uniform_floats_are_uniform)
{
    /* 64 bins over 2^18 draws: chi-square with 63 degrees of freedom stays below 110 with
     * probability > 0.9997; bit balance of every bit within 4.5 sigma. */
    enum { N = 1 << 18, BINS = 64 };
    long bins[BINS] = {0};
    long ones[32] = {0};
    for (uint32_t i = 0; i < N / 4; ++i) {
        glevo_u32x4 r = glevo_philox4x32(i, 0, 0, 0, 42u, 0);
        for (int k = 0; k < 4; ++k) {
            float u = glevo_rng_u01(r.v[k]);
            ck_assert(u >= 0.0f && u < 1.0f);
            bins[(int)(u * BINS)]++;
            for (int b = 0; b < 32; ++b) ones[b] += (r.v[k] >> b) & 1u;
        }
    }
    double chi2 = 0, expect = (double)N / BINS;
    for (int b = 0; b < BINS; ++b) chi2 += (bins[b] - expect) * (bins[b] - expect) / expect;
    ck_assert_msg(chi2 < 110.0, "chi-square %.1f over 63 degrees of freedom", chi2);
    double sigma = sqrt(N * 0.25);
    for (int b = 0; b < 32; ++b)
        ck_assert_msg(fabs(ones[b] - N / 2.0) < 4.5 * sigma, "bit %d set %ld of %d times", b,
                      ones[b], N);
}
END_TEST

START_TEST(random_texture_scheme_fills_unit_interval)
{
    enum { SIDE = 64 };
    float *table = malloc(sizeof(float) * SIDE * SIDE);
    glevo_rng_texture_fill(table, SIDE, 5u);
    double mean = 0;
    for (int i = 0; i < SIDE * SIDE; ++i) {
        ck_assert(table[i] >= 0.0f && table[i] < 1.0f);
        mean += table[i];
    }
    mean /= SIDE * SIDE;
    ck_assert_msg(fabs(mean - 0.5) < 0.02, "mean %.4f", mean);
    free(table);
}
END_TEST

/* Both sources, GLSL against C, over two generations and several draws. */
START_TEST(rng_source_glsl_equals_c)
{
    testutil_context();
    const int w = 45, h = 29;
    for (int mode = GLEVO_RNG_PHILOX; mode <= GLEVO_RNG_TEXTURE; ++mode) {
        glevo_rng_source src;
        ck_assert(glevo_rng_source_init(&src, mode, 99u, 3u) == GLEVO_OK);
        gpu_program prog;
        source_uniforms u;
        static const gpu_slot table_slot[] = {{"t_random_table", 0}, {0}};
        ck_assert_msg(gpu_program_build(&prog, &(gpu_program_desc){
                          .name = "test.rng_source", .fragment = "rng/test_source.glsl",
                          .defines = mode ? "#define RNG_TEXTURE 1\n" : NULL,
                          .samplers = table_slot, .uniform_size = sizeof u}) == GLEVO_OK,
                      "%s", glevo_last_error());
        gpu_texture table, out;
        if (mode)
            ck_assert(gpu_texture_create(&table, GLEVO_RNG_TABLE_SIDE, GLEVO_RNG_TABLE_SIDE,
                                         GPU_RGBA32UI, src.table) == GLEVO_OK);
        ck_assert(gpu_texture_create(&out, w, h, GPU_RGBA32UI, NULL) == GLEVO_OK);
        uint32_t *got = malloc(sizeof(uint32_t) * 4 * w * h);
        for (uint32_t gen = 5; gen < 7; ++gen) {
            glevo_rng_source_set_generation(&src, gen);
            for (uint32_t draw = 0; draw < 3; ++draw) {
                gpu_pass p = {.name = "test.rng_source", .program = &prog};
                if (mode) gpu_pass_input(&p, 0, &table);
                gpu_pass_target(&p, &out);
                u = (source_uniforms){{src.offset[0], src.offset[1], src.offset[2], src.offset[3]},
                                {src.seed, src.stream}, gen, 4u, draw, (uint32_t)w, {0, 0}};
                gpu_pass_uniforms(&p, &u, sizeof u);
                ck_assert_msg(gpu_pass_draw(&p) == GLEVO_OK, "%s", glevo_last_error());
                ck_assert(gpu_texture_read(&out, got) == GLEVO_OK);
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        glevo_u32x4 want = glevo_rng_words(&src, (uint32_t)x, (uint32_t)y,
                                                           (uint32_t)(y * w + x), 4u, draw);
                        for (int k = 0; k < 4; ++k)
                            ck_assert_msg(got[4 * (y * w + x) + k] == want.v[k],
                                          "mode %d gen %u draw %u texel (%d,%d)", mode, gen,
                                          draw, x, y);
                    }
            }
        }
        free(got);
        if (mode) gpu_texture_destroy(&table);
        gpu_texture_destroy(&out);
        gpu_program_destroy(&prog);
        glevo_rng_source_free(&src);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("philox");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, philox_known_answers);
    tcase_add_test(tc, glsl_stream_equals_c_stream);
    tcase_add_test(tc, uniform_floats_are_uniform);
    tcase_add_test(tc, random_texture_scheme_fills_unit_interval);
    tcase_add_test(tc, rng_source_glsl_equals_c);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
