/* GP's operators (name and arity, the codes' op field), the function sets a run may use
 * (parsed from and printed to text), and the checks of a program's prefix array. */
#include <stdio.h>
#include <string.h>

#include "gp/gp_internal.h"
#include "core/args.h"

const gp_op_info gp_op_table[GLEVO_GP_OP_COUNT] = {
    [GLEVO_GP_VAR] = {"x", 0},     [GLEVO_GP_CONST] = {"const", 0}, [GLEVO_GP_ADD] = {"+", 2},
    [GLEVO_GP_SUB] = {"-", 2},     [GLEVO_GP_MUL] = {"*", 2},       [GLEVO_GP_DIV] = {"/", 2},
    [GLEVO_GP_NEG] = {"neg", 1},   [GLEVO_GP_SIN] = {"sin", 1},     [GLEVO_GP_COS] = {"cos", 1},
    [GLEVO_GP_IF] = {"if", 3},     [GLEVO_GP_LT] = {"<", 2},        [GLEVO_GP_GT] = {">", 2},
    [GLEVO_GP_EQ] = {"=", 2},      [GLEVO_GP_AND] = {"and", 2},     [GLEVO_GP_OR] = {"or", 2},
    [GLEVO_GP_NOT] = {"not", 1},   [GLEVO_GP_EXP] = {"exp", 1},     [GLEVO_GP_LOG] = {"log", 1},
    [GLEVO_GP_SQRT] = {"sqrt", 1}, [GLEVO_GP_SQUARE] = {"square", 1}, [GLEVO_GP_CUBE] = {"cube", 1},
    [GLEVO_GP_POW] = {"pow", 2},   [GLEVO_GP_TANH] = {"tanh", 1},   [GLEVO_GP_ABS] = {"abs", 1},
    [GLEVO_GP_AQ] = {"aq", 2},
};

const char *glevo_gp_op_name(glevo_gp_op op)
{
    return (unsigned)op < GLEVO_GP_OP_COUNT ? gp_op_table[op].name : "?";
}

int glevo_gp_op_arity(glevo_gp_op op)
{
    return (unsigned)op < GLEVO_GP_OP_COUNT ? gp_op_table[op].arity : 0;
}

int gp_code_arity(uint32_t code) { return glevo_gp_op_arity(GLEVO_GP_CODE_OP(code)); }

_Static_assert(GLEVO_GP_OP_COUNT <= 64, "2 bits of arity per op in 4 words");
void gp_op_arity_words(uint32_t words[4])
{
    for (int w = 0; w < 4; ++w) words[w] = 0;
    for (int op = 0; op < GLEVO_GP_OP_COUNT; ++op)
        words[op / 16] |= (uint32_t)(gp_op_table[op].arity & 3) << (2 * (op % 16));
}

int gp_walk_depth(const uint32_t *codes, int len)
{
    int sp = 0, most = 0;
    for (int i = len - 1; i >= 0; --i) {
        sp += 1 - gp_code_arity(codes[i]);
        if (sp > most) most = sp;
    }
    return most;
}

int gp_mask_max_arity(uint32_t mask)
{
    int a = 1;
    for (int op = 0; op < GLEVO_GP_OP_COUNT; ++op)
        if ((mask >> op & 1u) && gp_op_table[op].arity > a) a = gp_op_table[op].arity;
    return a;
}

uint32_t glevo_gp_function_set_ops(glevo_gp_function_set set)
{
    uint32_t m = 1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST;
    if (set == GLEVO_GP_CLASSIFICATION)
        return m | 1u << GLEVO_GP_IF | 1u << GLEVO_GP_LT | 1u << GLEVO_GP_GT |
               1u << GLEVO_GP_EQ | 1u << GLEVO_GP_AND | 1u << GLEVO_GP_OR | 1u << GLEVO_GP_NOT;
    return m | 1u << GLEVO_GP_ADD | 1u << GLEVO_GP_SUB | 1u << GLEVO_GP_MUL | 1u << GLEVO_GP_DIV |
           1u << GLEVO_GP_NEG | 1u << GLEVO_GP_SIN | 1u << GLEVO_GP_COS | 1u << GLEVO_GP_EXP |
           1u << GLEVO_GP_LOG | 1u << GLEVO_GP_SQRT;
}

