/* Benchmark problems shared by every real-coded algorithm (cellular GA, DE): each is a GLSL
 * snippet shaders/problems/NAME.glsl with a C twin in src/problems/NAME.c doing the same float
 * arithmetic, plus a double-precision reference used for reported values (EFV).
 *
 * Evaluation streams over the genes so that any dimension works in a shader loop:
 *     vec4 acc = problem_init();
 *     for (int j = 0; j < D; ++j) acc = problem_step(acc, j, z_j);
 *     float f = problem_finish(acc, D);
 * where z = x - shift + shift_add (no shift: z = x). The C twin has the same three functions.
 * The snippets mark their sums and products `precise`, so no GPU compiler fuses a multiply into
 * an add: every stage (fragment or compute) rounds as the C twin, compiled as ISO C without
 * contraction, does, and + - * problems evaluate to the same bits everywhere.
 */
#ifndef GLEVO_PROBLEM_H
#define GLEVO_PROBLEM_H

#include "glevo/export.h"

#include <stdbool.h>

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_direction { GLEVO_MINIMIZE = 0, GLEVO_MAXIMIZE = 1 } glevo_direction;

typedef struct glevo_vec4 { float x, y, z, w; } glevo_vec4;

typedef struct glevo_problem {
    const char *name;        /* "camel", "sphere", ... */
    const char *snippet;     /* shader file, e.g. "problems/camel.glsl"; or a user path */
    const char *summary;     /* one line for --help */
    int fixed_dim;           /* 2 for camel and schaffer; 0 = any dimension */
    int default_dim;
    double lower, upper;     /* search domain per gene */
    double init_lower, init_upper; /* initialisation range (CEC: may differ from domain) */
    glevo_direction direction;
    bool has_optimum;
    double optimum;          /* f at the global optimum (unshifted problem, no bias) */
    float shift_add;         /* added after shifting: 1 for Rosenbrock (CEC F6), else 0 */
    const char *cec_shift_file; /* data/cec2005/... whose first D numbers shift it, or NULL */
    /* C twins (float, same operations as the GLSL snippet); NULL for user GLSL problems. */
    glevo_vec4 (*init)(void);
    glevo_vec4 (*step)(glevo_vec4 acc, int j, float z);
    float (*finish)(glevo_vec4 acc, int dim);
    /* Double-precision reference over z (already shifted), for reported values. */
    double (*reference)(const double *z, int dim);
} glevo_problem;

/* The built-in problems, terminated by an entry with name == NULL. */
GLEVO_API const glevo_problem *glevo_problems(void);
/* Looks a problem up by name; NULL with glevo_last_error naming the name and listing the
 * known ones. */
GLEVO_API const glevo_problem *glevo_problem_find(const char *name);
/* A user problem from a GLSL file defining problem_init/step/finish, with its domain.
 * The returned struct has no C twin (init == NULL); the GPU backend only. A file that does
 * not name problem_init, problem_step and problem_finish is GLEVO_ERR_INVALID naming it. */
GLEVO_API glevo_status glevo_problem_from_glsl(const char *path, int dim, double lower, double upper,
                                     glevo_direction direction, glevo_problem *out);
/* The same from GLSL text instead of a file: the text is kept in the library under `name`
 * (NULL: "<string>"; "name#2" when that name already holds other text), out->name and
 * out->snippet point at that registered name, and compile errors read "name:LINE: ..." with
 * the text's own line numbers. The text stays registered until the process ends. */
GLEVO_API glevo_status glevo_problem_from_glsl_source(const char *source, const char *name, int dim,
                                                      double lower, double upper,
                                                      glevo_direction direction,
                                                      glevo_problem *out);
/* Float twin evaluation over z (the C twin of the GLSL loop above). */
GLEVO_API float glevo_problem_eval_float(const glevo_problem *p, const float *z, int dim);
/* 1 if a is better than b under p's direction. */
GLEVO_API int glevo_problem_better(const glevo_problem *p, double a, double b);
/* f at the global optimum for this dimension: p->optimum, except Schwefel whose optimum
 * (-418.9828872724338 per gene) is stored per gene and scales with dim. */
GLEVO_API double glevo_problem_optimum(const glevo_problem *p, int dim);
/* Double-precision value at x (z = x - shift + shift_add; shift NULL: z = x). */
GLEVO_API double glevo_problem_eval_double(const glevo_problem *p, const double *x, const double *shift,
                                 int dim);
/* Error value (EFV): distance in f from the optimum, >= 0 in either direction. */
GLEVO_API double glevo_problem_error(const glevo_problem *p, const double *x, const double *shift, int dim);
/* The first dim (<= 100) numbers of p's CEC 2005 shift vector. Read from
 * data_dir/p->cec_shift_file; data_dir NULL: env GLEVO_DATA_DIR, and when that is unset the
 * copy embedded in the library (so installed binaries need no data folder). */
GLEVO_API glevo_status glevo_problem_load_shift(const glevo_problem *p, int dim, const char *data_dir,
                                      double *out);

#ifdef __cplusplus
}
#endif
#endif
