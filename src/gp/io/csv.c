/* Datasets for GP: CSV with a header row, numbers only, stored transposed (one row of cases
 * per variable, the paper's §5.1.1 layout that makes neighbouring cases neighbours in memory).
 * Errors name the file, line and column. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_file.h"
#include "gp/gp_internal.h"
#include "core/args.h"

static glevo_gp_data *data_alloc(int vars, int cases)
{
    glevo_gp_data *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->vars = vars;
    d->cases = cases;
    d->x = malloc(((size_t)vars * (size_t)cases + 1) * sizeof *d->x);
    d->y = malloc(((size_t)cases + 1) * sizeof *d->y);
    d->names = calloc((size_t)vars + 1, sizeof *d->names);
    if (!d->x || !d->y || !d->names) {
        glevo_gp_data_destroy(d);
        return NULL;
    }
    return d;
}

void glevo_gp_data_destroy(glevo_gp_data *d)
{
    if (!d) return;
    if (d->names)
        for (int i = 0; i <= d->vars; ++i) free(d->names[i]);
    free(d->names);
    free(d->x);
    free(d->y);
    free(d);
}

/* The one rule for a data value at the float32 boundary, for the CSV reader and
 * glevo_gp_data_create (so for Python, whose float64 arrays are cast first): finite as a
 * float, and a target within +-GP_TARGET_MAX, so that the squared errors of programs near it,
 * summed in float by the GPU's lanes over up to 10^7 cases, stay finite (a target near 1e38
 * gave every program an infinite error and printed an infinite constant as the model).
 * NULL, or what is wrong with v. */
#define GP_TARGET_MAX 1e15
static const char *value_problem(double v, bool target)
{
    if (!isfinite(v) || !isfinite((float)v))
        return "is not a finite number in float32's range (+-3.4e38)"; /* arrays: NaN, inf */
    if (target && fabs(v) > GP_TARGET_MAX)
        return "is beyond +-1e15 for a target: squared errors near it overflow the float sums "
               "(rescale the column)";
    return NULL;
}

glevo_status glevo_gp_data_create(int vars, int cases, const float *x, const float *y,
                                  glevo_gp_data **out)
{
    return gp_data_create(vars, cases, x, y, true, out);
}

glevo_status gp_data_create(int vars, int cases, const float *x, const float *y, bool checked,
                            glevo_gp_data **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(x);
    ARG_NOT_NULL(y);
    ARG_NOT_NULL(out);
    *out = NULL;
    if (vars < 0 || cases < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "dataset needs at least one case (got %d vars, %d cases)",
                          vars, cases);
    if ((long long)(vars + 1LL) * cases > GP_MAX_DATA_VALUES)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_data_create: %d variables and a target "
                          "over %d cases are %lld numbers, above the limit of %lld", vars, cases,
                          (vars + 1LL) * cases, GP_MAX_DATA_VALUES);
    for (int v = 0; v <= vars && checked; ++v)
        for (int c = 0; c < cases; ++c) {
            double value = v < vars ? x[(size_t)v * cases + c] : y[c];
            const char *why = value_problem(value, v == vars);
            if (why) {
                char what[32];
                snprintf(what, sizeof what, v < vars ? "x%d" : "the target", v + 1);
                return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_data_create: %s at case %d "
                                  "(counting from 0) is %g: it %s", what, c, value, why);
            }
        }
    glevo_gp_data *d = data_alloc(vars, cases);
    if (!d) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %dx%d dataset", vars, cases);
    memcpy(d->x, x, (size_t)vars * (size_t)cases * sizeof *x);
    memcpy(d->y, y, (size_t)cases * sizeof *y);
    for (int i = 0; i <= vars; ++i) {
        char name[32];
        if (i < vars)
            snprintf(name, sizeof name, "x%d", i + 1);
        else
            snprintf(name, sizeof name, "y");
        d->names[i] = strdup(name);
        if (!d->names[i]) {
            glevo_gp_data_destroy(d);
            return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        }
    }
    *out = d;
    return GLEVO_OK;
}