glevo_status glevo_gp_function_set_parse(const char *text, uint32_t *ops)
{
    glevo_clear_error();
    ARG_NOT_NULL(text);
    ARG_NOT_NULL(ops);
    if (!strcmp(text, "regression") || !strcmp(text, "classification")) {
        *ops = glevo_gp_function_set_ops(text[0] == 'r' ? GLEVO_GP_REGRESSION
                                                        : GLEVO_GP_CLASSIFICATION);
        return GLEVO_OK;
    }
    uint32_t m = 1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST;
    const char *s = text;
    for (;;) {
        while (*s == ' ') s++;
        const char *e = s;
        while (*e && *e != ',') e++;
        const char *t = e;
        while (t > s && t[-1] == ' ') t--;
        int len = (int)(t - s), op = -1;
        for (int k = GLEVO_GP_ADD; k < GLEVO_GP_OP_COUNT && len > 0; ++k)
            if ((int)strlen(gp_op_table[k].name) == len && !strncmp(gp_op_table[k].name, s, (size_t)len))
                op = k;
        if (op < 0 && len > 0)
            return glevo_fail(GLEVO_ERR_INVALID, "function set '%s': '%.*s' is not an operator "
                              "(regression, classification, or a list such as +,-,*,/,exp,log)",
                              text, len, s);
        if (op >= 0) m |= 1u << op;
        if (!*e) break;
        s = e + 1;
    }
    uint32_t logic = 1u << GLEVO_GP_AND | 1u << GLEVO_GP_OR | 1u << GLEVO_GP_NOT;
    uint32_t compare = 1u << GLEVO_GP_LT | 1u << GLEVO_GP_GT | 1u << GLEVO_GP_EQ;
    uint32_t boolean = logic | compare | 1u << GLEVO_GP_IF;
    uint32_t terminals = 1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST;
    if (m == terminals)
        return glevo_fail(GLEVO_ERR_INVALID, "function set '%s' has no operator", text);
    if ((m & logic) && !(m & compare) && (m & ~(boolean | terminals)))
        return glevo_fail(GLEVO_ERR_INVALID, "function set '%s' mixes and/or/not with arithmetic "
                          "but has no comparison (<, >, =) to give them truth values", text);
    *ops = m;
    return GLEVO_OK;
}

int glevo_gp_function_set_text(uint32_t ops, char *buf, size_t size)
{
    if (!buf) size = 0; /* as snprintf(NULL, 0, ...): the length alone */
    size_t n = 0;
    if (size) buf[0] = '\0';
    for (int k = GLEVO_GP_ADD; k < GLEVO_GP_OP_COUNT; ++k)
        if (ops >> k & 1u) {
            int w = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s",
                             n ? "," : "", gp_op_table[k].name);
            if (w > 0) n += (size_t)w;
        }
    return (int)n;
}

int glevo_gp_stack_size(int max_length, int max_arity)
{
    int t = max_length < 1 ? 1 : max_length;
    int a = max_arity < 1 ? 1 : max_arity;
    int s = t - t / (a < t ? a : t);
    return s < 1 ? 1 : s;
}

int gp_own_constants(const uint32_t *codes, int n, const float *pool, uint32_t *out,
                     float *out_k)
{
    for (int i = 0; i < n; ++i) {
        bool constant = GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST;
        out_k[i] = constant ? pool[GLEVO_GP_CODE_INDEX(codes[i])] : 0;
        out[i] = constant ? GLEVO_GP_CODE(GLEVO_GP_CONST, (uint32_t)i) : codes[i];
    }
    return n;
}

int gp_subtree_end(const uint32_t *codes, int length, int i)
{
    int need = 1;
    while (need > 0 && i < length) need += gp_code_arity(codes[i++]) - 1;
    return i;
}

glevo_status glevo_gp_program_check(const uint32_t *codes, int length)
{
    glevo_clear_error();
    ARG_NOT_NULL(codes);
    if (length < 1) return glevo_fail(GLEVO_ERR_INVALID, "empty program");
    int need = 1;
    for (int i = 0; i < length; ++i) {
        if (need == 0)
            return glevo_fail(GLEVO_ERR_INVALID, "program has %d codes after its tree ends",
                              length - i);
        if ((unsigned)GLEVO_GP_CODE_OP(codes[i]) >= GLEVO_GP_OP_COUNT)
            return glevo_fail(GLEVO_ERR_INVALID, "code %u at %d has unknown op %u", codes[i], i,
                              (unsigned)GLEVO_GP_CODE_OP(codes[i]));
        need += gp_code_arity(codes[i]) - 1;
    }
    if (need != 0)
        return glevo_fail(GLEVO_ERR_INVALID, "program is missing %d argument(s)", need);
    return GLEVO_OK;
}
