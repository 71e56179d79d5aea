/* glevo's GP sine, cosine and protected division (src/gp/gp_math.h): accurate against the
 * double-precision libm for every magnitude of float, and bit-identical on the GPU
 * (shaders/gp/math.glsl): with targets set to the CPU's values, every GPU strategy's sum of
 * absolute errors is exactly 0. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/gp_internal.h"
#include "gp/eval/gp_math.h"
#include "gp_engines.h"
#include "testutil.h"

static double ulp_of(double v)
{
    float f = fabsf((float)v);
    if (f < FLT_MIN) return 0x1p-149;
    return (double)(nextafterf(f, INFINITY) - f);
}

/* A float with a random sign, mantissa and exponent in [emin, emax]. */
static float random_float(uint32_t i, uint32_t stream, int emin, int emax)
{
    glevo_u32x4 r = glevo_philox4x32(i, stream, 0, 0, 5, 9);
    int e = emin + (int)(r.v[0] % (uint32_t)(emax - emin + 1));
    float m = 1.0f + glevo_rng_u01(r.v[1]);
    float x = ldexpf(m, e);
    return (r.v[2] & 1u) ? -x : x;
}

START_TEST(test_sin_cos_accuracy)
{
    double worst = 0;
    float worst_x = 0;
    for (uint32_t i = 0; i < 400000; ++i) {
        float x = i < 200000 ? random_float(i, 1, -30, 127) : -20.0f + 40.0f * (float)i / 400000;
        double ulps[2] = {fabs(gp_sin(x) - sin((double)x)) / ulp_of(sin((double)x)),
                          fabs(gp_cos(x) - cos((double)x)) / ulp_of(cos((double)x))};
        for (int k = 0; k < 2; ++k)
            if (ulps[k] > worst) {
                worst = ulps[k];
                worst_x = x;
            }
    }
    /* Cephes' polynomials in float: about 1.5 ulp at worst, at every magnitude. */
    ck_assert_msg(worst <= 2.0, "%g ulp at %a", worst, (double)worst_x);
    /* The hardest single-precision argument for reduction: x mod pi/2 ~ 1.6e-9 * ... */
    float hard = ldexpf(16367173.0f, 72);
    ck_assert_msg(fabs(gp_cos(hard) - cos((double)hard)) <= 2 * ulp_of(cos((double)hard)),
                  "cos(%a) = %a", (double)hard, (double)gp_cos(hard));
    ck_assert(isnan(gp_sin(INFINITY)) && isnan(gp_cos(-INFINITY)) && isnan(gp_sin(NAN)));
    ck_assert(gp_sin(0.0f) == 0.0f && gp_cos(0.0f) == 1.0f);
}
END_TEST

START_TEST(test_division)
{
    ck_assert(gp_div(3.0f, 0.0f) == 1.0f);
    ck_assert(gp_div(3.0f, 9.9e-7f) == 1.0f);
    ck_assert(gp_div(3.0f, -9.9e-7f) == 1.0f);
    ck_assert(gp_div(1.0f, 1e-6f) == 1.0f / 1e-6f);
    ck_assert(gp_div(1.0f, 4.0f) == 0.25f);
}
END_TEST

/* x1 and x2 per case; targets are the CPU's values of the op, so the GPU's SAE is 0 exactly
 * when it computes the same bits on every case. */
static void exact_on_gpu(const char *program, float (*op)(float, float), int emin, int emax,
                         int emax2)
{
    testutil_context();
    enum { CASES = 4099 };
    float *x = malloc(2 * CASES * sizeof *x), *y = malloc(CASES * sizeof *y);
    const float special[] = {0.0f, 1.0f, -1.0f, 0x1p20f, -0x1p20f, nextafterf(0x1p20f, 0.0f),
                             ldexpf(16367173.0f, 72), FLT_MAX, -FLT_MAX, 1e-6f, -1e-6f,
                             nextafterf(1e-6f, 0.0f), 1.5707964f, 3.1415927f, 1e6f, 102943.7f};
    int nspecial = (int)(sizeof special / sizeof special[0]);
    for (int c = 0; c < CASES; ++c) {
        x[c] = c < nspecial ? special[c] : random_float((uint32_t)c, 2, emin, emax);
        x[CASES + c] = c < nspecial ? special[(c + 5) % nspecial] : random_float((uint32_t)c, 3, -19, emax2);
        y[c] = op(x[c], x[CASES + c]);
        /* Overflowing or subnormal results (special pairs) are not what this test is about. */
        if (!isfinite(y[c]) || (y[c] != 0.0f && fabsf(y[c]) < FLT_MIN)) {
            x[c] = x[CASES + c];
            y[c] = op(x[c], x[CASES + c]);
        }
        if (!isfinite(y[c]) || (y[c] != 0.0f && fabsf(y[c]) < FLT_MIN)) {
            x[c] = 0.5f;
            y[c] = op(x[c], x[CASES + c]);
        }
    }
    glevo_gp_data *d = NULL;
    /* Unchecked: the special inputs are the point here (data files may not hold them). */
    ck_assert_int_eq(gp_data_create(2, CASES, x, y, false, &d), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_programs_parse(p, program, "t", 2), GLEVO_OK);
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        glevo_gp_eval_params ep = gp_engines[s].params;
        if (!gp_engine_available(&ep)) continue;
        glevo_gp_evaluator *ev = NULL;
        ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
        double e = -1;
        glevo_status st = glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, &e);
        ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
        ck_assert_msg(e == 0.0, "%s %s: SAE %g against the CPU's values", program,
                      gp_engines[s].name, e);
        glevo_gp_evaluator_destroy(ev);
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
    free(x);
    free(y);
}

