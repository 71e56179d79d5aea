/* The compute driver of differential evolution (cudaDE_i's layout): being built. */
#include "de/de_internal.h"

glevo_status de_compute_create(glevo_de *de)
{
    (void)de;
    return glevo_fail(GLEVO_ERR_UNSUPPORTED, "glevo_de_params.backend compute is not built yet");
}
