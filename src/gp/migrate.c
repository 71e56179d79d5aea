/* GP's calls for the island model (glevo/gp.h, "migration"): a program as a fixed block of
 * doubles (its length, its codes, the constants at their codes' positions, padded to
 * max_size) so that programs of any length travel as the island model's fixed-length
 * individuals, and reading and replacing programs of the evaluated generation with their
 * errors, keeping the engine's state what its checkpoint holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/engine_internal.h"
#include "core/args.h"

int glevo_gp_block_size(int max_size) { return 1 + 2 * max_size; }

glevo_status glevo_gp_program_encode(const uint32_t *codes, int length, const float *consts,
                                     int max_size, double *block)
{
    glevo_clear_error();
    ARG_NOT_NULL(codes);
    ARG_NOT_NULL(consts);
    ARG_NOT_NULL(block);
    if (length < 1 || length > max_size)
        return glevo_fail(GLEVO_ERR_INVALID, "a program of %d nodes does not fit a block of "
                          "max_size %d", length, max_size);
    glevo_status st = glevo_gp_program_check(codes, length);
    if (st) return st;
    memset(block, 0, sizeof(double) * (size_t)glevo_gp_block_size(max_size));
    block[0] = length;
    for (int k = 0; k < length; ++k) {
        uint32_t code = codes[k];
        if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) {
            block[1 + max_size + k] = consts[GLEVO_GP_CODE_INDEX(code)];
            code = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
        }
        block[1 + k] = code;
    }
    return GLEVO_OK;
}

/* v is an integer in [lo, hi] (NaN is not). */
static bool integer_in(double v, double lo, double hi)
{
    return v >= lo && v <= hi && v == floor(v);
}

glevo_status glevo_gp_program_decode(const double *block, int max_size, int vars, uint32_t ops,
                                     uint32_t *codes, float *consts, int *length)
{
    glevo_clear_error();
    ARG_NOT_NULL(block);
    ARG_NOT_NULL(codes);
    ARG_NOT_NULL(consts);
    ARG_NOT_NULL(length);
    if (max_size < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "a program block of max_size %d", max_size);
    if (!integer_in(block[0], 1, max_size))
        return glevo_fail(GLEVO_ERR_INVALID, "program block: length %.17g is not an integer in "
                          "1..%d", block[0], max_size);
    int n = (int)block[0];
    for (int k = 0; k < max_size; ++k) {
        double c = block[1 + k], v = block[1 + max_size + k];
        if (k >= n) {
            if (c != 0 || v != 0)
                return glevo_fail(GLEVO_ERR_INVALID, "program block: slot %d after the program's "
                                  "%d codes is not 0", k, n);
            continue;
        }
        if (!integer_in(c, 0, UINT32_MAX))
            return glevo_fail(GLEVO_ERR_INVALID, "program block: code %d, %.17g, is not a 32-bit "
                              "code", k, c);
        uint32_t code = (uint32_t)c;
        glevo_gp_op op = GLEVO_GP_CODE_OP(code);
        uint32_t index = GLEVO_GP_CODE_INDEX(code);
        bool constant = op == GLEVO_GP_CONST;
        if (op >= GLEVO_GP_OP_COUNT || (op > GLEVO_GP_CONST && ops && !(ops >> op & 1u)))
            return glevo_fail(GLEVO_ERR_INVALID, "program block: code %d, 0x%x, is not an operator "
                              "of the run", k, code);
        if (op == GLEVO_GP_VAR && vars > 0 && index >= (uint32_t)vars)
            return glevo_fail(GLEVO_ERR_INVALID, "program block: code %d names x%u, the data has "
                              "%d variables", k, index + 1, vars);
        if (constant && index != (uint32_t)k)
            return glevo_fail(GLEVO_ERR_INVALID, "program block: constant code %d refers to "
                              "position %u", k, index);
        if (constant ? !isnan(v) && (double)(float)v != v : v != 0)
            return glevo_fail(GLEVO_ERR_INVALID, "program block: the constant slot %d, %.17g, is "
                              "not %s", k, v, constant ? "a float" : "0");
        codes[k] = code;
        consts[k] = constant ? (float)v : 0.0f;
    }
    if (glevo_gp_program_check(codes, n)) {
        char why[160]; /* glevo_fail writes over glevo_last_error() */
        snprintf(why, sizeof why, "%s", glevo_last_error());
        return glevo_fail(GLEVO_ERR_INVALID, "program block: the codes are not one tree (%s)", why);
    }
    *length = n;
    return GLEVO_OK;
}

