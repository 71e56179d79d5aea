/* A run's result: the best program printed, its counters and the model (issue 26; the model
 * and glevo_gp_result_free are sr/model.c's). */
#include <stdlib.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "gp/sr/model.h"
#include "gp/sr/portfolio.h"

char *gp_print_alloc(const glevo_gp_programs *p, int i, int infix)
{
    int n = infix ? glevo_gp_program_infix(p, i, NULL, 0) : glevo_gp_program_sexpr(p, i, NULL, 0);
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    if (infix)
        glevo_gp_program_infix(p, i, s, (size_t)n + 1);
    else
        glevo_gp_program_sexpr(p, i, s, (size_t)n + 1);
    return s;
}

glevo_status glevo_gp_result_get(const glevo_gp *gp, glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    /* A portfolio reports its best search's program and every search's counts. */
    const glevo_gp *search;
    glevo_status st = gp_portfolio_pick(gp, &search, &out->best_search, NULL);
    if (st) return st;
    out->best_error = search->err[search->best];
    out->best_nodes = search->lens[search->best];
    out->generations = gp->generation;
    for (const glevo_gp *s = gp; s; s = s->next_search) {
        out->evaluations += s->evaluations;
        out->nodes_evaluated += s->nodes_evaluated;
        out->eval_seconds += s->eval_seconds;
        out->variation_seconds += s->variation_seconds;
    }
    st = glevo_gp_programs_create(&out->best);
    if (!st) st = gp_engine_best_program(search, out->best);
    if (!st) {
        out->best_sexpr = gp_print_alloc(out->best, 0, 0);
        out->best_infix = gp_print_alloc(out->best, 0, 1);
    }
    /* The printed model (issue 26), its linear layer where that fits better (issue 45). */
    if (!st) st = gp_model_finish(&search->P, search->data, true, out);
    if (!st && (!out->best_sexpr || !out->best_infix))
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    out->seconds = core_seconds_now() - gp->t0;
    if (st) glevo_gp_result_free(out);
    return st;
}
