/* The shared problem library: every problem at its optimum and at fixed points against values
 * computed independently in double with python3 (the textbook forms, not our stable ones),
 * the float twins against the double references, the CEC 2005 shifts (embedded == files), and
 * every GLSL snippet against its float twin on the GPU (llvmpipe on CI). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gpgpu.h"
#include "glevo/problem.h"
#include "testutil.h"

static const glevo_problem *must_find(const char *name)
{
    const glevo_problem *p = glevo_problem_find(name);
    ck_assert_msg(p != NULL, "problem %s missing: %s", name, glevo_last_error());
    return p;
}

/* Checks the double reference (relative 1e-12) and the float twin (relative rel_f, or
 * absolute abs_f for values near 0) against an independently computed value. */
static void check_point(const char *name, const double *z, int dim, double expect, double rel_f,
                        double abs_f)
{
    const glevo_problem *p = must_find(name);
    double r = p->reference(z, dim);
    ck_assert_msg(fabs(r - expect) <= 1e-12 * fmax(1.0, fabs(expect)),
                  "%s reference %.17g, expected %.17g", name, r, expect);
    float zf[16];
    for (int j = 0; j < dim; ++j) zf[j] = (float)z[j];
    double f = glevo_problem_eval_float(p, zf, dim);
    /* The float twin sees z rounded to float; the tolerance covers that and fp32 arithmetic. */
    ck_assert_msg(fabs(f - expect) <= fmax(rel_f * fabs(expect), abs_f),
                  "%s float twin %.9g, expected %.17g", name, f, expect);
}

START_TEST(test_fixed_points)
{
    /* python3: sum(v*v for v in z) */
    check_point("sphere", (const double[]){1, 2, 3}, 3, 14.0, 1e-7, 0);
    /* 100*(1.44-1)^2 + 2.2^2 */
    check_point("rosenbrock", (const double[]){-1.2, 1.0}, 2, 24.2, 1e-6, 0);
    check_point("rosenbrock", (const double[]){0, 0, 0}, 3, 2.0, 1e-7, 0);
    /* python3: sum(v*v)/4000 - prod(cos(v/sqrt(i+1))) + 1 */
    check_point("griewank", (const double[]){100, -50, 3.5}, 3, 3.8661946385210655, 1e-5, 0);
    check_point("griewank", (const double[]){1e-3, 2e-3}, 2, 1.5012492916577358e-06, 1e-4, 0);
    /* python3: sum(v*v - 10*cos(2*pi*v) + 10) */
    check_point("rastrigin", (const double[]){0.5, 1.0, -2.0}, 3, 25.25, 1e-5, 0);
    check_point("rastrigin", (const double[]){0.1, -0.3, 4.2}, 3, 39.649830056250515, 1e-5, 0);
    check_point("rastrigin", (const double[]){1e-5, 0}, 2, 1.9839209386418588e-08, 1e-4, 0);
    /* python3: -20*exp(-0.2*sqrt(s2/D)) - exp(sc/D) + 20 + e */
    check_point("ackley", (const double[]){1, 1}, 2, 3.6253849384403627, 1e-5, 0);
    check_point("ackley", (const double[]){0.5, -2.25, 3}, 3, 8.796847269687525, 1e-5, 0);
    check_point("ackley", (const double[]){1e-4, 0, 0}, 3, 0.00023111763011174347, 1e-4, 0);
    /* python3: -sum(v*sin(sqrt(abs(v)))) */
    check_point("schwefel", (const double[]){-100, 250, 7}, 3, -31.922327352586233, 1e-5, 0);
    /* python3: 0.5 - (sin(sqrt(r2))**2 - 0.5) / (1 + 0.001*r2)**2 */
    check_point("schaffer", (const double[]){1, 2}, 2, 0.38220668202242963, 1e-5, 0);
    check_point("schaffer", (const double[]){-30, 45.5}, 2, 0.4816974438164355, 1e-5, 0);
    /* python3: (4 - 2.1x^2 + x^4/3)x^2 + xy + (-4 + 4y^2)y^2 */
    check_point("camel", (const double[]){1, -2}, 2, 48.233333333333334, 1e-6, 0);
    check_point("camel", (const double[]){0.5, 0.25}, 2, 0.7645833333333334, 1e-6, 0);
}
END_TEST

