/* Driver info logs mapped back to glevo's files: the driver names source strings by number,
 * the composer (shader_library.c) numbered each included file, so "0:12(5): error" (Mesa) and
 * "0(12) : error" (NVIDIA) become "select.glsl:12:5: error". */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/shader_compose.h"

/* A run of decimal digits at *p, advanced past; saturates at 2^30 (no line is that long). */
static int read_number(const char **p)
{
    long v = 0;
    while (isdigit((unsigned char)**p)) {
        if (v < (1L << 30)) v = v * 10 + (**p - '0');
        ++*p;
    }
    return v < (1L << 30) ? (int)v : (1 << 30);
}

/* Parses "<string>:<line>" (Mesa: "0:12(5):") or "<string>(<line>)" (NVIDIA: "0(12) :") at
 * the start of a log line. Returns the characters consumed, 0 when the line has neither.
 * Digits are read by hand: strtol skips leading white space, newlines included, and so
 * could run past the end of the line. */
static int parse_location(const char *s, int *string_no, int *line_no, int *column)
{
    const char *p = s;
    if (!isdigit((unsigned char)*p)) return 0;
    *string_no = read_number(&p);
    *column = -1;
    if (*p == ':' && isdigit((unsigned char)p[1])) {
        ++p;
        *line_no = read_number(&p);
        if (*p == '(' && isdigit((unsigned char)p[1])) {
            ++p;
            *column = read_number(&p);
            if (*p == ')') ++p;
        }
    } else if (*p == '(' && isdigit((unsigned char)p[1])) {
        ++p;
        *line_no = read_number(&p);
        if (*p != ')') return 0;
        ++p;
    } else {
        return 0;
    }
    while (*p == ' ') ++p;
    if (*p == ':') ++p;
    return (int)(p - s);
}

/* Where a user's file included library file s (directly or through other library files):
 * " (included from FILE:LINE)", or "" when s is the user's or no user's file led to it. The
 * error is then the user's line, whatever file the driver blames. */
static void included_from(const shader_text *t, int s, char *out, size_t size)
{
    out[0] = '\0';
    if (s <= 0 || s >= t->file_count || gpu_shader_source_is_not_embedded(t->files[s])) return;
    for (int child = s, p = t->parent[s]; p > 0 && p < t->file_count; child = p, p = t->parent[p])
        if (gpu_shader_source_is_not_embedded(t->files[p])) {
            snprintf(out, size, " (included from %s:%d)", t->files[p], t->parent_line[child]);
            return;
        }
}

char *shader_log_rewrite(const shader_text *t, const char *log)
{
    size_t cap = strlen(log) * 2 + 1024, used = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = '\0';
    for (const char *line = log; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int string_no, line_no, column;
        int skip = parse_location(line, &string_no, &line_no, &column);
        if (skip && line_no >= SHADER_LINE_STRIDE) {
            /* The line number names the file too; trust it over the string number, which
             * Mesa sets to 0 for semantic errors. */
            string_no = line_no / SHADER_LINE_STRIDE;
            line_no %= SHADER_LINE_STRIDE;
        }
        char head[320] = "", from[320] = "";
        if (skip && string_no >= 0 && string_no < t->file_count) {
            included_from(t, string_no, from, sizeof from);
            if (column >= 0)
                snprintf(head, sizeof head, "%s:%d:%d:", t->files[string_no], line_no, column);
            else
                snprintf(head, sizeof head, "%s:%d:", t->files[string_no], line_no);
        } else {
            skip = 0;
        }
        if (used + strlen(head) + strlen(from) + len + 2 >= cap) {
            cap = (used + strlen(head) + strlen(from) + len + 2) * 2;
            char *grown = realloc(out, cap);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
        }
        used += (size_t)sprintf(out + used, "%s%.*s%s\n", head, (int)(len - (size_t)skip),
                                line + skip, from);
        line = end ? end + 1 : line + len;
    }
    return out;
}
