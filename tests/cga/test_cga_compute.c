/* The cellular GA's compute backend against its C twins: one fused generation (fitness
 * dispatch, reduction and history best, then selection + crossover + mutation in one
 * dispatch) compared stage by stage with the twins fed the GPU's own inputs, and whole runs
 * equal to the CPU engine's bit for bit where the fitness is exact (camel, sphere). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/engine_internal.h"
#include "cga/gpu_internal.h"
#include "cga_state.h"
#include "reduce/reduce.h"
#include "testutil.h"

#define SEED 2207u

/* Odd sizes on purpose (work-groups of 8 x 8 overhang the grid); dim 29 uses all 8 gene
 * images, the most a compute shader gets on NVIDIA. Problems whose terms do not cancel, so a
 * relative tolerance on the fitness is honest. */
static const cga_pass_case cases[] = {
    {"camel", 2, 14, 5, 24, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT},
    {"rastrigin", 6, 10, 7, 13, GLEVO_NEIGHBOURHOOD_VON_NEUMANN, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_PER_BIT},
    {"sphere", 29, 6, 3, 20, GLEVO_NEIGHBOURHOOD_MOORE5, GLEVO_RNG_PHILOX, GLEVO_MUTATION_SKIP},
    {"ackley", 7, 18, 9, 24, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_SKIP},
};

START_TEST(fused_generation_equals_its_twins)
{
    const cga_pass_case *k = &cases[_i];
    testutil_context();
    glevo_cga_params p = cga_pass_case_params(k, GLEVO_BACKEND_COMPUTE, SEED + (uint32_t)_i);
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    const cga_layout *l = &cga->layout;
    size_t n = cga->gene_floats, cells = (size_t)l->width * l->height;
    float *start = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4);
    float *sel = malloc(n * 4), *crossed = malloc(n * 4), *points = malloc(n * 2);
    float *fit_gpu = malloc(cells * 4), *fit_cpu = malloc(cells * 4);
    for (int g = 0; g < 3; ++g) ck_assert(glevo_cga_step(cga, 1) == GLEVO_OK);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_POPULATION, start) == GLEVO_OK);
    float record_before[4 + 4 * 8], record[4 + 4 * 8], got_record[4 + 4 * 8];
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, record_before) == GLEVO_OK);
    long long gen = cga->generation;
    ck_assert(glevo_cga_step(cga, 1) == GLEVO_OK);
    glevo_rng_source_set_generation(&cga->rng, (uint32_t)gen);

    /* fitness dispatch: the fitness texture keeps the population's before variation */
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_FITNESS, fit_gpu) == GLEVO_OK);
    cga_fitness_cpu(l, p.problem, start, fit_cpu);
    for (size_t i = 0; i < cells; ++i)
        ck_assert_msg(fabsf(fit_gpu[i] - fit_cpu[i]) <= 2e-5f * fmaxf(1.0f, fabsf(fit_cpu[i])),
                      "case %d fitness %zu: GPU %.9g CPU %.9g", _i, i, fit_gpu[i], fit_cpu[i]);
    /* reduction + history best: exact given the GPU fitness */
    float reduced[4];
    cpu_reduce(l->sign > 0 ? REDUCE_MAX : REDUCE_MIN, fit_gpu, l->width, l->height, 1, 0, reduced);
    memcpy(record, record_before, sizeof record);
    cga_keep_best_cpu(l, reduced, start, gen, record);
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, got_record) == GLEVO_OK);
    cga_assert_same_floats(got_record, record, 4 + 4 * (size_t)l->textures, "record", _i, SEED);
    /* the fused step: selection, crossover points, crossover, mutation composed on the CPU */
    cga_select_cpu(l, &cga->rng, fit_gpu, start, sel);
    cga_crossover_points_cpu(l, &cga->rng, (float)p.pc, points);
    cga_crossover_cpu(l, sel, points, crossed);
    cga_mutate_cpu(l, &cga->rng, &cga->mutation, crossed, want);
    ck_assert(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_POPULATION, got) == GLEVO_OK);
    cga_assert_same_floats(got, want, n, "fused selection, crossover and mutation", _i, SEED);
    ck_assert_msg(memcmp(want, crossed, n * 4) != 0, "case %d: no mutation happened", _i);
    ck_assert_msg(memcmp(crossed, sel, n * 4) != 0, "case %d: no crossover happened", _i);
    /* stages the fused step does not keep are refused, not invented */
    ck_assert_int_eq(cga_gpu_read_stage(cga, GLEVO_CGA_STAGE_SELECTED, sel), GLEVO_ERR_INVALID);
    ck_assert_uint_eq(glevo_cga_texture(cga, GLEVO_CGA_STAGE_CROSSED, 0), 0);

    free(start), free(want), free(got), free(sel), free(crossed), free(points);
    free(fit_gpu), free(fit_cpu);
    glevo_cga_destroy(cga);
}
END_TEST

