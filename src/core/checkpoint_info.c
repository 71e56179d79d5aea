/* What a checkpoint says about itself (glevo_checkpoint_info_read) and the entries every
 * family writes for it: backend, renderer, generation, evaluations, the front end's extra. */
#include <stdio.h>
#include <string.h>

#include "core/checkpoint.h"
#include "core/args.h"

void ckpt_put_run(ckpt_writer *w, const char *backend, const char *renderer, long long generation,
                  long long evaluations, const glevo_checkpoint_extra *extra)
{
    ckpt_put_str(w, "meta.backend", backend);
    ckpt_put_str(w, "meta.renderer", renderer);
    ckpt_put_i64(w, "state.generation", generation);
    ckpt_put_i64(w, "state.evaluations", evaluations);
    ckpt_put_i64(w, "front.trace_bytes", extra ? extra->trace_bytes : 0);
    ckpt_put_i64(w, "front.goal", extra ? extra->goal : 0);
}

void ckpt_get_extra(const ckpt_reader *r, glevo_checkpoint_extra *out)
{
    memset(out, 0, sizeof *out);
    if (ckpt_get_i64(r, "front.trace_bytes", &out->trace_bytes) || out->trace_bytes < 0)
        out->trace_bytes = 0;
    if (ckpt_get_i64(r, "front.goal", &out->goal) || out->goal < 0) out->goal = 0;
    glevo_clear_error();
}

static void copy_str(const ckpt_reader *r, const char *name, char *out, size_t size)
{
    const char *s = "";
    if (ckpt_get_str(r, name, &s)) s = "";
    snprintf(out, size, "%s", s);
}

glevo_status glevo_checkpoint_info_read(const char *path, glevo_checkpoint_info *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, NULL, &r);
    if (st) return st;
    out->format_version = ckpt_reader_version(r);
    copy_str(r, "meta.algorithm", out->algorithm, sizeof out->algorithm);
    copy_str(r, "meta.glevo_version", out->glevo_version, sizeof out->glevo_version);
    copy_str(r, "meta.created", out->created, sizeof out->created);
    copy_str(r, "meta.backend", out->backend, sizeof out->backend);
    copy_str(r, "meta.renderer", out->renderer, sizeof out->renderer);
    if (ckpt_get_i64(r, "state.generation", &out->generation)) out->generation = 0;
    if (ckpt_get_i64(r, "state.evaluations", &out->evaluations)) out->evaluations = 0;
    ckpt_get_extra(r, &out->extra);
    ckpt_reader_destroy(r);
    glevo_clear_error();
    if (!out->algorithm[0])
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: it names no algorithm "
                          "(meta.algorithm)", path);
    return GLEVO_OK;
}

glevo_status glevo_checkpoint_param(const char *path, const char *name, char *out, size_t size)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(name);
    ARG_NOT_NULL(out);
    if (size) out[0] = '\0';
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, NULL, &r);
    if (st) return st;
    ckpt_type type = CKPT_END;
    for (int i = 0; i < ckpt_reader_count(r); ++i)
        if (!strcmp(ckpt_entry_name(r, i, NULL, NULL), name)) ckpt_entry_name(r, i, &type, NULL);
    long long v;
    double d;
    const char *s;
    if (type == CKPT_I64 && !(st = ckpt_get_i64(r, name, &v))) snprintf(out, size, "%lld", v);
    else if (type == CKPT_F64 && !(st = ckpt_get_f64(r, name, &d))) snprintf(out, size, "%.17g", d);
    else if (type == CKPT_STR && !(st = ckpt_get_str(r, name, &s))) snprintf(out, size, "%s", s);
    else if (!st)
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' has no %s%s", path, name,
                        type == CKPT_END ? "" : " value (it is an array)");
    ckpt_reader_destroy(r);
    return st;
}