START_TEST(test_optima)
{
    /* At the optimum z (0, or 1 for Rosenbrock) each problem gives its stated optimum. */
    static const char *const zero_opt[] = {"sphere", "griewank", "rastrigin", "ackley",
                                           "schaffer"};
    for (size_t k = 0; k < sizeof zero_opt / sizeof zero_opt[0]; ++k) {
        const glevo_problem *p = must_find(zero_opt[k]);
        int dim = p->fixed_dim ? p->fixed_dim : 7;
        double zd[7] = {0};
        float zf[7] = {0};
        double opt = glevo_problem_optimum(p, dim);
        ck_assert_msg(p->reference(zd, dim) == opt, "%s reference at 0", p->name);
        ck_assert_msg(glevo_problem_eval_float(p, zf, dim) == (float)opt, "%s float at 0",
                      p->name);
    }
    const glevo_problem *r = must_find("rosenbrock");
    double ones[7] = {1, 1, 1, 1, 1, 1, 1};
    float onesf[7] = {1, 1, 1, 1, 1, 1, 1};
    ck_assert(r->reference(ones, 7) == 0.0 && glevo_problem_eval_float(r, onesf, 7) == 0.0f);

    /* python3: -2*420.9687*sin(sqrt(420.9687)) = -837.965774544325; the optimum constant is
     * per gene and the stated x is rounded to 4 decimals, hence 1e-6. */
    const glevo_problem *s = must_find("schwefel");
    double xs[2] = {420.9687, 420.9687};
    ck_assert_double_eq_tol(s->reference(xs, 2), -837.965774544325, 1e-9);
    ck_assert_double_eq_tol(glevo_problem_optimum(s, 2), -837.9657745448676, 1e-9);
    ck_assert_double_eq_tol(s->reference(xs, 2), glevo_problem_optimum(s, 2), 1e-6);

    const glevo_problem *c = must_find("camel");
    double xc[2] = {0.08984201368301331, -0.7126564032704135};
    ck_assert_double_eq_tol(c->reference(xc, 2), c->optimum, 1e-15);
    float xcf[2] = {(float)xc[0], (float)xc[1]};
    ck_assert_double_eq_tol(glevo_problem_eval_float(c, xcf, 2), c->optimum, 1e-6);
    ck_assert_int_eq(c->fixed_dim, 2);
    ck_assert(c->direction == GLEVO_MINIMIZE);
    ck_assert(must_find("schaffer")->direction == GLEVO_MAXIMIZE);
}
END_TEST

START_TEST(test_float_twin_vs_double)
{
    /* Random points in each domain (fixed seed, printed on failure): float twin within a
     * relative 1e-4 of the double reference, plus an absolute floor scaled by the magnitude of
     * the terms (cancellation in Schwefel and camel). */
    const glevo_problem *all = glevo_problems();
    unsigned seed = 12345;
    for (int k = 0; all[k].name; ++k) {
        const glevo_problem *p = &all[k];
        int dim = p->fixed_dim ? p->fixed_dim : 9;
        for (int t = 0; t < 50; ++t) {
            double z[9];
            float zf[9];
            for (int j = 0; j < dim; ++j) {
                seed = seed * 1103515245u + 12345u;
                double u = (double)(seed >> 8) / 16777216.0;
                zf[j] = (float)(p->lower + u * (p->upper - p->lower));
                z[j] = zf[j];
            }
            double r = p->reference(z, dim);
            double f = glevo_problem_eval_float(p, zf, dim);
            double scale = fabs(r);
            if (p->reference == must_find("schwefel")->reference) scale = 500.0 * dim;
            if (p->reference == must_find("camel")->reference) scale = fabs(r) + 1e4;
            ck_assert_msg(fabs(f - r) <= 1e-4 * scale + 1e-6,
                          "%s trial %d (seed 12345): float %.9g vs double %.17g", p->name, t, f,
                          r);
        }
    }
}
END_TEST

