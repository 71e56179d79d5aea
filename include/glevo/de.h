/* Differential evolution (Storn & Price 1997) fused in the spirit of cudaDE_i (Qin et al.
 * 2012): DE/rand/1/bin and friends, GPU engines of two fragment passes per generation or of
 * fused compute dispatches (one a generation, or many generations a dispatch for small
 * populations), and a CPU engine (the paper's sDE), all drawing the same counter-based random
 * stream, so that with the same seed all pick the same r1, r2, r3, jrand and crossover masks.
 * Bound handling: a mutant gene outside the problem's domain is re-drawn uniformly inside it
 * (from the same stream). Initialisation is uniform in the problem's initialisation range. */
#ifndef GLEVO_DE_H
#define GLEVO_DE_H

#include "glevo/export.h"

#include <stdbool.h>
#include <stdint.h>

#include "glevo/backend.h"
#include "glevo/checkpoint.h"
#include "glevo/problem.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_de_strategy {
    GLEVO_DE_RAND_1_BIN = 0,          /* v = x_r1 + F (x_r2 - x_r3), binomial crossover */
    GLEVO_DE_BEST_1_BIN = 1,          /* v = x_best + F (x_r1 - x_r2) */
    GLEVO_DE_CURRENT_TO_BEST_1_BIN = 2, /* v = x_i + F (x_best - x_i) + F (x_r1 - x_r2) */
    GLEVO_DE_RAND_1_EXP = 3           /* rand/1 with exponential (two-point) crossover */
} glevo_de_strategy;

/* The compute backend's kernels (glevo_de_params.kernel); the others ignore it. */
typedef enum glevo_de_kernel {
    GLEVO_DE_KERNEL_AUTO = 0,       /* resident where the population fits one work-group's
                                     * shared memory, else generation */
    GLEVO_DE_KERNEL_GENERATION = 1, /* one dispatch a generation, a work-group per individual
                                     * and an invocation per gene (cudaDE_i's layout) */
    GLEVO_DE_KERNEL_RESIDENT = 2    /* the whole population in one work-group's shared
                                     * memory, up to 256 generations a dispatch */
} glevo_de_kernel;

/* CR is a probability where 0 is legitimate; zero in the struct means "default 0.3", so an
 * exact zero is asked for with GLEVO_ZERO (this older name stays). */
#define GLEVO_DE_CR_ZERO GLEVO_ZERO

/* Progress (the shape of glevo_gp_progress_fn): generations done and the best fitness so
 * far, f(best_x) in double. */
typedef void (*glevo_de_progress_fn)(void *user, long long generation, double best_fitness);

/* Zero means default everywhere (glevo_de_params_defaults). */
typedef struct glevo_de_params {
    const glevo_problem *problem; /* NULL: sphere */
    int dim;                      /* 0: 10, or the problem's fixed dimension */
    int pop;                      /* NP, 0: 100; at least 4 */
    double F;                     /* 0: 0.5 */
    double CR;                    /* 0: 0.3; GLEVO_DE_CR_ZERO for 0 */
    glevo_de_strategy strategy;   /* 0: DE/rand/1/bin */
    long long max_evals;          /* 0: 10^4 * dim (Qin et al. 2012) */
    uint32_t seed;
    bool no_shift;                /* true: the plain function; false: the CEC 2005 shift when
                                   * the problem has one (first dim numbers) */
    const double *shift;          /* optional own shift vector of dim numbers (overrides CEC) */
    int check_every;              /* K: best-so-far read back every K generations; 0: 100 */
    double target_efv;            /* > 0: stop at a check once EFV < target; 0: full budget */
    glevo_backend backend;        /* auto (default), compute, fragment or cpu */
    glevo_de_kernel kernel;       /* compute backend: which kernel (0: auto) */
    /* NULL: none. Else glevo_de_step calls it at every best-so-far check (every check_every
     * generations, and at the end of the budget), after reading the best back; the run is
     * the same with or without it. Not stored in checkpoints: give it again in changes. */
    glevo_de_progress_fn progress;
    void *progress_user;
} glevo_de_params;

typedef struct glevo_de_result {
    int dim;
    double *best_x;        /* dim numbers, owned by the result (glevo_de_result_free) */
    double best_fitness;   /* f(best_x) in double on the host */
    double efv;            /* error value f(best_x) - f*, in double (NaN without an optimum) */
    long long evaluations;
    long long generations;
    double seconds;        /* wall time of the run (initialisation to final readback) */
    char renderer[256];    /* GL renderer string, or "cpu" */
    char engine[32];       /* what ran the generations: "cpu", "fragment" (two passes),
                            * "compute.generation" or "compute.resident" */
} glevo_de_result;

