/* The compute driver of GP evaluation (a work-group per program over case blocks): being
 * built. */
#include "gp/eval_internal.h"

static glevo_status compute_create(glevo_gp_evaluator *e)
{
    (void)e;
    return glevo_fail(GLEVO_ERR_UNSUPPORTED, "glevo_gp_eval_params.backend compute is not built "
                      "yet");
}
static void compute_destroy(glevo_gp_evaluator *e) { (void)e; }
const gp_eval_ops gp_compute_ops = {compute_create, NULL, compute_destroy};
