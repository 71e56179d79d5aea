/* DSMGA-II checkpoints (docs/checkpoint.md): the parameters, the problem's name, length and
 * (spin glass) couplings' CRC-32, the population with fitness and Zobrist keys, the key
 * multiset exactly as laid out (its rebuilds depend on its history), the host stream's
 * counter and buffered words, the best so far and the counters the termination reads. The
 * model is rebuilt from the population every generation, so nothing of it is stored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/checkpoint.h"
#include "dsmga/engine_internal.h"
#include "glevo/context.h"
#include "core/args.h"

static uint32_t problem_crc(const glevo_dsmga_problem *p)
{
    if (p->kind != DSMGA_SPIN) return 0;
    size_t n = (size_t)p->spin.L * p->spin.L;
    return ckpt_crc32(ckpt_crc32(0, p->spin.right, n), p->spin.down, n);
}

glevo_status glevo_dsmga_save(glevo_dsmga *e, const char *path, const glevo_checkpoint_extra *extra)
{
    glevo_clear_error();
    ARG_NOT_NULL(e);
    ARG_NOT_NULL(path);
    const glevo_dsmga_params *p = &e->p;
    ckpt_writer *w = ckpt_writer_create("dsmga");
    /* Free slots' keys are never read (and never written): they go out as 0. */
    uint64_t *hkeys = malloc(e->hcap * sizeof *hkeys);
    if (!w || !hkeys) {
        ckpt_writer_destroy(w), free(hkeys);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
    }
    for (size_t i = 0; i < e->hcap; ++i) hkeys[i] = e->hcount[i] >= 0 ? e->hkeys[i] : 0;
    ckpt_put_run(w, glevo_backend_name(p->backend),
                 p->backend == GLEVO_BACKEND_CPU ? "cpu" : glevo_context_renderer(NULL),
                 e->generation, e->nfe, extra);
    ckpt_put_str(w, "param.problem", e->problem->name);
    ckpt_put_i64(w, "param.ell", e->ell);
    ckpt_put_i64(w, "param.problem_crc32", problem_crc(e->problem));
    ckpt_put_i64(w, "param.pop", p->pop);
    ckpt_put_i64(w, "param.selection_pressure", p->selection_pressure);
    ckpt_put_i64(w, "param.max_generations", p->max_generations);
    ckpt_put_i64(w, "param.max_nfe", p->max_nfe);
    ckpt_put_i64(w, "param.repeat", p->repeat);
    ckpt_put_str(w, "param.model", p->model == GLEVO_DSMGA_LOSSY ? "lossy" : "lossless");
    ckpt_put_i64(w, "param.skip_duplicates", p->skip_duplicates);
    ckpt_put_i64(w, "param.stall_generations", p->stall_generations);
    ckpt_put_str(w, "param.backend", glevo_backend_name(p->backend));
    ckpt_put_i64(w, "param.seed", p->seed);
    /* Philox keyed by the seed, counted by a 64-bit block counter, 4 words a block. */
    ckpt_put_i64(w, "state.rng_seed", e->rng.seed);
    ckpt_put_i64(w, "state.rng_counter", (long long)((uint64_t)e->rng.counter_hi << 32 | e->rng.counter_lo));
    ckpt_put_array(w, "state.rng_buffer", CKPT_U32, e->rng.buf, 4);
    ckpt_put_i64(w, "state.rng_left", e->rng.left);
    ckpt_put_i64(w, "state.solved", e->solved);
    ckpt_put_i64(w, "state.stalled", e->stalled);
    ckpt_put_f64(w, "state.best_fitness", e->best_fit);
    ckpt_put_f64(w, "state.dsm_ms", e->dsm_ms);
    ckpt_put_f64(w, "state.ils_ms", e->ils_ms);
    ckpt_put_f64(w, "state.seconds", e->seconds);
    ckpt_put_i64(w, "state.hash_fill", (long long)e->hfill);
    ckpt_put_array(w, "data.population", CKPT_U8, e->pop, (size_t)e->n * e->ell);
    ckpt_put_array(w, "data.fitness", CKPT_F64S, e->fit, (size_t)e->n);
    ckpt_put_array(w, "data.keys", CKPT_U64, e->key, (size_t)e->n);
    ckpt_put_array(w, "data.best", CKPT_U8, e->best, (size_t)e->ell);
    ckpt_put_array(w, "data.hash_keys", CKPT_U64, hkeys, e->hcap);
    ckpt_put_array(w, "data.hash_counts", CKPT_I32, e->hcount, e->hcap);
    glevo_status st = ckpt_writer_save(w, path);
    ckpt_writer_destroy(w);
    free(hkeys);
    return st;
}

