/* A run of a portfolio's searches (issue 26, sr/portfolio.c lays them out): each search a
 * whole engine (engine.c) with its own seed, chained by gp->next_search, bred and evaluated in
 * step; the run reports the search whose printed model has the lowest training error. */
#include "gp/engine_internal.h"
#include "gp/eval/eval_internal.h"

/* Every search's evaluator builds one interpreter for the whole run: over the operators of
 * all the searches (and linear scaling's second look, (+ a (* b f))), for their longest
 * program plus that look's four codes; the searches then share it on the context. */
static void specialise_builds(glevo_gp *gp)
{
    uint32_t ops = 1u << GLEVO_GP_ADD | 1u << GLEVO_GP_MUL;
    int longest = 0;
    for (const glevo_gp *s = gp; s; s = s->next_search) {
        ops |= s->mask;
        if (s->P.max_size > longest) longest = s->P.max_size;
    }
    for (glevo_gp *s = gp; s; s = s->next_search)
        gp_evaluator_specialise(s->ev, ops, longest + 4, s->P.pop);
}

glevo_status gp_run_new(const glevo_gp_params *P, const glevo_gp_data *data,
                        const gp_portfolio_layout *L, bool fresh, glevo_gp **out)
{
    *out = NULL;
    if (!(P->portfolio > 0)) {
        glevo_status st = gp_engine_new(P, data, out);
        if (!st && fresh) gp_enumerate_begin(*out);
        if (!st) specialise_builds(*out);
        return st;
    }
    int searches = L && L->searches > 0 ? L->searches : gp_portfolio_searches(P);
    if (!gp_portfolio_fits(P, searches))
        return glevo_fail(GLEVO_ERR_INVALID, "a portfolio of %d searches does not fit pop %d "
                          "at glevo_gp_params.portfolio %g", searches, P->pop, P->portfolio);
    int terms = L ? L->helper_terms : GP_PORTFOLIO_TERMS;
    glevo_gp *gp = NULL, **tail = &gp;
    glevo_status st = GLEVO_OK;
    for (int k = 0; k < searches && !st; ++k) {
        glevo_gp_params S;
        gp_portfolio_layout layout = {searches, L ? L->helper_tournament : 0, 0, terms};
        gp_portfolio_search(P, &layout, k, &S);
        st = gp_engine_new(&S, data, tail);
        if (st) break;
        /* Beside the other searches' engines (their GL objects: ~10 ms at 1000 programs on
         * the H200, which generation 0 waited for the enumeration on top of); the helpers
         * enumerate nothing. */
        if (fresh) gp_enumerate_begin(*tail);
        if (k > 0) (*tail)->restart_after = L ? L->helper_restart : GP_PORTFOLIO_RESTART;
        tail = &(*tail)->next_search;
    }
    if (st) {
        glevo_gp_destroy(gp);
        return st;
    }
    gp->asked = *P;
    gp->helper_terms = terms;
    specialise_builds(gp);
    *out = gp;
    return GLEVO_OK;
}

static glevo_status model_error(const glevo_gp *gp, double *error)
{
    glevo_status st = gp_fitness_sync(gp);
    if (!st) st = gp_engine_best_model(gp, error, NULL);
    if (!st) *error = gp_fitness_of(gp->P.metric, *error);
    return st;
}

glevo_status gp_portfolio_pick(const glevo_gp *gp, const glevo_gp **pick, int *which,
                               double *error)
{
    const glevo_gp *chosen = gp;
    int chosen_k = 0;
    glevo_status st = GLEVO_OK;
    if (gp->next_search) { /* every search's printed model; one search needs none */
        double best = 0, e;
        int k = 0;
        for (const glevo_gp *s = gp; s && !st; s = s->next_search, ++k) {
            st = model_error(s, &e);
            if (!st && (k == 0 || e < best)) /* ties: the earlier search */
                best = e, chosen = s, chosen_k = k;
        }
        if (st) return st;
    }
    if (pick) *pick = chosen;
    if (which) *which = chosen_k;
    st = gp_fitness_sync(chosen); /* the caller reads its best */
    if (!st && error) st = gp_engine_best_model(chosen, error, NULL);
    return st;
}

/* The search whose best has the least fitness (ties: the earlier): the one gp_portfolio_pick
 * finds but where two printed models' errors differ from their programs' in the last digits,
 * without building every search's model. */
static glevo_status least_fitness(const glevo_gp *gp, const glevo_gp **pick)
{
    glevo_status st = GLEVO_OK;
    *pick = gp;
    for (const glevo_gp *s = gp; s && !st; s = s->next_search)
        if (!(st = gp_fitness_sync(s)) && s->fit[s->best] < (*pick)->fit[(*pick)->best]) *pick = s;
    return st;
}

glevo_status gp_portfolio_report(glevo_gp *gp)
{
    if (!gp->next_search) return GLEVO_OK;
    for (const glevo_gp *s = gp->next_search; s; s = s->next_search)
        gp->done = gp->done || s->done;
    if (!gp->asked.progress || !(gp->done || gp->generation % gp->asked.report_every == 0))
        return GLEVO_OK;
    const glevo_gp *pick;
    double error;
    const char *model;
    /* The last report names the result's search; the others the best program's, whose model
     * alone is built (a model is a few ms at 10^4 cases: H200, 2026-11-29). */
    glevo_status st = gp->done ? gp_portfolio_pick(gp, &pick, NULL, NULL) : least_fitness(gp, &pick);
    if (!st) st = gp_engine_best_model(pick, &error, &model);
    if (!st) gp->asked.progress(gp->asked.progress_user, gp->generation, error, model);
    return st;
}
