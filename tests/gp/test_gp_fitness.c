/* GP fitness on the GPU (shaders/gp/fitness.glsl, src/gp/fitness_gpu.c): from planted
 * evaluator results, the errors and fitness equal the host's bit for bit (quotients by odd
 * case counts included), the best and the elites are the host twins' choices with their
 * tie-breaks (gp_find_best, gp_breed_elites), a result with wrong run marks is named; and
 * whole compute runs, whose fitness stays on the GPU between reports, equal the CPU run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/rng.h"
#include "gp/engine_internal.h"
#include "gp/eval/gpu.h"
#include "gp/breed/resident.h"
#include "gp_engines.h"

enum { POP = 2573, CAP = 7 };

/* Program i: x1 (1 code), (+ x1 x2) (3) or (+ (+ x1 x2) x1) (5), so lengths tie too. */
static void programs(uint32_t *codes, float *consts, int32_t *len)
{
    const uint32_t add = GLEVO_GP_CODE(GLEVO_GP_ADD, 0), x1 = GLEVO_GP_CODE(GLEVO_GP_VAR, 0),
                   x2 = GLEVO_GP_CODE(GLEVO_GP_VAR, 1);
    const uint32_t shapes[3][5] = {{x1}, {add, x1, x2}, {add, add, x1, x2, x1}};
    memset(consts, 0, sizeof(float) * POP * CAP);
    for (int i = 0; i < POP; ++i) {
        int s = (int)(glevo_philox4x32((uint32_t)i, 1, 2, 3, 4, 5).v[0] % 3);
        len[i] = 1 + 2 * s;
        memcpy(codes + (size_t)i * CAP, shapes[s], sizeof(uint32_t) * (size_t)len[i]);
    }
}

/* Sums with ties (one in three from 8 values, so fitness ties and the lengths decide), an
 * infinity, a NaN, and random doubles of 53 bits in [0, 32), whose quotients round either
 * way. */
static void plant(uint32_t *words, glevo_gp_sums *sums, int stamp, float marks, int bad)
{
    for (int i = 0; i < POP; ++i) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 9, 8, 7, 6, 5);
        double v = r.v[0] % 3 == 0 ? (double)(r.v[1] % 8) * 0.375
                                   : ldexp((double)r.v[1] + ldexp((double)r.v[2], -32), -27);
        if (i == 11) v = INFINITY;
        if (i == 12) v = NAN;
        sums[i] = (glevo_gp_sums){.abs_sum = v * 1.5, .sq_sum = v, .hits = (float)(r.v[3] % 40)};
        uint32_t *w = words + (size_t)i * 8;
        memcpy(w, &sums[i].abs_sum, 8);
        memcpy(w + 2, &sums[i].sq_sum, 8);
        float c[4] = {(float)sums[i].hits, i == bad ? marks - 1 : marks, 1.0f, 1.0f + (float)stamp};
        memcpy(w + 4, c, sizeof c);
    }
}

