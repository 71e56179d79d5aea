/* Schaffer F6 in the 2008 paper's maximisation form
 * f = 0.5 - (sin^2 sqrt(x^2+y^2) - 0.5) / (1 + 0.001 (x^2+y^2))^2 on (-100,100)^2, maximum 1
 * at the origin. C twin of shaders/problems/schaffer.glsl. */
#include <math.h>

#include "problems_internal.h"

static glevo_vec4 schaffer_init(void) { return problem_vec4(0.0f, 0.0f, 0.0f, 0.0f); }

static glevo_vec4 schaffer_step(glevo_vec4 acc, int j, float z)
{
    (void)j;
    acc.x = acc.x + z * z;
    return acc;
}

static float schaffer_finish(glevo_vec4 acc, int dim)
{
    (void)dim;
    float s = sinf(sqrtf(acc.x));
    float d = 1.0f + 0.001f * acc.x;
    return 0.5f - (s * s - 0.5f) / (d * d);
}

static double schaffer_reference(const double *z, int dim)
{
    double r2 = 0.0;
    for (int j = 0; j < dim; ++j) r2 += z[j] * z[j];
    double s = sin(sqrt(r2)), d = 1.0 + 0.001 * r2;
    return 0.5 - (s * s - 0.5) / (d * d);
}

const glevo_problem glevo_problem_schaffer = {
    .name = "schaffer",
    .snippet = "problems/schaffer.glsl",
    .summary = "Schaffer F6 (maximise, optimum 1 at 0) on (-100,100)^2 (2008 paper)",
    .fixed_dim = 2, .default_dim = 2,
    .lower = -100.0, .upper = 100.0, .init_lower = -100.0, .init_upper = 100.0,
    .direction = GLEVO_MAXIMIZE,
    .has_optimum = true, .optimum = 1.0,
    .init = schaffer_init, .step = schaffer_step, .finish = schaffer_finish,
    .reference = schaffer_reference,
};
