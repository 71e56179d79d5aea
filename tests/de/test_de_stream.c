/* The DE random stream: the GPU (shaders/de/stream.glsl through stream_debug.glsl) and the C
 * twin (src/de/de_stream.h, de_internal.h) choose the same r1, r2, r3 and crossover masks
 * for every individual, generation and strategy; the choices obey DE's rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "de/trial.h"
#include "gl/gpgpu.h"
#include "testutil.h"

START_TEST(test_indices_rules)
{
    /* r1, r2, r3 distinct, != i, in range; every allowed index gets picked (uniform skip). */
    for (uint32_t np = 4; np <= 9; ++np) {
        int seen[9][9] = {{0}};
        for (uint32_t g = 1; g <= 400; ++g) {
            for (uint32_t i = 0; i < np; ++i) {
                de_indices r = de_stream_indices(42u, i, g, np, 3);
                ck_assert_msg(r.r1 < np && r.r2 < np && r.r3 < np && r.jrand < 3,
                              "np %u i %u g %u: out of range", np, i, g);
                ck_assert_msg(r.r1 != i && r.r2 != i && r.r3 != i && r.r1 != r.r2 &&
                                  r.r1 != r.r3 && r.r2 != r.r3,
                              "np %u i %u g %u: %u %u %u not distinct", np, i, g, r.r1, r.r2,
                              r.r3);
                seen[i][r.r1]++;
                seen[i][r.r2]++;
                seen[i][r.r3]++;
            }
        }
        for (uint32_t i = 0; i < np; ++i)
            for (uint32_t k = 0; k < np; ++k)
                ck_assert_msg((k == i) == (seen[i][k] == 0), "np %u: i %u picked %u %d times",
                              np, i, k, seen[i][k]);
    }
}
END_TEST

static void compare_gpu(glevo_de_strategy strategy, int np, int dim, float CR, uint32_t seed)
{
    testutil_context();
    de_config c = {.dim = dim, .np = np, .CR = CR, .seed = seed, .strategy = strategy};
    int per_row = 3, rows = (np + per_row - 1) / per_row; /* odd tiling on purpose */
    c.problem = glevo_problem_find("sphere");
    char defines[256];
    de_shader_defines(&c, defines, sizeof defines);
    gpu_program prog;
    ck_assert_msg(gpu_program_build(&prog, &(gpu_program_desc){
                      .name = "de.stream_debug", .fragment = "de/stream_debug.glsl",
                      .defines = defines, .uniform_size = sizeof(de_uniforms)}) == GLEVO_OK,
                  "%s", glevo_last_error());
    gpu_texture out;
    ck_assert_int_eq(gpu_texture_create(&out, per_row * dim, rows, GPU_RGBA32F, NULL), GLEVO_OK);
    float *texels = malloc(sizeof(float) * 4 * (size_t)(per_row * dim * rows));
    for (uint32_t g = 1; g <= 3; ++g) {
        gpu_pass p = {.name = "de.stream_debug", .program = &prog};
        gpu_pass_target(&p, &out);
        de_uniforms u = {.key = {seed, GLEVO_DE_STREAM}, .generation = g, .np = np, .dim = dim,
                         .per_row = per_row, .CR = CR};
        gpu_pass_uniforms(&p, &u, sizeof u);
        ck_assert_int_eq(gpu_pass_draw(&p), GLEVO_OK);
        ck_assert_int_eq(gpu_texture_read(&out, texels), GLEVO_OK);
        int mutant_genes = 0;
        for (int i = 0; i < np; ++i) {
            de_indices r = de_stream_indices(seed, (uint32_t)i, g, (uint32_t)np, (uint32_t)dim);
            int L = strategy == GLEVO_DE_RAND_1_EXP ? de_exp_length(&c, (uint32_t)i, g) : 0;
            for (int j = 0; j < dim; ++j) {
                const float *t = &texels[4 * ((i / per_row) * per_row * dim + (i % per_row) * dim + j)];
                bool m = de_from_mutant(&c, (uint32_t)i, g, r, L, j);
                mutant_genes += m;
                ck_assert_msg(t[0] == (float)r.r1 && t[1] == (float)r.r2 && t[2] == (float)r.r3,
                              "strategy %d seed %u g %u i %d: GPU (%g %g %g) CPU (%u %u %u)",
                              (int)strategy, seed, g, i, t[0], t[1], t[2], r.r1, r.r2, r.r3);
                ck_assert_msg(t[3] == (m ? 1.0f : 0.0f),
                              "strategy %d seed %u g %u i %d gene %d: GPU mask %g CPU %d",
                              (int)strategy, seed, g, i, j, t[3], m);
                if ((uint32_t)j == r.jrand) ck_assert(m);
            }
        }
        /* Not all genes from the mutant and not none beyond jrand: the masks carry information. */
        ck_assert_int_gt(mutant_genes, np);
        ck_assert_int_lt(mutant_genes, np * dim);
    }
    free(texels);
    gpu_texture_destroy(&out);
    gpu_program_destroy(&prog);
}

START_TEST(test_gpu_equals_cpu_bin)
{
    compare_gpu(GLEVO_DE_RAND_1_BIN, 13, 7, 0.3f, 2012u);
    compare_gpu(GLEVO_DE_BEST_1_BIN, 11, 5, 0.5f, 7u);
}
END_TEST

START_TEST(test_gpu_equals_cpu_exp)
{
    compare_gpu(GLEVO_DE_RAND_1_EXP, 13, 9, 0.7f, 99u);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("de_stream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_indices_rules);
    tcase_add_test(tc, test_gpu_equals_cpu_bin);
    tcase_add_test(tc, test_gpu_equals_cpu_exp);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
