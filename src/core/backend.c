/* The backend vocabulary shared by every family: names, AUTO, and the capability check that
 * turns "compute on a GL 4.1 context" into one sentence instead of a shader error. */
#include "core/names.h"
#include "glevo/backend.h"
#include "glevo/context.h"
#include "core/args.h"

static const char *const names[] = {"auto", "cpu", "compute", "fragment"};

const char *glevo_backend_name(glevo_backend b) { return names_get(names, 4, (int)b); }
int glevo_backend_parse(const char *name) {
    ARG_NOT_NULL_OR(name, -1);
    return names_find(names, 4, name);
}

glevo_backend glevo_backend_resolve(glevo_backend b)
{
    if (b != GLEVO_BACKEND_AUTO) return b;
    /* The fast engine of what is there: compute dispatches, or render passes where the
     * context has no compute shaders; the CPU engines without GL. */
    glevo_features f;
    glevo_context_features(NULL, &f);
    if (f.gl_major == 0) return GLEVO_BACKEND_CPU;
    return f.compute ? GLEVO_BACKEND_COMPUTE : GLEVO_BACKEND_FRAGMENT;
}

glevo_status glevo_backend_check(glevo_backend b, const char *params_field)
{
    glevo_clear_error();
    ARG_NOT_NULL(params_field);
    if ((unsigned)b > GLEVO_BACKEND_LAST)
        return glevo_fail(GLEVO_ERR_INVALID, "%s %d is not a backend (auto, cpu, compute, "
                          "fragment)", params_field, (int)b);
    if (b == GLEVO_BACKEND_CPU) return GLEVO_OK;
    glevo_features f;
    glevo_context_features(NULL, &f);
    if (f.gl_major == 0)
        return glevo_fail(GLEVO_ERR_INVALID, "%s %s needs a current GL context "
                          "(glevo_context_create)", params_field, glevo_backend_name(b));
    if (b == GLEVO_BACKEND_COMPUTE && !f.compute)
        return glevo_fail(GLEVO_ERR_INVALID, "%s compute needs OpenGL 4.3 compute shaders; "
                          "this context is OpenGL %d.%d", params_field, f.gl_major, f.gl_minor);
    return GLEVO_OK;
}
