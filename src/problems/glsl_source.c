/* User problems given as GLSL text rather than a file (a Python string, a notebook cell): the
 * text is registered in memory under the caller's name, and the problem's snippet names it,
 * so the fitness pass composes it as it would a file and compile errors read name:line with
 * the line numbers of the caller's text. */
#include <math.h>
#include <string.h>

#include "gl/shader_memory.h"
#include "glevo/problem.h"
#include "core/args.h"

glevo_status glevo_problem_from_glsl_source(const char *source, const char *name, int dim,
                                            double lower, double upper,
                                            glevo_direction direction, glevo_problem *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(source);
    ARG_NOT_NULL(out);
    if (!*source) return glevo_fail(GLEVO_ERR_INVALID, "GLSL source is empty");
    if (dim < 1) return glevo_fail(GLEVO_ERR_INVALID, "dimension %d is below 1", dim);
    if (!(lower < upper) || !isfinite(lower) || !isfinite(upper))
        return glevo_fail(GLEVO_ERR_INVALID, "domain lower..upper [%g, %g] is empty or not "
                          "finite", lower, upper);
    if ((unsigned)direction > GLEVO_MAXIMIZE)
        return glevo_fail(GLEVO_ERR_INVALID, "direction %d is unknown", (int)direction);
    if (!name || !*name) name = "<string>";
    /* A name that looks like a path or a library file would be read from there instead. */
    if (name[0] == '/' || name[0] == '.' || strchr(name, '/'))
        return glevo_fail(GLEVO_ERR_INVALID, "GLSL source name '%s' must not look like a path "
                          "(no '/', no leading '.')", name);
    const char *key;
    glevo_status st = shader_memory_register(name, source, &key);
    if (st) return st;
    memset(out, 0, sizeof *out);
    out->name = key;
    out->snippet = key;
    out->summary = "user GLSL fitness source";
    out->default_dim = dim;
    out->lower = out->init_lower = lower;
    out->upper = out->init_upper = upper;
    out->direction = direction;
    return GLEVO_OK;
}