START_TEST(test_find_and_better)
{
    ck_assert_ptr_null(glevo_problem_find("nosuch"));
    ck_assert_msg(strstr(glevo_last_error(), "nosuch") && strstr(glevo_last_error(), "sphere"),
                  "error names the bad and the known names: %s", glevo_last_error());
    int count = 0;
    for (const glevo_problem *p = glevo_problems(); p->name; ++p) {
        ck_assert_ptr_eq(glevo_problem_find(p->name), p);
        ck_assert(p->init && p->step && p->finish && p->reference && p->snippet);
        char *text = gpu_shader_source(p->snippet);
        ck_assert_msg(text && strstr(text, "problem_finish"), "%s snippet %s", p->name,
                      p->snippet);
        free(text);
        ++count;
    }
    ck_assert_int_eq(count, 8);
    const glevo_problem *mn = must_find("sphere"), *mx = must_find("schaffer");
    ck_assert(glevo_problem_better(mn, 1.0, 2.0) && !glevo_problem_better(mn, 2.0, 1.0));
    ck_assert(glevo_problem_better(mx, 2.0, 1.0) && !glevo_problem_better(mx, 1.0, 2.0));
    ck_assert(!glevo_problem_better(mn, 1.0, 1.0));
    double x[2] = {0.1, 0.1};
    ck_assert_double_eq_tol(glevo_problem_error(mx, x, NULL, 2), 1.0 - mx->reference(x, 2),
                            1e-15);
    ck_assert(glevo_problem_error(mx, x, NULL, 2) > 0.0);
}
END_TEST

START_TEST(test_shifts)
{
    static const char *const shifted[] = {"sphere", "rosenbrock", "griewank", "rastrigin"};
    double file[100], embedded[100];
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", testutil_data_path(""));
    unsetenv("GLEVO_DATA_DIR");
    for (int k = 0; k < 4; ++k) {
        const glevo_problem *p = must_find(shifted[k]);
        ck_assert_ptr_nonnull(p->cec_shift_file);
        ck_assert_int_eq(glevo_problem_load_shift(p, 100, dir, file), GLEVO_OK);
        ck_assert_int_eq(glevo_problem_load_shift(p, 100, NULL, embedded), GLEVO_OK);
        for (int j = 0; j < 100; ++j) ck_assert_double_eq(file[j], embedded[j]);
        /* At x = o the shifted problem sits at its optimum (Rosenbrock via z = x - o + 1). */
        ck_assert_double_eq_tol(glevo_problem_error(p, embedded, embedded, 10), 0.0, 1e-12);
        ck_assert(glevo_problem_error(p, embedded, NULL, 10) > 1.0);
    }
    /* The first numbers of sphere_func_data.txt: -3.9311900e+001 5.8899900e+001 -4.6322400e+001 */
    double s[3];
    glevo_problem_load_shift(must_find("sphere"), 3, NULL, s);
    ck_assert_double_eq(s[0], -39.3119);
    ck_assert_double_eq(s[2], -46.3224);
    ck_assert_int_eq(glevo_problem_load_shift(must_find("sphere"), 101, NULL, s),
                     GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_problem_load_shift(must_find("camel"), 2, NULL, s), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_problem_load_shift(must_find("sphere"), 3, "/nonexistent", s),
                     GLEVO_ERR_IO);
}
END_TEST

START_TEST(test_from_glsl)
{
    glevo_problem p;
    ck_assert_int_eq(glevo_problem_from_glsl("/nonexistent.glsl", 3, -1, 1, GLEVO_MINIMIZE, &p),
                     GLEVO_ERR_IO);
    ck_assert_int_eq(glevo_problem_from_glsl("/dev/null", 0, -1, 1, GLEVO_MINIMIZE, &p),
                     GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_problem_from_glsl("/dev/null", 3, 1, -1, GLEVO_MINIMIZE, &p),
                     GLEVO_ERR_INVALID);
    /* A file without the three entry points is refused naming it (issue 23), before a shader
     * build would blame the library's own file. */
    ck_assert_int_eq(glevo_problem_from_glsl("/dev/null", 3, -2, 5, GLEVO_MAXIMIZE, &p),
                     GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "/dev/null") && strstr(glevo_last_error(), "problem_init"));
    const char *fit = testutil_data_path("examples/fitness.glsl");
    ck_assert_int_eq(glevo_problem_from_glsl(fit, 3, -2, 5, GLEVO_MAXIMIZE, &p), GLEVO_OK);
    ck_assert_ptr_null(p.init);
    ck_assert_str_eq(p.snippet, fit);
    ck_assert(p.lower == -2 && p.upper == 5 && p.default_dim == 3 && p.direction == GLEVO_MAXIMIZE);
}
END_TEST