START_TEST(test_fitness_equals_host)
{
    testutil_context();
    if (!gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE})) return;
    static uint32_t codes[POP * CAP], words[POP * 8];
    static float consts[POP * CAP];
    static int32_t len[POP];
    static glevo_gp_sums sums[POP];
    static double err[POP], fit[POP], want_fit[POP];
    programs(codes, consts, len);
    gp_resident r;
    uint32_t mask = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION);
    glevo_status st = gp_resident_create(&r, POP, CAP, mask, 1);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(gp_resident_upload(&r, codes, consts, len), GLEVO_OK);
    gpu_buffer results;
    ck_assert_int_eq(gpu_buffer_create(&results, sizeof words, NULL), GLEVO_OK);
    const glevo_gp_metric metrics[] = {GLEVO_GP_SAE, GLEVO_GP_MSE, GLEVO_GP_ACCURACY};
    const int cases[] = {37, 1000, 12347};
    double codes_seen = 0, best_of[9];
    for (int m = 0; m < 3; ++m)
        for (int c = 0; c < 3; ++c) {
            int stamp = 3 * m + c + 1, bad = m == 0 && c == 1 ? 1999 : -1;
            int elites = 1 + 3 * c + m;
            plant(words, sums, stamp, 128.0f, bad);
            ck_assert_int_eq(gpu_buffer_upload(&results, 0, sizeof words, words), GLEVO_OK);
            gp_gpu_results res = {&results, 128.0f, 1, stamp};
            int generation = 3 * m + c; /* the pass records its best's fitness by generation */
            st = gp_resident_fitness(&r, &res, metrics[m], cases[c], elites, generation, NULL);
            gp_fit_head head;
            if (!st) st = gp_resident_read_fitness(&r, err, fit, &head);
            ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
            for (int i = 0; i < POP; ++i) {
                double e = glevo_gp_metric_value(metrics[m], &sums[i], cases[c]);
                want_fit[i] = gp_fitness_of(metrics[m], e);
                ck_assert_msg(memcmp(&e, &err[i], 8) == 0 || (isnan(e) && isnan(err[i])),
                              "metric %d, %d cases, program %d: GPU error %.17g, host %.17g", m,
                              cases[c], i, err[i], e);
                ck_assert_msg(memcmp(&want_fit[i], &fit[i], 8) == 0,
                              "metric %d, %d cases, program %d: GPU fitness %.17g, host %.17g",
                              m, cases[c], i, fit[i], want_fit[i]);
            }
            /* The host twins' choices on the same fitness and lengths. */
            static glevo_gp host;
            host.P.pop = POP;
            host.fit = want_fit;
            host.lens = len;
            ck_assert_int_eq(head.best, gp_find_best(&host));
            best_of[generation] = want_fit[head.best];
            ck_assert(!memcmp(&head.best_fit[generation], &best_of[generation], 8));
            gp_breed_params bp = {.pop = POP, .elites = elites};
            int32_t elite[GP_ELITE_MAX];
            gp_breed_elites(&bp, want_fit, elite);
            for (int e = 0; e < elites; ++e)
                ck_assert_msg(head.elite[e] == elite[e], "elite %d: GPU %d, host %d", e,
                              head.elite[e], elite[e]);
            /* A wrong mark stays reported once seen (a failed run stays failed). */
            ck_assert_int_eq(head.bad, m > 0 || c >= 1 ? 1999 : -1);
            /* The code count the engine's nodes_evaluated reads: the upload's, once a pass. */
            codes_seen += (double)r.total;
            ck_assert(head.codes == codes_seen);
            /* The ties were there to break: the best fitness (MSE 0) shared by programs of
             * other lengths, the first of them not the best. */
            if (metrics[m] != GLEVO_GP_MSE) continue;
            int tied = 0, shorter = 0;
            for (int i = 0; i < POP; ++i) {
                tied += fit[i] == 0.0;
                shorter += fit[i] == 0.0 && len[i] < len[head.best];
            }
            ck_assert_int_gt(tied, 10);
            ck_assert_int_eq(shorter, 0);
            ck_assert_int_eq(len[head.best], 1);
            ck_assert_int_ne(len[elite[0]], 1);
        }
    /* The record of every generation's best, read at once (a portfolio's restart count). */
    double record[8];
    ck_assert_int_eq(gp_resident_read_best_history(&r, 1, 8, record), GLEVO_OK);
    ck_assert(!memcmp(record, best_of + 1, sizeof record));
    gpu_buffer_destroy(&results);
    gp_resident_destroy(&r);
}
END_TEST

/* Linear scaling's two passes (gp/fitness.glsl, u_scaled 1 and 2) against the host's finish
 * and second look (gp_scaling_from_moments, the bound, glevo_gp_metric_value, gp_fitness_of,
 * gp_find_best, gp_breed_elites) on planted moments: programs f = alpha y + beta + noise over
 * 37 cases, the noise 0 in one in five (nearly exact: flagged), a constant f now and then
 * (the degenerate branch), an infinity. Every error, a and b, fitness, the best and the
 * elites, bit for bit. */