/* Whole runs: the compute and CPU engines from one seed hold the same population after every
 * generation for problems of + - * / only (camel, sphere), and report the same best. The
 * fitness itself may differ by the GPU's division (not IEEE-rounded on NVIDIA), so it is
 * compared within a float tolerance; the roulettes it feeds did not change in these runs. */
START_TEST(compute_run_equals_cpu_run)
{
    static const char *problems[] = {"camel", "sphere"};
    testutil_context();
    for (int k = 0; k < 2; ++k) {
        glevo_cga_params p = {.problem = glevo_problem_find(problems[k]), .dim = k ? 5 : 0,
                              .width = 12, .height = 7, .pm = 0.02, .seed = 4243,
                              .backend = GLEVO_BACKEND_COMPUTE};
        glevo_cga *gpu, *cpu;
        ck_assert_msg(glevo_cga_create(&p, &gpu) == GLEVO_OK, "%s", glevo_last_error());
        p.backend = GLEVO_BACKEND_CPU;
        ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
        size_t n = glevo_cga_gene_floats(gpu), cells = 12 * 7;
        float *a = malloc(n * 4), *b = malloc(n * 4), *fa = malloc(cells * 4), *fb = malloc(cells * 4);
        for (int g = 0; g < 12; ++g) {
            ck_assert(glevo_cga_step(gpu, 1) == GLEVO_OK);
            ck_assert(glevo_cga_step(cpu, 1) == GLEVO_OK);
            ck_assert(glevo_cga_read_population(gpu, a, fa) == GLEVO_OK);
            ck_assert(glevo_cga_read_population(cpu, b, fb) == GLEVO_OK);
            for (size_t i = 0; i < n; ++i)
                ck_assert_msg(a[i] == b[i], "%s generation %d float %zu: compute %.0f CPU %.0f",
                              problems[k], g, i, a[i], b[i]);
            for (size_t i = 0; i < cells; ++i)
                ck_assert_msg(fabsf(fa[i] - fb[i]) <= 1e-6f * fmaxf(1.0f, fabsf(fb[i])),
                              "%s generation %d fitness %zu: compute %.9g CPU %.9g", problems[k],
                              g, i, fa[i], fb[i]);
        }
        glevo_cga_best bg, bc;
        ck_assert(glevo_cga_best_get(gpu, &bg) == GLEVO_OK);
        ck_assert(glevo_cga_best_get(cpu, &bc) == GLEVO_OK);
        ck_assert(fabs(bg.fitness - bc.fitness) <= 1e-6 * fmax(1.0, fabs(bc.fitness)));
        ck_assert(bg.generation == bc.generation);
        ck_assert(bg.x_cell == bc.x_cell && bg.y_cell == bc.y_cell);
        free(a), free(b), free(fa), free(fb);
        glevo_cga_destroy(gpu);
        glevo_cga_destroy(cpu);
    }
}
END_TEST

/* A population written into the compute engine is the one it evolves from (migrants,
 * checkpoints): after a write, the next generation equals the CPU engine's from that
 * population. */
START_TEST(written_population_is_evolved)
{
    testutil_context();
    glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = 10, .height = 5,
                          .seed = 77, .backend = GLEVO_BACKEND_COMPUTE};
    glevo_cga *gpu, *cpu;
    ck_assert(glevo_cga_create(&p, &gpu) == GLEVO_OK);
    p.backend = GLEVO_BACKEND_CPU;
    p.seed = 78; /* another start, overwritten below */
    ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
    size_t n = glevo_cga_gene_floats(gpu);
    float *a = malloc(n * 4), *b = malloc(n * 4);
    ck_assert(glevo_cga_read_population(cpu, a, NULL) == GLEVO_OK);
    ck_assert(glevo_cga_write_population(gpu, a) == GLEVO_OK);
    p.seed = 77; /* same random stream from here on */
    glevo_cga_destroy(cpu);
    ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
    ck_assert(glevo_cga_write_population(cpu, a) == GLEVO_OK);
    ck_assert(glevo_cga_step(gpu, 3) == GLEVO_OK);
    ck_assert(glevo_cga_step(cpu, 3) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(gpu, a, NULL) == GLEVO_OK);
    ck_assert(glevo_cga_read_population(cpu, b, NULL) == GLEVO_OK);
    ck_assert_msg(memcmp(a, b, n * 4) == 0, "written population evolved differently");
    free(a), free(b);
    glevo_cga_destroy(gpu);
    glevo_cga_destroy(cpu);
}
END_TEST

