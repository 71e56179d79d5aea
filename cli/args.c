/* Option tables for every subcommand: "--name value" or "--name=value"; bad values are
 * reported in one line naming the option and the value, exit status 2. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const opt_spec *find(const opt_spec *specs, const char *name, size_t len)
{
    for (const opt_spec *s = specs; s->name; ++s)
        if (strlen(s->name) == len && !strncmp(s->name, name, len)) return s;
    return NULL;
}

/* Whether `word` is one of the space-separated `names`. */
static bool choice_listed(const char *names, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = names; *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && n && !strncmp(p, word, n)) return true;
        p += len + (p[len] == ' ');
    }
    return false;
}

/* "a b c" as "a, b or c" into out. */
static void choice_sentence(const char *names, char *out, size_t size)
{
    size_t used = 0, words = 0;
    for (const char *p = names; *p; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        const char *sep = !words ? "" : p[len + strspn(p + len, " ")] ? ", " : " or ";
        int k = snprintf(out + used, size - used, "%s%.*s", sep, (int)len, p);
        if (k < 0 || (size_t)k >= size - used) break;
        used += (size_t)k;
        ++words;
        p += len;
    }
}

static int parse_value(const char *command, const opt_spec *s, const char *v)
{
    char *end = NULL;
    errno = 0;
    switch (s->kind) {
    case OPT_FLAG: break;
    case OPT_INT: {
        long long x = strtoll(v, &end, 10);
        if (!*v || *end) return cli_bad_input(command, "--%s '%s' is not an integer", s->name, v);
        if (errno == ERANGE || x < INT_MIN || x > INT_MAX)
            return cli_bad_input(command, "--%s %s is out of range (a 32-bit integer, %d..%d)",
                                 s->name, v, INT_MIN, INT_MAX);
        *(int *)s->target = (int)x;
        break;
    }
    case OPT_COUNT: {
        double x = strtod(v, &end);
        if (!*v || *end || isnan(x)) return cli_bad_input(command, "--%s '%s' is not a number", s->name, v);
        if (x < 0) return cli_bad_input(command, "--%s %s is negative", s->name, v);
        if (x > (double)OPT_COUNT_MAX)
            return cli_bad_input(command, "--%s %s is out of range (at most 2^53 = %lld)", s->name, v,
                                 OPT_COUNT_MAX);
        if (x != floor(x)) return cli_bad_input(command, "--%s %s is not a whole number", s->name, v);
        *(long long *)s->target = (long long)x;
        break;
    }
    case OPT_UINT: {
        unsigned long long x = strtoull(v, &end, 10);
        if (!*v || *end || v[strspn(v, " \t")] == '-' || v[strspn(v, " \t")] == '+')
            return cli_bad_input(command, "--%s '%s' is not an unsigned integer", s->name, v);
        if (errno == ERANGE || x > 0xFFFFFFFFull)
            return cli_bad_input(command, "--%s %s is out of range (0..4294967295)", s->name, v);
        *(uint32_t *)s->target = (uint32_t)x;
        break;
    }
    case OPT_DOUBLE: {
        double x = strtod(v, &end);
        if (!*v || *end || errno || !isfinite(x))
            return cli_bad_input(command, "--%s '%s' is not a number", s->name, v);
        *(double *)s->target = x;
        break;
    }
    case OPT_STRING: *(const char **)s->target = v; break;
    case OPT_CHOICE: {
        const opt_choice *c = s->target;
        if (!choice_listed(c->names, v)) {
            char names[256];
            choice_sentence(c->names, names, sizeof names);
            return cli_bad_input(command, "--%s '%s' is not one of %s", s->name, v, names);
        }
        *c->value = v;
        break;
    }
    case OPT_RANGE: {
        double *r = s->target, lo = strtod(v, &end), hi = NAN;
        if (end != v && *end == ',') {
            const char *h = end + 1;
            hi = strtod(h, &end);
            if (end == h || *end) hi = NAN;
        }
        if (!(isfinite(lo) && isfinite(hi) && lo < hi))
            return cli_bad_input(command, "--%s '%s' is not LO,HI with LO < HI", s->name, v);
        r[0] = lo, r[1] = hi;
        break;
    }
    case OPT_GRID: {
        int *wh = s->target;
        long w = strtol(v, &end, 10);
        if (end == v || (*end != 'x' && *end != 'X'))
            return cli_bad_input(command, "--%s '%s' is not WIDTHxHEIGHT", s->name, v);
        const char *hs = end + 1;
        long h = strtol(hs, &end, 10);
        if (end == hs || *end)
            return cli_bad_input(command, "--%s '%s' is not WIDTHxHEIGHT", s->name, v);
        if (w < 1 || h < 1 || w > 65536 || h > 65536)
            return cli_bad_input(command, "--%s %s is out of range (sides 1..65536)", s->name, v);
        wh[0] = (int)w;
        wh[1] = (int)h;
        break;
    }
    }
    return 0;
}