START_TEST(test_scaled_fitness_equals_host)
{
    testutil_context();
    if (!gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE})) return;
    enum { N = 37, ELITES = 4 };
    static uint32_t codes[POP * CAP], words[POP * 8];
    static float consts[POP * CAP], ab[2 * POP];
    static int32_t len[POP];
    static glevo_gp_sums sums[POP];
    static double err[POP], fit[POP], want_err[POP], want_fit[POP];
    programs(codes, consts, len);
    gp_resident r;
    ck_assert_int_eq(gp_resident_create(&r, POP, CAP, glevo_gp_function_set_ops(GLEVO_GP_REGRESSION), 1),
                     GLEVO_OK);
    ck_assert_int_eq(gp_resident_upload(&r, codes, consts, len), GLEVO_OK);
    double y[N], sy = 0, syy = 0;
    for (int c = 0; c < N; ++c) {
        y[c] = 4.0 * glevo_rng_u01(glevo_philox4x32((uint32_t)c, 3, 1, 4, 1, 5).v[0]) - 1.0;
        sy += y[c], syy += y[c] * y[c];
    }
    double limit = 1e-3 * (syy - sy * (sy / N));
    bool flagged[POP];
    for (int i = 0; i < POP; ++i) {
        glevo_u32x4 q = glevo_philox4x32((uint32_t)i, 6, 2, 8, 3, 1);
        double alpha = glevo_rng_u01(q.v[0]) * 3 - 1.5, beta = glevo_rng_u01(q.v[1]) - 0.5;
        double noise = q.v[2] % 5 == 0 ? 0 : glevo_rng_u01(q.v[3]) * 2;
        if (i % 97 == 5) alpha = 0, noise = 0; /* a constant f */
        float sf = 0;
        double sff = 0, sfy = 0;
        for (int c = 0; c < N; ++c) {
            double f = alpha * y[c] + beta + noise * sin(7.0 * c + i);
            sf += (float)f, sff += f * f, sfy += f * y[c];
        }
        if (i == 13) sff = INFINITY;
        sums[i] = (glevo_gp_sums){.abs_sum = sfy, .sq_sum = sff, .hits = sf};
        double a, b, sse;
        gp_scaling_from_moments(&sums[i], sy, syy, N, &a, &b, &sse);
        want_err[i] = sse / N;
        flagged[i] = sse <= limit;
        uint32_t *w = words + (size_t)i * 8;
        memcpy(w, &sfy, 8), memcpy(w + 2, &sff, 8);
        float c4[4] = {sf, 64.0f, 1.0f, 2.0f};
        memcpy(w + 4, c4, sizeof c4);
        ab[2 * i] = flagged[i] ? (float)a : NAN, ab[2 * i + 1] = flagged[i] ? (float)b : 1.0f;
    }
    gpu_buffer results, affine;
    ck_assert_int_eq(gpu_buffer_create(&results, sizeof words, words), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_create(&affine, sizeof ab, NULL), GLEVO_OK);
    gp_gpu_results res = {&results, 64.0f, 1, 1};
    gp_scaled_pass scaled = {.pass = 1, .sum_y = sy, .sum_yy = syy, .limit = limit,
                             .affine = &affine};
    ck_assert_int_eq(gp_resident_fitness(&r, &res, GLEVO_GP_MSE, N, ELITES, 0, &scaled), GLEVO_OK);
    static float got_ab[2 * POP];
    ck_assert_int_eq(gpu_buffer_read(&r.errs, 0, sizeof err, err), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_read(&affine, 0, sizeof got_ab, got_ab), GLEVO_OK);
    int nflagged = 0;
    for (int i = 0; i < POP; ++i) {
        nflagged += flagged[i];
        ck_assert_msg(!memcmp(&err[i], &want_err[i], 8), "program %d: pass 1 error %.17g, host "
                      "%.17g", i, err[i], want_err[i]);
        ck_assert_msg(flagged[i] ? !memcmp(&got_ab[2 * i], &ab[2 * i], 8) : isnan(got_ab[2 * i]),
                      "program %d: a, b %.9g %.9g, host %.9g %.9g", i, got_ab[2 * i],
                      got_ab[2 * i + 1], ab[2 * i], ab[2 * i + 1]);
    }
    ck_assert_int_gt(nflagged, POP / 10);
    ck_assert_int_lt(nflagged, POP / 2);
    /* The second look's sums (planted: squared errors), then pass 2. */
    for (int i = 0; i < POP; ++i) {
        double sq = ldexp((double)glevo_philox4x32((uint32_t)i, 4, 4, 4, 4, 4).v[0], -40);
        sums[i] = (glevo_gp_sums){.sq_sum = sq};
        memcpy(words + (size_t)i * 8 + 2, &sq, 8);
        float c4[4] = {0, 64.0f, 1.0f, 3.0f};
        memcpy(words + (size_t)i * 8 + 4, c4, sizeof c4);
        want_err[i] = flagged[i] ? glevo_gp_metric_value(GLEVO_GP_MSE, &sums[i], N) : want_err[i];
        want_fit[i] = gp_fitness_of(GLEVO_GP_MSE, want_err[i]);
    }
    ck_assert_int_eq(gpu_buffer_upload(&results, 0, sizeof words, words), GLEVO_OK);
    res.stamp = 2, scaled.pass = 2;
    ck_assert_int_eq(gp_resident_fitness(&r, &res, GLEVO_GP_MSE, N, ELITES, 0, &scaled), GLEVO_OK);
    gp_fit_head head;
    ck_assert_int_eq(gp_resident_read_fitness(&r, err, fit, &head), GLEVO_OK);
    for (int i = 0; i < POP; ++i)
        ck_assert_msg(!memcmp(&err[i], &want_err[i], 8) && !memcmp(&fit[i], &want_fit[i], 8),
                      "program %d (%s): error %.17g fitness %.17g, host %.17g %.17g", i,
                      flagged[i] ? "flagged" : "not", err[i], fit[i], want_err[i], want_fit[i]);
    static glevo_gp host;
    host.P.pop = POP, host.fit = want_fit, host.lens = len;
    ck_assert_int_eq(head.best, gp_find_best(&host));
    ck_assert_int_eq(head.bad, -1);
    gp_breed_params bp = {.pop = POP, .elites = ELITES};
    int32_t elite[GP_ELITE_MAX];
    gp_breed_elites(&bp, want_fit, elite);
    for (int e = 0; e < ELITES; ++e) ck_assert_int_eq(head.elite[e], elite[e]);
    gpu_buffer_destroy(&results), gpu_buffer_destroy(&affine);
    gp_resident_destroy(&r);
}
END_TEST