/* The file's parameters with the caller's changes: the budget (max_generations, max_nfe,
 * stall_generations) and the backend may change; the others are compared. */
static glevo_status resume_params(const ckpt_reader *r, const glevo_dsmga_params *c,
                                  glevo_dsmga_params *p)
{
    static const glevo_dsmga_params none = {0};
    if (!c) c = &none;
    memset(p, 0, sizeof *p);
    long long v = 0;
    glevo_status st = GLEVO_OK;
#define SAME_INT(field, lo, hi)                                                                   \
    if (!st) st = ckpt_same_i64(r, "param." #field, "glevo_dsmga_params." #field, c->field != 0,  \
                                c->field == GLEVO_ZERO ? 0 : c->field);                           \
    if (!st) st = ckpt_get_int(r, "param." #field, lo, hi, &p->field)
    SAME_INT(pop, 2, INT32_MAX);
    SAME_INT(selection_pressure, 1, INT32_MAX);
    SAME_INT(repeat, 0, INT32_MAX);
#undef SAME_INT
    const char *model = NULL;
    if (!st) st = ckpt_get_str(r, "param.model", &model);
    if (!st && strcmp(model, "lossless") && strcmp(model, "lossy"))
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': param.model '%s' is unknown",
                        ckpt_reader_source(r), model);
    if (!st) {
        p->model = strcmp(model, "lossy") ? GLEVO_DSMGA_LOSSLESS : GLEVO_DSMGA_LOSSY;
        /* Lossless is 0: only lossy can be asked for against the file's. */
        if (c->model == GLEVO_DSMGA_LOSSY && p->model != GLEVO_DSMGA_LOSSY)
            st = glevo_fail(GLEVO_ERR_INVALID, "glevo_dsmga_params.model lossy differs from the "
                            "checkpoint's lossless: it would change the run");
    }
    if (!st) st = ckpt_same_i64(r, "param.skip_duplicates", "glevo_dsmga_params.skip_duplicates",
                                c->skip_duplicates, 1);
    if (!st) st = ckpt_get_ll(r, "param.skip_duplicates", 0, 1, &v);
    p->skip_duplicates = v != 0;
    if (!st) st = ckpt_same_i64(r, "param.seed", "glevo_dsmga_params.seed", c->seed != 0,
                                c->seed == (uint32_t)GLEVO_ZERO ? 0 : c->seed);
    if (!st) st = ckpt_get_ll(r, "param.seed", 0, UINT32_MAX, &v);
    p->seed = (uint32_t)v;
    /* Safe: the budget and where the model is built. */
    if (!st) st = ckpt_get_int(r, "param.max_generations", 0, INT32_MAX, &p->max_generations);
    if (!st) st = ckpt_get_ll(r, "param.max_nfe", 0, INT64_MAX, &p->max_nfe);
    if (!st) st = ckpt_get_int(r, "param.stall_generations", -1, INT32_MAX, &p->stall_generations);
    if (c->max_generations) p->max_generations = c->max_generations == GLEVO_ZERO ? 0 : c->max_generations;
    if (c->max_nfe) p->max_nfe = c->max_nfe == GLEVO_ZERO ? 0 : c->max_nfe;
    if (c->stall_generations) p->stall_generations = c->stall_generations;
    p->progress = c->progress, p->progress_user = c->progress_user;
    int b = 0;
    if (!st) st = ckpt_take_enum(r, "param.backend", (int)c->backend, glevo_backend_parse, &b);
    p->backend = (glevo_backend)b;
    return st;
}

static glevo_status check_problem(const ckpt_reader *r, const glevo_dsmga_problem *problem)
{
    const char *name;
    long long ell, crc;
    glevo_status st = ckpt_get_str(r, "param.problem", &name);
    if (!st) st = ckpt_get_i64(r, "param.ell", &ell);
    if (!st) st = ckpt_get_i64(r, "param.problem_crc32", &crc);
    if (st) return st;
    if (strcmp(name, problem->name) != 0 || ell != problem->ell)
        return glevo_fail(GLEVO_ERR_INVALID, "problem %s with ell %d differs from the checkpoint's "
                          "%s with ell %lld: it would change the run", problem->name, problem->ell,
                          name, ell);
    if ((uint32_t)crc != problem_crc(problem))
        return glevo_fail(GLEVO_ERR_INVALID, "problem %s is not the spin-glass instance checkpoint "
                          "'%s' ran on (other couplings): it would change the run", problem->name,
                          ckpt_reader_source(r));
    return GLEVO_OK;
}

