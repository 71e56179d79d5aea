/* Ackley f = -20 exp(-0.2 sqrt(sum z^2 / D)) - exp(sum cos(2 pi z) / D) + 20 + e, written as
 * 20 (1 - exp(-u)) + e (1 - exp(-v)) with u = 0.2 sqrt(sum z^2 / D) and
 * v = sum 2 sin^2(pi z) / D, so that values near the optimum keep their digits in fp32.
 * C twin of shaders/problems/ackley.glsl. */
#include <math.h>

#include "problems_internal.h"

#define ACKLEY_E_F 2.71828182845905f

/* 1 - exp(-t) for t >= 0 without cancellation near 0 (GLSL has no expm1); the shader's
 * problem_one_minus_exp does the same float operations. */
static float problem_one_minus_exp_f(float t)
{
    /* Below 2^-7 the series t - t^2/2 + t^3/6 is exact to float rounding (next term t^4/24
     * is < 2^-28 t) and avoids 1 - exp(-t) losing its digits. */
    if (t < 0.0078125f) return t * (1.0f - t * (0.5f - t * (1.0f / 6.0f)));
    return 1.0f - expf(-t);
}

static glevo_vec4 ackley_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 ackley_step(glevo_vec4 acc, int j, float z)
{
    (void)j;
    float s = sinf(PROBLEM_PI_F * z);
    acc.x = acc.x + z * z;
    acc.y = acc.y + 2.0f * (s * s);
    return acc;
}

static float ackley_finish(glevo_vec4 acc, int dim)
{
    float u = 0.2f * sqrtf(acc.x / (float)dim);
    float v = acc.y / (float)dim;
    return 20.0f * problem_one_minus_exp_f(u) + ACKLEY_E_F * problem_one_minus_exp_f(v);
}

static double ackley_reference(const double *z, int dim)
{
    /* Same identity in double with expm1, so that the reported error at the optimum is 0
     * rather than the rounding residue of -20 - e + 20 + e. */
    double s2 = 0.0, sc = 0.0;
    for (int j = 0; j < dim; ++j) {
        double s = sin(PROBLEM_PI * z[j]);
        s2 += z[j] * z[j];
        sc += 2.0 * s * s;
    }
    return -20.0 * expm1(-0.2 * sqrt(s2 / dim)) - exp(1.0) * expm1(-sc / dim);
}

const glevo_problem glevo_problem_ackley = {
    .name = "ackley",
    .snippet = "problems/ackley.glsl",
    .summary = "Ackley on [-32.768,32.768]^D",
    .default_dim = 10,
    .lower = -32.768, .upper = 32.768, .init_lower = -32.768, .init_upper = 32.768,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = 0.0,
    .init = ackley_init, .step = ackley_step, .finish = ackley_finish,
    .reference = ackley_reference,
};
