// One step of the fitness fold: gene j of an individual (y coordinates) into the problem
// snippet's accumulator, in gene order. Every DE evaluation (evaluate.glsl, trial.glsl, the
// compute kernels) folds through this, so all evaluate f in the C twin's order
// (glevo_problem_eval_float).
#include <problem>

vec4 de_fold_gene(vec4 acc, int j, float y)
{
    precise float z = y + u_shift_add;
    return problem_step(acc, j, z);
}
