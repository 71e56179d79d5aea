/* GP checkpoints (docs/checkpoint.md): the parameters, a fingerprint of the data (the file
 * does not hold the data: the run is resumed on the same CSV), the host random stream's key,
 * counter and buffered words, the evaluated generation's programs with their errors, the best
 * index and the counters. The next generation is bred from exactly these, so a resumed run
 * ends bit for bit where the uninterrupted one does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checkpoint.h"
#include "glevo/context.h"
#include "gp/engine_internal.h"
#include "core/clock.h"
#include "gp/sr/portfolio.h"
#include "gp/sr/sr_params.h"
#include "gp/checkpoint_params.h"
#include "core/args.h"

/* The data's shape and a CRC-32 of its numbers: a resume on other data is refused. */
static uint32_t data_crc(const glevo_gp_data *d)
{
    uint32_t crc = ckpt_crc32(0, d->x, (size_t)d->vars * d->cases * sizeof(float));
    return ckpt_crc32(crc, d->y, (size_t)d->cases * sizeof(float));
}

/* A search's population flattened for the writer, which keeps the pointers until it saves. */
typedef struct flat_population {
    int32_t *lens;
    uint32_t *codes;
    float *consts;
    long long total;
} flat_population;

static void flat_free(flat_population *f) { free(f->lens), free(f->codes), free(f->consts); }

static glevo_status flatten(const glevo_gp *gp, flat_population *f)
{
    const glevo_gp_params *P = &gp->P;
    memset(f, 0, sizeof *f);
    glevo_status st = gp_host_sync(gp);
    if (st) return st;
    const indiv *pop = gp->pops[gp->cur];
    for (int i = 0; i < P->pop; ++i) f->total += pop[i].len;
    f->lens = malloc((size_t)P->pop * sizeof *f->lens);
    f->codes = malloc((size_t)f->total * sizeof *f->codes + 1);
    f->consts = malloc((size_t)f->total * sizeof *f->consts + 1);
    if (!f->lens || !f->codes || !f->consts) {
        flat_free(f);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint of %d programs", P->pop);
    }
    long long at = 0;
    for (int i = 0; i < P->pop; ++i) {
        f->lens[i] = pop[i].len;
        for (int k = 0; k < pop[i].len; ++k, ++at) {
            f->codes[at] = pop[i].codes[k];
            /* Only constants' slots mean anything; the others are written as 0. */
            f->consts[at] = GLEVO_GP_CODE_OP(pop[i].codes[k]) == GLEVO_GP_CONST ? pop[i].consts[k]
                                                                                 : 0.0f;
        }
    }
    return GLEVO_OK;
}

/* Entry names of a search: the main one's as they always were, a portfolio's others under
 * "second.", "third.", ... */
static const char *const SEARCH_PREFIX[GP_PORTFOLIO_MAX_SEARCHES] = {"", "second.", "third.",
                                                                     "fourth.", "fifth."};

static const char *entry(char *buf, size_t size, const char *prefix, const char *name)
{
    snprintf(buf, size, "%s%s", prefix, name);
    return buf;
}

/* One search's state: the host stream (Philox keyed by (key0, key1), counted by counter,
 * with the words of the last block not yet used), its best, counters and population. */