static glevo_gp_data *data(int cases)
{
    float *x = malloc(sizeof(float) * 3 * (size_t)cases), *y = malloc(sizeof(float) * (size_t)cases);
    for (int c = 0; c < cases; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 17, 0, 0, 1, 2);
        for (int v = 0; v < 3; ++v) x[v * cases + c] = 2.0f * glevo_rng_u01(r.v[v]) - 1.0f;
        y[c] = x[c] * x[cases + c] - 0.5f * x[2 * cases + c] > 0.1f ? 1.0f : 0.0f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(3, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

/* Two runs ended alike: the same reported model and error, counts, and every program's
 * error bit for bit. Returns the best error. */
static double same_results(glevo_gp *gpu, glevo_gp *cpu)
{
    glevo_gp_result a, b;
    ck_assert_int_eq(glevo_gp_result_get(gpu, &a), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_result_get(cpu, &b), GLEVO_OK);
    ck_assert_str_eq(a.best_sexpr, b.best_sexpr);
    ck_assert(memcmp(&a.best_error, &b.best_error, 8) == 0);
    ck_assert_int_eq(a.best_nodes, b.best_nodes);
    ck_assert_int_eq(a.nodes_evaluated, b.nodes_evaluated);
    ck_assert_int_eq(a.evaluations, b.evaluations);
    int pop = glevo_gp_params_of(gpu)->pop;
    double *ea = malloc(sizeof(double) * (size_t)pop), *eb = malloc(sizeof(double) * (size_t)pop);
    ck_assert_int_eq(glevo_gp_read_errors(gpu, ea), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_read_errors(cpu, eb), GLEVO_OK);
    ck_assert(memcmp(ea, eb, sizeof(double) * (size_t)pop) == 0);
    double best = a.best_error;
    free(ea), free(eb);
    glevo_gp_result_free(&a), glevo_gp_result_free(&b);
    return best;
}

/* A whole compute run reads nothing back between generations, and is the CPU run. Linear
 * scaling (which reads the sums back each generation: same_scaled_run) and constant fitting
 * (which breeds on the host) are off here: this is the GPU fitness pass's test. */
static void same_run(glevo_gp_metric metric, glevo_gp_function_set set, int elitism)
{
    glevo_gp_data *d = data(53);
    glevo_gp_params p = {.pop = 157, .generations = 9, .seed = 21, .max_size = 41,
                         .metric = metric, .function_set = set, .elitism = elitism, .pm = 0.3,
                         .linear_scaling = GLEVO_ZERO, .const_opt_iters = GLEVO_ZERO,
                         .portfolio = GLEVO_ZERO, .backend = GLEVO_BACKEND_COMPUTE};
    glevo_gp *gpu, *cpu;
    ck_assert_int_eq(glevo_gp_create(&p, d, &gpu), GLEVO_OK);
    ck_assert(gpu->gpu_fit);
    p.backend = GLEVO_BACKEND_CPU;
    ck_assert_int_eq(glevo_gp_create(&p, d, &cpu), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(gpu, 9), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(cpu, 9), GLEVO_OK);
    ck_assert(gpu->fit_stale); /* nothing read back yet */
    same_results(gpu, cpu);
    glevo_gp_destroy(gpu), glevo_gp_destroy(cpu);
    glevo_gp_data_destroy(d);
}

START_TEST(test_runs_equal_cpu)
{
    testutil_context();
    if (!gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE})) return;
    same_run(GLEVO_GP_MSE, GLEVO_GP_REGRESSION, 3);
    same_run(GLEVO_GP_ACCURACY, GLEVO_GP_CLASSIFICATION, 5);
}
END_TEST

