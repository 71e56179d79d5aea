/* Schwefel f = -sum x sin(sqrt|x|) on [-500,500]^D (Li, Chi, Wan 2008), minimum
 * -418.9828872724338 D at x_j = 420.9687. C twin of shaders/problems/schwefel.glsl. */
#include <math.h>

#include "problems_internal.h"

static glevo_vec4 schwefel_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 schwefel_step(glevo_vec4 acc, int j, float z)
{
    (void)j;
    acc.x = acc.x - z * sinf(sqrtf(fabsf(z)));
    return acc;
}

static float schwefel_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    return acc.x;
}

static double schwefel_reference(const double *z, int dim)
{
    double f = 0.0;
    for (int j = 0; j < dim; ++j) f -= z[j] * sin(sqrt(fabs(z[j])));
    return f;
}

const glevo_problem glevo_problem_schwefel = {
    .name = "schwefel",
    .snippet = "problems/schwefel.glsl",
    .summary = "Schwefel -sum x sin(sqrt|x|) on [-500,500]^D (2008 paper)",
    .default_dim = 2,
    .lower = -500.0, .upper = 500.0, .init_lower = -500.0, .init_upper = 500.0,
    .direction = GLEVO_MINIMIZE,
    /* The optimum scales with D: registry.c's glevo_problem_optimum multiplies by D. */
    .has_optimum = true, .optimum = -418.9828872724338,
    .init = schwefel_init, .step = schwefel_step, .finish = schwefel_finish,
    .reference = schwefel_reference,
};