static void put_state(ckpt_writer *w, const glevo_gp *gp, const flat_population *f,
                      const char *prefix)
{
    char n[64];
#define NAME(name) entry(n, sizeof n, prefix, name)
    ckpt_put_i64(w, NAME("state.rng_key0"), gp->rng.key0);
    ckpt_put_i64(w, NAME("state.rng_key1"), gp->rng.key1);
    ckpt_put_i64(w, NAME("state.rng_counter"), gp->rng.counter);
    ckpt_put_array(w, NAME("state.rng_buffer"), CKPT_U32, gp->rng.buf, 4);
    ckpt_put_i64(w, NAME("state.rng_left"), gp->rng.left);
    ckpt_put_i64(w, NAME("state.best"), gp->best);
    if (*prefix) ckpt_put_i64(w, NAME("state.evaluations"), gp->evaluations);
    ckpt_put_i64(w, NAME("state.nodes_evaluated"), gp->nodes_evaluated);
    ckpt_put_f64(w, NAME("state.eval_seconds"), gp->eval_seconds);
    ckpt_put_f64(w, NAME("state.variation_seconds"), gp->variation_seconds);
    ckpt_put_array(w, NAME("data.lengths"), CKPT_I32, f->lens, (size_t)gp->P.pop);
    ckpt_put_array(w, NAME("data.codes"), CKPT_U32, f->codes, (size_t)f->total);
    ckpt_put_array(w, NAME("data.consts"), CKPT_F32, f->consts, (size_t)f->total);
    ckpt_put_array(w, NAME("data.errors"), CKPT_F64S, gp->err, (size_t)gp->P.pop);
    ckpt_put_array(w, NAME("data.fitness"), CKPT_F64S, gp->fit, (size_t)gp->P.pop);
    if (gp->restart_after > 0) { /* a search that restarts (portfolio.c) */
        ckpt_put_f64(w, NAME("state.restart_best"), gp->restart_best);
        ckpt_put_i64(w, NAME("state.restart_since"), gp->restart_since);
        ckpt_put_i64(w, NAME("state.restarts"), gp->restarts);
    }
#undef NAME
}

glevo_status glevo_gp_save(glevo_gp *gp, const char *path, const glevo_checkpoint_extra *extra)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(path);
    const glevo_gp_params *P = &gp->asked; /* the run's: a portfolio's pop is both searches' */
    flat_population flat[GP_PORTFOLIO_MAX_SEARCHES] = {{0}};
    int searches = 0;
    glevo_status st = GLEVO_OK;
    /* A restarting search's record of its best as a run that read it every generation has it
     * (src/gp/engine.c): every generation's before this one taken in. */
    for (glevo_gp *s = gp; s && !st; s = s->next_search) st = gp_restart_take(s, s->generation - 1);
    for (const glevo_gp *s = gp; s && !st; s = s->next_search) st = flatten(s, &flat[searches++]);
    ckpt_writer *w = st ? NULL : ckpt_writer_create("gp");
    if (!st && !w) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
    if (st) {
        for (int k = 0; k < searches; ++k) flat_free(&flat[k]);
        return st;
    }
    glevo_backend backend = glevo_gp_evaluator_backend(gp->ev);
    ckpt_put_run(w, glevo_backend_name(backend),
                 backend == GLEVO_BACKEND_CPU ? "cpu" : glevo_context_renderer(NULL),
                 gp->generation, gp->evaluations, extra);
    ckpt_put_str(w, "param.function_set", gp_checkpoint_set_name(P->function_set));
    ckpt_put_i64(w, "param.ops", gp->mask); /* the operators (issue 26: sets are lists too) */
    ckpt_put_i64(w, "param.linear_scaling", P->linear_scaling);
    ckpt_put_i64(w, "param.const_opt_iters", P->const_opt_iters);
    ckpt_put_f64(w, "param.parsimony", P->parsimony);
    ckpt_put_f64(w, "param.const_opt_fraction", P->const_opt_fraction);
    ckpt_put_i64(w, "param.const_opt_max", P->const_opt_max > 0 ? P->const_opt_max : 0);
    ckpt_put_i64(w, "param.enumeration", gp->P.enumeration); /* the resolved count */
    ckpt_put_f64(w, "param.portfolio", P->portfolio);
    ckpt_put_i64(w, "param.portfolio_searches", searches);
    if (gp->next_search) {
        ckpt_put_i64(w, "param.helper_tournament", gp->next_search->P.tournament);
        ckpt_put_i64(w, "param.helper_restart", gp->next_search->restart_after);
        ckpt_put_i64(w, "param.helper_terms", gp->helper_terms);
    }
    ckpt_put_i64(w, "param.pop", P->pop);
    ckpt_put_i64(w, "param.generations", P->generations);
    ckpt_put_i64(w, "param.tournament", P->tournament);
    ckpt_put_f64(w, "param.pc", P->pc);
    ckpt_put_f64(w, "param.pm", P->pm);
    ckpt_put_i64(w, "param.elitism", P->elitism);
    ckpt_put_i64(w, "param.max_size", P->max_size);
    ckpt_put_i64(w, "param.init_min_depth", P->init_min_depth);
    ckpt_put_i64(w, "param.init_max_depth", P->init_max_depth);
    ckpt_put_f64(w, "param.const_min", P->const_min);
    ckpt_put_f64(w, "param.const_max", P->const_max);
    ckpt_put_f64(w, "param.const_prob", P->const_prob);
    ckpt_put_str(w, "param.metric", gp_checkpoint_metric_name(P->metric));
    ckpt_put_str(w, "param.backend", glevo_backend_name(P->backend));
    ckpt_put_str(w, "param.eval.strategy", glevo_gp_strategy_name(P->eval.strategy));
    ckpt_put_i64(w, "param.eval.threads", P->eval.threads);
    ckpt_put_i64(w, "param.eval.group", P->eval.group);
    ckpt_put_i64(w, "param.eval.lanes", P->eval.lanes);
    ckpt_put_i64(w, "param.eval.tile_width", P->eval.tile_width);
    ckpt_put_f64(w, "param.eval.max_draw_steps", P->eval.max_draw_steps);
    ckpt_put_i64(w, "param.seed", P->seed);
    ckpt_put_f64(w, "param.target_error", P->target_error);
    ckpt_put_i64(w, "param.stop_on_target", P->stop_on_target);
    ckpt_put_i64(w, "data.vars", gp->data->vars);
    ckpt_put_i64(w, "data.cases", gp->data->cases);
    ckpt_put_i64(w, "data.crc32", data_crc(gp->data));
    /* Children bred from (seed, generation, child) words (src/gp/breed/breed.c): files without
     * this mark were bred otherwise and cannot resume the same run. */
    ckpt_put_str(w, "state.breeding", GP_BREEDING);
    ckpt_put_f64(w, "state.seconds", core_seconds_now() - gp->t0);
    int k = 0;
    for (const glevo_gp *s = gp; s; s = s->next_search, ++k)
        put_state(w, s, &flat[k], SEARCH_PREFIX[k]);
    st = ckpt_writer_save(w, path);
    ckpt_writer_destroy(w);
    for (k = 0; k < searches; ++k) flat_free(&flat[k]);
    return st;
}