/* Linear scaling on a resident population: the GPU run is the CPU run, and the target, 3 x1
 * x2 + 0.5, is found exactly (its scaled error is below what the moments alone resolve, so
 * the second look ran). The compute driver keeps it all on the GPU (gp/fitness.glsl's two
 * passes around the second look of the flagged programs alone: nothing read back between
 * generations); the fragment driver reads the sums back and takes the second look through
 * the host (reading the programs' slots). */
static void same_scaled_run(glevo_backend backend)
{
    enum { CASES = 61, POP = 211 };
    float x[2 * CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 23, 0, 0, 1, 2);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        x[CASES + c] = 2.0f * glevo_rng_u01(r.v[1]) - 1.0f;
        y[c] = 3.0f * (x[c] * x[CASES + c]) + 0.5f;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, CASES, x, y, &d), GLEVO_OK);
    glevo_gp_params p = {.pop = POP, .generations = 8, .seed = 5, .max_size = 31,
                         .metric = GLEVO_GP_MSE, .const_opt_iters = GLEVO_ZERO,
                         .portfolio = GLEVO_ZERO, .backend = backend};
    glevo_gp *gpu, *cpu;
    ck_assert_msg(glevo_gp_create(&p, d, &gpu) == GLEVO_OK, "%s", glevo_last_error());
    if (!getenv("GLEVO_GP_HOST_BREED"))
        ck_assert(gpu->res != NULL && gpu->gpu_fit == (backend == GLEVO_BACKEND_COMPUTE));
    ck_assert_int_eq(gpu->P.linear_scaling, 1);
    p.backend = GLEVO_BACKEND_CPU;
    ck_assert_int_eq(glevo_gp_create(&p, d, &cpu), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(gpu, 8), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(cpu, 8), GLEVO_OK);
    ck_assert(gpu->fit_stale == gpu->gpu_fit); /* nothing read back yet */
    double best = same_results(gpu, cpu);
    ck_assert_msg(best < 1e-10, "best scaled error %g", best);
    glevo_gp_destroy(gpu), glevo_gp_destroy(cpu);
    glevo_gp_data_destroy(d);
}

START_TEST(test_scaled_runs_equal_cpu)
{
    testutil_context();
    if (gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE}))
        same_scaled_run(GLEVO_BACKEND_COMPUTE);
    same_scaled_run(GLEVO_BACKEND_FRAGMENT);
}
END_TEST

/* What the GPU cannot hold is refused before anything is allocated, naming the limit and the
 * value (exit 2 from the command), not bred on the host behind the user's back. */
START_TEST(test_too_large_refused)
{
    testutil_context();
    glevo_gp_data *d = data(11);
    glevo_gp_params p = {.pop = 10, .max_size = 4096, .backend = GLEVO_BACKEND_FRAGMENT};
    glevo_gp *gp = NULL;
    ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(gp);
    ck_assert_msg(strstr(glevo_last_error(), "max_size 4096 is above 4095"), "%s",
                  glevo_last_error());
    p = (glevo_gp_params){.pop = 300007, .max_size = 60, .backend = GLEVO_BACKEND_FRAGMENT};
    ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "pop 300007") && strstr(glevo_last_error(), "16777216"),
                  "%s", glevo_last_error());
    p.backend = GLEVO_BACKEND_CPU, p.pop = 7, p.max_size = 5000, p.generations = 1;
    ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_OK); /* the host has no such limit */
    glevo_gp_destroy(gp);
    glevo_gp_data_destroy(d);
    char cmd[2048], out[4096];
    snprintf(cmd, sizeof cmd, "%s gp --data %s --max-size 4096 --pop 9 --backend fragment 2>&1",
             testutil_cli(), testutil_data_path("gp/projectile_train.csv"));
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--max-size 4096 is above 4095") && !strchr(strchr(out, '\n') + 1, '\n'),
                  "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_fitness");
    TCase *tc = tcase_create("fitness");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fitness_equals_host);
    tcase_add_test(tc, test_scaled_fitness_equals_host);
    tcase_add_test(tc, test_scaled_runs_equal_cpu);
    tcase_add_test(tc, test_runs_equal_cpu);
    tcase_add_test(tc, test_too_large_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