typedef struct glevo_de glevo_de;

/* The parameters with every default filled in (the problem, dim, NP, F, CR, budget, check
 * interval); what a run uses and what --help prints. */
GLEVO_API glevo_de_params glevo_de_params_defaults(const glevo_de_params *params);
/* Validates the parameters (GLEVO_ERR_INVALID naming the params field and the bad value: NP <
 * 4, CR outside [0,1], F <= 0, dim < 1 or not the problem's fixed dimension, ...), builds the
 * engine and the initial population (one evaluation per individual). GPU backends run on the
 * GL context current on this thread (glevo_context_create). */
GLEVO_API glevo_status glevo_de_create(const glevo_de_params *params, glevo_de **out);
/* Advances up to `generations` generations, never beyond max_evals. */
GLEVO_API glevo_status glevo_de_step(glevo_de *de, long long generations);
/* True once the evaluation budget is spent (or target_efv was reached). */
GLEVO_API bool glevo_de_done(const glevo_de *de);
/* Best individual so far (a GPU readback for the fragment backend). */
GLEVO_API glevo_status glevo_de_result_get(glevo_de *de, glevo_de_result *out);
/* The population (pop x dim, row per individual, in x coordinates) and fitness (float twin /
 * GPU values); either may be NULL. */
GLEVO_API glevo_status glevo_de_population(glevo_de *de, double *x, float *fitness);
GLEVO_API void glevo_de_destroy(glevo_de *de);

/* Checkpoints (docs/checkpoint.md), between steps: the parameters with the shift vector, the
 * counts, the population and fitness read back from the GPU, written atomically. load builds
 * the run back; stepping it ends bit for bit where the saved run would have (on the same
 * renderer; across backends where they agree exactly). changes: NULL, or parameters to
 * change, zero meaning "as in the file" (GLEVO_ZERO asks for 0: .backend = GLEVO_ZERO is
 * fragment): max_evals, check_every, target_efv, backend and kernel may change; any other
 * field that differs is refused naming it. A user GLSL problem must be given again in
 * changes->problem. */
GLEVO_API glevo_status glevo_de_save(glevo_de *de, const char *path, const glevo_checkpoint_extra *extra);
GLEVO_API glevo_status glevo_de_load(const char *path, const glevo_de_params *changes, glevo_de **out);
/* Generations done and evaluations so far. */
GLEVO_API long long glevo_de_generation(const glevo_de *de);
GLEVO_API long long glevo_de_evaluations(const glevo_de *de);
GLEVO_API int glevo_de_pop(const glevo_de *de);
GLEVO_API int glevo_de_dim(const glevo_de *de);
GLEVO_API const glevo_problem *glevo_de_problem(const glevo_de *de);

/* Migration (the island model, glevo/islands.h): small transfers, never the population.
 * Individuals are numbered 0..pop-1. Genes travel in the engine's own coordinates, x minus
 * the problem's shift, as floats (dim per individual): every island of a problem has the same
 * shift, and a gene near the optimum would not survive the round trip through x in double.
 * glevo_de_write_genes sets individuals together with their fitness as another engine of the
 * same problem computed it (nothing is re-evaluated). On the GPU a read or write costs the
 * individual's dim texels; glevo_de_read_fitness reads pop floats. */
GLEVO_API glevo_status glevo_de_read_fitness(glevo_de *de, float *fitness);
GLEVO_API glevo_status glevo_de_read_genes(glevo_de *de, int count, const int *index, float *genes);
GLEVO_API glevo_status glevo_de_write_genes(glevo_de *de, int count, const int *index,
                                  const float *genes, const float *fitness);

/* create + step to the end + result + destroy. */
GLEVO_API glevo_status glevo_de_run(const glevo_de_params *params, glevo_de_result *out);
GLEVO_API void glevo_de_result_free(glevo_de_result *r);

GLEVO_API const char *glevo_de_strategy_name(glevo_de_strategy s);
/* "auto", "generation", "resident"; parse returns -1 when unknown. */
GLEVO_API const char *glevo_de_kernel_name(glevo_de_kernel k);
GLEVO_API int glevo_de_kernel_parse(const char *name);
/* Parses "rand1bin", "best1bin", "current-to-best1bin", "rand1exp" (also with slashes,
 * "rand/1/bin"); returns -1 when unknown. */
GLEVO_API int glevo_de_strategy_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif
