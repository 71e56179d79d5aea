/* Each cellular-GA pass against its C twin on the same inputs: one GPU generation from a
 * random population, then every stage's texture compared with the twin fed the GPU's own
 * input for that stage. Selection, crossover points, crossover, mutation and the history best
 * exactly; fitness within a float tolerance (GPU sin/sqrt differ from libm by ULPs). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cga_state.h"
#include "reduce/reduce.h"

#define SEED 1789u

static const cga_pass_case cases[] = {
    {"camel", 2, 14, 5, 24, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT},
    {"rastrigin", 6, 10, 7, 13, GLEVO_NEIGHBOURHOOD_VON_NEUMANN, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT},
    {"schaffer", 2, 8, 9, 24, GLEVO_NEIGHBOURHOOD_MOORE5, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_PER_BIT},
    {"schwefel", 9, 6, 3, 20, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_PER_BIT},
    {"rastrigin", 7, 12, 5, 24, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_RNG_PHILOX, GLEVO_MUTATION_SKIP},
    {"camel", 2, 10, 9, 17, GLEVO_NEIGHBOURHOOD_VON_NEUMANN, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_SKIP},
};

/* How far float arithmetic may move one individual's fitness. The error of a float sum of n
 * terms is at most n · eps · Σ|terms| (each addition rounds once, relative to a partial sum no
 * larger than Σ|terms|), so the bound follows the summed magnitude of the terms, not the
 * result, which can cancel (Schwefel: nine terms of ±400 summing to -83, where the H100
 * differed by 0.0017 and the old bound, 2e-5 · |f|, allowed 0.0017). Each term adds its own
 * evaluation error: sin of an argument a errs by about eps · |a| (range reduction), and the
 * decoded z = lower + gene · step by about eps · |lower|, which a term of slope k turns into
 * k · |lower| · eps. Conservative per problem (the C twins are in src/problems/); eps is
 * 4 FLT_EPSILON because GPU sin, cos and sqrt are not correctly rounded (NVIDIA's sin:
 * 2^-21.4 absolute on [-pi, pi], about 3 FLT_EPSILON); n counts the genes and the few
 * operations of problem_finish. */
static double fitness_tolerance(const cga_pass_case *k, const cga_layout *l, const float *genes, int x, int y)
{
    const double pi = 3.14159265358979;
    double sum = 0.0, eval = 0.0, r2 = 0.0, z2[2] = {0.0, 0.0};
    double lo = fabs((double)l->lower); /* the decode error scale */
    for (int j = 0; j < l->dim; ++j) {
        double z = fabs(l->lower + (double)genes[cga_texel(l, j / 4, x, y) + (size_t)(j % 4)] * l->step);
        if (!strcmp(k->problem, "schwefel")) { /* -z sin(sqrt|z|): slope <= 1 + sqrt|z| / 2 */
            sum += z;
            eval += z * sqrt(z) + lo * (1.0 + sqrt(z));
        } else if (!strcmp(k->problem, "rastrigin")) { /* z^2 + 20 sin^2(pi z): slope <= 2|z| + 20 pi */
            sum += z * z + 20.0;
            eval += 20.0 * pi * z + lo * (2.0 * z + 20.0 * pi);
        } else {
            r2 += z * z;
        }
        if (j < 2) z2[j] = z;
    }
    if (!strcmp(k->problem, "camel")) { /* six monomials; a monomial of degree d rounds d times */
        double X = z2[0], Y = z2[1];
        double m[6] = {4 * X * X, 2.1 * pow(X, 4), pow(X, 6) / 3, X * Y, 4 * Y * Y, 4 * pow(Y, 4)};
        static const int degree[6] = {2, 4, 6, 2, 2, 4};
        for (int i = 0; i < 6; ++i) sum += m[i], eval += degree[i] * m[i];
        eval += lo * ((8 * X + 8.4 * pow(X, 3) + 2 * pow(X, 5) + Y) + (X + 8 * Y + 16 * pow(Y, 3)));
    } else if (!strcmp(k->problem, "schaffer")) {
        /* 0.5 - (sin^2(sqrt r2) - 0.5) / d^2, d >= 1: an error e in r2 moves f by at most
         * e / sqrt(r2), so r2's summation error n eps r2 costs n eps sqrt(r2). */
        sum += sqrt(r2) + 1.0;
        eval += sqrt(r2) + lo + 4.0;
    }
    return 4.0 * FLT_EPSILON * ((l->dim + 4) * sum + eval);
}

