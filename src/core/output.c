/* The public face of core/output_file (include/glevo/output.h): an opaque handle for front
 * ends, which may not see the library's internal struct. */
#include "glevo/output.h"

#include <stdlib.h>

#include "core/output_file.h"
#include "core/args.h"

struct glevo_output {
    output_file file;
};

glevo_status glevo_output_open(const char *path, glevo_output **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    *out = NULL;
    glevo_output *o = malloc(sizeof *o);
    if (!o) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory opening '%s'", path ? path : "");
    glevo_status st = output_file_open(&o->file, path);
    if (st != GLEVO_OK) {
        free(o);
        return st;
    }
    *out = o;
    return GLEVO_OK;
}

FILE *glevo_output_stream(glevo_output *o) {
    ARG_NOT_NULL_OR(o, NULL);
    return o ? o->file.f : NULL;
}

glevo_status glevo_output_commit(glevo_output *o)
{
    glevo_clear_error();
    ARG_NOT_NULL(o);
    if (!o) return glevo_fail(GLEVO_ERR_IO, "no output to commit");
    glevo_status st = output_file_commit(&o->file);
    free(o);
    return st;
}

void glevo_output_abort(glevo_output *o)
{
    if (!o) return;
    output_file_abort(&o->file);
    free(o);
}

glevo_status glevo_output_check(const char *path, const char *what) {
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(what);
    return output_file_check(path, what);
}

glevo_status glevo_output_folder_check(const char *dir, const char *what)
{
    glevo_clear_error();
    ARG_NOT_NULL(dir);
    ARG_NOT_NULL(what);
    return output_folder_check(dir, what);
}

void glevo_output_remove_temps(void) { output_file_remove_temps(); }

void glevo_output_install_signal_cleanup(void) { output_file_install_signal_cleanup(); }