static glevo_status restore_state(const ckpt_reader *r, glevo_dsmga *e)
{
    long long v = 0;
    glevo_status st = ckpt_get_ll(r, "state.generation", 0, INT32_MAX, &v);
    if (!st) e->generation = (int)v;
    if (!st) st = ckpt_get_ll(r, "state.evaluations", 0, INT64_MAX, &e->nfe);
    if (!st) st = ckpt_get_ll(r, "state.rng_seed", 0, UINT32_MAX, &v);
    if (!st && (uint32_t)v != e->rng.seed)
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': state.rng_seed %lld is not the seed",
                        ckpt_reader_source(r), v);
    if (!st) st = ckpt_get_i64(r, "state.rng_counter", &v);
    if (!st) e->rng.counter_lo = (uint32_t)v, e->rng.counter_hi = (uint32_t)((uint64_t)v >> 32);
    if (!st) st = ckpt_get_array(r, "state.rng_buffer", CKPT_U32, e->rng.buf, 4);
    if (!st) st = ckpt_get_int(r, "state.rng_left", 0, 4, &e->rng.left);
    if (!st) st = ckpt_get_ll(r, "state.solved", 0, 1, &v);
    e->solved = v != 0;
    if (!st) st = ckpt_get_int(r, "state.stalled", 0, INT32_MAX, &e->stalled);
    if (!st) st = ckpt_get_f64(r, "state.best_fitness", &e->best_fit);
    if (!st) st = ckpt_get_f64(r, "state.dsm_ms", &e->dsm_ms);
    if (!st) st = ckpt_get_f64(r, "state.ils_ms", &e->ils_ms);
    if (!st) st = ckpt_get_f64(r, "state.seconds", &e->seconds);
    if (!st) st = ckpt_get_ll(r, "state.hash_fill", 0, (long long)e->hcap, &v);
    e->hfill = (size_t)v;
    if (!st) st = ckpt_get_array(r, "data.population", CKPT_U8, e->pop, (size_t)e->n * e->ell);
    if (!st) st = ckpt_get_array(r, "data.fitness", CKPT_F64S, e->fit, (size_t)e->n);
    if (!st) st = ckpt_get_array(r, "data.keys", CKPT_U64, e->key, (size_t)e->n);
    if (!st) st = ckpt_get_array(r, "data.best", CKPT_U8, e->best, (size_t)e->ell);
    if (!st) st = ckpt_get_array(r, "data.hash_keys", CKPT_U64, e->hkeys, e->hcap);
    if (!st) st = ckpt_get_array(r, "data.hash_counts", CKPT_I32, e->hcount, e->hcap);
    /* The probing loops stop only at an empty slot: a hand-made table with none would hang. */
    size_t empty = 0;
    for (size_t i = 0; i < e->hcap && !st; ++i) empty += e->hcount[i] < 0;
    if (!st && empty == 0)
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': the key table has no free slot",
                        ckpt_reader_source(r));
    for (size_t i = 0; i < (size_t)e->n * e->ell && !st; ++i)
        if (e->pop[i] > 1)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': data.population holds a %u",
                            ckpt_reader_source(r), e->pop[i]);
    return st;
}

glevo_status glevo_dsmga_load(const char *path, const glevo_dsmga_problem *problem,
                              const glevo_dsmga_params *changes, glevo_dsmga **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(problem);
    ARG_NOT_NULL(out);
    *out = NULL;
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, "dsmga", &r);
    if (st) return st;
    glevo_dsmga_params p, resolved;
    glevo_dsmga *e = NULL;
    if (!(st = check_problem(r, problem)) && !(st = resume_params(r, changes, &p)) &&
        !(st = ckpt_expect_count(r, "data.fitness", CKPT_F64S, (size_t)p.pop)) &&
        !(st = dsmga_resolve_params(problem, &p, &resolved)))
        st = dsmga_engine_new(problem, &resolved, &e);
    if (!st) st = restore_state(r, e);
    ckpt_reader_destroy(r);
    if (st) {
        glevo_dsmga_destroy(e);
        return st;
    }
    *out = e;
    return GLEVO_OK;
}
