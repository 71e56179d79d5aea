/* The enumeration of short programs (src/gp/enumerate.c) against its twin, a naive enumerator
 * that builds every program up to a size (commuted twins and all) and runs each through the
 * CPU interpreter: the same distinct functions, the same best error; a run's first generation
 * holds the enumeration's best on every engine, and the parameter's defaults and bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/sr/enumerate.h"
#include "gp/sr/sr_params.h"
#include "gp_engines.h"
#include "testutil.h"

#define OP(name) (1u << GLEVO_GP_##name)

static float u01(uint32_t i, uint32_t stream)
{
    return glevo_rng_u01(glevo_philox4x32(i, stream, 0, 0, 7, 26).v[0]);
}

/* x1, x2 in [0, 1); y = 2 sin(x1) cos(x2) + 1, plus noise times a uniform draw in [-1, 1). */
static glevo_gp_data *planted(int cases, float noise)
{
    float *x = malloc(2 * (size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        x[c] = u01((uint32_t)c, 1), x[cases + c] = u01((uint32_t)c, 2);
        y[c] = 2.0f * sinf(x[c]) * cosf(x[cases + c]) + 1.0f +
               noise * (2.0f * u01((uint32_t)c, 3) - 1.0f);
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

/* The naive twin: every program of exactly `size` nodes into progs (prefix codes, `size`
 * each), both orders of every binary operator. */
enum { MAX_PROGS = 20000, TWIN_SIZE = 5, CASES = 11 };
static uint32_t progs[MAX_PROGS][TWIN_SIZE];
static int prog_len[MAX_PROGS], nprogs;
static const int twin_ops[] = {GLEVO_GP_ADD, GLEVO_GP_SUB, GLEVO_GP_MUL, GLEVO_GP_DIV,
                               GLEVO_GP_SIN, GLEVO_GP_LOG};

static void all_of_size(int size, uint32_t *prefix, int at, int open)
{
    /* open: subtrees still to fill; size - at: nodes left. */
    if (open == 0) {
        if (at != size) return;
        ck_assert_int_lt(nprogs, MAX_PROGS);
        memcpy(progs[nprogs], prefix, (size_t)size * sizeof *prefix);
        prog_len[nprogs++] = size;
        return;
    }
    if (size - at < open) return;
    for (int v = 0; v < 2; ++v) {
        prefix[at] = GLEVO_GP_CODE(GLEVO_GP_VAR, v);
        all_of_size(size, prefix, at + 1, open - 1);
    }
    for (size_t k = 0; k < sizeof twin_ops / sizeof twin_ops[0]; ++k) {
        int arity = twin_ops[k] == GLEVO_GP_SIN || twin_ops[k] == GLEVO_GP_LOG ? 1 : 2;
        prefix[at] = GLEVO_GP_CODE(twin_ops[k], 0);
        all_of_size(size, prefix, at + 1, open - 1 + arity);
    }
}

/* Least squares' a + b f against y over n cases, as the enumeration scores (b = 0 for a
 * constant f). */
static double scaled_sse(const double *f, const float *y, int n)
{
    double mf = 0, my = 0, sff = 0, sfy = 0, sse = 0;
    for (int c = 0; c < n; ++c) mf += f[c], my += y[c];
    mf /= n, my /= n;
    for (int c = 0; c < n; ++c) sff += (f[c] - mf) * (f[c] - mf), sfy += (f[c] - mf) * (y[c] - my);
    double b = sff > 0 ? sfy / sff : 0, a = my - b * mf;
    for (int c = 0; c < n; ++c) sse += (a + b * f[c] - y[c]) * (a + b * f[c] - y[c]);
    return sse;
}

static bool values_of(const uint32_t *codes, int len, const glevo_gp_data *d, double *f)
{
    static const float no_consts[TWIN_SIZE] = {0};
    for (int c = 0; c < glevo_gp_data_cases(d); ++c) {
        float v = glevo_gp_interpret(codes, len, no_consts, d, c);
        if (!isfinite(v)) return false;
        f[c] = v + 0.0f;
    }
    return true;
}

START_TEST(test_every_short_program_once)
{
    glevo_gp_data *d = testutil_gp_data(2, CASES, 5);
    const float *y = glevo_gp_data_target(d);
    uint32_t mask = OP(VAR) | OP(ADD) | OP(SUB) | OP(MUL) | OP(DIV) | OP(SIN) | OP(LOG);
    uint32_t prefix[TWIN_SIZE];
    static double seen[MAX_PROGS][CASES];
    int distinct = 0;
    double best = INFINITY, syy = 0;
    for (int c = 0; c < CASES; ++c) syy += (double)y[c] * y[c];
    nprogs = 0;
    for (int size = 1; size <= TWIN_SIZE; ++size) all_of_size(size, prefix, 0, 1);
    for (int i = 0; i < nprogs; ++i) {
        double f[CASES];
        if (!values_of(progs[i], prog_len[i], d, f)) continue;
        bool dup = false;
        for (int j = 0; j < distinct && !dup; ++j) dup = !memcmp(seen[j], f, sizeof f);
        if (dup) continue;
        memcpy(seen[distinct++], f, sizeof f);
        double e = scaled_sse(f, y, CASES);
        if (e < best) best = e;
    }
    gp_enumerated got;
    ck_assert_int_eq(gp_enumerate(d, mask, true, 1000000, TWIN_SIZE, 1, &got), GLEVO_OK);
    ck_assert_int_eq(got.complete_size, TWIN_SIZE);
    ck_assert_msg(got.distinct == distinct, "%lld distinct functions, the twin %d (of %d "
                  "programs)", got.distinct, distinct, nprogs);
    ck_assert_int_lt(got.tried, nprogs); /* commuted twins are never made */
    ck_assert_int_eq(got.count, GP_ENUM_SEEDS);
    /* Errors in double from the same floats: they differ by rounding of sums of y^2's size. */
    double tol = 1e-12 * syy;
    ck_assert_msg(fabs(got.sse[0] - best) <= tol, "best %.17g, the twin's %.17g", got.sse[0],
                  best);
    for (int r = 0; r < got.count; ++r) {
        double f[CASES];
        ck_assert(values_of(got.codes[r], got.len[r], d, f));
        ck_assert_int_le(got.len[r], TWIN_SIZE);
        ck_assert_msg(fabs(scaled_sse(f, y, CASES) - got.sse[r]) <= tol, "program %d", r);
        if (r) ck_assert(got.sse[r] >= got.sse[r - 1]);
    }
    /* Unscaled: the error of f itself. */
    ck_assert_int_eq(gp_enumerate(d, mask, false, 1000000, 1, 1, &got), GLEVO_OK);
    for (int r = 0; r < got.count; ++r) {
        double f[CASES], sse = 0;
        ck_assert(values_of(got.codes[r], got.len[r], d, f));
        for (int c = 0; c < CASES; ++c) sse += (f[c] - y[c]) * (f[c] - y[c]);
        ck_assert_msg(fabs(sse - got.sse[r]) <= tol, "unscaled program %d", r);
    }
    /* A budget stops it part way through a size. */
    ck_assert_int_eq(gp_enumerate(d, mask, true, 50, TWIN_SIZE, 1, &got), GLEVO_OK);
    ck_assert_int_eq(got.tried, 50);
    ck_assert_int_lt(got.complete_size, TWIN_SIZE);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Large data: the cases scored are a stride sample of GP_ENUM_CASES, and the twin's best
 * error over them is the enumeration's. */
START_TEST(test_large_data_is_sampled)
{
    glevo_gp_data *d = planted(1000, 0.0f);
    gp_enumerated got;
    uint32_t mask = OP(VAR) | OP(MUL) | OP(SIN) | OP(COS);
    ck_assert_int_eq(gp_enumerate(d, mask, true, 100000, 5, 1, &got), GLEVO_OK);
    /* (* (sin x1) (cos x2)) or its commuted twin: exact up to 2 f + 1 */
    ck_assert_int_eq(got.len[0], 5);
    double f[1000], y[GP_ENUM_CASES], v[GP_ENUM_CASES];
    ck_assert(values_of(got.codes[0], 5, d, f));
    for (int k = 0; k < GP_ENUM_CASES; ++k) {
        int c = (int)((long long)k * 1000 / GP_ENUM_CASES);
        v[k] = f[c], y[k] = glevo_gp_data_target(d)[c];
        ck_assert(fabs(2 * sin(glevo_gp_data_row(d, 0)[c]) * cos(glevo_gp_data_row(d, 1)[c]) -
                       2 * f[c]) < 1e-5);
    }
    float yf[GP_ENUM_CASES];
    for (int k = 0; k < GP_ENUM_CASES; ++k) yf[k] = (float)y[k];
    ck_assert(fabs(scaled_sse(v, yf, GP_ENUM_CASES) - got.sse[0]) <= 1e-12 * 9 * GP_ENUM_CASES);
    ck_assert(got.sse[0] < 1e-9);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Generation 0 of P's run on d with the enumeration and without it (GLEVO_ZERO): programs
 * equal but in the last `seeded` slots, which hold want's best; the best error of each. */
static void first_generations(glevo_gp_params P, const glevo_gp_data *d,
                              const gp_enumerated *want, int seeded, const char *name,
                              double *with, double *without)
{
    glevo_gp *on = NULL, *off = NULL;
    ck_assert_int_eq(glevo_gp_create(&P, d, &on), GLEVO_OK);
    P.enumeration = GLEVO_ZERO;
    ck_assert_int_eq(glevo_gp_create(&P, d, &off), GLEVO_OK);
    const glevo_gp_programs *a = glevo_gp_population(on, NULL), *b = glevo_gp_population(off, NULL);
    for (int i = 0; i < P.pop; ++i) {
        int la, lb, r = P.pop - 1 - i;
        const uint32_t *ca = glevo_gp_programs_codes(a, i, &la);
        const uint32_t *cb = glevo_gp_programs_codes(b, i, &lb);
        if (r < seeded)
            ck_assert_msg(la == want->len[r] && !memcmp(ca, want->codes[r], sizeof *ca * la),
                          "%s: program %d is not the enumeration's %d", name, i, r);
        else
            ck_assert_msg(la == lb && !memcmp(ca, cb, sizeof *ca * la), "%s: program %d differs "
                          "from the run without the enumeration", name, i);
    }
    *with = glevo_gp_best_error(on), *without = glevo_gp_best_error(off);
    glevo_gp_destroy(on), glevo_gp_destroy(off);
}

/* The programs of the enumeration that fit to rounding (what a run seeds). */
static int exact_count(const gp_enumerated *e)
{
    int n = 0;
    while (n < e->count && e->sse[n] <= GP_ENUM_EXACT * e->target_ss) n++;
    return n;
}

/* A run's first generation ends with the enumeration's programs that fit to rounding, on
 * every engine, and is otherwise the run without it: the planted 2 sin(x1) cos(x2) + 1 is
 * its best program at generation 0 (without the enumeration it is not); with noise nothing
 * fits and the runs are the same. The checkpoint keeps the count. */
START_TEST(test_first_generation_holds_the_best)
{
    glevo_gp_data *d = planted(40, 0.0f), *noisy = planted(40, 0.01f);
    uint32_t ops = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION);
    gp_enumerated want, none;
    glevo_gp_params base = {.pop = 200, .generations = 2, .metric = GLEVO_GP_MSE, .seed = 4,
                            .portfolio = GLEVO_ZERO, .const_opt_iters = GLEVO_ZERO};
    glevo_gp_params resolved = glevo_gp_params_defaults(&base);
    ck_assert_int_eq(resolved.enumeration, GP_ENUMERATION_DEFAULT);
    ck_assert_int_eq(gp_enumerate(d, ops, true, GP_ENUMERATION_DEFAULT, 100, 1, &want), GLEVO_OK);
    int seeded = exact_count(&want);
    ck_assert_int_ge(seeded, 1);
    ck_assert(want.count > seeded); /* the others are not seeded */
    ck_assert_int_eq(gp_enumerate(noisy, ops, true, GP_ENUMERATION_DEFAULT, 100, 1, &none),
                     GLEVO_OK);
    ck_assert_int_eq(exact_count(&none), 0);
    /* Several threads compute the candidates: the same programs. */
    gp_enumerated threaded;
    ck_assert_int_eq(gp_enumerate(d, ops, true, GP_ENUMERATION_DEFAULT, 100, 3, &threaded),
                     GLEVO_OK);
    ck_assert(threaded.tried == want.tried && threaded.distinct == want.distinct &&
              !memcmp(threaded.codes, want.codes, sizeof want.codes) &&
              !memcmp(threaded.sse, want.sse, sizeof want.sse));
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        glevo_gp_eval_params ep = gp_engines[s].params;
        if (!gp_engine_available(&ep)) continue;
        if (ep.backend != GLEVO_BACKEND_CPU) testutil_context();
        glevo_gp_params P = base;
        P.backend = ep.backend, P.eval = ep;
        double with, without;
        first_generations(P, d, &want, seeded, gp_engines[s].name, &with, &without);
        ck_assert_msg(with < 1e-10, "%s: generation 0's best %g", gp_engines[s].name, with);
        ck_assert_msg(without > 1e-6, "%s: generation 0 without the enumeration %g",
                      gp_engines[s].name, without);
        first_generations(P, noisy, &none, 0, gp_engines[s].name, &with, &without);
        ck_assert(with == without);

        glevo_gp *gp = NULL;
        ck_assert_int_eq(glevo_gp_create(&P, d, &gp), GLEVO_OK);
        char path[128];
        snprintf(path, sizeof path, "/tmp/glevo-gp-enumerate-%ld.ckpt", (long)getpid());
        ck_assert_int_eq(glevo_gp_save(gp, path, NULL), GLEVO_OK);
        glevo_gp *resumed = NULL;
        ck_assert_int_eq(glevo_gp_load(path, &(glevo_gp_params){.backend = P.backend}, d,
                                       &resumed), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_params_of(resumed)->enumeration, GP_ENUMERATION_DEFAULT);
        glevo_gp_destroy(resumed);
        unlink(path);
        glevo_gp_destroy(gp);
    }
    glevo_gp_data_destroy(d), glevo_gp_data_destroy(noisy);
}
END_TEST

START_TEST(test_params)
{
    glevo_gp_params p = {.metric = GLEVO_GP_SAE};
    ck_assert_int_eq(glevo_gp_params_defaults(&p).enumeration, 0);
    p.metric = GLEVO_GP_RMSE;
    ck_assert_int_eq(glevo_gp_params_defaults(&p).enumeration, GP_ENUMERATION_DEFAULT);
    p.enumeration = GLEVO_ZERO;
    ck_assert_int_eq(glevo_gp_params_defaults(&p).enumeration, 0);
    p.enumeration = 1234;
    ck_assert_int_eq(glevo_gp_params_defaults(&p).enumeration, 1234);
    glevo_gp_data *d = planted(20, 0.0f);
    glevo_gp_result r;
    int bad[] = {-5, GP_ENUMERATION_MAX + 1};
    for (int k = 0; k < 2; ++k) {
        p.enumeration = bad[k];
        p.backend = GLEVO_BACKEND_CPU;
        ck_assert_int_eq(glevo_gp_run(&p, d, &r), GLEVO_ERR_INVALID);
        ck_assert_msg(strstr(glevo_last_error(), "glevo_gp_params.enumeration"), "%s",
                      glevo_last_error());
    }
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_enumerate");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_short_program_once);
    tcase_add_test(tc, test_large_data_is_sampled);
    tcase_add_test(tc, test_first_generation_holds_the_best);
    tcase_add_test(tc, test_params);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
