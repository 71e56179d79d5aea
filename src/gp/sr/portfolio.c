/* A portfolio of searches in one GP run (issue 26). Measured on Nguyen's twelve targets
 * (docs/symbolic-regression-bench.md): the main search, with random constants, linear
 * scaling and constant fitting, settles on close approximations of polynomials and sums of
 * sines, which searches over the variables alone find exactly; these cannot write sqrt, x^y
 * or fitted constants, which the main search finds. An exact program's training error
 * (~1e-15) is below any approximation's, so searches that split the population and report
 * the lowest training error keep every side's targets. The searches beside the main one each
 * own a family of operators (HELPERS): small populations over few operators find the short
 * exact formulas of their family that a large one over many operators misses. This file lays
 * the searches out (their parameters); each runs as a whole engine (engine_portfolio.c). */
#include <math.h>

#include "gp/sr/portfolio.h"
#include "gp/gp_internal.h"

/* 0.25: the main search keeps 3/4 of the evaluations, where the noisy Friedman-1 set keeps
 * its median test R^2 above 0.90 (0.910 at pop 1500; 0.865 at an even split). */
#define PORTFOLIO_SHARE 0.25

/* The searches beside the main one select by tournaments of two (of the run's tournament
 * where it is smaller): their populations of 100-150 programs over few operators lose their
 * variety under the main search's pressure. Measured on Nguyen (VM, 20 seeds twice; the main
 * search's tournament unchanged): 161 and 151 of 240 exact against 146 and 149 with the run's
 * tournament of 4; Friedman-1 unchanged (it picks the main search). A tournament of two for
 * the main search too gains more on Nguyen (162, 161) but loses Friedman-1's median test R^2
 * (0.848 against 0.906): docs/symbolic-regression-bench.md, "Selection pressure". */
#define HELPER_TOURNAMENT 2

/* A search beside the main one that has gone GP_PORTFOLIO_RESTART generations without a
 * better best starts again: a fresh population from a new seed, its best program kept (so the
 * run loses nothing), in place of breeding a generation. A small population over few operators
 * that has settled on an approximation rarely leaves it; a fresh one is another draw at the
 * exact formula. Measured on Nguyen (VM, 20 seeds twice; docs/symbolic-regression-bench.md,
 * "Restarts beside the main search"): 167 and 164 of 240 exact against 161 and 151 without;
 * after 5 generations 151, after 20 165; on other seeds (30 each) 245 and 256 of 360 against
 * 238 and 241. The main search never restarts: it holds the noisy sets' models, and restarting
 * it too gained nothing on Nguyen. */

#define OP(name) (1u << GLEVO_GP_##name)

/* The searches beside the main one, in order, each with its share of the portfolio's
 * programs and its family: its operators are those of the run's set in the family (all of
 * the set's where it has none of them). The first is the two-search portfolio's second
 * (checkpoints of two searches resume with it alone). Chosen by measurement on Nguyen
 * (docs/symbolic-regression-bench.md, "Searches by family").
 *
 * Their terms (GP_PORTFOLIO_TERMS 1; files written before have none of them, 0): the second
 * search scales its programs linearly (where the run does), so that a formula right up to an
 * offset and a factor, sin(x^2) cos(x) - 1, scores as the target; the fourth and fifth draw
 * the constant 1 for a quarter of their terminals, so that log(x + 1) and y^2 / (1 + 1) can
 * be written; the trigonometric third keeps the variables alone (its sums of sines lose to
 * scaled approximations). Measured on Nguyen (VM, 20 seeds from 200 and 400;
 * docs/symbolic-regression-bench.md, "Linear scaling and the constant 1 beside the main
 * search"): 178 and 169 of 240 exact against 167 and 164 without (Nguyen-5 20 -> 36 of 40);
 * with the scaling in the third search instead and the constant in the second 180 and 162
 * (Nguyen-6 32 -> 25); scaling in every search beside the main one 155 on 200 (they settle
 * on scaled approximations: Nguyen-4 17 -> 7); the constant in all four alone 168. */
static const struct helper_search {
    uint32_t family;
    double share;
    bool scaling; /* linear scaling where the run has it (terms 1 and later) */
    double ones;  /* the share of terminals that are the constant 1 (terms 1 and later) */
} HELPERS[GP_PORTFOLIO_MAX_SEARCHES - 1] = {
    {OP(ADD) | OP(SUB) | OP(MUL) | OP(DIV) | OP(NEG) | OP(SIN) | OP(COS) | OP(LOG), 0.3, true, 0},
    {OP(ADD) | OP(SUB) | OP(MUL) | OP(SIN) | OP(COS), 0.3, false, 0}, /* trigonometric polynomials */
    {OP(ADD) | OP(SUB) | OP(MUL) | OP(DIV) | OP(LOG), 0.2, false, 0.25}, /* rational, their logs */
    {OP(ADD) | OP(SUB) | OP(MUL), 0.2, false, 0.25},                     /* polynomials */
};