/* Dimensions 1 and 2 keep their genes in R32F / RG32F textures (src/cga/gpu.c), which read
 * the channels they lack as 0 and alpha 1: every GPU engine holds the CPU engine's population
 * and best-so-far record after every generation, the record's channels past dim (0 on the
 * host) included. Engines: the fragment driver, the compute rule (the blocked kernel at this
 * size), and its one-generation paths (fused with the kernel scoring, fused with the fitness
 * dispatch scoring, three dispatches). */
START_TEST(narrow_gene_textures_hold_the_cpu_run)
{
    static const struct { const char *problem; int dim; glevo_cga_mutation mutation; } runs[] = {
        {"camel", 0, GLEVO_MUTATION_PER_BIT}, {"sphere", 1, GLEVO_MUTATION_SKIP},
        {"sphere", 2, GLEVO_MUTATION_PER_BIT}};
    static const struct { glevo_backend backend; bool blocked; const char *fused; } engines[] = {
        {GLEVO_BACKEND_FRAGMENT, false, NULL}, {GLEVO_BACKEND_COMPUTE, true, NULL},
        {GLEVO_BACKEND_COMPUTE, false, "1"}, {GLEVO_BACKEND_COMPUTE, false, "fitness"},
        {GLEVO_BACKEND_COMPUTE, false, "0"}};
    testutil_context();
    const int run = _i / 5, engine = _i % 5;
    glevo_cga_params p = {.problem = glevo_problem_find(runs[run].problem), .dim = runs[run].dim,
                          .width = 12, .height = 6, .pm = 0.03, .seed = 913,
                          .mutation = runs[run].mutation, .backend = GLEVO_BACKEND_CPU};
    glevo_cga *gpu, *cpu;
    ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
    p.backend = engines[engine].backend;
    p.block_depth = engines[engine].blocked ? 0 : GLEVO_ZERO;
    if (engines[engine].fused) setenv("GLEVO_CGA_FUSED", engines[engine].fused, 1);
    ck_assert_msg(glevo_cga_create(&p, &gpu) == GLEVO_OK, "%s", glevo_last_error());
    unsetenv("GLEVO_CGA_FUSED");
    ck_assert_int_eq(cga_gene_format(&gpu->layout), gpu->layout.dim == 1 ? GPU_R32F : GPU_RG32F);
    char label[64];
    snprintf(label, sizeof label, "run %d engine %d", run, engine);
    float ra[8], rb[8];
    for (int g = 0; g < 10; ++g) {
        cga_assert_same_populations(gpu, cpu, 1, label); /* one step each, genes compared */
        ck_assert(gpu->ops->read_record(gpu, ra) == GLEVO_OK);
        ck_assert(cpu->ops->read_record(cpu, rb) == GLEVO_OK);
        /* the value within the GPU's division (see compute_run_equals_cpu_run), the rest exact */
        ck_assert_msg(fabsf(ra[0] - rb[0]) <= 1e-6f * fmaxf(1.0f, fabsf(rb[0])), "run %d engine "
                      "%d generation %d: best %.9g against %.9g", run, engine, g, ra[0], rb[0]);
        for (int i = 1; i < 8; ++i)
            ck_assert_msg(ra[i] == rb[i], "run %d engine %d generation %d: record float %d GPU "
                          "%.9g CPU %.9g", run, engine, g, i, ra[i], rb[i]);
    }
    glevo_cga_destroy(gpu);
    glevo_cga_destroy(cpu);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_compute");
    TCase *tc = tcase_create("compute");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, fused_generation_equals_its_twins, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, compute_run_equals_cpu_run);
    tcase_add_test(tc, written_population_is_evolved);
    tcase_add_loop_test(tc, narrow_gene_textures_hold_the_cpu_run, 0, 3 * 5);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
