/* A real-coded problem inside a checkpoint (src/problems/checkpoint.h): written by name and
 * domain, found again by name (built-in) or by its source's CRC-32 (user GLSL). */
/* realpath is XSI, beyond the project-wide _POSIX_C_SOURCE */
#define _XOPEN_SOURCE 700
#include "problems/checkpoint.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *direction_name(glevo_direction d)
{
    return d == GLEVO_MAXIMIZE ? "maximise" : "minimise";
}

glevo_status problem_checkpoint_put(ckpt_writer *w, const glevo_problem *pr)
{
    ckpt_put_str(w, "param.problem", pr->name);
    ckpt_put_f64(w, "param.problem_lower", pr->lower);
    ckpt_put_f64(w, "param.problem_upper", pr->upper);
    ckpt_put_str(w, "param.problem_direction", direction_name(pr->direction));
    /* A user GLSL problem (no C twin) is known by its source, wherever it lies on resume. */
    if (!pr->init) {
        uint32_t crc;
        glevo_status st = ckpt_file_crc(pr->snippet, &crc);
        if (st) return st;
        ckpt_put_i64(w, "param.problem_source_crc32", crc);
        /* Where it lay, absolute: a resume finds it again from any folder (issue 23); the
         * CRC above says whether it is still the file that ran. */
        char real[PATH_MAX];
        ckpt_put_str(w, "param.problem_source_path", realpath(pr->snippet, real) ? real : pr->snippet);
    }
    return GLEVO_OK;
}

glevo_status problem_checkpoint_find(const ckpt_reader *r, const glevo_problem *given,
                                     const char *field, const glevo_problem **out)
{
    const char *name, *direction;
    double lower, upper;
    glevo_status st = ckpt_get_str(r, "param.problem", &name);
    if (!st) st = ckpt_get_str(r, "param.problem_direction", &direction);
    if (!st) st = ckpt_get_f64(r, "param.problem_lower", &lower);
    if (!st) st = ckpt_get_f64(r, "param.problem_upper", &upper);
    if (st) return st;
    bool user = ckpt_has(r, "param.problem_source_crc32");
    if (!given) {
        if (user)
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' ran the user GLSL problem '%s': "
                              "give it again in %s", ckpt_reader_source(r), name, field);
        if (!(*out = glevo_problem_find(name))) return GLEVO_ERR_INVALID;
        return GLEVO_OK;
    }
    if (user != !given->init || (!user && strcmp(given->name, name) != 0))
        return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would "
                          "change the run", field, given->name, name);
    if (user) {
        long long crc;
        uint32_t have;
        if ((st = ckpt_get_i64(r, "param.problem_source_crc32", &crc))) return st;
        if ((st = ckpt_file_crc(given->snippet, &have))) return st;
        if ((uint32_t)crc != have)
            return glevo_fail(GLEVO_ERR_INVALID, "the GLSL file '%s' is not the one checkpoint "
                              "'%s' ran ('%s', CRC-32 %08x; this file's is %08x): it was changed "
                              "since, and resuming would change the run", given->name,
                              ckpt_reader_source(r), name, (unsigned)crc, (unsigned)have);
        if (given->lower != lower || given->upper != upper ||
            strcmp(direction_name(given->direction), direction) != 0)
            return glevo_fail(GLEVO_ERR_INVALID, "%s %s on [%g, %g] (%s) differs from the "
                              "checkpoint's [%g, %g] (%s): it would change the run", field,
                              given->name, given->lower, given->upper,
                              direction_name(given->direction), lower, upper, direction);
    }
    *out = given;
    return GLEVO_OK;
}
