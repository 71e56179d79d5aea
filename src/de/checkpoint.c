/* Differential evolution checkpoints (docs/checkpoint.md): the parameters with the shift
 * vector, the generation and evaluation counts, the population (in y = x - o coordinates, as
 * the engines hold it) and its fitness read back from the textures. The stream is keyed by the
 * seed and counted by (individual, generation, pass, gene), so nothing else carries over. */
#include <stdlib.h>
#include <string.h>

#include "de/de_internal.h"
#include "glevo/context.h"
#include "problems/checkpoint.h"
#include "core/args.h"

glevo_status glevo_de_save(glevo_de *de, const char *path, const glevo_checkpoint_extra *extra)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(path);
    const de_config *c = &de->c;
    size_t n = (size_t)c->np * (size_t)c->dim;
    float *y = malloc(n * sizeof(float)), *fitness = malloc((size_t)c->np * sizeof(float));
    ckpt_writer *w = ckpt_writer_create("de");
    glevo_status st = GLEVO_OK;
    if (!y || !fitness || !w)
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint of %d x %d", c->np, c->dim);
    if (!st) st = de->ops->population(de, y, fitness);
    if (!st) {
        ckpt_put_run(w, glevo_backend_name(de->backend), de->renderer, de->generations,
                     de->evaluations, extra);
        st = problem_checkpoint_put(w, c->problem);
    }
    if (!st) {
        ckpt_put_i64(w, "param.dim", c->dim);
        ckpt_put_i64(w, "param.pop", c->np);
        /* The engines compute in float: F and CR are stored as the floats they use. */
        ckpt_put_f64(w, "param.F", c->F);
        ckpt_put_f64(w, "param.CR", c->CR);
        ckpt_put_str(w, "param.strategy", glevo_de_strategy_name(c->strategy));
        ckpt_put_i64(w, "param.max_evals", c->max_evals);
        ckpt_put_i64(w, "param.seed", c->seed);
        ckpt_put_i64(w, "param.shifted", c->shifted);
        ckpt_put_array(w, "param.shift", CKPT_F64S, c->shift, (size_t)c->dim);
        ckpt_put_i64(w, "param.check_every", c->check_every);
        ckpt_put_f64(w, "param.target_efv", c->target_efv);
        ckpt_put_str(w, "param.backend", glevo_backend_name(de->backend));
        ckpt_put_str(w, "param.kernel", glevo_de_kernel_name(c->kernel));
        ckpt_put_str(w, "state.engine", de->engine);
        ckpt_put_i64(w, "state.rng_seed", c->seed);
        ckpt_put_i64(w, "state.rng_stream", GLEVO_DE_STREAM);
        ckpt_put_i64(w, "state.target_reached", de->target_reached);
        ckpt_put_f64(w, "state.seconds", de->seconds);
        ckpt_put_array(w, "data.population", CKPT_F32, y, n);
        ckpt_put_array(w, "data.fitness", CKPT_F32, fitness, (size_t)c->np);
        st = ckpt_writer_save(w, path);
    }
    ckpt_writer_destroy(w);
    free(y), free(fitness);
    return st;
}

static const char *strategy_name(int s) { return glevo_de_strategy_name((glevo_de_strategy)s); }

/* F and CR: the float the engines use is what must agree. */
static glevo_status same_float(const ckpt_reader *r, const char *entry, const char *field,
                               bool is_set, double asked, double *out)
{
    glevo_status st = ckpt_get_f64(r, entry, out);
    if (st || !is_set || (float)asked == (float)*out) return st;
    return glevo_fail(GLEVO_ERR_INVALID, "%s %g differs from the checkpoint's %g: it would change "
                      "the run", field, asked, *out);
}

/* The file's parameters with the caller's changes: the budget (max_evals), check_every,
 * target_efv, backend and kernel may change; the others are compared. *shift is the stored
 * shift vector (the params point at it). */
