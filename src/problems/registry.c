/* The built-in problem table, lookup by name, float-twin evaluation, user GLSL problems and
 * the CEC 2005 shift vectors (embedded, or read from a data folder). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems_internal.h"
#include "core/args.h"

static const glevo_problem *const builtin[] = {
    &glevo_problem_sphere,   &glevo_problem_rosenbrock, &glevo_problem_griewank,
    &glevo_problem_rastrigin, &glevo_problem_ackley,    &glevo_problem_schwefel,
    &glevo_problem_schaffer, &glevo_problem_camel,
};
#define BUILTIN_COUNT ((int)(sizeof builtin / sizeof builtin[0]))

static glevo_problem table[BUILTIN_COUNT + 1];
static int table_ready;

const glevo_problem *glevo_problems(void)
{
    /* A contiguous copy so callers can walk it as an array ending with name == NULL. The
     * copy is idempotent, so a benign race between threads writes the same bytes. */
    if (!table_ready) {
        for (int i = 0; i < BUILTIN_COUNT; ++i) table[i] = *builtin[i];
        memset(&table[BUILTIN_COUNT], 0, sizeof(glevo_problem));
        table_ready = 1;
    }
    return table;
}

const glevo_problem *glevo_problem_find(const char *name)
{
    ARG_NOT_NULL_OR(name, NULL);
    const glevo_problem *all = glevo_problems();
    if (name) {
        for (int i = 0; all[i].name; ++i)
            if (strcmp(all[i].name, name) == 0) return &all[i];
    }
    char known[256] = "";
    for (int i = 0; all[i].name; ++i) {
        if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, all[i].name, sizeof known - strlen(known) - 1);
    }
    glevo_fail(GLEVO_ERR_INVALID, "problem '%s' is unknown (known: %s)", name ? name : "(null)",
               known);
    return NULL;
}

/* Whether GLSL source text (comments stripped) names `fn` followed by "(": the three entry
 * points are looked for before any shader is built, so that a missing one is blamed on the
 * user's file, not on the library shader that calls it (issue 23). */
static bool names_function(const char *src, const char *fn)
{
    size_t n = strlen(fn);
    for (const char *p = strstr(src, fn); p; p = strstr(p + 1, fn)) {
        bool starts = p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *q = p + n;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') ++q;
        if (starts && *q == '(') return true;
    }
    return false;
}

static void strip_comments(char *s)
{
    for (char *p = s; *p; ++p) {
        if (p[0] == '/' && p[1] == '/')
            while (*p && *p != '\n') *p++ = ' ';
        else if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); ++p)
                if (*p != '\n') *p = ' ';
            if (*p) p[0] = p[1] = ' ', ++p;
        }
        if (!*p) break;
    }
}

static glevo_status check_entry_points(const char *path, FILE *f)
{
    static const char *const fns[] = {"problem_init", "problem_step", "problem_finish"};
    static const char *const sigs[] = {"vec4 problem_init()",
                                       "vec4 problem_step(vec4 acc, int j, float z)",
                                       "float problem_finish(vec4 acc, int D)"};
    char *text = malloc(1 << 20);
    if (!text) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading '%s'", path);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    text[n] = '\0';
    strip_comments(text);
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < 3 && !st; ++i)
        if (!names_function(text, fns[i]))
            st = glevo_fail(GLEVO_ERR_INVALID, "fitness file '%s' defines no %s: it must define "
                            "%s, %s and %s", path, fns[i], sigs[0], sigs[1], sigs[2]);
    free(text);
    return st;
}

glevo_status glevo_problem_from_glsl(const char *path, int dim, double lower, double upper,
                                     glevo_direction direction, glevo_problem *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    if (!path || !*path) return glevo_fail(GLEVO_ERR_INVALID, "fitness file name is empty");
    if (dim < 1) return glevo_fail(GLEVO_ERR_INVALID, "dimension %d is below 1", dim);
    ARG_ENUM(direction, GLEVO_MINIMIZE, GLEVO_MAXIMIZE);
    if (!(lower < upper) || !isfinite(lower) || !isfinite(upper))
        return glevo_fail(GLEVO_ERR_INVALID, "domain lower..upper [%g, %g] is empty or not "
                          "finite", lower, upper);
    FILE *f = fopen(path, "r");
    if (!f)
        return glevo_fail(GLEVO_ERR_IO, "cannot read fitness file '%s': %s", path,
                          strerror(errno));
    glevo_status st = check_entry_points(path, f);
    fclose(f);
    if (st) return st;
    memset(out, 0, sizeof *out);
    out->name = path;
    out->snippet = path; /* gpu_program_build reads aliases that are paths from disk */
    out->summary = "user GLSL fitness file";
    out->default_dim = dim;
    out->lower = out->init_lower = lower;
    out->upper = out->init_upper = upper;
    out->direction = direction;
    return GLEVO_OK;
}

