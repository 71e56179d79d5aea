/* A real-coded problem inside a checkpoint (cGA, DE): a built-in one by name; a user GLSL
 * problem by the CRC-32 of its source, its domain and direction, so it is found again
 * wherever the file lies on resume. Internal. */
#ifndef GLEVO_PROBLEMS_CHECKPOINT_H
#define GLEVO_PROBLEMS_CHECKPOINT_H

#include "core/checkpoint.h"
#include "glevo/problem.h"

/* Entries param.problem, param.problem_lower, _upper, _direction (and, for a user GLSL
 * problem, param.problem_source_crc32). */
glevo_status problem_checkpoint_put(ckpt_writer *w, const glevo_problem *p);
/* The problem of the checkpoint: `given` (the caller's, may be NULL) must be the same one;
 * NULL finds a built-in one by name, and is refused for a user GLSL problem. `field` names
 * the params field in messages ("glevo_cga_params.problem"). */
glevo_status problem_checkpoint_find(const ckpt_reader *r, const glevo_problem *given,
                                     const char *field, const glevo_problem **out);

#endif