START_TEST(tolerance_follows_the_terms_not_the_result)
{
    /* Issue 12, defect 9, seen only on the H100: nine Schwefel terms of about +-419 that cancel.
     * The float twin's own rounding is within the bound, and so is the H100's 0.0017, which the
     * old bound (2e-5 * |f|) refused at |f| = 83. */
    cga_pass_case k = {.problem = "schwefel", .dim = 9};
    cga_layout l = {.width = 1, .height = 1, .dim = 9, .textures = 3, .bits = 24, .lower = -500.0f,
                    .step = 1000.0f / 16777215.0f};
    float genes[12] = {0};
    for (int j = 0; j < 9; ++j) /* z = +-420.9687, the optimum's coordinate: f = -419 */
        genes[cga_texel(&l, j / 4, 0, 0) + (size_t)(j % 4)] = roundf(((j % 2 ? -420.9687f : 420.9687f) + 500.0f) / l.step);
    float f;
    cga_fitness_cpu(&l, glevo_problem_find("schwefel"), genes, &f);
    ck_assert_msg(fabsf(f + 418.98f) < 1.0f, "f = %g", f);
    double tol = fitness_tolerance(&k, &l, genes, 0, 0);
    ck_assert_msg(tol > 0.0017 && tol < 1.0, "tolerance %g", tol);
}
END_TEST

START_TEST(every_pass_equals_its_twin)
{
    const cga_pass_case *k = &cases[_i];
    testutil_context();
    glevo_cga_params p = cga_pass_case_params(k, GLEVO_BACKEND_FRAGMENT, SEED + (uint32_t)_i);
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    const cga_layout *l = &cga->layout;
    size_t n = cga->gene_floats, cells = (size_t)l->width * l->height;
    float *start = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4);
    float *fit_gpu = malloc(cells * 4), *fit_cpu = malloc(cells * 4);
    float *pts_gpu = malloc(n * 2), *pts_cpu = malloc(n * 2);
    float *sel = malloc(n * 4), *crossed = malloc(n * 4);
    /* Generation 3, so the random stream is not the one the initial draw used. */
    for (int g = 0; g < 3; ++g) ck_assert(glevo_cga_step(cga, 1) == GLEVO_OK);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_POPULATION, start) == GLEVO_OK);
    float record_before[4 + 4 * 8];
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, record_before) == GLEVO_OK);
    glevo_rng_source_set_generation(&cga->rng, (uint32_t)cga->generation);
    long long gen = cga->generation;
    ck_assert(glevo_cga_step(cga, 1) == GLEVO_OK);
    glevo_rng_source_set_generation(&cga->rng, (uint32_t)gen);

    /* fitness: tolerance */
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_FITNESS, fit_gpu) == GLEVO_OK);
    cga_fitness_cpu(l, p.problem, start, fit_cpu);
    for (size_t i = 0; i < cells; ++i) {
        double tol = fitness_tolerance(k, l, start, (int)(i % (size_t)l->width), (int)(i / (size_t)l->width));
        ck_assert_msg(fabs((double)fit_gpu[i] - fit_cpu[i]) <= tol,
                      "case %d fitness %zu: GPU %.9g CPU %.9g, tolerance %.3g", _i, i, fit_gpu[i],
                      fit_cpu[i], tol);
    }
    /* history best: exact given the GPU fitness */
    float reduced[4], record[4 + 4 * 8], got_record[4 + 4 * 8];
    cpu_reduce(l->sign > 0 ? REDUCE_MAX : REDUCE_MIN, fit_gpu, l->width, l->height, 1, 0, reduced);
    memcpy(record, record_before, sizeof record);
    cga_keep_best_cpu(l, reduced, start, gen, record);
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, got_record) == GLEVO_OK);
    cga_assert_same_floats(got_record, record, 4 + 4 * (size_t)l->textures, "record", _i, SEED);
    /* selection: exact given the GPU fitness */
    cga_select_cpu(l, &cga->rng, fit_gpu, start, want);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_SELECTED, sel) == GLEVO_OK);
    cga_assert_same_floats(sel, want, n, "selection", _i, SEED);
    /* crossover points and crossover */
    cga_crossover_points_cpu(l, &cga->rng, (float)p.pc, pts_cpu);
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_POINTS, pts_gpu) == GLEVO_OK);
    cga_assert_same_floats(pts_gpu, pts_cpu, n / 2, "crossover points", _i, SEED);
    int cuts = 0;
    for (size_t i = 0; i < n / 2; ++i) cuts += pts_cpu[i] >= 0;
    ck_assert_msg(cuts > 0, "case %d: no crossover happened, the test would prove nothing", _i);
    cga_crossover_cpu(l, sel, pts_gpu, want);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_CROSSED, crossed) == GLEVO_OK);
    cga_assert_same_floats(crossed, want, n, "crossover", _i, SEED);
    /* mutation */
    cga_mutate_cpu(l, &cga->rng, &cga->mutation, crossed, want);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_POPULATION, got) == GLEVO_OK);
    cga_assert_same_floats(got, want, n, "mutation", _i, SEED);
    ck_assert_msg(memcmp(want, crossed, n * 4) != 0, "case %d: no mutation happened", _i);

    free(start), free(want), free(got), free(fit_gpu), free(fit_cpu);
    free(pts_gpu), free(pts_cpu), free(sel), free(crossed);
    glevo_cga_destroy(cga);
}
END_TEST

