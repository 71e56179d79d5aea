/* Sphere f = sum z^2 (CEC 2005 F1 when shifted; Qin et al. 2012 F1). C twin of
 * shaders/problems/sphere.glsl. */
#include "problems_internal.h"

static glevo_vec4 sphere_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 sphere_step(glevo_vec4 acc, int j, float z)
{
    (void)j;
    acc.x = acc.x + z * z;
    return acc;
}

static float sphere_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    return acc.x;
}

static double sphere_reference(const double *z, int dim)
{
    double s = 0.0;
    for (int j = 0; j < dim; ++j) s += z[j] * z[j];
    return s;
}

const glevo_problem glevo_problem_sphere = {
    .name = "sphere",
    .snippet = "problems/sphere.glsl",
    .summary = "sum z^2 on [-100,100]^D (CEC 2005 F1 shifted)",
    .default_dim = 10,
    .lower = -100.0, .upper = 100.0, .init_lower = -100.0, .init_upper = 100.0,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = 0.0,
    .cec_shift_file = "cec2005/sphere_func_data.txt",
    .init = sphere_init, .step = sphere_step, .finish = sphere_finish,
    .reference = sphere_reference,
};
