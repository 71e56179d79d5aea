/* glevo cga's --trace CSV: a temporary file renamed at the end (glevo_output), put in place
 * at every checkpoint, and a resumed run's copy of the rows its checkpoint covers. */
#include <stdio.h>
#include <sys/stat.h>

#include "cli.h"
#include "cga_trace.h"

/* Copies the first `bytes` bytes of the trace at path into the new one. */
static glevo_status trace_copy_prefix(cga_trace_file *t, long long bytes)
{
    FILE *in = fopen(t->path, "rb");
    if (!in) return glevo_fail(GLEVO_ERR_INVALID, "--trace '%s' cannot be read to resume it", t->path);
    char buf[1 << 16];
    long long left = bytes;
    while (left > 0) {
        size_t n = fread(buf, 1, left < (long long)sizeof buf ? (size_t)left : sizeof buf, in);
        if (n == 0) break;
        fwrite(buf, 1, n, t->f);
        left -= (long long)n;
    }
    fclose(in);
    if (left > 0)
        return glevo_fail(GLEVO_ERR_INVALID, "--trace '%s' holds %lld bytes, fewer than the %lld "
                          "the checkpoint covers: give the trace of the run that wrote it, or "
                          "another path", t->path, bytes - left, bytes);
    return GLEVO_OK;
}

/* keep_bytes: a resumed run's trace goes on from what its checkpoint covers. A device or
 * FIFO (written in place, as glevo_output does) cannot be truncated or put in place. */
int cga_trace_open(cga_trace_file *t, const char *path, long long keep_bytes)
{
    t->out = NULL;
    t->f = NULL;
    t->path = path;
    if (!path) return 0;
    struct stat sb;
    t->in_place = lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    if (glevo_output_open(path, &t->out) != GLEVO_OK) return cli_fail("cga", GLEVO_ERR_INVALID);
    t->f = glevo_output_stream(t->out);
    if (keep_bytes > 0 && !t->in_place) {
        glevo_status st = trace_copy_prefix(t, keep_bytes);
        if (st) {
            glevo_output_abort(t->out);
            t->out = NULL, t->f = NULL;
            return cli_fail("cga", st);
        }
    } else if (keep_bytes == 0) {
        fprintf(t->f, "generation,evaluations,best_so_far,best,mean,diversity,seconds\n");
    }
    return 0;
}

/* Puts the rows so far in place and goes on writing behind them; *bytes: their length. */
glevo_status cga_trace_sync(cga_trace_file *t, long long *bytes)
{
    *bytes = 0;
    if (!t->out) return GLEVO_OK;
    if (fflush(t->f) != 0) return glevo_fail(GLEVO_ERR_IO, "cannot write '%s'", t->path);
    *bytes = ftell(t->f);
    if (t->in_place) return GLEVO_OK;
    glevo_status st = glevo_output_commit(t->out);
    t->out = NULL, t->f = NULL;
    if (!st) st = glevo_output_open(t->path, &t->out);
    if (st) return st;
    t->f = glevo_output_stream(t->out);
    return trace_copy_prefix(t, *bytes);
}

glevo_status cga_trace_close(cga_trace_file *t, bool keep)
{
    if (!t->out) return GLEVO_OK;
    glevo_output *out = t->out;
    t->out = NULL;
    t->f = NULL;
    if (keep) return glevo_output_commit(out);
    glevo_output_abort(out);
    return GLEVO_OK;
}
