/* Programs as prefix linear arrays of 32-bit codes (the paper's §3.2.1 representation):
 * the container, the S-expression parser with line:column errors, and printing back as
 * S-expression or infix. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_file.h"
#include "gp/gp_internal.h"
#include "core/args.h"

static const struct { const char *name; int arity; } op_table[GLEVO_GP_OP_COUNT] = {
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
    return (unsigned)op < GLEVO_GP_OP_COUNT ? op_table[op].name : "?";
}

int glevo_gp_op_arity(glevo_gp_op op)
{
    return (unsigned)op < GLEVO_GP_OP_COUNT ? op_table[op].arity : 0;
}

int gp_code_arity(uint32_t code) { return glevo_gp_op_arity(GLEVO_GP_CODE_OP(code)); }

int gp_mask_max_arity(uint32_t mask)
{
    int a = 1;
    for (int op = 0; op < GLEVO_GP_OP_COUNT; ++op)
        if ((mask >> op & 1u) && op_table[op].arity > a) a = op_table[op].arity;
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
            if ((int)strlen(op_table[k].name) == len && !strncmp(op_table[k].name, s, (size_t)len))
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
                             n ? "," : "", op_table[k].name);
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

/* ---- container ---- */
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
    /* Stack depth of the backward walk: terminals push, an operator of arity a pops a and
     * pushes 1 (the GPU interpreter's stack is sized to the population's deepest walk). */
    int depth = 0;
    for (int i = length - 1; i >= 0; --i) {
        depth += 1 - gp_code_arity(codes[i]);
        if (depth > p->max_depth) p->max_depth = depth;
    }
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

/* ---- parser ---- */
typedef struct parser {
    const char *s, *source;
    int line, line_start; /* line_start: offset of the line's first char */
    int pos;
    int vars;
    uint32_t *codes;
    float *consts;
    int n, nconst, cap;
    glevo_status st;
} parser;

