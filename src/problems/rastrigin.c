/* Rastrigin f = sum z^2 - 10 cos(2 pi z) + 10, evaluated per gene in the stable form
 * z^2 + 20 sin^2(pi z) (Qin et al. 2012 F4; CEC 2005 F9 domain [-5,5]). C twin of
 * shaders/problems/rastrigin.glsl. */
#include <math.h>

#include "problems_internal.h"

static glevo_vec4 rastrigin_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 rastrigin_step(glevo_vec4 acc, int j, float z)
{
    (void)j;
    float s = sinf(PROBLEM_PI_F * z);
    acc.x = acc.x + (z * z + 20.0f * (s * s));
    return acc;
}

static float rastrigin_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    return acc.x;
}

static double rastrigin_reference(const double *z, int dim)
{
    double f = 0.0;
    for (int j = 0; j < dim; ++j) {
        double s = sin(PROBLEM_PI * z[j]);
        f += z[j] * z[j] + 20.0 * s * s;
    }
    return f;
}

const glevo_problem glevo_problem_rastrigin = {
    .name = "rastrigin",
    .snippet = "problems/rastrigin.glsl",
    .summary = "Rastrigin on [-5.12,5.12]^D (CEC 2005 F9 shifted, on [-5,5])",
    .default_dim = 10,
    .lower = -5.12, .upper = 5.12, .init_lower = -5.12, .init_upper = 5.12,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = 0.0,
    .cec_shift_file = "cec2005/rastrigin_func_data.txt",
    .init = rastrigin_init, .step = rastrigin_step, .finish = rastrigin_finish,
    .reference = rastrigin_reference,
};
