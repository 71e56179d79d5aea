/* Internal to src/problems: the built-in problem descriptors (one per file) and the embedded
 * CEC 2005 shift vectors. */
#ifndef GLEVO_PROBLEMS_INTERNAL_H
#define GLEVO_PROBLEMS_INTERNAL_H

#include "glevo/problem.h"

#define GLEVO_CEC2005_MAX_DIM 100

/* The float pi the shaders see: a GLSL literal 3.14159265358979 rounds to this float. */
#define PROBLEM_PI_F 3.14159265358979f
#define PROBLEM_PI 3.14159265358979323846

extern const glevo_problem glevo_problem_sphere;
extern const glevo_problem glevo_problem_rosenbrock;
extern const glevo_problem glevo_problem_griewank;
extern const glevo_problem glevo_problem_rastrigin;
extern const glevo_problem glevo_problem_ackley;
extern const glevo_problem glevo_problem_schwefel;
extern const glevo_problem glevo_problem_schaffer;
extern const glevo_problem glevo_problem_camel;

extern const double glevo_cec2005_sphere[GLEVO_CEC2005_MAX_DIM];
extern const double glevo_cec2005_rosenbrock[GLEVO_CEC2005_MAX_DIM];
extern const double glevo_cec2005_griewank[GLEVO_CEC2005_MAX_DIM];
extern const double glevo_cec2005_rastrigin[GLEVO_CEC2005_MAX_DIM];

static inline glevo_vec4 problem_vec4(float x, float y, float z, float w)
{
    glevo_vec4 v = {x, y, z, w};
    return v;
}

#endif