static glevo_status check_data(const ckpt_reader *r, const glevo_gp_data *d)
{
    long long vars, cases, crc;
    glevo_status st = ckpt_get_i64(r, "data.vars", &vars);
    if (!st) st = ckpt_get_i64(r, "data.cases", &cases);
    if (!st) st = ckpt_get_i64(r, "data.crc32", &crc);
    if (st) return st;
    if (vars != d->vars || cases != d->cases || (uint32_t)crc != data_crc(d))
        return glevo_fail(GLEVO_ERR_INVALID, "the data (%d variables x %d cases) is not the data "
                          "checkpoint '%s' ran on (%lld x %lld%s): it would change the run",
                          d->vars, d->cases, ckpt_reader_source(r), vars, cases,
                          vars == d->vars && cases == d->cases ? ", other numbers" : "");
    return GLEVO_OK;
}

/* The population back into pops[cur], checked as the engine would have made it. */
static glevo_status restore_population(const ckpt_reader *r, glevo_gp *gp, const char *prefix)
{
    const glevo_gp_params *P = &gp->P;
    size_t n = (size_t)P->pop;
    char name[64];
    int32_t *lens = malloc(n * sizeof *lens);
    if (!lens) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    glevo_status st = ckpt_expect_count(r, entry(name, sizeof name, prefix, "data.lengths"),
                                        CKPT_I32, n);
    if (!st) st = ckpt_get_array(r, name, CKPT_I32, lens, n);
    long long total = 0;
    for (size_t i = 0; i < n && !st; ++i) {
        if (lens[i] < 1 || lens[i] > P->max_size)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': program %zu has %d nodes "
                            "(1..%d)", ckpt_reader_source(r), i, lens[i], P->max_size);
        total += lens[i];
    }
    uint32_t *codes = st ? NULL : malloc((size_t)total * sizeof *codes);
    float *consts = st ? NULL : malloc((size_t)total * sizeof *consts);
    if (!st && (!codes || !consts)) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!st) st = ckpt_get_array(r, entry(name, sizeof name, prefix, "data.codes"), CKPT_U32,
                                 codes, (size_t)total);
    if (!st) st = ckpt_get_array(r, entry(name, sizeof name, prefix, "data.consts"), CKPT_F32,
                                 consts, (size_t)total);
    indiv *pop = gp->pops[gp->cur];
    long long at = 0;
    for (size_t i = 0; i < n && !st; ++i) {
        if (glevo_gp_program_check(codes + at, lens[i]))
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': program %zu is not a well-formed "
                            "tree", ckpt_reader_source(r), i);
        for (int k = 0; k < lens[i] && !st; ++k) {
            uint32_t code = codes[at + k];
            glevo_gp_op op = GLEVO_GP_CODE_OP(code);
            bool bad = op >= GLEVO_GP_OP_COUNT ||
                       (op == GLEVO_GP_VAR && (int)GLEVO_GP_CODE_INDEX(code) >= gp->data->vars) ||
                       (op == GLEVO_GP_CONST && (int)GLEVO_GP_CODE_INDEX(code) != k) ||
                       (op > GLEVO_GP_CONST && !(gp->mask >> op & 1u));
            if (bad)
                st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': program %zu holds code "
                                "0x%x the run cannot have made", ckpt_reader_source(r), i, code);
        }
        if (st) break;
        memcpy(pop[i].codes, codes + at, (size_t)lens[i] * sizeof *codes);
        memcpy(pop[i].consts, consts + at, (size_t)lens[i] * sizeof *consts);
        pop[i].len = lens[i];
        at += lens[i];
    }
    free(lens), free(codes), free(consts);
    return st;
}

