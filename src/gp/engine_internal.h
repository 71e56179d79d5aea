/* The generational GP engine's state (engine.c runs it, checkpoint.c saves and restores it):
 * individuals as codes with a constant beside each code, two generation buffers, the host
 * random stream, errors and counters. */
#ifndef GLEVO_GP_ENGINE_INTERNAL_H
#define GLEVO_GP_ENGINE_INTERNAL_H

#include "gp/gp_internal.h"
#include "core/clock.h"
#include "gp/sr/const_fit_gpu.h"
#include "gp/breed/resident.h"
#include "gp/breed/tree.h"
#include "gp/sr/portfolio.h"

/* The breeding scheme a checkpoint's run used (checkpoint.c refuses others). */
#define GP_BREEDING "per-child-philox-1"

struct glevo_gp {
    glevo_gp_params P;        /* defaults resolved: this search's */
    glevo_gp_params asked;    /* the run's (glevo_gp_params_of): a portfolio's pop is both
                               * searches' and its progress callback the run's */
    struct glevo_gp *next_search; /* a portfolio's next search (src/gp/sr/portfolio.c), or NULL */
    /* A search beside the main one starts again after restart_after generations without a
     * better best (portfolio.c; 0: never): the best since the start, the generation it was
     * reached, how many restarts so far. */
    int restart_after, restart_since, restarts;
    double restart_best;
    int restart_known; /* the last generation whose best restart_best has taken in */
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
/* The programs a search's generations will use, built now (in the run's program batch, so
 * that they compile together; engine_run.c). */
glevo_status gp_engine_prebuild(glevo_gp *gp);
/* A search's generation 0 (grown, with the enumeration's short programs where it has them,
 * fitted, evaluated), and its next generation (bred, or a restart: sr/portfolio.c). */
glevo_status gp_engine_first_generation(glevo_gp *gp);
/* The next generation's GPU work issued; gp_engine_evaluate_collect finishes it (glevo_gp_step
 * issues every search's before collecting any). */
glevo_status gp_engine_step_submit(glevo_gp *s);
/* After a checkpoint's state is back in pops[cur]: the evaluator's copy of the population,
 * and whether the run is already over under the (possibly changed) parameters. */
glevo_status gp_engine_resumed(glevo_gp *gp);

/* The portfolio's searches (engine_portfolio.c). A run from resolved parameters: one
 * engine, or the main search's engine heading the chain of the others (gp->next_search) for
 * a portfolio laid out as L (NULL: this version's; checkpoints give theirs); gp->asked is P.
 * No population yet; where it will be grown (fresh: not a checkpoint's), the main search's
 * enumeration of short programs starts on its own thread as soon as the search exists. */
glevo_status gp_run_new(const glevo_gp_params *P, const glevo_gp_data *data,
                        const gp_portfolio_layout *L, bool fresh, glevo_gp **out);

/* After every search evaluated a generation: the run's progress line (the best model) and
 * its end (any search's). Nothing to do without a portfolio. */
glevo_status gp_portfolio_report(glevo_gp *gp);
/* A restarting search's record of its best takes in the bests of generations up to through
 * (engine.c's restart_due reads them only where a restart may be due). */
glevo_status gp_restart_take(glevo_gp *s, int through);

/* The engine whose best model the run reports (gp itself without a portfolio), its fitness
 * on the host; *which: its index (0 the main search), *error: that model's training error
 * (any may be NULL; a run of one search builds its model only when *error is asked for). */
glevo_status gp_portfolio_pick(const glevo_gp *gp, const glevo_gp **pick, int *which,
                               double *error);

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

/* The split of the engine (issue 23's "house"): engine_run.c drives create/step, over
 * engine_portfolio.c's searches; engine.c runs one search (new, generations, destroy);
 * engine_init.c fills the first generation, engine_eval.c evaluates one, engine_sync.c keeps
 * the host's copies of a resident run, engine_result.c prints the result. */
glevo_status gp_engine_initialise(glevo_gp *gp);
/* Starts gp_enumerate_seed's enumeration on a thread of its own (nothing when gp enumerates
 * nothing, or no thread can be had: then gp_enumerate_seed enumerates), so that it overlaps
 * the run's other set-up; gp_enumerate_seed or gp_enumerate_abandon ends it. */
void gp_enumerate_begin(glevo_gp *gp);
/* Waits for a begun enumeration and drops it (a run destroyed before its first generation). */
void gp_enumerate_abandon(glevo_gp *gp);
/* gp_enumerate with gp's data, operators, scaling and max_size and gp->P.enumeration
 * candidates, on the run's CPU threads (eval.threads); the best that fit the sampled cases to
 * rounding (GP_ENUM_EXACT; at most an eighth of the population) replace the last programs of
 * gp's first generation (pops[cur]). enumeration 0: nothing. */
glevo_status gp_enumerate_seed(glevo_gp *gp);
/* A generation's evaluation in two halves (engine_eval.c): the GPU's work issued, then the
 * errors, fitness, best, progress and end test. */
glevo_status gp_engine_evaluate_submit(glevo_gp *gp);
glevo_status gp_engine_evaluate_collect(glevo_gp *gp);
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