const glevo_gp_params *glevo_gp_params_of(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, NULL);
    return &gp->asked;
}
long long glevo_gp_evaluations(const glevo_gp *gp) {
    ARG_NOT_NULL_OR(gp, -1);
    long long n = 0;
    for (const glevo_gp *s = gp; s; s = s->next_search) n += s->evaluations;
    return n;
}

/* Islands are one search each: a portfolio's other searches have no place in migration. */
static glevo_status one_search(const glevo_gp *gp, const char *call)
{
    if (!gp->next_search) return GLEVO_OK;
    return glevo_fail(GLEVO_ERR_INVALID, "%s: the run has a portfolio of searches "
                      "(glevo_gp_params.portfolio %g); migration needs one (GLEVO_ZERO)", call,
                      gp->asked.portfolio);
}

glevo_status glevo_gp_read_errors(const glevo_gp *gp, double *errors)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(errors);
    glevo_status st = gp_fitness_sync(gp); /* a portfolio's main search's */
    if (st) return st;
    memcpy(errors, gp->err, sizeof(double) * (size_t)gp->P.pop);
    return GLEVO_OK;
}

static glevo_status check_index(const glevo_gp *gp, const char *call, int count, const int *index)
{
    glevo_status st = one_search(gp, call);
    if (st) return st;
    if (count < 0) return glevo_fail(GLEVO_ERR_INVALID, "%s: count %d is negative", call, count);
    for (int k = 0; k < count; ++k)
        if (index[k] < 0 || index[k] >= gp->P.pop)
            return glevo_fail(GLEVO_ERR_INVALID, "%s: index %d is outside 0..%d", call, index[k],
                              gp->P.pop - 1);
    return GLEVO_OK;
}

glevo_status glevo_gp_read_programs(const glevo_gp *gp, int count, const int *index,
                                    double *blocks)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(blocks);
    glevo_status st = check_index(gp, "glevo_gp_read_programs", count, index);
    if (!st) st = gp_host_sync(gp);
    size_t size = (size_t)glevo_gp_block_size(gp->P.max_size);
    for (int k = 0; k < count && !st; ++k) {
        const indiv *p = &gp->pops[gp->cur][index[k]];
        st = glevo_gp_program_encode(p->codes, p->len, p->consts, gp->P.max_size,
                                     blocks + (size_t)k * size);
    }
    return st;
}

glevo_status glevo_gp_write_programs(glevo_gp *gp, int count, const int *index,
                                     const double *blocks, const double *errors)
{
    glevo_clear_error();
    ARG_NOT_NULL(gp);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(blocks);
    ARG_NOT_NULL(errors);
    glevo_status st = check_index(gp, "glevo_gp_write_programs", count, index);
    if (!st) st = gp_host_sync(gp);
    if (st) return st;
    int cap = gp->P.max_size;
    size_t size = (size_t)glevo_gp_block_size(cap);
    uint32_t *codes = malloc(sizeof(uint32_t) * (size_t)cap * (size_t)(count ? count : 1));
    float *consts = malloc(sizeof(float) * (size_t)cap * (size_t)(count ? count : 1));
    int *lens = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!codes || !consts || !lens) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int k = 0; k < count && !st; ++k)
        if ((st = glevo_gp_program_decode(blocks + (size_t)k * size, cap, gp->data->vars, gp->mask,
                                          codes + (size_t)k * cap, consts + (size_t)k * cap,
                                          &lens[k]))) {
            char why[256];
            snprintf(why, sizeof why, "%s", glevo_last_error());
            st = glevo_fail(st, "glevo_gp_write_programs: program %d: %s", k, why);
        }
    for (int k = 0; k < count && !st; ++k) {
        indiv *p = &gp->pops[gp->cur][index[k]];
        memcpy(p->codes, codes + (size_t)k * cap, sizeof(uint32_t) * (size_t)lens[k]);
        memcpy(p->consts, consts + (size_t)k * cap, sizeof(float) * (size_t)lens[k]);
        p->len = lens[k];
        gp->err[index[k]] = errors[k];
        gp->fit[index[k]] = gp_fitness_of(gp->P.metric, errors[k]);
    }
    free(codes), free(consts), free(lens);
    if (st || count == 0) return st;
    gp->best = gp_find_best(gp);
    /* The evaluator's copy of the generation and the end test, as after a resume. */
    return gp_engine_resumed(gp);
}