/* One search's stream, best, counters and population (put_state's entries), then the
 * evaluator's copy and its end test. */
static glevo_status restore_state(const ckpt_reader *r, glevo_gp *gp, const char *prefix)
{
    char n[64];
    long long v = 0;
    size_t pop = (size_t)gp->P.pop;
#define NAME(name) entry(n, sizeof n, prefix, name)
    glevo_status st = ckpt_get_ll(r, NAME("state.nodes_evaluated"), 0, INT64_MAX,
                                  &gp->nodes_evaluated);
    if (!st) st = ckpt_get_f64(r, NAME("state.eval_seconds"), &gp->eval_seconds);
    if (!st) st = ckpt_get_f64(r, NAME("state.variation_seconds"), &gp->variation_seconds);
    if (!st) st = ckpt_get_ll(r, NAME("state.rng_key0"), 0, UINT32_MAX, &v);
    if (!st) gp->rng.key0 = (uint32_t)v, st = ckpt_get_ll(r, NAME("state.rng_key1"), 0, UINT32_MAX, &v);
    if (!st) gp->rng.key1 = (uint32_t)v, st = ckpt_get_ll(r, NAME("state.rng_counter"), 0, UINT32_MAX, &v);
    if (!st) gp->rng.counter = (uint32_t)v, st = ckpt_get_int(r, NAME("state.rng_left"), 0, 4, &gp->rng.left);
    if (!st) st = ckpt_get_array(r, NAME("state.rng_buffer"), CKPT_U32, gp->rng.buf, 4);
    if (!st) st = ckpt_get_int(r, NAME("state.best"), 0, (long long)pop - 1, &gp->best);
    if (!st) st = ckpt_get_array(r, NAME("data.errors"), CKPT_F64S, gp->err, pop);
    if (!st) st = ckpt_get_array(r, NAME("data.fitness"), CKPT_F64S, gp->fit, pop);
    if (!st && gp->restart_after > 0) {
        st = ckpt_get_f64(r, NAME("state.restart_best"), &gp->restart_best);
        if (!st) st = ckpt_get_int(r, NAME("state.restart_since"), 0, INT32_MAX, &gp->restart_since);
        if (!st) st = ckpt_get_int(r, NAME("state.restarts"), 0, INT32_MAX, &gp->restarts);
        gp->restart_known = gp->generation - 1; /* as glevo_gp_save left the record */
    }
#undef NAME
    if (!st) st = restore_population(r, gp, prefix);
    if (!st) st = gp_engine_resumed(gp);
    return st;
}