const char *glevo_gp_search_name(int search)
{
    static const char *const names[GP_PORTFOLIO_MAX_SEARCHES] = {"main", "second", "third",
                                                                 "fourth", "fifth"};
    return search >= 0 && search < GP_PORTFOLIO_MAX_SEARCHES ? names[search] : NULL;
}

static uint32_t helper_ops(uint32_t ops, int helper)
{
    const uint32_t terminals = OP(VAR) | OP(CONST), family = HELPERS[helper].family;
    return ops & family ? (ops & family) | terminals : ops;
}

/* The least a search can run with: a tournament and the elites, and two programs. */
static int least_pop(const glevo_gp_params *P)
{
    int least = P->tournament > P->elitism + 1 ? P->tournament : P->elitism + 1;
    return least > 2 ? least : 2;
}

/* Search k's programs (0 the main one) of a portfolio of `searches`: the helpers split the
 * portfolio's share by their shares among the first searches - 1, the last the remainder. */
static int search_pop(const glevo_gp_params *P, int searches, int k)
{
    int portfolio = (int)lround(P->pop * P->portfolio);
    if (k == 0) return P->pop - portfolio;
    double total = 0, before = 0;
    for (int h = 0; h < searches - 1; ++h) total += HELPERS[h].share;
    for (int h = 0; h < k - 1; ++h) before += HELPERS[h].share;
    int start = (int)lround(portfolio * before / total);
    int end = k == searches - 1 ? portfolio
                                : (int)lround(portfolio * (before + HELPERS[k - 1].share) / total);
    return end - start;
}

bool gp_portfolio_fits(const glevo_gp_params *P, int searches)
{
    if (searches < 2 || searches > GP_PORTFOLIO_MAX_SEARCHES) return false;
    for (int k = 0; k < searches; ++k)
        if (search_pop(P, searches, k) < least_pop(P)) return false;
    return true;
}

int gp_portfolio_searches(const glevo_gp_params *P)
{
    if (!(P->portfolio > 0)) return 1;
    for (int n = GP_PORTFOLIO_MAX_SEARCHES; n >= 2; --n)
        if (gp_portfolio_fits(P, n)) return n;
    return 0;
}

void gp_portfolio_default(glevo_gp_params *P)
{
    if (P->portfolio == GLEVO_ZERO) {
        P->portfolio = 0;
        return;
    }
    if (P->portfolio != 0) return;
    if (P->metric != GLEVO_GP_MSE && P->metric != GLEVO_GP_RMSE) return;
    P->portfolio = PORTFOLIO_SHARE;
    if (!gp_portfolio_searches(P)) P->portfolio = 0;
}

glevo_status gp_portfolio_check(const glevo_gp_params *P)
{
    if (P->portfolio == 0) return GLEVO_OK;
    if (!(P->portfolio > 0 && P->portfolio < 1))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.portfolio %g is outside (0, 1)",
                          P->portfolio);
    if (!gp_portfolio_searches(P))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.portfolio %g splits pop %d into "
                          "%d and %d programs: each search needs at least %d (the tournament, "
                          "the elites and one more)", P->portfolio, P->pop,
                          search_pop(P, 2, 0), search_pop(P, 2, 1), least_pop(P));
    return GLEVO_OK;
}

int gp_portfolio_helper_tournament(const glevo_gp_params *P)
{
    return P->tournament < HELPER_TOURNAMENT ? P->tournament : HELPER_TOURNAMENT;
}

void gp_portfolio_search(const glevo_gp_params *P, const gp_portfolio_layout *L, int k,
                         glevo_gp_params *out)
{
    int searches = L && L->searches > 0 ? L->searches : gp_portfolio_searches(P);
    *out = *P;
    out->pop = search_pop(P, searches, k);
    out->progress = NULL, out->progress_user = NULL; /* the run reports */
    out->portfolio = 0;
    if (k == 0) return;
    out->ops = helper_ops(P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set), k - 1);
    const struct helper_search *h = &HELPERS[k - 1];
    bool terms = (L ? L->helper_terms : GP_PORTFOLIO_TERMS) >= 1;
    out->const_prob = 0;
    if (terms && h->ones > 0) out->const_prob = h->ones, out->const_min = out->const_max = 1.0;
    if (!(terms && h->scaling)) {
        out->linear_scaling = 0;
        out->eval.moments = false;
    }
    out->const_opt_iters = 0;
    out->enumeration = 0; /* the main search's seeds are enough */
    out->tournament = L && L->helper_tournament ? L->helper_tournament
                                                : gp_portfolio_helper_tournament(P);
    /* Its own stream: a seed no other run's main search is likely to share (the second
     * search's as the two-search portfolio had it). */
    out->seed = (P->seed * 0x9E3779B9u + 0x6A09E667u) ^ (uint32_t)(k - 1) * 0xBB67AE85u;
}

uint32_t gp_portfolio_restart_seed(uint32_t seed, int k)
{
    return seed ^ 0x9E3779B9u * (uint32_t)k;
}