int glevo_gp_data_vars(const glevo_gp_data *d) {
    ARG_NOT_NULL_OR(d, -1);
    return d->vars;
}
int glevo_gp_data_cases(const glevo_gp_data *d) {
    ARG_NOT_NULL_OR(d, -1);
    return d->cases;
}
const float *glevo_gp_data_row(const glevo_gp_data *d, int var) {
    ARG_NOT_NULL_OR(d, NULL);
    ARG_INDEX_OR(var, d->vars, NULL);
    return d->x + (size_t)var * d->cases;
}
const float *glevo_gp_data_target(const glevo_gp_data *d) {
    ARG_NOT_NULL_OR(d, NULL);
    return d->y;
}
const char *glevo_gp_data_var_name(const glevo_gp_data *d, int var) {
    ARG_NOT_NULL_OR(d, NULL);
    ARG_INDEX_OR(var, d->vars, NULL);
    return d->names[var];
}
glevo_status glevo_gp_data_set_var_name(glevo_gp_data *d, int var, const char *name)
{
    glevo_clear_error();
    ARG_NOT_NULL(d);
    ARG_NOT_NULL(name);
    ARG_INDEX_OR(var, d->vars, GLEVO_ERR_INVALID);
    if (!*name) return glevo_fail(GLEVO_ERR_INVALID, "input %d's name is empty", var + 1);
    for (int v = 0; v < d->vars; ++v)
        if (v != var && d->names[v] && !strcmp(d->names[v], name))
            return glevo_fail(GLEVO_ERR_INVALID, "input name '%s' is input %d's already", name,
                              v + 1);
    char *copy = strdup(name);
    if (!copy) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a name");
    free(d->names[var]);
    d->names[var] = copy;
    return GLEVO_OK;
}

const char *glevo_gp_data_target_name(const glevo_gp_data *d) {
    ARG_NOT_NULL_OR(d, NULL);
    return d->names[d->vars];
}

/* Splits one line into fields in place; returns the field count, fields[] point into line,
 * cols[] hold 1-based columns. */
static int split(char *line, char **fields, int *cols, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n < max) {
            fields[n] = p;
            cols[n] = (int)(p - line) + 1;
        }
        n++;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

static char *trim(char *s, int *shift)
{
    int k = 0;
    while (*s == ' ' || *s == '\t') s++, k++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
    if (shift) *shift = k;
    return s;
}

static int blank(const char *s)
{
    for (; *s; ++s)
        if (!isspace((unsigned char)*s)) return 0;
    return 1;
}