/* How the file's portfolio was laid out: its searches (written since portfolios of more than
 * two, issue 26; a file with a portfolio but without them had two), its helpers'
 * tournament (written since they have their own; before, the main search's), their
 * restarts (written since they restart; before, never) and their terms (written since the
 * second scales and the fourth and fifth have the constant 1; before, neither). */
static glevo_status portfolio_layout(const ckpt_reader *r, const glevo_gp_params *P,
                                     gp_portfolio_layout *L)
{
    L->searches = P->portfolio > 0 ? 2 : 1;
    L->helper_tournament = P->tournament;
    L->helper_restart = 0;
    L->helper_terms = 0;
    glevo_status st = GLEVO_OK;
    if (ckpt_has(r, "param.helper_terms"))
        st = ckpt_get_int(r, "param.helper_terms", 0, GP_PORTFOLIO_TERMS, &L->helper_terms);
    if (st) return st;
    if (ckpt_has(r, "param.helper_restart"))
        st = ckpt_get_int(r, "param.helper_restart", 0, INT32_MAX, &L->helper_restart);
    if (st) return st;
    if (ckpt_has(r, "param.helper_tournament"))
        st = ckpt_get_int(r, "param.helper_tournament", 1, P->tournament, &L->helper_tournament);
    if (st || !ckpt_has(r, "param.portfolio_searches")) return st;
    st = ckpt_get_int(r, "param.portfolio_searches", 1, GP_PORTFOLIO_MAX_SEARCHES, &L->searches);
    if (!st && (L->searches > 1) != (P->portfolio > 0))
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': param.portfolio_searches %d does "
                        "not match param.portfolio %g", ckpt_reader_source(r), L->searches,
                        P->portfolio);
    return st;
}

glevo_status glevo_gp_load(const char *path, const glevo_gp_params *changes,
                           const glevo_gp_data *data, glevo_gp **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(out);
    *out = NULL;
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, "gp", &r);
    if (st) return st;
    const char *breeding = NULL;
    if (!ckpt_has(r, "state.breeding") || ckpt_get_str(r, "state.breeding", &breeding) ||
        strcmp(breeding, GP_BREEDING) != 0) {
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' was written by an older version of "
                        "glevo (its GP breeding is not '%s'): it cannot resume the same run; "
                        "start the run again", ckpt_reader_source(r), GP_BREEDING);
        ckpt_reader_destroy(r);
        return st;
    }
    glevo_gp_params P, checked;
    glevo_gp *gp = NULL;
    gp_portfolio_layout layout;
    if (!(st = gp_checkpoint_resume_params(r, changes, &P)) && !(st = check_data(r, data)) &&
        !(st = gp_resolve_params(&P, data, &checked)) &&
        !(st = portfolio_layout(r, &checked, &layout)))
        st = gp_run_new(&checked, data, &layout, false, &gp);
    long long v = 0;
    double seconds = 0;
    if (!st) st = ckpt_get_ll(r, "state.generation", 0, INT32_MAX, &v);
    if (!st) gp->generation = (int)v;
    if (!st) st = ckpt_get_ll(r, "state.evaluations", 0, INT64_MAX, &gp->evaluations);
    /* Times add up over the pieces of a run. */
    if (!st) st = ckpt_get_f64(r, "state.seconds", &seconds);
    if (!st) gp->t0 = core_seconds_now() - seconds;
    if (!st) st = restore_state(r, gp, "");
    int k = 1;
    for (glevo_gp *s = st ? NULL : gp->next_search; s && !st; s = s->next_search, ++k) {
        char name[64];
        s->generation = gp->generation;
        st = ckpt_get_ll(r, entry(name, sizeof name, SEARCH_PREFIX[k], "state.evaluations"), 0,
                         INT64_MAX, &s->evaluations);
        if (!st) st = restore_state(r, s, SEARCH_PREFIX[k]);
        if (!st) gp->done = gp->done || s->done;
    }
    ckpt_reader_destroy(r);
    if (st) {
        glevo_gp_destroy(gp);
        return st;
    }
    *out = gp;
    return GLEVO_OK;
}