static glevo_status perr(parser *ps, int at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static glevo_status perr(parser *ps, int at, const char *fmt, ...)
{
    char msg[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(msg, sizeof msg, fmt, args);
    va_end(args);
    ps->st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: %s", ps->source ? ps->source : "program",
                        ps->line, at - ps->line_start + 1, msg);
    return ps->st;
}

static void skip_space(parser *ps)
{
    while (ps->s[ps->pos] == ' ' || ps->s[ps->pos] == '\t' || ps->s[ps->pos] == '\r') ps->pos++;
}

static int is_delim(char c) { return !c || c == '\n' || isspace((unsigned char)c) || c == '(' || c == ')'; }

static int emit(parser *ps, uint32_t code)
{
    if (ps->n >= ps->cap) {
        int c = ps->cap ? ps->cap * 2 : 64;
        uint32_t *nc = realloc(ps->codes, (size_t)c * sizeof *nc);
        float *nk = nc ? realloc(ps->consts, (size_t)c * sizeof *nk) : NULL;
        if (nc) ps->codes = nc;
        if (nk) ps->consts = nk;
        if (!nc || !nk) {
            ps->st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory parsing programs");
            return 0;
        }
        ps->cap = c;
    }
    ps->codes[ps->n++] = code;
    return 1;
}

static glevo_status parse_expr(parser *ps, int depth);

static glevo_status parse_atom(parser *ps)
{
    int start = ps->pos;
    while (!is_delim(ps->s[ps->pos])) ps->pos++;
    int len = ps->pos - start;
    const char *tok = ps->s + start;
    if ((tok[0] == 'x' || tok[0] == 'X') && len > 1 && isdigit((unsigned char)tok[1])) {
        long v = 0;
        for (int i = 1; i < len; ++i) {
            if (!isdigit((unsigned char)tok[i]))
                return perr(ps, start, "bad variable '%.*s'", len, tok);
            v = v * 10 + (tok[i] - '0');
            if (v > 1000000) break;
        }
        if (v < 1 || (ps->vars > 0 && v > ps->vars))
            return perr(ps, start, "variable '%.*s' is out of range x1..x%d", len, tok,
                        ps->vars > 0 ? ps->vars : 1000000);
        return emit(ps, GLEVO_GP_CODE(GLEVO_GP_VAR, v - 1)) ? GLEVO_OK : ps->st;
    }
    char buf[64];
    char *end = NULL;
    if (len < (int)sizeof buf) {
        memcpy(buf, tok, (size_t)len);
        buf[len] = '\0';
        errno = 0;
        double v = strtod(buf, &end);
        if (len > 0 && *end == '\0' && isfinite(v) && fabs(v) <= 3.4e38) {
            if (!emit(ps, GLEVO_GP_CODE(GLEVO_GP_CONST, ps->nconst))) return ps->st;
            ps->consts[ps->nconst++] = (float)v;
            return GLEVO_OK;
        }
    }
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if ((int)strlen(op_table[op].name) == len && !strncmp(op_table[op].name, tok, (size_t)len))
            return perr(ps, start, "operator '%.*s' needs parentheses: (%.*s ...)", len, tok,
                        len, tok);
    return perr(ps, start, "unknown token '%.*s' (expected a number, a variable x1.. or '(')",
                len, tok);
}

static glevo_status parse_expr(parser *ps, int depth)
{
    skip_space(ps);
    char c = ps->s[ps->pos];
    if (depth > 10000) return perr(ps, ps->pos, "expression nested too deeply");
    if (c == '\0' || c == '\n') return perr(ps, ps->pos, "expected an expression, got end of line");
    if (c == ')') return perr(ps, ps->pos, "unexpected ')'");
    if (c != '(') return parse_atom(ps);
    int open = ps->pos++;
    skip_space(ps);
    int start = ps->pos;
    while (!is_delim(ps->s[ps->pos])) ps->pos++;
    int len = ps->pos - start;
    if (len == 0) return perr(ps, start, "expected an operator after '('");
    int op = -1;
    for (int k = GLEVO_GP_ADD; k < GLEVO_GP_OP_COUNT; ++k)
        if ((int)strlen(op_table[k].name) == len &&
            !strncmp(op_table[k].name, ps->s + start, (size_t)len))
            op = k;
    if (op < 0) return perr(ps, start, "unknown operator '%.*s'", len, ps->s + start);
    if (!emit(ps, GLEVO_GP_CODE(op, 0))) return ps->st;
    int args = 0;
    for (;;) {
        skip_space(ps);
        char d = ps->s[ps->pos];
        if (d == ')') break;
        if (d == '\0' || d == '\n')
            return perr(ps, open, "unbalanced '(': no matching ')' on this line");
        if (args == op_table[op].arity)
            return perr(ps, ps->pos, "'%s' takes %d argument(s), got more", op_table[op].name,
                        op_table[op].arity);
        if (parse_expr(ps, depth + 1)) return ps->st;
        args++;
    }
    if (args != op_table[op].arity)
        return perr(ps, ps->pos, "'%s' takes %d argument(s), got %d", op_table[op].name,
                    op_table[op].arity, args);
    ps->pos++;
    return GLEVO_OK;
}

glevo_status glevo_gp_programs_parse(glevo_gp_programs *p, const char *text, const char *source,
                                     int vars)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(text);
    parser ps = {.s = text, .source = source, .line = 1, .vars = vars};
    glevo_status st = GLEVO_OK;
    while (text[ps.pos]) {
        ps.line_start = ps.pos;
        skip_space(&ps);
        char c = text[ps.pos];
        if (c == '#') {
            while (text[ps.pos] && text[ps.pos] != '\n') ps.pos++;
        } else if (c != '\n' && c != '\0') {
            ps.n = ps.nconst = 0;
            if ((st = parse_expr(&ps, 0))) break;
            skip_space(&ps);
            if (text[ps.pos] == ')') {
                st = perr(&ps, ps.pos, "unbalanced ')'");
                break;
            }
            if (text[ps.pos] && text[ps.pos] != '\n') {
                st = perr(&ps, ps.pos, "one program per line: unexpected text after it");
                break;
            }
            if ((st = glevo_gp_programs_add(p, ps.codes, ps.n, ps.consts))) break;
        }
        if (text[ps.pos] == '\n') ps.pos++;
        ps.line++;
    }
    free(ps.codes);
    free(ps.consts);
    return st;
}

glevo_status glevo_gp_programs_load(glevo_gp_programs *p, const char *path, int vars)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(path);
    char *text;
    glevo_status st = input_read_text(path, "program file", INPUT_MAX_DATA, &text, NULL);
    if (st != GLEVO_OK) return st;
    st = glevo_gp_programs_parse(p, text, path, vars);
    free(text);
    return st;
}

