/* A portfolio of searches in one GP run (issue 26, glevo_gp_params.portfolio): the main
 * search and up to four more over the variables alone, each with a family of operators and
 * a whole engine of its own; the run reports the one whose printed model has the lowest
 * training error (portfolio.c lays the searches out, engine_portfolio.c runs them). */
#ifndef GLEVO_GP_PORTFOLIO_H
#define GLEVO_GP_PORTFOLIO_H

#include "glevo/gp.h"

/* The main search and the most searches beside it. */
#define GP_PORTFOLIO_MAX_SEARCHES 5

/* The default share (0: resolved here) and the check of an explicit one; P's other fields
 * resolved. Off resolves to 0. */
void gp_portfolio_default(glevo_gp_params *P);
glevo_status gp_portfolio_check(const glevo_gp_params *P);

/* How many searches a run of resolved parameters has: 1 without a portfolio, else the most
 * (up to GP_PORTFOLIO_MAX_SEARCHES) whose every search holds the tournament, the elites and
 * one more; 0 where not even two do. */
int gp_portfolio_searches(const glevo_gp_params *P);

/* How a run's portfolio is laid out where a checkpoint says so: how many searches, the
 * tournament of the searches beside the main one, after how many generations without a
 * better best they start again (0: never), and which definition of their terms they have
 * (helper_terms: 0, the first: the variables alone, no scaling; GP_PORTFOLIO_TERMS: this
 * version's, portfolio.c's HELPERS). NULL: this version's (as many searches as fit,
 * gp_portfolio_helper_tournament, GP_PORTFOLIO_RESTART, GP_PORTFOLIO_TERMS); 0 in searches or
 * helper_tournament: this version's. */
typedef struct gp_portfolio_layout {
    int searches;
    int helper_tournament;
    int helper_restart;
    int helper_terms;
} gp_portfolio_layout;

/* This version's terms of the searches beside the main one (portfolio.c's HELPERS: the second
 * scales linearly, the fourth and fifth have the constant 1 among their terminals). */
#define GP_PORTFOLIO_TERMS 1

/* The generations without a better best after which a search beside the main one starts
 * again (portfolio.c). */
#define GP_PORTFOLIO_RESTART 10

/* The tournament this version gives the searches beside the main one (files written before
 * it record none: theirs ran the main search's). */
int gp_portfolio_helper_tournament(const glevo_gp_params *P);

/* Search k's parameters (0 the main one) in a portfolio laid out as L from the run's
 * resolved ones: the main search keeps P but for its pop; the others get their share of the
 * portfolio's programs, the operators of their family, no random constants (the constant 1
 * where their terms have it), linear scaling where their terms have it and the run does, no
 * fitting, the helpers' tournament and their own seeds. None has the progress
 * callback: the run reports. */
void gp_portfolio_search(const glevo_gp_params *P, const gp_portfolio_layout *L, int k,
                         glevo_gp_params *out);

/* Whether a portfolio of `searches` (2 to GP_PORTFOLIO_MAX_SEARCHES) fits P's pop: each
 * search holds the tournament, the elites and one more. */
bool gp_portfolio_fits(const glevo_gp_params *P, int searches);

/* The seed of search s's population after its k-th restart. */
uint32_t gp_portfolio_restart_seed(uint32_t seed, int k);

#endif
