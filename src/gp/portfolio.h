/* A portfolio of two searches in one GP run (issue 26, glevo_gp_params.portfolio): the main
 * search and a second one over the variables alone, each a whole engine of its own; the run
 * reports the one whose printed model has the lower training error (portfolio.c). */
#ifndef GLEVO_GP_PORTFOLIO_H
#define GLEVO_GP_PORTFOLIO_H

#include "glevo/gp.h"

/* The default share (0: resolved here) and the check of an explicit one; P's other fields
 * resolved. Off resolves to 0. */
void gp_portfolio_default(glevo_gp_params *P);
glevo_status gp_portfolio_check(const glevo_gp_params *P);

/* The two searches' parameters from a run's resolved ones (portfolio > 0): the main search
 * keeps P but for its pop and the progress callback (the run reports); the second search
 * gets the rest of pop and the settings of glevo_gp_params.portfolio. */
void gp_portfolio_split(const glevo_gp_params *P, glevo_gp_params *main_search,
                        glevo_gp_params *second);

/* A run from resolved parameters: one engine, or the main search's engine holding the
 * second's (gp->second); gp->asked is P. No population yet. */
glevo_status gp_run_new(const glevo_gp_params *P, const glevo_gp_data *data, glevo_gp **out);

/* After both searches evaluated a generation: the run's progress line (the better model)
 * and its end (either search's). Nothing to do without a portfolio. */
glevo_status gp_portfolio_report(glevo_gp *gp);

/* The engine whose best model the run reports (gp itself without a portfolio), its fitness
 * on the host; *which: 0 or 1, *error: that model's training error (any may be NULL; a
 * run of one search builds its model only when *error is asked for). */
glevo_status gp_portfolio_pick(const glevo_gp *gp, const glevo_gp **pick, int *which,
                               double *error);

#endif