glevo_status glevo_gp_data_parse_csv(const char *text, const char *source, const char *target,
                                     glevo_gp_data **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(text);
    ARG_NOT_NULL(out);
    *out = NULL;
    const char *src = source ? source : "data";
    char *copy = strdup(text);
    if (!copy) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", src);
    glevo_status st = GLEVO_OK;
    int ncols = 0, tcol = -1, rows = 0, cap = 0;
    float *values = NULL; /* row-major while reading */
    char **names = NULL;
    char **fields = NULL;
    int *cols = NULL;
    int line_no = 0, header_seen = 0;
    char *save = copy;
    while (save) {
        char *line = save;
        char *nl = strchr(line, '\n');
        if (nl) {
            *nl = '\0';
            save = nl + 1;
        } else {
            save = NULL;
        }
        line_no++;
        if (blank(line)) continue;
        if (!header_seen) {
            int n = split(line, NULL, NULL, 0);
            fields = malloc((size_t)n * sizeof *fields);
            cols = malloc((size_t)n * sizeof *cols);
            names = calloc((size_t)n, sizeof *names);
            if (!fields || !cols || !names) {
                st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", src);
                goto done;
            }
            /* split() with max = 0 records no fields but has cut the line at its commas:
             * walk the pieces. */
            ncols = n;
            char *p = line;
            for (int i = 0; i < n; ++i) {
                int shift;
                cols[i] = (int)(p - line) + 1;
                char *next = p + strlen(p) + 1;
                char *name = trim(p, &shift);
                if (!*name) {
                    st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: empty column name in the header",
                                    src, line_no, cols[i]);
                    goto done;
                }
                names[i] = strdup(name);
                if (!names[i]) {
                    st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", src);
                    goto done;
                }
                p = next;
            }
            /* A first row of numbers is data, not names: taking it as the header would drop a
             * case and name the columns "0.5", silently. */
            bool numeric = true;
            for (int i = 0; i < ncols && numeric; ++i) {
                char *end;
                strtod(names[i], &end);
                numeric = end != names[i] && *end == '\0';
            }
            if (numeric) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:1: the first row holds only numbers; the "
                                "file needs a header row naming the columns (e.g. x1,x2,y)", src, line_no);
                goto done;
            }
            if (ncols < 1) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:1: header has no columns", src, line_no);
                goto done;
            }
            /* Two columns of one name: --target NAME and the report could not tell them apart. */
            for (int i = 0; i < ncols; ++i)
                for (int j = 0; j < i; ++j)
                    if (!strcmp(names[i], names[j])) {
                        st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: column name '%s' appears "
                                        "twice (columns %d and %d)", src, line_no, cols[i],
                                        names[i], j + 1, i + 1);
                        goto done;
                    }
            if (target) {
                for (int i = 0; i < ncols; ++i)
                    if (!strcmp(names[i], target)) tcol = i;
                if (tcol < 0) {
                    st = glevo_fail(GLEVO_ERR_INVALID,
                                    "%s:%d:1: no column named '%s' for the target", src,
                                    line_no, target);
                    goto done;
                }
            } else {
                tcol = ncols - 1;
            }
            header_seen = 1;
            continue;
        }
        int n = split(line, fields, cols, ncols);
        if (n != ncols) {
            /* Short row: the column just after its last field; long row: its first extra. */
            char *last = fields[(n < ncols ? n : ncols) - 1];
            int col = (int)(last - line) + (int)strlen(last) + (n > ncols ? 2 : 1);
            st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: row has %d field(s), the header has %d",
                            src, line_no, col, n, ncols);
            goto done;
        }
        if (rows >= cap) {
            cap = cap ? cap * 2 : 256;
            float *nv = realloc(values, (size_t)cap * (size_t)ncols * sizeof *nv);
            if (!nv) {
                st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading %s", src);
                goto done;
            }
            values = nv;
        }
        for (int i = 0; i < ncols; ++i) {
            int shift;
            char *f = trim(fields[i], &shift);
            double v = 0;
            const char *why = gp_number_parse(f, &v);
            if (!why) why = value_problem(v, i == tcol);
            if (why) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: '%s' %s (column '%s')", src,
                                line_no, cols[i] + shift, f, why, names[i]);
                goto done;
            }
            values[(size_t)rows * ncols + i] = (float)v;
        }
        rows++;
    }
    if (!header_seen) {
        st = glevo_fail(GLEVO_ERR_INVALID, "%s:1:1: empty file: expected a header row", src);
        goto done;
    }
    if (rows == 0) {
        st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:1: no data rows after the header", src, line_no);
        goto done;
    }
    {
        int vars = ncols - 1;
        glevo_gp_data *d = data_alloc(vars, rows);
        if (!d) {
            st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %s", src);
            goto done;
        }
        int v = 0;
        for (int c = 0; c < ncols; ++c) {
            float *dst = c == tcol ? d->y : d->x + (size_t)v * rows;
            for (int r = 0; r < rows; ++r) dst[r] = values[(size_t)r * ncols + c];
            d->names[c == tcol ? vars : v] = names[c];
            names[c] = NULL;
            if (c != tcol) v++;
        }
        *out = d;
    }
done:
    if (names)
        for (int i = 0; i < ncols; ++i) free(names[i]);
    free(names);
    free(fields);
    free(cols);
    free(values);
    free(copy);
    return st;
}

glevo_status glevo_gp_data_load_csv(const char *path, const char *target, glevo_gp_data **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    *out = NULL;
    char *text;
    glevo_status st = input_read_text(path, "data file", INPUT_MAX_DATA, &text, NULL);
    if (st != GLEVO_OK) return st;
    st = glevo_gp_data_parse_csv(text, path, target, out);
    free(text);
    return st;
}