START_TEST(test_gpu_snippets)
{
    /* Every snippet on the GPU against its float twin: 7 points per problem (odd on purpose),
     * tolerance for GPU sin/exp differing from libm by a few ULPs. */
    testutil_context();
    const glevo_problem *all = glevo_problems();
    for (int k = 0; all[k].name; ++k) {
        const glevo_problem *p = &all[k];
        int dim = p->fixed_dim ? p->fixed_dim : 5, n = 7;
        float z[7 * 5], out[7 * 4];
        unsigned seed = 777u + (unsigned)k;
        for (int i = 0; i < n * dim; ++i) {
            seed = seed * 1103515245u + 12345u;
            double u = (double)(seed >> 8) / 16777216.0;
            z[i] = (float)(p->lower + u * (p->upper - p->lower));
        }
        for (int j = 0; j < dim; ++j) z[j] = 0.0f; /* row 0: the optimum of most problems */
        const char *aliases[] = {"problem", p->snippet, NULL};
        gpu_program prog;
        static const gpu_slot z_slot[] = {{"t_z", 0}, {0}};
        struct { int32_t dim, pad[3]; } u = {dim, {0, 0, 0}};
        glevo_status st = gpu_program_build(&prog, &(gpu_program_desc){
                                                .name = "problems.evaluate",
                                                .fragment = "problems/evaluate.glsl",
                                                .aliases = aliases, .samplers = z_slot,
                                                .uniform_size = sizeof u});
        ck_assert_msg(st == GLEVO_OK, "%s: %s", p->name, glevo_last_error());
        gpu_texture tz, tf;
        ck_assert_int_eq(gpu_texture_create(&tz, dim, n, GPU_R32F, z), GLEVO_OK);
        ck_assert_int_eq(gpu_texture_create(&tf, 1, n, GPU_RGBA32F, NULL), GLEVO_OK);
        gpu_pass pass = {.name = "problems.evaluate", .program = &prog};
        gpu_pass_input(&pass, 0, &tz);
        gpu_pass_target(&pass, &tf);
        gpu_pass_uniforms(&pass, &u, sizeof u);
        ck_assert_int_eq(gpu_pass_draw(&pass), GLEVO_OK);
        ck_assert_int_eq(gpu_texture_read(&tf, out), GLEVO_OK);
        for (int i = 0; i < n; ++i) {
            float c = glevo_problem_eval_float(p, &z[i * dim], dim);
            double r = c;
            double tol = 1e-4 * fabs(r) + 1e-5;
            if (p->reference == must_find("schwefel")->reference) tol = 1e-4 * 500.0 * dim;
            if (p->reference == must_find("camel")->reference) tol = 1e-4 * (fabs(r) + 1e4);
            ck_assert_msg(fabs(out[i * 4] - r) <= tol, "%s row %d (seed %u): GPU %.9g, C %.9g",
                          p->name, i, 777u + (unsigned)k, out[i * 4], c);
        }
        gpu_texture_destroy(&tz);
        gpu_texture_destroy(&tf);
        gpu_program_destroy(&prog);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("problems");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fixed_points);
    tcase_add_test(tc, test_optima);
    tcase_add_test(tc, test_float_twin_vs_double);
    tcase_add_test(tc, test_find_and_better);
    tcase_add_test(tc, test_shifts);
    tcase_add_test(tc, test_from_glsl);
    tcase_add_test(tc, test_gpu_snippets);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