/* Whole generations: the GPU engine and the CPU engine from the same seed hold the same
 * population after every generation (camel and sphere: no transcendental functions, so the
 * fitness, and hence every roulette, agrees bit for bit). */
START_TEST(gpu_run_equals_cpu_run)
{
    static const char *problems[] = {"camel", "sphere"};
    testutil_context();
    for (int k = 0; k < 2; ++k) {
        glevo_cga_params p = {.problem = glevo_problem_find(problems[k]), .dim = k ? 5 : 0,
                              .width = 12, .height = 7, .pm = 0.02, .seed = 4242,
                              .backend = GLEVO_BACKEND_FRAGMENT};
        glevo_cga *gpu, *cpu;
        ck_assert(glevo_cga_create(&p, &gpu) == GLEVO_OK);
        p.backend = GLEVO_BACKEND_CPU;
        ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
        cga_assert_same_populations(gpu, cpu, 12, problems[k]); /* GPU against CPU */
        glevo_cga_best bg, bc;
        ck_assert(glevo_cga_best_get(gpu, &bg) == GLEVO_OK);
        ck_assert(glevo_cga_best_get(cpu, &bc) == GLEVO_OK);
        ck_assert(bg.fitness == bc.fitness && bg.generation == bc.generation);
        glevo_cga_destroy(gpu);
        glevo_cga_destroy(cpu);
    }
}
END_TEST

/* Both samplers flip each bit with probability pm: count flips over many genes and bits on
 * the C twin (the GPU's equality with it is tested above), within 5 standard deviations. */
START_TEST(both_samplers_flip_bits_at_rate_pm)
{
    const double pms[] = {0.001, 0.02, 0.3};
    cga_layout l = {.width = 64, .height = 32, .dim = 7, .textures = 2, .bits = 24};
    size_t n = (size_t)l.width * l.height * 4 * 2;
    float *zero = calloc(n, sizeof(float)), *out = malloc(n * sizeof(float));
    glevo_rng_source rng;
    ck_assert(glevo_rng_source_init(&rng, GLEVO_RNG_PHILOX, SEED, 0) == GLEVO_OK);
    for (int mode = 0; mode < 2; ++mode)
        for (size_t k = 0; k < 3; ++k) {
            cga_mutation m;
            cga_mutation_init(&m, (glevo_cga_mutation)mode, pms[k]);
            double flips = 0, bits = 0;
            long by_bit[24] = {0};
            for (uint32_t gen = 0; gen < 4; ++gen) {
                glevo_rng_source_set_generation(&rng, gen);
                cga_mutate_cpu(&l, &rng, &m, zero, out);
                for (int t = 0; t < 2; ++t)
                    for (int c = 0; c < 4; ++c) {
                        if (4 * t + c >= l.dim) {
                            for (int i = 0; i < l.width * l.height; ++i)
                                ck_assert_msg(out[(size_t)t * l.width * l.height * 4 + (size_t)i * 4 + c] == 0.0f,
                                              "padding channel mutated");
                            continue;
                        }
                        for (int i = 0; i < l.width * l.height; ++i) {
                            uint32_t v = (uint32_t)out[(size_t)t * l.width * l.height * 4 + (size_t)i * 4 + c];
                            for (int b = 0; b < 24; ++b) by_bit[b] += (v >> b) & 1u;
                            flips += __builtin_popcount(v);
                            bits += 24;
                        }
                    }
            }
            double expect = bits * pms[k], sd = sqrt(bits * pms[k] * (1 - pms[k]));
            ck_assert_msg(fabs(flips - expect) < 5 * sd, "mode %d pm %g: %g flips, expected %g +- %g",
                          mode, pms[k], flips, expect, sd);
            /* the top and bottom bits flip as often as the middle ones */
            double per_bit = bits / 24 * pms[k], per_bit_sd = sqrt(per_bit * (1 - pms[k]));
            ck_assert_msg(fabs(by_bit[0] - per_bit) < 5 * per_bit_sd + 3 && fabs(by_bit[23] - per_bit) < 5 * per_bit_sd + 3,
                          "mode %d pm %g: bit 0 %ld, bit 23 %ld, expected %g", mode, pms[k], by_bit[0], by_bit[23], per_bit);
        }
    glevo_rng_source_free(&rng);
    free(zero), free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_passes");
    TCase *tc = tcase_create("passes");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, tolerance_follows_the_terms_not_the_result);
    tcase_add_loop_test(tc, every_pass_equals_its_twin, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, gpu_run_equals_cpu_run);
    tcase_add_test(tc, both_samplers_flip_bits_at_rate_pm);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