/* ---- printing ---- */
typedef struct out_buf { char *buf; size_t size, len; } out_buf;

static void put(out_buf *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(out_buf *o, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, args);
    va_end(args);
    if (n > 0) o->len += (size_t)n;
}

static void put_const(out_buf *o, float v)
{
    /* %.9g round-trips every float exactly, so print -> parse gives the same codes. */
    put(o, "%.9g", (double)v);
}

static int print_sexpr(out_buf *o, const uint32_t *c, const float *k, int i)
{
    glevo_gp_op op = GLEVO_GP_CODE_OP(c[i]);
    if (op == GLEVO_GP_VAR) {
        put(o, "x%u", GLEVO_GP_CODE_INDEX(c[i]) + 1);
        return i + 1;
    }
    if (op == GLEVO_GP_CONST) {
        put_const(o, k[GLEVO_GP_CODE_INDEX(c[i])]);
        return i + 1;
    }
    put(o, "(%s", op_table[op].name);
    int j = i + 1;
    for (int a = 0; a < op_table[op].arity; ++a) {
        put(o, " ");
        j = print_sexpr(o, c, k, j);
    }
    put(o, ")");
    return j;
}

static int print_infix(out_buf *o, const uint32_t *c, const float *k, int i)
{
    glevo_gp_op op = GLEVO_GP_CODE_OP(c[i]);
    int j = i + 1;
    switch (op) {
    case GLEVO_GP_VAR: put(o, "x%u", GLEVO_GP_CODE_INDEX(c[i]) + 1); return j;
    case GLEVO_GP_CONST: {
        float v = k[GLEVO_GP_CODE_INDEX(c[i])];
        if (v < 0) put(o, "(");
        put_const(o, v);
        if (v < 0) put(o, ")");
        return j;
    }
    case GLEVO_GP_NEG: put(o, "-("); j = print_infix(o, c, k, j); put(o, ")"); return j;
    case GLEVO_GP_SIN:
    case GLEVO_GP_COS:
    case GLEVO_GP_NOT:
        put(o, "%s(", op_table[op].name);
        j = print_infix(o, c, k, j);
        put(o, ")");
        return j;
    case GLEVO_GP_IF:
        put(o, "(");
        j = print_infix(o, c, k, j);
        put(o, " ? ");
        j = print_infix(o, c, k, j);
        put(o, " : ");
        j = print_infix(o, c, k, j);
        put(o, ")");
        return j;
    case GLEVO_GP_POW:
    case GLEVO_GP_AQ:
        put(o, "%s(", op_table[op].name);
        j = print_infix(o, c, k, j);
        put(o, ", ");
        j = print_infix(o, c, k, j);
        put(o, ")");
        return j;
    default: {
        if (op_table[op].arity == 1) { /* exp, log, sqrt, square, cube, tanh, abs */
            put(o, "%s(", op_table[op].name);
            j = print_infix(o, c, k, j);
            put(o, ")");
            return j;
        }
        const char *sym = op == GLEVO_GP_EQ ? "==" : op == GLEVO_GP_AND ? "&&"
                          : op == GLEVO_GP_OR ? "||" : op_table[op].name;
        put(o, "(");
        j = print_infix(o, c, k, j);
        put(o, " %s ", sym);
        j = print_infix(o, c, k, j);
        put(o, ")");
        return j;
    }
    }
}

int glevo_gp_program_sexpr(const glevo_gp_programs *p, int i, char *buf, size_t size)
{
    ARG_NOT_NULL_OR(p, -1);
    ARG_INDEX_OR(i, p->count, -1);
    if (!buf) size = 0; /* snprintf's rule: NULL with size 0 asks for the length */
    out_buf o = {buf, size, 0};
    if (size) buf[0] = '\0';
    print_sexpr(&o, p->codes + p->offsets[i], p->consts, 0);
    return (int)o.len;
}

int glevo_gp_program_infix(const glevo_gp_programs *p, int i, char *buf, size_t size)
{
    ARG_NOT_NULL_OR(p, -1);
    ARG_INDEX_OR(i, p->count, -1);
    if (!buf) size = 0; /* snprintf's rule: NULL with size 0 asks for the length */
    out_buf o = {buf, size, 0};
    if (size) buf[0] = '\0';
    print_infix(&o, p->codes + p->offsets[i], p->consts, 0);
    return (int)o.len;
}
