/* The data's column names as the identifiers a printed model uses (gp_internal.h): what a
 * CSV header holds ("m_0", "v", "2nd speed", "lambda") made valid in infix and in SymPy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/args.h"
#include "gp/gp_internal.h"

/* Names a model cannot use as they are: Python's keywords (sympify parses Python), the
 * constants and functions SymPy's parser binds (E is e, I the imaginary unit, S, N, O and Q
 * are functions), and the operator names the printers write. */
static const char *const reserved[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "while", "with", "yield", "E", "I", "S", "N", "O", "Q", "pi", "oo", "zoo", "nan",
    "sin", "cos", "tan", "exp", "log", "sqrt", "Abs", "abs", "tanh", "pow", "aq", "square",
    "cube", "Piecewise", "Max", "Min", "re", "im", "beta", "gamma", "zeta", "Float",
    "Integer", "Symbol", "Rational"};

static bool is_reserved(const char *s)
{
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; ++i)
        if (!strcmp(s, reserved[i])) return true;
    return false;
}

static bool taken(char **names, int before, const char *s)
{
    for (int i = 0; i < before; ++i)
        if (!strcmp(names[i], s)) return true;
    return false;
}

/* Column `var`'s name made an identifier; malloc'd. */
static char *identifier(const char *name, int var)
{
    char fallback[24];
    if (!name || !*name) {
        snprintf(fallback, sizeof fallback, "x%d", var + 1);
        name = fallback;
    }
    size_t n = strlen(name);
    char *s = malloc(n + 2);
    if (!s) return NULL;
    size_t k = 0;
    if (name[0] >= '0' && name[0] <= '9') s[k++] = '_';
    for (size_t i = 0; i < n; ++i) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        s[k++] = ok ? c : '_';
    }
    s[k] = '\0';
    return s;
}

char **gp_data_identifiers(const glevo_gp_data *d)
{
    char **names = calloc((size_t)d->vars + 1, sizeof *names);
    if (!names) return NULL;
    for (int v = 0; v < d->vars; ++v) {
        char *base = identifier(d->names[v], v);
        size_t room = base ? strlen(base) + 16 : 0;
        char *s = base ? malloc(room) : NULL;
        /* A reserved word or another column's name: the first free of s, s_, s_2, s_3, ... */
        for (int suffix = 0; s; ++suffix) {
            if (suffix == 0) snprintf(s, room, "%s", base);
            else if (suffix == 1) snprintf(s, room, "%s_", base);
            else snprintf(s, room, "%s_%d", base, suffix);
            if (!is_reserved(s) && !taken(names, v, s)) break;
        }
        free(base);
        if (!s) {
            gp_identifiers_free(names, v);
            return NULL;
        }
        names[v] = s;
    }
    return names;
}

int glevo_gp_data_var_identifier(const glevo_gp_data *d, int var, char *buf, size_t size)
{
    ARG_NOT_NULL_OR(d, -1);
    ARG_INDEX_OR(var, d->vars, -1);
    char **names = gp_data_identifiers(d);
    if (!names) return -1;
    int n = snprintf(buf, buf ? size : 0, "%s", names[var]);
    gp_identifiers_free(names, d->vars);
    return n;
}

void gp_identifiers_free(char **names, int vars)
{
    if (!names) return;
    for (int v = 0; v < vars; ++v) free(names[v]);
    free(names);
}
