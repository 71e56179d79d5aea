/* Cellular GA checkpoints (docs/checkpoint.md): the parameters, the generation and evaluation
 * counts, the population with its last fitness and the best-so-far record. Nothing else: the
 * random stream is keyed by the seed and counted by the generation, and every other texture
 * is rewritten before it is read in the next generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/engine_internal.h"
#include "core/checkpoint.h"
#include "problems/checkpoint.h"
#include "core/args.h"

glevo_status glevo_cga_save(glevo_cga *cga, const char *path, const glevo_checkpoint_extra *extra)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(path);
    const glevo_cga_params *p = &cga->params;
    const cga_layout *l = &cga->layout;
    size_t cells = (size_t)l->width * l->height, record_floats = 4 + 4 * (size_t)l->textures;
    float *genes = malloc(cga->gene_floats * sizeof(float));
    float *fitness = malloc(cells * sizeof(float));
    float *record = malloc(record_floats * sizeof(float));
    ckpt_writer *w = ckpt_writer_create("cga");
    glevo_status st = GLEVO_OK;
    if (!genes || !fitness || !record || !w)
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint of %zu cells", cells);
    if (!st) st = cga->ops->read(cga, genes, fitness);
    if (!st) st = cga->ops->read_record(cga, record);
    if (!st) {
        ckpt_put_run(w, glevo_backend_name(p->backend),
                     p->backend == GLEVO_BACKEND_CPU ? "cpu" : glevo_context_renderer(NULL),
                     cga->generation, cga->evaluations, extra);
        st = problem_checkpoint_put(w, p->problem);
    }
    if (!st) {
        ckpt_put_i64(w, "param.dim", p->dim);
        ckpt_put_i64(w, "param.width", p->width);
        ckpt_put_i64(w, "param.height", p->height);
        ckpt_put_i64(w, "param.bits", p->bits);
        ckpt_put_f64(w, "param.pc", p->pc);
        ckpt_put_f64(w, "param.pm", p->pm);
        ckpt_put_str(w, "param.neighbourhood", glevo_cga_neighbourhood_name(p->neighbourhood));
        ckpt_put_str(w, "param.algorithm", glevo_cga_algorithm_name(p->algorithm));
        ckpt_put_str(w, "param.backend", glevo_backend_name(p->backend));
        ckpt_put_str(w, "param.rng", glevo_rng_mode_name(p->rng));
        ckpt_put_str(w, "param.mutation", glevo_cga_mutation_name(p->mutation));
        ckpt_put_i64(w, "param.seed", p->seed);
        ckpt_put_i64(w, "param.report_every", p->report_every);
        /* The stream's key and counter (docs/architecture.md, "Counter-based randomness"):
         * the generation is the counter, so these say everything the stream carries. */
        ckpt_put_i64(w, "state.rng_seed", cga->rng.seed);
        ckpt_put_i64(w, "state.rng_stream", cga->rng.stream);
        ckpt_put_array(w, "data.genes", CKPT_F32, genes, cga->gene_floats);
        ckpt_put_array(w, "data.fitness", CKPT_F32, fitness, cells);
        ckpt_put_array(w, "data.record", CKPT_F32, record, record_floats);
        st = ckpt_writer_save(w, path);
    }
    ckpt_writer_destroy(w);
    free(genes), free(fitness), free(record);
    return st;
}

static const char *nb_name(int v) { return glevo_cga_neighbourhood_name((glevo_cga_neighbourhood)v); }
static const char *alg_name(int v) { return glevo_cga_algorithm_name((glevo_cga_algorithm)v); }
static const char *rng_name(int v) { return glevo_rng_mode_name((glevo_rng_mode)v); }
static const char *mut_name(int v) { return glevo_cga_mutation_name((glevo_cga_mutation)v); }

