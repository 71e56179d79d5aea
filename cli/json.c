/* A minimal streaming JSON writer for the one object each command prints with --json. */
#include <math.h>
#include <stdlib.h>

#include "cli.h"

static void separator(json_writer *w, const char *key)
{
    if (w->depth > 0 && w->need_comma[w->depth]) fputc(',', w->out);
    if (w->depth > 0) w->need_comma[w->depth] = true;
    if (key) {
        fputc('"', w->out);
        for (const char *p = key; *p; ++p) fputc(*p, w->out);
        fputs("\":", w->out);
    }
}

static void write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void json_begin_object(json_writer *w, const char *key)
{
    if (!w->out) w->out = stdout;
    separator(w, key);
    fputc('{', w->out);
    w->need_comma[++w->depth] = false;
}

void json_end_object(json_writer *w)
{
    fputc('}', w->out);
    if (--w->depth == 0) fputc('\n', w->out);
}

void json_begin_array(json_writer *w, const char *key)
{
    separator(w, key);
    fputc('[', w->out);
    w->need_comma[++w->depth] = false;
}

void json_end_array(json_writer *w)
{
    fputc(']', w->out);
    --w->depth;
}

void json_string(json_writer *w, const char *key, const char *value)
{
    separator(w, key);
    if (value)
        write_escaped(w->out, value);
    else
        fputs("null", w->out);
}

void json_number(json_writer *w, const char *key, double value)
{
    separator(w, key);
    /* JSON has no NaN or infinity: null says "no value" honestly. */
    if (isfinite(value)) {
        /* The shortest of 15, 16, 17 significant digits that reads back as the same double:
         * 0.8, not 0.80000000000000004 (17 always round-trips). */
        char text[40];
        for (int digits = 15; digits <= 17; ++digits) {
            snprintf(text, sizeof text, "%.*g", digits, value);
            if (strtod(text, NULL) == value) break;
        }
        fputs(text, w->out);
    } else {
        fputs("null", w->out);
    }
}

void json_int(json_writer *w, const char *key, long long value)
{
    separator(w, key);
    fprintf(w->out, "%lld", value);
}

void json_bool(json_writer *w, const char *key, bool value)
{
    separator(w, key);
    fputs(value ? "true" : "false", w->out);
}

void json_null(json_writer *w, const char *key)
{
    separator(w, key);
    fputs("null", w->out);
}

void common_json_builds(json_writer *w, const glevo_context *ctx)
{
    if (!ctx) return;
    int n = glevo_context_builds(ctx, NULL, 0);
    glevo_program_build *b = n > 0 ? malloc((size_t)n * sizeof *b) : NULL;
    double seconds = 0;
    if (b) n = glevo_context_builds(ctx, b, n);
    for (int i = 0; b && i < n; ++i) seconds += b[i].seconds;
    free(b);
    json_int(w, "programs_built", n);
    json_number(w, "compile_seconds", seconds);
}
