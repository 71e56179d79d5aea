/* Programs as prefix linear arrays of 32-bit codes (the paper's §3.2.1 representation):
 * the S-expression parser with line:column errors, and glevo_gp_programs_load. Neighbours:
 * ops.c (operators, function sets), programs.c (the container), print_program.c. */
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
    if (len < (int)sizeof buf) {
        memcpy(buf, tok, (size_t)len);
        buf[len] = '\0';
        double v = 0;
        const char *why = gp_number_parse(buf, &v);
        if (!why) {
            if (!emit(ps, GLEVO_GP_CODE(GLEVO_GP_CONST, ps->nconst))) return ps->st;
            ps->consts[ps->nconst++] = (float)v;
            return GLEVO_OK;
        }
        /* A number beyond float's range is a number, not an unknown token. */
        if (!strcmp(why, GP_NUMBER_RANGE)) return perr(ps, start, "number '%.*s' %s", len, tok, why);
    }
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if ((int)strlen(gp_op_table[op].name) == len && !strncmp(gp_op_table[op].name, tok, (size_t)len))
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
        if ((int)strlen(gp_op_table[k].name) == len &&
            !strncmp(gp_op_table[k].name, ps->s + start, (size_t)len))
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
        if (args == gp_op_table[op].arity)
            return perr(ps, ps->pos, "'%s' takes %d argument(s), got more", gp_op_table[op].name,
                        gp_op_table[op].arity);
        if (parse_expr(ps, depth + 1)) return ps->st;
        args++;
    }
    if (args != gp_op_table[op].arity)
        return perr(ps, ps->pos, "'%s' takes %d argument(s), got %d", gp_op_table[op].name,
                    gp_op_table[op].arity, args);
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
