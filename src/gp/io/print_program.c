/* Programs printed back as S-expressions (which glevo_gp_programs_parse reads) or infix,
 * snprintf-style: the length is returned whether or not it fits. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "gp/gp_internal.h"
#include "core/args.h"

void gp_out_put(gp_out_buf *o, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, args);
    va_end(args);
    if (n > 0) o->len += (size_t)n;
}

void gp_out_var(gp_out_buf *o, unsigned index)
{
    if (o->names) gp_out_put(o, "%s", o->names[index]);
    else gp_out_put(o, "x%u", index + 1);
}

static void put_const(gp_out_buf *o, float v)
{
    /* %.9g round-trips every float exactly, so print -> parse gives the same codes. */
    gp_out_put(o, "%.9g", (double)v);
}

static int print_sexpr(gp_out_buf *o, const uint32_t *c, const float *k, int i)
{
    glevo_gp_op op = GLEVO_GP_CODE_OP(c[i]);
    if (op == GLEVO_GP_VAR) {
        gp_out_put(o, "x%u", GLEVO_GP_CODE_INDEX(c[i]) + 1);
        return i + 1;
    }
    if (op == GLEVO_GP_CONST) {
        put_const(o, k[GLEVO_GP_CODE_INDEX(c[i])]);
        return i + 1;
    }
    gp_out_put(o, "(%s", gp_op_table[op].name);
    int j = i + 1;
    for (int a = 0; a < gp_op_table[op].arity; ++a) {
        gp_out_put(o, " ");
        j = print_sexpr(o, c, k, j);
    }
    gp_out_put(o, ")");
    return j;
}

static int print_infix(gp_out_buf *o, const uint32_t *c, const float *k, int i)
{
    glevo_gp_op op = GLEVO_GP_CODE_OP(c[i]);
    int j = i + 1;
    switch (op) {
    case GLEVO_GP_VAR: gp_out_var(o, GLEVO_GP_CODE_INDEX(c[i])); return j;
    case GLEVO_GP_CONST: {
        float v = k[GLEVO_GP_CODE_INDEX(c[i])];
        if (v < 0) gp_out_put(o, "(");
        put_const(o, v);
        if (v < 0) gp_out_put(o, ")");
        return j;
    }
    case GLEVO_GP_NEG: gp_out_put(o, "-("); j = print_infix(o, c, k, j); gp_out_put(o, ")"); return j;
    case GLEVO_GP_SIN:
    case GLEVO_GP_COS:
    case GLEVO_GP_NOT:
        gp_out_put(o, "%s(", gp_op_table[op].name);
        j = print_infix(o, c, k, j);
        gp_out_put(o, ")");
        return j;
    case GLEVO_GP_IF:
        gp_out_put(o, "(");
        j = print_infix(o, c, k, j);
        gp_out_put(o, " ? ");
        j = print_infix(o, c, k, j);
        gp_out_put(o, " : ");
        j = print_infix(o, c, k, j);
        gp_out_put(o, ")");
        return j;
    case GLEVO_GP_POW:
    case GLEVO_GP_AQ:
        gp_out_put(o, "%s(", gp_op_table[op].name);
        j = print_infix(o, c, k, j);
        gp_out_put(o, ", ");
        j = print_infix(o, c, k, j);
        gp_out_put(o, ")");
        return j;
    default: {
        if (gp_op_table[op].arity == 1) { /* exp, log, sqrt, square, cube, tanh, abs */
            gp_out_put(o, "%s(", gp_op_table[op].name);
            j = print_infix(o, c, k, j);
            gp_out_put(o, ")");
            return j;
        }
        const char *sym = op == GLEVO_GP_EQ ? "==" : op == GLEVO_GP_AND ? "&&"
                          : op == GLEVO_GP_OR ? "||" : gp_op_table[op].name;
        gp_out_put(o, "(");
        j = print_infix(o, c, k, j);
        gp_out_put(o, " %s ", sym);
        j = print_infix(o, c, k, j);
        gp_out_put(o, ")");
        return j;
    }
    }
}

/* Program i printed by `print` into buf, snprintf's way (NULL with size 0 asks for the
 * length); the length it needs. */
static int print_program(int (*print)(gp_out_buf *, const uint32_t *, const float *, int),
                         const glevo_gp_programs *p, int i, const char *const *names, char *buf,
                         size_t size)
{
    if (!buf) size = 0;
    gp_out_buf o = {buf, size, 0, names};
    if (size) buf[0] = '\0';
    print(&o, p->codes + p->offsets[i], p->consts, 0);
    return (int)o.len;
}

int glevo_gp_program_sexpr(const glevo_gp_programs *p, int i, char *buf, size_t size)
{
    ARG_NOT_NULL_OR(p, -1);
    ARG_INDEX_OR(i, p->count, -1);
    /* The S-expression is the format programs are read back in: inputs stay x1, x2, ... */
    return print_program(print_sexpr, p, i, NULL, buf, size);
}

int glevo_gp_program_infix(const glevo_gp_programs *p, int i, char *buf, size_t size)
{
    ARG_NOT_NULL_OR(p, -1);
    ARG_INDEX_OR(i, p->count, -1);
    return print_program(print_infix, p, i, NULL, buf, size);
}

int gp_program_infix_named(const glevo_gp_programs *p, int i, const char *const *names, char *buf,
                           size_t size)
{
    return print_program(print_infix, p, i, names, buf, size);
}
