/* Griewank f = sum z^2/4000 - prod cos(z_j / sqrt(j+1)) + 1 (Qin et al. 2012 F3, CEC 2005
 * shift without rotation, init [0,600]). For fp32 near 1e-8 the 1 - prod cos part is
 * accumulated directly as q <- q + a - q a with a = 1 - cos = 2 sin^2(z / (2 sqrt(j+1))), which
 * never subtracts two numbers close to 1. C twin of shaders/problems/griewank.glsl. */
#include <math.h>

#include "problems_internal.h"

static glevo_vec4 griewank_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 griewank_step(glevo_vec4 acc, int j, float z)
{
    float s = sinf(z / (2.0f * sqrtf((float)(j + 1))));
    float a = 2.0f * (s * s);
    acc.x = acc.x + z * z;
    acc.y = acc.y + a - acc.y * a;
    return acc;
}

static float griewank_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    return acc.x / 4000.0f + acc.y;
}

static double griewank_reference(const double *z, int dim)
{
    double s = 0.0, q = 0.0;
    for (int j = 0; j < dim; ++j) {
        double h = sin(z[j] / (2.0 * sqrt((double)(j + 1))));
        double a = 2.0 * h * h;
        s += z[j] * z[j];
        q = q + a - q * a;
    }
    return s / 4000.0 + q;
}

const glevo_problem glevo_problem_griewank = {
    .name = "griewank",
    .snippet = "problems/griewank.glsl",
    .summary = "Griewank on [-600,600]^D, init [0,600] (CEC 2005 shift, no rotation)",
    .default_dim = 10,
    .lower = -600.0, .upper = 600.0, .init_lower = 0.0, .init_upper = 600.0,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = 0.0,
    .cec_shift_file = "cec2005/griewank_func_data.txt",
    .init = griewank_init, .step = griewank_step, .finish = griewank_finish,
    .reference = griewank_reference,
};