int opt_parse(const char *command, const opt_spec *specs, int argc, char **argv, int first,
              bool *help, const char **positional, int max_positional, int *positional_count)
{
    *help = false;
    if (positional_count) *positional_count = 0;
    /* --help wins wherever it stands, even after a bad option or as an option's value. */
    for (int i = first; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            *help = true;
            return 0;
        }
    for (int i = first; i < argc; ++i) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            if (!positional || !positional_count || *positional_count >= max_positional)
                return cli_bad_input(command, "unexpected argument '%s'", arg);
            positional[(*positional_count)++] = arg;
            continue;
        }
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const opt_spec *s = find(specs, name, len);
        if (!s) return cli_bad_input(command, "unknown option '%.*s' (see --help)",
                                     (int)len + 2, arg);
        if (s->kind == OPT_FLAG) {
            if (eq) return cli_bad_input(command, "--%s takes no value", s->name);
            *(bool *)s->target = true;
            continue;
        }
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) return cli_bad_input(command, "--%s needs a value", s->name);
        int rc = parse_value(command, s, value);
        if (rc) return rc;
    }
    return 0;
}

bool opt_given(int argc, char **argv, int first, const char *name)
{
    size_t n = strlen(name);
    for (int i = first; i < argc; ++i)
        if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, n) &&
            (argv[i][2 + n] == '\0' || argv[i][2 + n] == '='))
            return true;
    return false;
}

/* Completion mode (opt_complete_begin): active, and the word before the one completed. */
static bool completing;
static const char *complete_previous;

void opt_complete_begin(const char *previous)
{
    completing = true;
    complete_previous = previous;
}

/* The candidates for `glevo __complete`, then exit: what follows a command's options is
 * printed nowhere else, so no other output can mix with the list. */
static void print_completion(FILE *out, const opt_spec *specs)
{
    const opt_spec *prev = NULL;
    if (complete_previous && !strncmp(complete_previous, "--", 2))
        prev = find(specs, complete_previous + 2, strlen(complete_previous + 2));
    if (prev && prev->kind == OPT_CHOICE) {
        const char *names = ((const opt_choice *)prev->target)->names;
        for (const char *p = names; *p; p += strspn(p, " ")) {
            size_t len = strcspn(p, " ");
            fprintf(out, "%.*s\n", (int)len, p);
            p += len;
        }
    } else if (prev && prev->kind == OPT_STRING) {
        fputs("__file__\n", out);
    } else if (!prev || prev->kind == OPT_FLAG) {
        for (const opt_spec *s = specs; s->name; ++s) fprintf(out, "--%s\n", s->name);
        fputs("--help\n", out);
    }
    fflush(out);
    exit(ferror(out) ? 1 : 0);
}

void opt_print_help(FILE *out, const char *usage, const char *summary, const opt_spec *specs)
{
    if (completing) print_completion(out, specs);
    fprintf(out, "usage: %s\n%s\n\noptions:\n", usage, summary);
    for (const opt_spec *s = specs; s->name; ++s) {
        char left[64], def[160] = "", names[256] = "";
        const char *arg = s->kind == OPT_FLAG ? "" : s->kind == OPT_GRID ? " WxH"
                          : s->kind == OPT_RANGE ? " LO,HI"
                          : s->kind == OPT_STRING ? " TEXT" : s->kind == OPT_CHOICE ? " WORD" : " N";
        snprintf(left, sizeof left, "--%s%s", s->name, arg);
        if (!strstr(s->help, "(default")) switch (s->kind) {
        case OPT_INT: snprintf(def, sizeof def, " (default %d)", *(int *)s->target); break;
        case OPT_UINT: snprintf(def, sizeof def, " (default %u)", *(uint32_t *)s->target); break;
        case OPT_DOUBLE: snprintf(def, sizeof def, " (default %g)", *(double *)s->target); break;
        case OPT_STRING:
            if (*(const char **)s->target)
                snprintf(def, sizeof def, " (default %s)", *(const char **)s->target);
            break;
        case OPT_CHOICE:
            if (*((const opt_choice *)s->target)->value)
                snprintf(def, sizeof def, " (default %s)", *((const opt_choice *)s->target)->value);
            break;
        case OPT_GRID:
            snprintf(def, sizeof def, " (default %dx%d)", ((int *)s->target)[0],
                     ((int *)s->target)[1]);
            break;
        case OPT_RANGE:
            snprintf(def, sizeof def, " (default %g,%g)", ((double *)s->target)[0],
                     ((double *)s->target)[1]);
            break;
        case OPT_COUNT: snprintf(def, sizeof def, " (default %lld)", *(long long *)s->target); break;
        case OPT_FLAG: break;
        }
        /* A help ending in ':' is followed by the choice's words; other helps name them in
         * sentences of their own ("philox (counter-based) or texture (the 2008 scheme)"). */
        size_t help_len = strlen(s->help);
        if (s->kind == OPT_CHOICE && help_len && s->help[help_len - 1] == ':') {
            names[0] = ' ';
            choice_sentence(((const opt_choice *)s->target)->names, names + 1, sizeof names - 1);
        }
        fprintf(out, "  %-22s %s%s%s\n", left, s->help, names, def);
    }
    fprintf(out, "  %-22s %s\n", "--help", "this text");
}