float glevo_problem_eval_float(const glevo_problem *p, const float *z, int dim)
{
    ARG_NOT_NULL_OR(p, NAN);
    ARG_NOT_NULL_OR(z, NAN);
    glevo_vec4 acc = p->init();
    for (int j = 0; j < dim; ++j) acc = p->step(acc, j, z[j]);
    return p->finish(acc, dim);
}

int glevo_problem_better(const glevo_problem *p, double a, double b)
{
    ARG_NOT_NULL_OR(p, -1);
    return p->direction == GLEVO_MAXIMIZE ? a > b : a < b;
}

double glevo_problem_optimum(const glevo_problem *p, int dim)
{
    ARG_NOT_NULL_OR(p, NAN);
    if (p->reference == glevo_problem_schwefel.reference) return p->optimum * dim;
    return p->optimum;
}

double glevo_problem_eval_double(const glevo_problem *p, const double *x, const double *shift,
                                 int dim)
{
    ARG_NOT_NULL_OR(p, NAN);
    ARG_NOT_NULL_OR(x, NAN);
    double stack[256] = {0};
    double *z = dim <= 256 ? stack : malloc(sizeof(double) * (size_t)dim);
    if (!z) return NAN;
    for (int j = 0; j < dim; ++j) z[j] = shift ? x[j] - shift[j] + (double)p->shift_add : x[j];
    double f = p->reference(z, dim);
    if (z != stack) free(z);
    return f;
}

double glevo_problem_error(const glevo_problem *p, const double *x, const double *shift, int dim)
{
    ARG_NOT_NULL_OR(p, NAN);
    ARG_NOT_NULL_OR(x, NAN);
    double f = glevo_problem_eval_double(p, x, shift, dim);
    double e = f - glevo_problem_optimum(p, dim);
    return p->direction == GLEVO_MAXIMIZE ? -e : e;
}

static const double *embedded_shift(const glevo_problem *p)
{
    if (p->reference == glevo_problem_sphere.reference) return glevo_cec2005_sphere;
    if (p->reference == glevo_problem_rosenbrock.reference) return glevo_cec2005_rosenbrock;
    if (p->reference == glevo_problem_griewank.reference) return glevo_cec2005_griewank;
    if (p->reference == glevo_problem_rastrigin.reference) return glevo_cec2005_rastrigin;
    return NULL;
}

glevo_status glevo_problem_load_shift(const glevo_problem *p, int dim, const char *data_dir,
                                      double *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(out);
    if (!p->cec_shift_file)
        return glevo_fail(GLEVO_ERR_INVALID, "problem '%s' has no CEC 2005 shift vector",
                          p->name);
    if (dim < 1 || dim > GLEVO_CEC2005_MAX_DIM)
        return glevo_fail(GLEVO_ERR_INVALID,
                          "dimension %d is outside 1..%d for the CEC 2005 shift of '%s'", dim,
                          GLEVO_CEC2005_MAX_DIM, p->name);
    if (!data_dir) data_dir = getenv("GLEVO_DATA_DIR");
    if (!data_dir || !*data_dir) {
        const double *e = embedded_shift(p);
        if (!e)
            return glevo_fail(GLEVO_ERR_INVALID, "no embedded shift for '%s'; set GLEVO_DATA_DIR",
                              p->name);
        memcpy(out, e, sizeof(double) * (size_t)dim);
        return GLEVO_OK;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir, p->cec_shift_file);
    FILE *f = fopen(path, "r");
    if (!f)
        return glevo_fail(GLEVO_ERR_IO, "cannot read shift file '%s': %s", path,
                          strerror(errno));
    for (int j = 0; j < dim; ++j) {
        if (fscanf(f, "%lf", &out[j]) != 1) {
            fclose(f);
            return glevo_fail(GLEVO_ERR_IO, "shift file '%s' has fewer than %d numbers", path,
                              dim);
        }
    }
    fclose(f);
    return GLEVO_OK;
}
