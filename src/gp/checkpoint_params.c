/* A GP checkpoint's parameters on resume (docs/checkpoint.md, "Reading, and what is refused"):
 * the file's, with the caller's changes where a change is safe, and every other change refused
 * naming the field and both values; the one list of what alters a run, which the CLI's
 * --resume and Python's GP.load both reach. checkpoint.c writes and restores the rest. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gp/checkpoint_params.h"
#include "gp/engine_internal.h"
#include "gp/sr/portfolio.h"
#include "gp/sr/sr_params.h"
#include "core/args.h"

const char *gp_checkpoint_set_name(int s)
{
    return s == GLEVO_GP_CLASSIFICATION ? "classification" : "regression";
}
static int set_parse(const char *n)
{
    return !strcmp(n, "regression") ? 0 : !strcmp(n, "classification") ? 1 : -1;
}
const char *gp_checkpoint_metric_name(int m) { return glevo_gp_metric_name((glevo_gp_metric)m); }
static int metric_parse(const char *n)
{
    glevo_gp_metric m;
    return glevo_gp_metric_parse(n, &m) == GLEVO_OK ? (int)m : -1;
}

static double literal(double v) { return v == GLEVO_ZERO ? 0.0 : v; }

/* The file's parameters (resolved), with the caller's changes: generations, the backend, the
 * evaluation layout, the target, the progress callback and its report_every may change (the
 * last is not written: it only decides when progress is called); others are compared. */
glevo_status gp_checkpoint_resume_params(const ckpt_reader *r, const glevo_gp_params *c,
                                         glevo_gp_params *P)
{
    static const glevo_gp_params none = {0};
    if (!c) c = &none;
    memset(P, 0, sizeof *P);
    int e = 0;
    glevo_status st = ckpt_same_enum(r, "param.function_set", "glevo_gp_params.function_set",
                                (int)c->function_set, gp_checkpoint_set_name, set_parse, &e);
    P->function_set = (glevo_gp_function_set)e;
    /* The search's settings written since the symbolic-regression features: a change asked
     * for is refused, naming both values (files without them ran without the features). */
    if (!st && ckpt_has(r, "param.linear_scaling")) {
        long long ls = 0;
        st = ckpt_get_ll(r, "param.linear_scaling", 0, 1, &ls);
        if (!st && c->linear_scaling != 0 && (c->linear_scaling == 1) != (ls != 0))
            st = glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.linear_scaling %s differs from "
                            "the checkpoint's %s: it would change the run",
                            ls ? "off" : "on", ls ? "on" : "off");
        P->linear_scaling = ls ? 1 : GLEVO_ZERO;
    }
    if (!st && ckpt_has(r, "param.const_opt_iters")) { /* both written since issue 26 */
        long long it = 0;
        st = ckpt_same_i64(r, "param.const_opt_iters", "glevo_gp_params.const_opt_iters",
                           c->const_opt_iters != 0,
                           c->const_opt_iters == GLEVO_ZERO ? 0 : c->const_opt_iters);
        if (!st) st = ckpt_get_ll(r, "param.const_opt_iters", 0, 1000, &it);
        P->const_opt_iters = it ? (int)it : GLEVO_ZERO;
        if (!st) st = ckpt_same_f64(r, "param.const_opt_fraction",
                                    "glevo_gp_params.const_opt_fraction",
                                    c->const_opt_fraction != 0, literal(c->const_opt_fraction));
        if (!st) st = ckpt_get_f64(r, "param.const_opt_fraction", &P->const_opt_fraction);
        /* Files written before the limit fitted the whole share (0 there: no limit too). */
        long long most = 0;
        if (!st && ckpt_has(r, "param.const_opt_max")) {
            st = ckpt_same_i64(r, "param.const_opt_max", "glevo_gp_params.const_opt_max",
                               c->const_opt_max != 0,
                               c->const_opt_max == GLEVO_ZERO ? 0 : c->const_opt_max);
            if (!st) st = ckpt_get_ll(r, "param.const_opt_max", 0, INT_MAX, &most);
        }
        P->const_opt_max = most ? (int)most : GLEVO_ZERO;
        if (!st) st = ckpt_same_f64(r, "param.parsimony", "glevo_gp_params.parsimony",
                                    c->parsimony != 0, literal(c->parsimony));
        if (!st) st = ckpt_get_f64(r, "param.parsimony", &P->parsimony);
    }
    /* The enumeration seeds the first generation alone: a resume keeps the file's count
     * (files written before it had none) and ignores a change. */
    P->enumeration = GLEVO_ZERO;
    if (!st && ckpt_has(r, "param.enumeration")) {
        long long n = 0;
        st = ckpt_get_ll(r, "param.enumeration", 0, GP_ENUMERATION_MAX, &n);
        if (n) P->enumeration = (int)n;
    }
    /* Files written before the portfolio (issue 26) ran one search. */
    P->portfolio = GLEVO_ZERO;
    if (!st && ckpt_has(r, "param.portfolio")) {
        st = ckpt_same_f64(r, "param.portfolio", "glevo_gp_params.portfolio", c->portfolio != 0,
                           literal(c->portfolio));
        if (!st) st = ckpt_get_f64(r, "param.portfolio", &P->portfolio);
        if (!st && P->portfolio == 0) P->portfolio = GLEVO_ZERO;
    } else if (!st && literal(c->portfolio) > 0) {
        st = glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.portfolio %g differs from checkpoint "
                        "'%s', written before the portfolio (one search): it would change the "
                        "run", c->portfolio, ckpt_reader_source(r));
    }
    if (!st && ckpt_has(r, "param.ops")) { /* absent from files written before issue 26 */
        long long ops = 0;
        st = ckpt_get_ll(r, "param.ops", 0, UINT32_MAX, &ops);
        if (!st && c->ops != 0 && c->ops != (uint32_t)ops) { /* named as lists, not masks */
            char asked[256], have[256];
            glevo_gp_function_set_text(c->ops, asked, sizeof asked);
            glevo_gp_function_set_text((uint32_t)ops, have, sizeof have);
            st = glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.ops %s differs from the "
                            "checkpoint's %s: it would change the run", asked, have);
        }
        P->ops = (uint32_t)ops;
    }
