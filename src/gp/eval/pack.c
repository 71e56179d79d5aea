/* Programs laid out for the GPU, shared by both GPU drivers: packing into rows of
 * GP_TEX_WIDTH words, the interpreter's stack size and the operator defines it is built with
 * (Augusto & Barbosa 2012, §3.2 and §5.4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"

static int grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    void *n = realloc(*ptr, c * elem);
    if (!n) return 0;
    *ptr = n;
    *cap = c;
    return 1;
}

glevo_status gp_pack_programs(gp_packed *pk, const glevo_gp_programs *p, int max_rows)
{
    int pop = p->count;
    /* Each program [length, codes...] stays inside one row (the shader then steps along x)
     * unless some program is too long for a row: then they are packed back to back. */
    int pad = p->max_length <= GP_ROW_PROGRAM - 1;
    size_t total = (size_t)p->code_count + (size_t)pop;
    if (pad) {
        size_t at = 0;
        for (int i = 0; i < pop; ++i) {
            size_t need = (size_t)p->lengths[i] + 1;
            if (at % GP_TEX_WIDTH + need > GP_TEX_WIDTH) at = (at / GP_TEX_WIDTH + 1) * GP_TEX_WIDTH;
            at += need;
        }
        total = at;
    }
    pk->long_programs = !pad;
    pk->rows = (total + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    pk->index_rows = ((size_t)pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    pk->const_rows = ((size_t)p->const_count + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    if (pk->const_rows < 1) pk->const_rows = 1;
    if (pk->rows < 1) pk->rows = 1;
    if (pk->index_rows < 1) pk->index_rows = 1;
    if (pk->rows > (size_t)max_rows || pk->const_rows > (size_t)max_rows)
        return glevo_fail(GLEVO_ERR_INVALID, "population of %lld nodes does not fit a texture",
                          p->code_count);
    if (!grow((void **)&pk->codes, &pk->codes_cap, pk->rows * GP_TEX_WIDTH, sizeof(uint32_t)) ||
        !grow((void **)&pk->index, &pk->index_cap, pk->index_rows * GP_TEX_WIDTH, sizeof(uint32_t)) ||
        !grow((void **)&pk->consts, &pk->consts_cap, pk->const_rows * GP_TEX_WIDTH, sizeof(float)))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory uploading programs");
    size_t at = 0;
    for (int i = 0; i < pop; ++i) {
        size_t need = (size_t)p->lengths[i] + 1;
        if (pad && at % GP_TEX_WIDTH + need > GP_TEX_WIDTH) {
            size_t next = (at / GP_TEX_WIDTH + 1) * GP_TEX_WIDTH;
            memset(pk->codes + at, 0, (next - at) * sizeof(uint32_t));
            at = next;
        }
        pk->index[i] = (uint32_t)at;
        pk->codes[at++] = (uint32_t)p->lengths[i];
        memcpy(pk->codes + at, p->codes + p->offsets[i], (size_t)p->lengths[i] * sizeof(uint32_t));
        at += (size_t)p->lengths[i];
    }
    memset(pk->codes + at, 0, (pk->rows * GP_TEX_WIDTH - at) * sizeof(uint32_t));
    memset(pk->index + pop, 0, (pk->index_rows * GP_TEX_WIDTH - (size_t)pop) * sizeof(uint32_t));
    memcpy(pk->consts, p->consts, (size_t)p->const_count * sizeof(float));
    memset(pk->consts + p->const_count, 0,
           (pk->const_rows * GP_TEX_WIDTH - (size_t)p->const_count) * sizeof(float));
    return GLEVO_OK;
}

void gp_packed_free(gp_packed *pk)
{
    free(pk->codes);
    free(pk->index);
    free(pk->consts);
    memset(pk, 0, sizeof *pk);
}

/* The smaller stack is the local-memory array every push and pop goes through: a size-50
 * random population needs about 10 slots where footnote 7 gives 25 (32 for the rounded
 * length), so the per-invocation footprint drops three-fold. */
int gp_stack_slots(const glevo_gp_programs *p)
{
    int tau = (p->max_length + 15) / 16 * 16;
    int bound = glevo_gp_stack_size(tau, gp_mask_max_arity(p->ops_used));
    int stack = (p->max_depth + 3) / 4 * 4;
    if (stack > bound) stack = bound;
    return stack < 1 ? 1 : stack;
}

int gp_op_defines(uint32_t mask, char *out, size_t size)
{
    static const char *names[GLEVO_GP_OP_COUNT] = {
        NULL, NULL, "ADD", "SUB", "MUL", "DIV", "NEG", "SIN", "COS",
        "IF", "LT", "GT", "EQ", "AND", "OR", "NOT", "EXP", "LOG", "SQRT", "SQUARE", "CUBE",
        "POW", "TANH", "ABS", "AQ"};
    int n = 0;
    out[0] = '\0';
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if (mask >> op & 1u && (size_t)n < size)
            n += snprintf(out + n, size - (size_t)n, "#define GP_USE_%s\n", names[op]);
    return n;
}

/* A run's builds (gp_evaluator_specialise): the operators it breeds, the stack and codes of
 * its longest program; programs evaluated alone decide for themselves. */
void gp_evaluator_specialise(glevo_gp_evaluator *e, uint32_t ops, int max_length, int pop)
{
    e->build_ops = ops;
    e->build_max_length = max_length;
    e->build_work = (double)pop * e->data->cases;
}

bool gp_build_inline_all(const glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    /* From 10^7 program-cases a generation (10^4 programs x 1000 cases: 50 generations take
     * seconds): NVIDIA's inlined build costs ~2.5 s more cold and halves the evaluation's
     * time at 10^5 x 1000 (H200, 2026-11-28 and 2026-11-29, docs/performance.md). Programs
     * evaluated alone (gp-eval, bench) count their own work, so that what they time is the
     * build a run of that size uses. */
    double work = e->build_work > 0 ? e->build_work : (double)p->count * e->data->cases;
    return work >= 1e7;
}

uint32_t gp_build_ops(const glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    return p->ops_used | e->build_ops;
}

int gp_build_max_length(const glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    return p->max_length > e->build_max_length ? p->max_length : e->build_max_length;
}

int gp_build_stack(glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    /* A run's stack: 16 slots, or the power of two its deepest walk needs (a GP population's
     * walks rarely need more than 16, so a run builds once; a deeper one at most a few times).
     * Not the bound of its longest program: the H200 ran EvoGP's algorithm at 10^4 programs x
     * 10^4 cases in 0.35 s with 40 slots against 0.17 s with 16 (2026-11-28), the private
     * array's size costing however little of it a walk touches. GLEVO_GP_STACK_BOUND=0: the
     * population's own depth, rounded to 4, as evaluations outside a run (for measuring). */
    int need = gp_stack_slots(p);
    const char *env = getenv("GLEVO_GP_STACK_BOUND");
    if (e->build_max_length <= 0 || (env && *env == '0')) return need;
    int tau = (e->build_max_length + 15) / 16 * 16;
    int bound = glevo_gp_stack_size(tau, gp_mask_max_arity(gp_build_ops(e, p)));
    int slots = 16;
    while (slots < need) slots *= 2;
    if (slots > bound) slots = need > bound ? need : bound;
    /* Never below a stack this run has built: a resident population's bound (56 slots at
     * max size 100) then also serves linear scaling's few programs, whose own depth is 16. */
    if (slots < e->stack_built) slots = e->stack_built;
    e->stack_built = slots;
    return slots;
}
