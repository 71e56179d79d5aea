/* The compute driver of the DSMGA-II model builder: being built. */
#include "dsmga/model_internal.h"

static glevo_status compute_create(glevo_dsm_gpu *g)
{
    (void)g;
    return glevo_fail(GLEVO_ERR_UNSUPPORTED, "the compute model builder is not built yet");
}

static void compute_destroy(glevo_dsm_gpu *g) { (void)g; }

const dsm_model_ops dsm_compute_ops = {compute_create, NULL, NULL, NULL, NULL, compute_destroy};
