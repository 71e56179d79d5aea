/* The host's copies of a GPU-resident run: the programs, fitness and best read back from the
 * GPU only when the host needs them (gp_host_sync, gp_fitness_sync), and the packed container. */
#include <stdlib.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "gp/eval/eval_internal.h"
#include "gp/eval/gpu.h"

glevo_status gp_engine_program(const glevo_gp *gp, int i, uint32_t *codes, float *consts,
                               int *len)
{
    if (gp->res && gp->host_stale) return gp_resident_read_slot(gp->res, i, codes, consts, len);
    const indiv *p = &gp->pops[gp->cur][i];
    *len = p->len;
    memcpy(codes, p->codes, sizeof *codes * (size_t)p->len);
    memcpy(consts, p->consts, sizeof *consts * (size_t)p->len);
    return GLEVO_OK;
}

/* The best program of the current generation alone in out (from the GPU when resident). */
glevo_status gp_engine_best_program(const glevo_gp *gp, glevo_gp_programs *out)
{
    glevo_gp_programs_clear(out);
    int len = 0;
    glevo_status st = gp_engine_program(gp, gp->best, gp->scratch.codes, gp->scratch.consts, &len);
    return st ? st : glevo_gp_programs_add(out, gp->scratch.codes, len, gp->scratch.consts);
}

/* Whether program 0 of one is the cached model's program (codes, and the constants they use). */
static bool cache_holds(const glevo_gp *gp, const glevo_gp_programs *one)
{
    int len;
    const uint32_t *c = glevo_gp_programs_codes(one, 0, &len);
    const float *k = glevo_gp_programs_constants(one);
    if (!gp->model_cache.valid || len != gp->model_cache.len ||
        memcmp(c, gp->model_cache.codes, sizeof *c * (size_t)len))
        return false;
    for (int i = 0; i < len; ++i)
        if (GLEVO_GP_CODE_OP(c[i]) == GLEVO_GP_CONST &&
            memcmp(&k[GLEVO_GP_CODE_INDEX(c[i])], &gp->model_cache.consts[i], sizeof *k))
            return false;
    return true;
}

/* The best program's reported model and its error: what the result, glevo_gp_best_error and
 * the progress lines give. Building it evaluates the program on the data (the scaling's a and
 * b, the error) on the host, so it is kept while the best program stays the same. gp->one is
 * scratch; the cache is not state a caller sees, hence the cast. */
glevo_status gp_engine_best_model(const glevo_gp *cgp, double *error, const char **sexpr)
{
    glevo_gp *gp = (glevo_gp *)cgp;
    glevo_status st = gp_engine_best_program(gp, gp->one);
    if (st) return st;
    if (!cache_holds(gp, gp->one)) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(gp->one, 0, &len);
        const float *k = glevo_gp_programs_constants(gp->one);
        glevo_gp_result m = {0};
        gp->model_cache.valid = false;
        if ((st = glevo_gp_model(&gp->P, gp->data, gp->one, 0, &m))) return st;
        uint32_t *codes = realloc(gp->model_cache.codes, sizeof *codes * (size_t)(len + 1));
        if (codes) gp->model_cache.codes = codes;
        float *consts = realloc(gp->model_cache.consts, sizeof *consts * (size_t)(len + 1));
        if (consts) gp->model_cache.consts = consts;
        char *text = strdup(m.best_sexpr ? m.best_sexpr : "");
        double model_error = m.best_error;
        glevo_gp_result_free(&m);
        if (!codes || !consts || !text) {
            free(text);
            return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the best model");
        }
        memcpy(codes, c, sizeof *c * (size_t)len);
        for (int i = 0; i < len; ++i)
            consts[i] = GLEVO_GP_CODE_OP(c[i]) == GLEVO_GP_CONST ? k[GLEVO_GP_CODE_INDEX(c[i])] : 0;
        free(gp->model_cache.sexpr);
        gp->model_cache.sexpr = text;
        gp->model_cache.error = model_error;
        gp->model_cache.len = len;
        gp->model_cache.valid = true;
    }
    if (error) *error = gp->model_cache.error;
    if (sexpr) *sexpr = gp->model_cache.sexpr;
    return GLEVO_OK;
}

/* The evaluator's container of the host population (what glevo_gp_population returns). */
glevo_status gp_engine_pack_host(glevo_gp *gp)
{
    const indiv *pop = gp->pops[gp->cur];
    glevo_status st = GLEVO_OK;
    glevo_gp_programs_clear(gp->progs);
    for (int i = 0; i < gp->P.pop && !st; ++i)
        st = glevo_gp_programs_add(gp->progs, pop[i].codes, pop[i].len, pop[i].consts);
    return st;
}

/* GLEVO_OK for CPU evaluation, and where the evaluator's GL context is current on this
 * thread (gpu_context_check): the resident engine breeds and reads on the GPU. */
glevo_status gp_gl_ready(const glevo_gp *gp, const char *function)
{
    if (!gp->ev || gp->ev->backend == GLEVO_BACKEND_CPU) return GLEVO_OK;
    return gpu_context_check(gp->ev->context, function);
}

glevo_status gp_fitness_sync(const glevo_gp *cgp)
{
    if (!cgp->fit_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    glevo_gp *gp = (glevo_gp *)cgp; /* a cache of the GPU's, as in gp_host_sync */
    const glevo_gp_params *P = &gp->P;
    gp_fit_head head;
    glevo_status st = gp_resident_read_fitness(gp->res, gp->err, gp->fit, &head);
    if (!st) st = gp_resident_read_stats(gp->res);
    if (st) return st;
    if (head.bad >= 0)
        return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back with "
                          "wrong run marks from the compute dispatches (a shader loop cut "
                          "short, a lost context or a driver timeout)", head.bad + 1);
    memcpy(gp->lens, gp->res->lens, sizeof *gp->lens * (size_t)P->pop);
    gp->best = head.best;
    memcpy(gp->elite, head.elite, sizeof head.elite);
    gp->nodes_evaluated += (long long)(head.codes - gp->codes_seen) * gp->data->cases;
    gp->codes_seen = head.codes;
    gp->fit_stale = false;
    return GLEVO_OK;
}

glevo_status gp_host_sync(const glevo_gp *cgp)
{
    glevo_status fst = gp_fitness_sync(cgp);
    if (fst) return fst;
    if (!cgp->res || !cgp->host_stale) return GLEVO_OK;
    glevo_status ready = gp_gl_ready(cgp, "glevo_gp");
    if (ready) return ready;
    /* The host copy is a cache of the GPU's population: filling it changes no state a caller
     * can see, hence the cast. */
    glevo_gp *gp = (glevo_gp *)cgp;
    size_t at = (size_t)gp->cur * (size_t)gp->P.pop * (size_t)gp->P.max_size;
    glevo_status st = gp_resident_download(gp->res, gp->codes_mem + at, gp->consts_mem + at,
                                           gp->lens);
    for (int i = 0; i < gp->P.pop && !st; ++i) gp->pops[gp->cur][i].len = gp->lens[i];
    if (!st) st = gp_engine_pack_host(gp);
    if (!st) gp->host_stale = false;
    return st;
}