#define SAME_INT(field, lo, hi)                                                                  \
    if (!st) st = ckpt_same_i64(r, "param." #field, "glevo_gp_params." #field, c->field != 0,    \
                                c->field == GLEVO_ZERO ? 0 : c->field);                          \
    if (!st) st = ckpt_get_int(r, "param." #field, lo, hi, &P->field)
#define SAME_F64(field)                                                                          \
    if (!st) st = ckpt_same_f64(r, "param." #field, "glevo_gp_params." #field, c->field != 0,    \
                                literal(c->field));                                              \
    if (!st) st = ckpt_get_f64(r, "param." #field, &P->field)
    SAME_INT(pop, 2, INT32_MAX);
    SAME_INT(tournament, 1, INT32_MAX);
    SAME_F64(pc);
    SAME_F64(pm);
    SAME_INT(elitism, 0, INT32_MAX);
    SAME_INT(max_size, 1, 100000);
    SAME_INT(init_min_depth, 0, 64);
    SAME_INT(init_max_depth, 0, 64);
    SAME_F64(const_prob);
#undef SAME_INT
#undef SAME_F64
    /* The constant range has no GLEVO_ZERO (its default is asked for by both being 0). */
    bool range = c->const_min != 0 || c->const_max != 0;
    if (!st) st = ckpt_same_f64(r, "param.const_min", "glevo_gp_params.const_min", range, c->const_min);
    if (!st) st = ckpt_same_f64(r, "param.const_max", "glevo_gp_params.const_max", range, c->const_max);
    if (!st) st = ckpt_get_f64(r, "param.const_min", &P->const_min);
    if (!st) st = ckpt_get_f64(r, "param.const_max", &P->const_max);
    if (!st) st = ckpt_same_enum(r, "param.metric", "glevo_gp_params.metric", (int)c->metric,
                            gp_checkpoint_metric_name, metric_parse, &e);
    P->metric = (glevo_gp_metric)e;
    long long v = 0;
    if (!st) st = ckpt_same_i64(r, "param.seed", "glevo_gp_params.seed", c->seed != 0,
                                c->seed == (uint32_t)GLEVO_ZERO ? 0 : c->seed);
    if (!st) st = ckpt_get_ll(r, "param.seed", 0, UINT32_MAX, &v);
    P->seed = (uint32_t)v;
    /* Safe: how long, where and how evaluation runs, when to stop, whom to tell. */
    if (!st) st = ckpt_get_int(r, "param.generations", 0, INT32_MAX, &P->generations);
    if (c->generations) P->generations = c->generations == GLEVO_ZERO ? 0 : c->generations;
    const char *name = NULL;
    if (!st) st = ckpt_take_enum(r, "param.backend", (int)c->backend, glevo_backend_parse, &e);
    P->backend = (glevo_backend)e;
    if (!st) st = ckpt_get_str(r, "param.eval.strategy", &name);
    if (!st && glevo_gp_strategy_parse(name, &P->eval.strategy))
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': param.eval.strategy '%s' is unknown",
                        ckpt_reader_source(r), name);
    if (!st) st = ckpt_get_int(r, "param.eval.threads", 0, 4096, &P->eval.threads);
    if (!st) st = ckpt_get_int(r, "param.eval.group", 0, INT32_MAX, &P->eval.group);
    if (!st) st = ckpt_get_int(r, "param.eval.lanes", 0, 64, &P->eval.lanes);
    if (!st) st = ckpt_get_int(r, "param.eval.tile_width", 0, INT32_MAX, &P->eval.tile_width);
    if (!st) st = ckpt_get_f64(r, "param.eval.max_draw_steps", &P->eval.max_draw_steps);
    static const glevo_gp_eval_params no_eval = {0};
    if (memcmp(&c->eval, &no_eval, sizeof no_eval) != 0) P->eval = c->eval;
    long long stop = 0;
    if (!st) st = ckpt_get_f64(r, "param.target_error", &P->target_error);
    if (!st) st = ckpt_get_ll(r, "param.stop_on_target", 0, 1, &stop);
    P->stop_on_target = stop != 0;
    if (c->stop_on_target) P->stop_on_target = true, P->target_error = c->target_error;
    P->progress = c->progress, P->progress_user = c->progress_user;
    P->report_every = c->report_every;
    /* The result's model alone: not written, as asked now. */
    P->linear_layer = c->linear_layer, P->prune = c->prune;
    return st;
}