/* The parameters of the file with the caller's changes: safe ones applied, others compared. */
static glevo_status resume_params(const ckpt_reader *r, const glevo_cga_params *c,
                                  glevo_cga_params *p)
{
    static const glevo_cga_params none = {0};
    if (!c) c = &none;
    memset(p, 0, sizeof *p);
    long long v = 0;
    glevo_status st = problem_checkpoint_find(r, c->problem, "glevo_cga_params.problem", &p->problem);
    if (!st) st = ckpt_same_i64(r, "param.dim", "glevo_cga_params.dim", c->dim != 0, c->dim);
    if (!st) st = ckpt_get_int(r, "param.dim", 1, GLEVO_CGA_MAX_DIM, &p->dim);
    long long w = 0, h = 0;
    if (!st) st = ckpt_get_ll(r, "param.width", 2, 16384, &w);
    if (!st) st = ckpt_get_ll(r, "param.height", 1, 16384, &h);
    if (!st && ((c->width && c->width != w) || (c->height && c->height != h)))
        st = glevo_fail(GLEVO_ERR_INVALID, "glevo_cga_params.width x height %dx%d differs from the "
                        "checkpoint's %lldx%lld: it would change the run", c->width ? c->width : (int)w,
                        c->height ? c->height : (int)h, w, h);
    p->width = (int)w, p->height = (int)h;
    if (!st) st = ckpt_same_i64(r, "param.bits", "glevo_cga_params.bits", c->bits != 0, c->bits);
    if (!st) st = ckpt_get_int(r, "param.bits", 1, 24, &p->bits);
    if (!st) st = ckpt_same_f64(r, "param.pc", "glevo_cga_params.pc", c->pc != 0,
                                c->pc == GLEVO_ZERO ? 0.0 : c->pc);
    if (!st) st = ckpt_get_f64(r, "param.pc", &p->pc);
    if (!st) st = ckpt_same_f64(r, "param.pm", "glevo_cga_params.pm", c->pm != 0,
                                c->pm == GLEVO_ZERO ? 0.0 : c->pm);
    if (!st) st = ckpt_get_f64(r, "param.pm", &p->pm);
    /* Zero in a params struct means default; the file's zeros are meant literally. */
    p->pc = GLEVO_LITERAL(p->pc), p->pm = GLEVO_LITERAL(p->pm);
    int e = 0;
    if (!st) st = ckpt_same_enum(r, "param.neighbourhood", "glevo_cga_params.neighbourhood",
                            (int)c->neighbourhood, nb_name, glevo_cga_neighbourhood_parse, &e);
    p->neighbourhood = (glevo_cga_neighbourhood)e;
    if (!st) st = ckpt_same_enum(r, "param.algorithm", "glevo_cga_params.algorithm", (int)c->algorithm,
                            alg_name, glevo_cga_algorithm_parse, &e);
    p->algorithm = (glevo_cga_algorithm)e;
    if (!st) st = ckpt_same_enum(r, "param.rng", "glevo_cga_params.rng", (int)c->rng, rng_name,
                            glevo_rng_mode_parse, &e);
    p->rng = (glevo_rng_mode)e;
    if (!st) st = ckpt_same_enum(r, "param.mutation", "glevo_cga_params.mutation", (int)c->mutation,
                            mut_name, glevo_cga_mutation_parse, &e);
    p->mutation = (glevo_cga_mutation)e;
    if (!st) st = ckpt_same_i64(r, "param.seed", "glevo_cga_params.seed", c->seed != 0,
                                c->seed == (uint32_t)GLEVO_ZERO ? 0 : c->seed);
    if (!st) st = ckpt_get_ll(r, "param.seed", 0, UINT32_MAX, &v);
    p->seed = (uint32_t)v;
    /* Safe to change: where the run executes and how often it reports. */
    if (!st) st = ckpt_take_enum(r, "param.backend", (int)c->backend, glevo_backend_parse, &e);
    p->backend = (glevo_backend)e;
    if (!st) st = ckpt_get_int(r, "param.report_every", 1, INT32_MAX, &p->report_every);
    if (c->report_every) p->report_every = c->report_every;
    /* How the compute backend blocks generations: the run is the same whatever it is. */
    p->block_depth = c->block_depth;
    p->block_tile[0] = c->block_tile[0], p->block_tile[1] = c->block_tile[1];
    p->progress = c->progress, p->progress_user = c->progress_user;
    return st;
}

glevo_status glevo_cga_load(const char *path, const glevo_cga_params *changes, glevo_cga **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(out);
    *out = NULL;
    ckpt_reader *r;
    glevo_status st = ckpt_read_file(path, "cga", &r);
    if (st) return st;
    glevo_cga_params p;
    glevo_cga *cga = NULL;
    long long generation = 0, evaluations = 0;
    float *fitness = NULL, *record = NULL;
    if (!(st = resume_params(r, changes, &p)))
        st = ckpt_expect_count(r, "data.genes", CKPT_F32,
                               (size_t)p.width * p.height * 4 * (size_t)((p.dim + 3) / 4));
    if (!st) st = glevo_cga_create(&p, &cga);
    if (!st) st = ckpt_get_ll(r, "state.generation", 0, UINT32_MAX, &generation);
    if (!st) st = ckpt_get_ll(r, "state.evaluations", 0, INT64_MAX, &evaluations);
    if (!st) {
        const cga_layout *l = &cga->layout;
        size_t cells = (size_t)l->width * l->height;
        fitness = malloc(cells * sizeof(float));
        record = malloc((4 + 4 * (size_t)l->textures) * sizeof(float));
        if (!fitness || !record) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
        if (!st) st = ckpt_get_array(r, "data.genes", CKPT_F32, cga->genes, cga->gene_floats);
        if (!st) st = ckpt_get_array(r, "data.fitness", CKPT_F32, fitness, cells);
        if (!st) st = ckpt_get_array(r, "data.record", CKPT_F32, record, 4 + 4 * (size_t)l->textures);
        if (!st) st = cga->ops->restore(cga, cga->genes, fitness, record);
    }
    if (!st) cga->generation = generation, cga->evaluations = evaluations;
    free(fitness), free(record);
    ckpt_reader_destroy(r);
    if (st) {
        glevo_cga_destroy(cga);
        return st;
    }
    *out = cga;
    return GLEVO_OK;
}
