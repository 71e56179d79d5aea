/* DSMGA-II's parameters: the one place their defaults are written and their checks against
 * the problem (dsmga_resolve_params, which create and a checkpoint's resume both call). */
#include "dsmga/engine_internal.h"
#include "core/args.h"

/* The one place DSMGA-II's defaults are written (R depends on the problem's length). */
glevo_dsmga_params glevo_dsmga_params_defaults(const glevo_dsmga_params *in, int ell)
{
    glevo_dsmga_params p = in ? *in : (glevo_dsmga_params){0};
    if (p.pop == 0) p.pop = 100;
    if (p.selection_pressure == 0) p.selection_pressure = 2;
    if (p.max_generations == 0) p.max_generations = 10000;
    if (p.repeat == 0) p.repeat = ell > 50 ? ell / 50 : 1;
    if (p.stall_generations == 0) p.stall_generations = 20;
    return p;
}

glevo_status dsmga_resolve_params(const glevo_dsmga_problem *problem,
                                  const glevo_dsmga_params *params, glevo_dsmga_params *out)
{
    int ell = glevo_dsmga_problem_ell(problem);
    glevo_dsmga_params p = glevo_dsmga_params_defaults(params, ell);
    p.backend = glevo_backend_resolve(p.backend);
    *out = p;
    if (p.pop < 2)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.pop %d: DSMGA-II needs at least "
                          "2 individuals", p.pop);
    if (p.selection_pressure < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.selection_pressure %d must be at "
                          "least 1", p.selection_pressure);
    if (p.max_generations < 0 || p.max_nfe < 0 || p.repeat < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.max_generations %d, max_nfe "
                          "%lld or repeat %d is negative", p.max_generations, p.max_nfe, p.repeat);
    if ((long long)ell * ell > 64ll * 1024 * 1024)
        return glevo_fail(GLEVO_ERR_INVALID, "problem ell %d is too large for the DSM", ell);
    if ((unsigned)p.backend > GLEVO_BACKEND_LAST)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.backend %d is unknown",
                          (int)p.backend);
    if ((unsigned)p.model > GLEVO_DSMGA_LOSSY)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.model %d is unknown (lossless 0, "
                          "lossy 1)", (int)p.model);
    if (p.stall_generations < 0 && p.stall_generations != GLEVO_ZERO)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.stall_generations %d is negative",
                          p.stall_generations);
    return GLEVO_OK;
}
