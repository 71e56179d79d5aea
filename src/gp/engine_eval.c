/* Evaluation of a generation: the evaluator's errors (or gp/fitness.glsl's on the GPU), the
 * fitness, the best, progress and the end test (gp_engine_evaluate_submit issues the GPU's
 * work, gp_engine_evaluate_collect the rest). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "core/clock.h"
#include "gp/eval/eval_internal.h"
#include "gp/eval/gpu.h"

double gp_fitness_of(glevo_gp_metric m, double e)
{
    if (m == GLEVO_GP_ACCURACY) e = 1.0 - e;
    return isfinite(e) ? e : INFINITY;
}

/* A resident program for linear scaling's second look: read back from its slot, each a GPU
 * round trip, so past a few the whole population comes back at once (gp_host_sync). */
typedef struct slot_reader {
    glevo_gp *gp;
    int reads;
} slot_reader;

static glevo_status slot_codes(void *user, int i, uint32_t *codes, float *consts, int *len)
{
    slot_reader *r = user;
    glevo_gp *gp = r->gp;
    if (gp->host_stale && ++r->reads > 32) {
        glevo_status st = gp_host_sync(gp);
        if (st) return st;
    }
    return gp_engine_program(gp, i, codes, consts, len);
}

/* Evaluates the current population, finds its best, reports progress and decides whether
 * the run is over (the last generation, or the target reached): in two halves, the GPU's work
 * issued (gp_engine_evaluate_submit), then what needs its results (_collect). */
static glevo_status report(glevo_gp *gp);
glevo_status gp_engine_evaluate_submit(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    glevo_status st = GLEVO_OK;
    double te = core_seconds_now();
    if (gp->gpu_fit) {
        gp_resident_lend(gp->res, gp->ev);
        gp_gpu_results res;
        st = gp_compute_evaluate_on_gpu(gp->ev, &gp->res->shape, &res);
        int elites = P->elitism < GP_ELITE_MAX ? P->elitism : GP_ELITE_MAX, g = gp->generation;
        if (!st && P->linear_scaling == 1) { /* its two passes, the second look between them */
            gp_scaled_pass scaled = {.pass = 1, .sum_y = gp->ev->sum_y, .sum_yy = gp->ev->sum_yy,
                                     .limit = gp_evaluator_refine_limit(gp->ev)};
            scaled.affine = gp_compute_affine(gp->ev, P->pop, &st);
            if (!st) st = gp_resident_fitness(gp->res, &res, P->metric, gp->data->cases, elites, g,
                                              &scaled);
            if (!st) st = gp_compute_second_look_on_gpu(gp->ev, &gp->res->shape, &res);
            scaled.pass = 2;
            if (!st) st = gp_resident_fitness(gp->res, &res, P->metric, gp->data->cases, elites, g,
                                              &scaled);
        } else if (!st) {
            st = gp_resident_fitness(gp->res, &res, P->metric, gp->data->cases, elites, g, NULL);
        }
    } else if (gp->res) {
        gp_resident_lend(gp->res, gp->ev);
        st = gp_evaluate_submit(gp->ev, &gp->res->shape, P->metric);
    }
    gp->eval_seconds += core_seconds_now() - te;
    return st;
}

glevo_status gp_engine_evaluate_collect(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    glevo_status st = GLEVO_OK;
    long long nodes;
    if (gp->gpu_fit) {
        gp->evaluations += P->pop;
        gp->fit_stale = true;
        gp->fit_to_gpu = false;
        /* The target needs this generation's best now, and progress does where it reports;
         * otherwise nothing comes back until the host asks. */
        bool reports = P->progress && (gp->generation % P->report_every == 0 ||
                                       gp->generation == P->generations);
        if ((reports || P->stop_on_target) && (st = gp_fitness_sync(gp))) return st;
        return report(gp);
    }
    double te = core_seconds_now();
    if (gp->res) {
        slot_reader reader = {gp, 0};
        gp_program_source src = {slot_codes, &reader};
        st = gp_evaluate_collect(gp->ev, &gp->res->shape, P->metric, gp->err, &src);
        gp->eval_seconds += core_seconds_now() - te;
        if (!st) st = gp_resident_read_stats(gp->res);
        if (!st) memcpy(gp->lens, gp->res->lens, sizeof *gp->lens * (size_t)P->pop);
        nodes = gp->res->total;
    } else {
        if ((st = gp_engine_pack_host(gp))) return st;
        te = core_seconds_now();
        st = glevo_gp_evaluate(gp->ev, gp->progs, P->metric, gp->err);
        gp->eval_seconds += core_seconds_now() - te;
        nodes = glevo_gp_programs_nodes(gp->progs);
    }
    if (st) return st;
    gp->evaluations += P->pop;
    gp->nodes_evaluated += nodes * (long long)gp->data->cases;
    for (int i = 0; i < P->pop; ++i) gp->fit[i] = gp_fitness_of(P->metric, gp->err[i]);
    gp->best = gp_find_best(gp);
    return report(gp);
}

/* The end test of an evaluated generation, and progress at generation 0, every report_every
 * and the last (its best on the host where they need it). A report reads the generation back
 * from the GPU and builds the printed model: at every generation that was most of a default
 * run with progress at 10^4 programs x 10^4 cases (H200, 2026-11-29, docs/performance.md). */
static glevo_status report(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    glevo_status st;
    int best = gp->best;
    gp->done = gp->generation == P->generations ||
               (P->stop_on_target && gp->fit[best] <= P->target_error);
    if (P->progress && (gp->done || gp->generation % P->report_every == 0)) {
        /* The model the result will report (scaled and simplified) and its error, not the
         * raw program: with linear scaling the two differ. */
        double error;
        const char *model;
        if ((st = gp_engine_best_model(gp, &error, &model))) return st;
        P->progress(P->progress_user, gp->generation, error, model);
    }
    return GLEVO_OK;
}

int gp_find_best(const glevo_gp *gp)
{
    int best = 0;
    for (int i = 0; i < gp->P.pop; ++i)
        /* Ties go to the smaller program (parsimony). */
        if (gp->fit[i] < gp->fit[best] ||
            (gp->fit[i] == gp->fit[best] && gp->lens[i] < gp->lens[best]))
            best = i;
    return best;
}
