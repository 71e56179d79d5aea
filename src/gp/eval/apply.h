/* One operator on floats, exactly as include/glevo/gp.h defines it (sin, cos, exp, log and
 * protected division as gp_math.h defines them): the CPU interpreter's (interp_cpu.c) and the
 * enumeration's (enumerate.c) arithmetic; shaders/gp/eval.glsl is the twin. */
#ifndef GLEVO_GP_APPLY_H
#define GLEVO_GP_APPLY_H

#include "glevo/gp.h"
#include "gp/eval/gp_math.h"

static inline float gp_apply2(glevo_gp_op op, float a, float b)
{
    switch (op) {
    case GLEVO_GP_ADD: return a + b;
    case GLEVO_GP_SUB: return a - b;
    case GLEVO_GP_MUL: return a * b;
    case GLEVO_GP_DIV: return gp_div(a, b);
    case GLEVO_GP_LT: return a < b ? 1.0f : 0.0f;
    case GLEVO_GP_GT: return a > b ? 1.0f : 0.0f;
    case GLEVO_GP_EQ: return a == b ? 1.0f : 0.0f;
    case GLEVO_GP_AND: return (a != 0.0f && b != 0.0f) ? 1.0f : 0.0f;
    case GLEVO_GP_OR: return (a != 0.0f || b != 0.0f) ? 1.0f : 0.0f;
    case GLEVO_GP_POW: return gp_pow(a, b);
    case GLEVO_GP_AQ: return gp_aq(a, b);
    default: return 0.0f;
    }
}

static inline float gp_apply1(glevo_gp_op op, float a)
{
    switch (op) {
    case GLEVO_GP_NEG: return -a;
    case GLEVO_GP_SIN: return gp_sin(a);
    case GLEVO_GP_COS: return gp_cos(a);
    case GLEVO_GP_NOT: return a == 0.0f ? 1.0f : 0.0f;
    case GLEVO_GP_EXP: return gp_exp(a);
    case GLEVO_GP_LOG: return gp_log(a);
    case GLEVO_GP_SQRT: return gp_sqrt(a);
    case GLEVO_GP_SQUARE: return a * a;
    case GLEVO_GP_CUBE: return (a * a) * a;
    case GLEVO_GP_TANH: return gp_tanh(a);
    case GLEVO_GP_ABS: return fabsf(a);
    default: return 0.0f;
    }
}

#endif
