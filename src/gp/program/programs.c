/* The program container (glevo_gp_programs): prefix arrays of codes with a constant beside
 * each code, appended one program at a time and read back by index. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gp/gp_internal.h"
#include "core/args.h"

glevo_status glevo_gp_programs_create(glevo_gp_programs **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
    *out = calloc(1, sizeof **out);
    return *out ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for programs");
}

void glevo_gp_programs_destroy(glevo_gp_programs *p)
{
    if (!p) return;
    free(p->codes);
    free(p->offsets);
    free(p->lengths);
    free(p->consts);
    free(p);
}

void glevo_gp_programs_clear(glevo_gp_programs *p)
{
    if (!p) return;
    p->code_count = p->const_count = 0;
    p->count = p->max_length = p->max_depth = 0;
    p->ops_used = 0;
}

static int grow(void **ptr, long long *cap, long long need, size_t elem)
{
    if (need <= *cap) return 1;
    long long c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *n = realloc(*ptr, (size_t)c * elem);
    if (!n) return 0;
    *ptr = n;
    *cap = c;
    return 1;
}

glevo_status glevo_gp_programs_add(glevo_gp_programs *p, const uint32_t *codes, int length,
                                   const float *consts)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(codes);
    glevo_status st = glevo_gp_program_check(codes, length);
    if (st) return st;
    if (p->count == INT_MAX || p->code_count + length > GP_MAX_NODES)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_programs_add: a set holds at most %d "
                          "programs and %lld nodes", INT_MAX, GP_MAX_NODES);
    if (!consts)
        for (int i = 0; i < length; ++i)
            if (GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST)
                return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_programs_add: consts is NULL but "
                                  "code %d is a constant", i);
    long long cap = p->cap;
    if (!grow((void **)&p->offsets, &cap, p->count + 1, sizeof *p->offsets))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for programs");
    cap = p->cap;
    if (!grow((void **)&p->lengths, &cap, p->count + 1, sizeof *p->lengths))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for programs");
    p->cap = (int)cap;
    if (!grow((void **)&p->codes, &p->code_cap, p->code_count + length, sizeof *p->codes) ||
        !grow((void **)&p->consts, &p->const_cap, p->const_count + length, sizeof *p->consts))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for programs");
    uint32_t *dst = p->codes + p->code_count;
    /* The GPU interpreter's stack is sized to the population's deepest walk. */
    int depth = gp_walk_depth(codes, length);
    if (depth > p->max_depth) p->max_depth = depth;
    for (int i = 0; i < length; ++i) {
        uint32_t c = codes[i];
        glevo_gp_op op = GLEVO_GP_CODE_OP(c);
        if (op == GLEVO_GP_CONST) {
            if (p->const_count > GLEVO_GP_MAX_INDEX)
                return glevo_fail(GLEVO_ERR_INVALID, "more than %u constants in one population",
                                  GLEVO_GP_MAX_INDEX);
            p->consts[p->const_count] = consts[GLEVO_GP_CODE_INDEX(c)];
            c = GLEVO_GP_CODE(op, p->const_count);
            p->const_count++;
        }
        p->ops_used |= 1u << op;
        dst[i] = c;
    }
    p->offsets[p->count] = p->code_count;
    p->lengths[p->count] = length;
    p->count++;
    p->code_count += length;
    if (length > p->max_length) p->max_length = length;
    return GLEVO_OK;
}

int glevo_gp_programs_count(const glevo_gp_programs *p) {
    ARG_NOT_NULL_OR(p, -1);
    return p->count;
}
const float *glevo_gp_programs_constants(const glevo_gp_programs *p) {
    ARG_NOT_NULL_OR(p, NULL);
    return p->consts;
}
long long glevo_gp_programs_nodes(const glevo_gp_programs *p) {
    ARG_NOT_NULL_OR(p, -1);
    return p->code_count;
}
int glevo_gp_programs_max_length(const glevo_gp_programs *p) {
    ARG_NOT_NULL_OR(p, -1);
    return p->max_length;
}
uint32_t glevo_gp_programs_ops_used(const glevo_gp_programs *p) {
    ARG_NOT_NULL_OR(p, 0);
    return p->ops_used;
}

const uint32_t *glevo_gp_programs_codes(const glevo_gp_programs *p, int i, int *length)
{
    ARG_NOT_NULL_OR(p, NULL);
    ARG_INDEX_OR(i, p->count, NULL);
    if (length) *length = p->lengths[i];
    return p->codes + p->offsets[i];
}