static float op_sin(float a, float b) { (void)b; return gp_sin(a); }
static float op_cos(float a, float b) { (void)b; return gp_cos(a); }
static float op_div(float a, float b) { return gp_div(a, b); }
static float op_div_inf(float a, float b) { return gp_div(a, b * 1e30f); }

START_TEST(test_gpu_bit_identical)
{
    /* Normal floats only: GPUs may flush subnormals to zero. */
    exact_on_gpu("(sin x1)\n", op_sin, -30, 127, 15);
    exact_on_gpu("(cos x1)\n", op_cos, -30, 127, 15);
    /* divisors up to 2^127 (the shader scales those above 2^64), and infinite ones */
    exact_on_gpu("(/ x1 x2)\n", op_div, -30, 30, 127);
    exact_on_gpu("(/ x1 (* x2 1e30))\n", op_div_inf, -30, 30, 127);
}
END_TEST

/* ---- symbolic-regression primitives (issue 26) ---- */
static double rel_ulps(float got, double want) { return fabs(got - want) / ulp_of(want); }

START_TEST(test_sr_primitives_accuracy)
{
    double worst[5] = {0};
    float at[5] = {0};
    for (uint32_t i = 0; i < 300000; ++i) {
        float x = i < 150000 ? random_float(i, 4, -30, 6) : -90.0f + 180.0f * (float)i / 300000;
        double u[5] = {
            fabs(x) <= 88.0f && x >= -87.0f ? rel_ulps(gp_exp(x), exp((double)x)) : 0,
            fabsf(x) >= 1e-6f ? rel_ulps(gp_log(x), log(fabs((double)x))) : 0,
            rel_ulps(gp_sqrt(x), sqrt(fabs((double)x))),
            rel_ulps(gp_tanh(x), tanh((double)x)),
            rel_ulps(gp_aq(x, 0.37f * x), (double)x / sqrt(1.0 + (double)(0.37f * x) * (0.37f * x))),
        };
        for (int k = 0; k < 5; ++k)
            if (u[k] > worst[k]) worst[k] = u[k], at[k] = x;
    }
    const char *names[5] = {"exp", "log", "sqrt", "tanh", "aq"};
    const double bound[5] = {2, 2, 0.5, 3, 2};
    for (int k = 0; k < 5; ++k)
        ck_assert_msg(worst[k] <= bound[k], "%s: %g ulp at %a", names[k], worst[k], (double)at[k]);
    /* Domain edges, as documented in src/gp/gp_math.h. */
    ck_assert(gp_exp(0.0f) == 1.0f && gp_exp(89.0f) == INFINITY && gp_exp(-87.5f) == 0.0f);
    ck_assert(isnan(gp_exp(NAN)) && gp_exp(-INFINITY) == 0.0f && gp_exp(INFINITY) == INFINITY);
    ck_assert(gp_log(0.0f) == 0.0f && gp_log(9e-7f) == 0.0f && gp_log(-1.0f) == 0.0f);
    ck_assert(gp_log(-INFINITY) == INFINITY && isnan(gp_log(NAN)));
    ck_assert(gp_log(-2.0f) == gp_log(2.0f) && gp_log(1.0f) == 0.0f);
    ck_assert(gp_sqrt(-4.0f) == 2.0f && gp_sqrt(0.0f) == 0.0f && gp_sqrt(-INFINITY) == INFINITY);
    ck_assert(gp_pow(2.0f, 3.0f) == 8.0f || fabs(gp_pow(2.0f, 3.0f) - 8.0) <= 4 * ulp_of(8.0));
    ck_assert(gp_pow(0.0f, 5.0f) == 1.0f && gp_pow(-3.0f, 2.0f) == gp_pow(3.0f, 2.0f));
    ck_assert(gp_pow(10.0f, 50.0f) == INFINITY);
    ck_assert(gp_tanh(0.0f) == 0.0f && gp_tanh(50.0f) == 1.0f && gp_tanh(-50.0f) == -1.0f);
    ck_assert(isnan(gp_tanh(NAN)) && gp_tanh(INFINITY) == 1.0f);
    ck_assert(gp_aq(3.0f, 0.0f) == 3.0f && gp_aq(1.0f, 1e30f) == 0.0f && gp_aq(-2.0f, 1e20f) == 0.0f);
}
END_TEST

