/* Rosenbrock f = sum_{j<D-1} 100 (z_j^2 - z_{j+1})^2 + (z_j - 1)^2 (CEC 2005 F6: z = x - o + 1;
 * Qin et al. 2012 F2). Streams with the previous gene in acc.y. C twin of
 * shaders/problems/rosenbrock.glsl. */
#include "problems_internal.h"

static glevo_vec4 rosenbrock_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 rosenbrock_step(glevo_vec4 acc, int j, float z)
{
    if (j > 0) {
        float p = acc.y;
        float a = p * p - z;
        float b = p - 1.0f;
        acc.x = acc.x + (100.0f * (a * a) + b * b);
    }
    acc.y = z;
    return acc;
}

static float rosenbrock_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    return acc.x;
}

static double rosenbrock_reference(const double *z, int dim)
{
    double s = 0.0;
    for (int j = 0; j + 1 < dim; ++j) {
        double a = z[j] * z[j] - z[j + 1], b = z[j] - 1.0;
        s += 100.0 * a * a + b * b;
    }
    return s;
}

const glevo_problem glevo_problem_rosenbrock = {
    .name = "rosenbrock",
    .snippet = "problems/rosenbrock.glsl",
    .summary = "Rosenbrock valley on [-100,100]^D (CEC 2005 F6 shifted, z = x - o + 1)",
    .default_dim = 10,
    .lower = -100.0, .upper = 100.0, .init_lower = -100.0, .init_upper = 100.0,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = 0.0,
    .shift_add = 1.0f,
    .cec_shift_file = "cec2005/rosenbrock_func_data.txt",
    .init = rosenbrock_init, .step = rosenbrock_step, .finish = rosenbrock_finish,
    .reference = rosenbrock_reference,
};
