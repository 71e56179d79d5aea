/* Six-hump camel back f = (4 - 2.1x^2 + x^4/3) x^2 + xy + (-4 + 4y^2) y^2 on (-100,100)^2
 * (2008 paper), minimum -1.0316284534898774 at (+-0.0898, -+0.7126). C twin of
 * shaders/problems/camel.glsl. */
#include "problems_internal.h"

static glevo_vec4 camel_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 camel_step(glevo_vec4 acc, int j, float z)
{
    if (j == 0) acc.x = z;
    else acc.y = z;
    return acc;
}

static float camel_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    float x = acc.x, y = acc.y;
    float x2 = x * x, y2 = y * y;
    return (4.0f - 2.1f * x2 + x2 * x2 / 3.0f) * x2 + x * y + (-4.0f + 4.0f * y2) * y2;
}

static double camel_reference(const double *z, int dim)
{
    (void)dim;
    double x = z[0], y = z[1], x2 = x * x, y2 = y * y;
    return (4.0 - 2.1 * x2 + x2 * x2 / 3.0) * x2 + x * y + (-4.0 + 4.0 * y2) * y2;
}

const glevo_problem glevo_problem_camel = {
    .name = "camel",
    .snippet = "problems/camel.glsl",
    .summary = "six-hump camel back on (-100,100)^2 (2008 paper)",
    .fixed_dim = 2, .default_dim = 2,
    .lower = -100.0, .upper = 100.0, .init_lower = -100.0, .init_upper = 100.0,
    .direction = GLEVO_MINIMIZE,
    .has_optimum = true, .optimum = -1.0316284534898774,
    .init = camel_init, .step = camel_step, .finish = camel_finish,
    .reference = camel_reference,
};