static glevo_status resume_params(const ckpt_reader *r, const glevo_de_params *c,
                                  glevo_de_params *p, double **shift)
{
    static const glevo_de_params none = {0};
    if (!c) c = &none;
    memset(p, 0, sizeof *p);
    *shift = NULL;
    long long v = 0;
    glevo_status st = problem_checkpoint_find(r, c->problem, "glevo_de_params.problem", &p->problem);
    if (!st) st = ckpt_same_i64(r, "param.dim", "glevo_de_params.dim", c->dim != 0, c->dim);
    if (!st) st = ckpt_get_int(r, "param.dim", 1, 1 << 20, &p->dim);
    if (!st) st = ckpt_same_i64(r, "param.pop", "glevo_de_params.pop", c->pop != 0, c->pop);
    if (!st) st = ckpt_get_int(r, "param.pop", 4, INT32_MAX, &p->pop);
    if (!st) st = same_float(r, "param.F", "glevo_de_params.F", c->F != 0, c->F, &p->F);
    if (!st) st = same_float(r, "param.CR", "glevo_de_params.CR", c->CR != 0,
                             c->CR == GLEVO_ZERO ? 0.0 : c->CR, &p->CR);
    p->CR = GLEVO_LITERAL(p->CR);
    int e = 0;
    if (!st) st = ckpt_same_enum(r, "param.strategy", "glevo_de_params.strategy", (int)c->strategy,
                                 strategy_name, glevo_de_strategy_parse, &e);
    p->strategy = (glevo_de_strategy)e;
    if (!st) st = ckpt_same_i64(r, "param.seed", "glevo_de_params.seed", c->seed != 0,
                                c->seed == (uint32_t)GLEVO_ZERO ? 0 : c->seed);
    if (!st) st = ckpt_get_ll(r, "param.seed", 0, UINT32_MAX, &v);
    p->seed = (uint32_t)v;
    long long shifted = 0;
    if (!st) st = ckpt_get_ll(r, "param.shifted", 0, 1, &shifted);
    if (!st && !(*shift = malloc(sizeof(double) * (size_t)p->dim)))
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!st) st = ckpt_get_array(r, "param.shift", CKPT_F64S, *shift, (size_t)p->dim);
    if (!st && c->no_shift && shifted)
        st = glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.no_shift differs from the "
                        "checkpoint's shifted problem: it would change the run");
    if (!st && c->shift && (!shifted || memcmp(c->shift, *shift, sizeof(double) * (size_t)p->dim)))
        st = glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.shift differs from the checkpoint's "
                        "shift vector: it would change the run");
    if (!st) {
        if (shifted) p->shift = *shift;
        else p->no_shift = true;
    }
    /* Safe: the budget, when to check, when to stop, where and with which kernel. */
    if (!st) st = ckpt_get_ll(r, "param.max_evals", 0, INT64_MAX, &p->max_evals);
    if (!st) st = ckpt_get_int(r, "param.check_every", 1, INT32_MAX, &p->check_every);
    if (!st) st = ckpt_get_f64(r, "param.target_efv", &p->target_efv);
    if (c->max_evals) p->max_evals = c->max_evals;
    if (c->check_every) p->check_every = c->check_every;
    if (c->target_efv) p->target_efv = c->target_efv;
    p->progress = c->progress, p->progress_user = c->progress_user;
    if (!st) st = ckpt_take_enum(r, "param.backend", (int)c->backend, glevo_backend_parse, &e);
    p->backend = (glevo_backend)e;
    if (!st) st = ckpt_take_enum(r, "param.kernel", (int)c->kernel, glevo_de_kernel_parse, &e);
    p->kernel = (glevo_de_kernel)e;
    return st;
}

glevo_status glevo_de_load(const char *path, const glevo_de_params *changes, glevo_de **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    *out = NULL;
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, "de", &r);
    if (st) return st;
    glevo_de_params p;
    double *shift = NULL;
    glevo_de *de = NULL;
    float *y = NULL, *fitness = NULL;
    long long v = 0;
    if (!(st = resume_params(r, changes, &p, &shift)))
        st = ckpt_expect_count(r, "data.population", CKPT_F32, (size_t)p.pop * (size_t)p.dim);
    if (!st) st = de_engine_new(&p, &de);
    if (!st) {
        size_t n = (size_t)de->c.np * (size_t)de->c.dim;
        y = malloc(n * sizeof(float));
        fitness = malloc((size_t)de->c.np * sizeof(float));
        if (!y || !fitness) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
        if (!st) st = ckpt_get_array(r, "data.population", CKPT_F32, y, n);
        if (!st) st = ckpt_get_array(r, "data.fitness", CKPT_F32, fitness, (size_t)de->c.np);
    }
    if (!st) st = ckpt_get_ll(r, "state.generation", 0, UINT32_MAX - (1 << 21), &de->generations);
    if (!st) st = ckpt_get_ll(r, "state.evaluations", 0, INT64_MAX, &de->evaluations);
    if (!st) st = ckpt_get_ll(r, "state.target_reached", 0, 1, &v);
    if (!st) de->target_reached = v != 0;
    if (!st) st = ckpt_get_f64(r, "state.seconds", &de->seconds);
    if (!st) st = de->ops->restore(de, y, fitness);
    free(y), free(fitness), free(shift);
    ckpt_reader_destroy(r);
    if (st) {
        glevo_de_destroy(de);
        return st;
    }
    *out = de;
    return GLEVO_OK;
}
