/* A GP checkpoint's parameters on resume (checkpoint_params.c), and the names its enums are
 * saved by. */
#ifndef GLEVO_GP_CHECKPOINT_PARAMS_H
#define GLEVO_GP_CHECKPOINT_PARAMS_H

#include "core/checkpoint.h"
#include "glevo/gp.h"

const char *gp_checkpoint_set_name(int set);
const char *gp_checkpoint_metric_name(int metric);
/* The file's parameters (resolved) in *P, with the caller's changes c (NULL: none):
 * generations, the backend, the evaluation layout, the target and the progress callback may
 * change; any other difference is refused (GLEVO_ERR_INVALID naming the field and both values). */
glevo_status gp_checkpoint_resume_params(const ckpt_reader *r, const glevo_gp_params *c,
                                         glevo_gp_params *P);

#endif
