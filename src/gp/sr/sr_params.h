/* The symbolic-regression parameters of glevo_gp_params (issue 26): their defaults and checks,
 * kept out of the engine (sr_params.c). */
#ifndef GLEVO_GP_SR_PARAMS_H
#define GLEVO_GP_SR_PARAMS_H

#include "glevo/gp.h"

/* The enumeration's default candidates (mse, rmse) and the most it takes (gp/enumerate.c). */
#define GP_ENUMERATION_DEFAULT 100000
#define GP_ENUMERATION_MAX 10000000
/* The result's linear layer's default terms (mse, rmse) and the most it takes. */
#define GP_LINEAR_LAYER_DEFAULT 32
#define GP_LINEAR_LAYER_MAX 64
/* The most programs constant fitting takes a generation by default (const_opt_max). */
#define GP_CONST_OPT_MAX_DEFAULT 1024

/* linear_scaling, const_opt_iters and enumeration on for mse and rmse, const_opt_fraction
 * 0.14, const_opt_max 1024. */
void gp_sr_params_defaults(glevo_gp_params *P);
/* ops, linear_scaling, parsimony, const_opt_*, enumeration, the constant range; errors name
 * the field. */
glevo_status gp_sr_params_check(const glevo_gp_params *P);

#endif