static float op_exp(float a, float b) { (void)b; return gp_exp(a); }
static float op_log(float a, float b) { (void)b; return gp_log(a); }
static float op_sqrt(float a, float b) { (void)b; return gp_sqrt(a); }
static float op_tanh(float a, float b) { (void)b; return gp_tanh(a); }
static float op_pow(float a, float b) { return gp_pow(a, b * 1e-5f); }
static float op_aq(float a, float b) { return gp_aq(a, b); }
static float op_cube(float a, float b) { (void)b; return (a * a) * a; }

START_TEST(test_sr_primitives_gpu_bit_identical)
{
    /* Arguments of every magnitude the operator keeps finite, both signs, with the special
     * values (0, +-1, 1e-6 and its neighbour below, 2^20, +-FLT_MAX, ...) of exact_on_gpu. */
    exact_on_gpu("(exp x1)\n", op_exp, -30, 6, 15);
    exact_on_gpu("(log x1)\n", op_log, -30, 127, 15);
    exact_on_gpu("(sqrt x1)\n", op_sqrt, -126, 127, 15);
    exact_on_gpu("(tanh x1)\n", op_tanh, -30, 8, 15);
    exact_on_gpu("(pow x1 (* x2 1e-5))\n", op_pow, -30, 60, 16);
    exact_on_gpu("(aq x1 x2)\n", op_aq, -30, 60, 127);
    exact_on_gpu("(cube x1)\n", op_cube, -30, 40, 15);
}
END_TEST

/* NaN-producing programs: inf - inf where exp overflows, NaN data never (the loader refuses
 * it). The CPU and every GPU engine give a non-finite error on the same programs. */
START_TEST(test_sr_primitives_nan)
{
    testutil_context();
    float x[7] = {0.0f, -3.0f, 95.0f, 1e30f, -1e-7f, 4.6f, 2.0f}, y[7] = {0};
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, 7, x, y, &d), GLEVO_OK);
    glevo_gp_programs *p = NULL;
    ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
    const char *text = "(- (exp x1) (exp x1))\n(* (- x1 x1) (exp x1))\n(pow x1 x1)\n"
                       "(tanh (exp (exp x1)))\n(aq x1 (exp x1))\n(sqrt (log x1))\n";
    ck_assert_int_eq(glevo_gp_programs_parse(p, text, "t", 1), GLEVO_OK);
    int n = glevo_gp_programs_count(p);
    double cpu[8], gpu[8];
    glevo_gp_eval_params cp = {.backend = GLEVO_BACKEND_CPU, .threads = 1};
    glevo_gp_evaluator *ev = NULL;
    ck_assert_int_eq(glevo_gp_evaluator_create(&cp, d, &ev), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, cpu), GLEVO_OK);
    glevo_gp_evaluator_destroy(ev);
    /* What the definitions say: exp(95) = inf gives NaN in inf - inf and in 0 * inf. */
    ck_assert(isnan(cpu[0]) && isnan(cpu[1]) && isfinite(cpu[3]) && isfinite(cpu[4]));
    for (int s = 0; s < GP_ENGINE_COUNT; ++s) {
        glevo_gp_eval_params ep = gp_engines[s].params;
        if (!gp_engine_available(&ep)) continue;
        ck_assert_int_eq(glevo_gp_evaluator_create(&ep, d, &ev), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, gpu), GLEVO_OK);
        for (int i = 0; i < n; ++i)
            ck_assert_msg(isfinite(cpu[i]) ? gpu[i] == cpu[i] : !isfinite(gpu[i]),
                          "%s program %d: gpu %g cpu %g", gp_engines[s].name, i, gpu[i], cpu[i]);
        glevo_gp_evaluator_destroy(ev);
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_math");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sin_cos_accuracy);
    tcase_add_test(tc, test_division);
    tcase_add_test(tc, test_gpu_bit_identical);
    tcase_add_test(tc, test_sr_primitives_accuracy);
    tcase_add_test(tc, test_sr_primitives_gpu_bit_identical);
    tcase_add_test(tc, test_sr_primitives_nan);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
