/* The generational GP engine's state (engine.c runs it, checkpoint.c saves and restores it):
 * individuals as codes with a constant beside each code, two generation buffers, the host
 * random stream, errors and counters. */
#ifndef GLEVO_GP_ENGINE_INTERNAL_H
#define GLEVO_GP_ENGINE_INTERNAL_H

#include "gp/gp_internal.h"
#include "core/clock.h"
#include "gp/const_fit_gpu.h"
#include "gp/resident.h"
#include "gp/tree.h"

/* consts[i] belongs to codes[i] (meaningful where codes[i] is a constant). */
typedef struct indiv {
    uint32_t *codes;
    float *consts;
    int len;
} indiv;

/* The breeding scheme a checkpoint's run used (checkpoint.c refuses others). */
#define GP_BREEDING "per-child-philox-1"

struct glevo_gp {
    glevo_gp_params P;        /* defaults resolved: this search's */
    glevo_gp_params asked;    /* the run's (glevo_gp_params_of): a portfolio's pop is both
                               * searches' and its progress callback the run's */
    struct glevo_gp *next_search; /* a portfolio's next search (src/gp/portfolio.c), or NULL */
    /* A search beside the main one starts again after restart_after generations without a
     * better best (portfolio.c; 0: never): the best since the start, the generation it was
     * reached, how many restarts so far. */
    int restart_after, restart_since, restarts;
    double restart_best;
    int helper_terms; /* a portfolio's head: its helpers' terms (gp_portfolio_layout) */
    const glevo_gp_data *data;
    uint32_t mask;
    gp_rng rng;
    tree_gen g;
    int scratch_cap;
    uint32_t *codes_mem;
    float *consts_mem;
    indiv *pops[2];           /* this generation and the next, max_size codes each */
    indiv scratch;
    int32_t *sizes_mem;       /* the parents' subtree sizes, max_size a program */
    int32_t *lens;            /* the current generation's lengths */
    double *err, *fit;
    int32_t elite[GP_ELITE_MAX];
    /* The population on the GPU (compute backend, where it fits; NULL: the host breeds).
     * Then pops[cur] is a copy made only when the host needs the programs (host_stale). */
    gp_resident *res;
    bool host_stale;
    /* Compute and resident: fitness, best and elites made on the GPU (gp/fitness.glsl) and
     * read back only when the host reports (fit_stale: err, fit, best, elite, lens and
     * nodes_evaluated are behind the GPU's); fit_to_gpu: the host's are newer (a resume, a
     * migration) and go up before the next breed. */
    bool gpu_fit, fit_stale, fit_to_gpu;
    /* Compute and resident with constant fitting on: the GPU pass that fits the resident
     * programs (NULL: the host twin fits the host's copy). */
    gp_const_fitter *fitter;
    /* The cases constant fitting walks (gp_const_fit_data): data, or fit_data_owned. */
    const glevo_gp_data *fit_data;
    glevo_gp_data *fit_data_owned;
    double codes_seen;        /* gp/fitness.glsl's code count at the last read */
    glevo_gp_programs *progs; /* the evaluated generation (host breeding; resident: a copy
                               * made by gp_host_sync) */
    glevo_gp_programs *one;   /* the best program alone, for progress */
    /* The best program's reported model, kept while the best program stays the same
     * (gp_engine_best_model): the progress lines ask for it every generation. */
    struct {
        bool valid;
        int len;
        uint32_t *codes;
        float *consts;
        double error;
        char *sexpr;
    } model_cache;
    glevo_gp_evaluator *ev;
    struct gp_enumeration_job *enumeration; /* running from create to the first generation */
    int cur, best, generation;
    bool done;
    long long evaluations, nodes_evaluated;
    double t0, eval_seconds, variation_seconds;
};

/* Params with defaults filled in and checked against the data. */
glevo_status gp_resolve_params(const glevo_gp_params *params, const glevo_gp_data *data,
                               glevo_gp_params *out);
/* An engine with its buffers, random stream and evaluator, and no population yet. */
glevo_status gp_engine_new(const glevo_gp_params *resolved, const glevo_gp_data *data,
                           glevo_gp **out);
/* After a checkpoint's state is back in pops[cur]: the evaluator's copy of the population,
 * and whether the run is already over under the (possibly changed) parameters. */
glevo_status gp_engine_resumed(glevo_gp *gp);

/* The programs of the current generation into pops[cur] (a resident run's are on the GPU);
 * const: the host copy is a cache of the GPU's. */
glevo_status gp_host_sync(const glevo_gp *gp);

/* The fitness, best, elites and lengths of the current generation on the host (a resident
 * run with GPU fitness reads them back); const as gp_host_sync. */
glevo_status gp_fitness_sync(const glevo_gp *gp);

/* The minimised fitness of an error under metric (1 - accuracy; non-finite: infinity). */
double gp_fitness_of(glevo_gp_metric m, double e);
/* The index of the current generation's best by fit (ties: the shorter program, then the
 * first). */
int gp_find_best(const glevo_gp *gp);

/* The split of the engine (issue 23's "house"): engine.c drives create/step/destroy;
 * engine_init.c fills the first generation, engine_eval.c evaluates one, engine_sync.c keeps
 * the host's copies of a resident run, engine_result.c prints the result. */
glevo_status gp_engine_initialise(glevo_gp *gp);
glevo_status gp_engine_evaluate(glevo_gp *gp);
/* The best program of the current generation alone in out (from the GPU when resident). */
glevo_status gp_engine_best_program(const glevo_gp *gp, glevo_gp_programs *out);
/* Program i of the current generation (codes, its constants beside them, length: the engine's
 * layout), from its GPU slot when the host's copy is behind. */
glevo_status gp_engine_program(const glevo_gp *gp, int i, uint32_t *codes, float *consts,
                               int *len);
/* The best program's reported model (scaled and simplified, glevo_gp_model): its error and
 * S-expression, valid until the next call. */
glevo_status gp_engine_best_model(const glevo_gp *gp, double *error, const char **sexpr);
/* The evaluator's container of the host population (what glevo_gp_population returns). */
glevo_status gp_engine_pack_host(glevo_gp *gp);
/* GLEVO_OK for CPU evaluation, or where the evaluator's GL context is current. */
glevo_status gp_gl_ready(const glevo_gp *gp, const char *function);
/* Program i of p printed (infix or S-expression) in a new string; NULL: out of memory. */
char *gp_print_alloc(const glevo_gp_programs *p, int i, int infix);

#endif
