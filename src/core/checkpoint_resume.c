/* Resume comparisons on a checkpoint reader: a parameter the user asked for again must equal
 * the saved one, or the error names both values and the field. */
#include "core/checkpoint.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "glevo/backend.h"

#include "core/checkpoint_bytes.h"
#include "core/output_file.h"

/* ---- resume comparisons ---- */
glevo_status ckpt_same_i64(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, long long asked)
{
    long long have;
    glevo_status st = ckpt_get_i64(r, entry_name, &have);
    if (st || !is_set || asked == have) return st;
    return glevo_fail(GLEVO_ERR_INVALID, "%s %lld differs from the checkpoint's %lld: it would "
                      "change the run", field, asked, have);
}

/* The shortest text that reads back as v (0.1, not 0.10000000000000001). */
static void shortest(double v, char *out, size_t size)
{
    for (int digits = 6; digits <= 17; ++digits) {
        snprintf(out, size, "%.*g", digits, v);
        if (strtod(out, NULL) == v) return;
    }
}

glevo_status ckpt_same_f64(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, double asked)
{
    double have;
    glevo_status st = ckpt_get_f64(r, entry_name, &have);
    if (st || !is_set || asked == have || (isnan(asked) && isnan(have))) return st;
    char a[32], h[32];
    shortest(asked, a, sizeof a);
    shortest(have, h, sizeof h);
    return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would change "
                      "the run", field, a, h);
}

/* An enum entry saved by name: its text and its value, or an error naming an unknown name. */
static glevo_status read_enum(const ckpt_reader *r, const char *entry, int (*parse)(const char *),
                              const char **have, int *value)
{
    glevo_status st = ckpt_get_str(r, entry, have);
    if (st) return st;
    *value = parse(*have);
    if (*value < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': %s '%s' is unknown",
                          ckpt_reader_source(r), entry, *have);
    return GLEVO_OK;
}

glevo_status ckpt_same_enum(const ckpt_reader *r, const char *entry, const char *field, int asked,
                            const char *(*name_of)(int), int (*parse)(const char *), int *out)
{
    const char *have;
    int v;
    glevo_status st = read_enum(r, entry, parse, &have, &v);
    if (st) return st;
    int want = asked == GLEVO_ZERO ? 0 : asked;
    if (asked != 0 && want != v)
        return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would "
                          "change the run", field, name_of(want), have);
    *out = v;
    return GLEVO_OK;
}

glevo_status ckpt_take_enum(const ckpt_reader *r, const char *entry, int asked,
                            int (*parse)(const char *), int *out)
{
    const char *have;
    int v;
    glevo_status st = read_enum(r, entry, parse, &have, &v);
    if (st) return st;
    *out = asked == 0 ? v : asked == GLEVO_ZERO ? 0 : asked;
    return GLEVO_OK;
}

glevo_status ckpt_same_str(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, const char *asked)
{
    const char *have;
    glevo_status st = ckpt_get_str(r, entry_name, &have);
    if (st || !is_set || !strcmp(asked, have)) return st;
    return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would change "
                      "the run", field, asked, have);
}
