/* Every GP evaluation engine the tests run: the fragment layouts, the compute backend where
 * the context has compute shaders, and the CPU interpreter. */
#ifndef GLEVO_TEST_GP_ENGINES_H
#define GLEVO_TEST_GP_ENGINES_H

#include "glevo/context.h"
#include "glevo/gp.h"
#include "testutil.h"

typedef struct gp_engine {
    const char *name;
    glevo_gp_eval_params params;
} gp_engine;

static const gp_engine gp_engines[] = {
    {"fragment-pppe", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_PPPE}},
    {"fragment-fp", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_FP}},
    {"fragment-ppcu", {.backend = GLEVO_BACKEND_FRAGMENT, .strategy = GLEVO_GP_PPCU}},
    {"compute", {.backend = GLEVO_BACKEND_COMPUTE}},
    {"cpu", {.backend = GLEVO_BACKEND_CPU}},
};
#define GP_ENGINE_COUNT ((int)(sizeof gp_engines / sizeof gp_engines[0]))

/* Whether the test context runs this engine (compute needs GL 4.3; llvmpipe has it). */
static inline int gp_engine_available(const glevo_gp_eval_params *params)
{
    if (params->backend != GLEVO_BACKEND_COMPUTE) return 1;
    glevo_features f;
    glevo_context_features(testutil_context(), &f);
    return f.compute;
}

#endif
