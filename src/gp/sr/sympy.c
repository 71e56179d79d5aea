/* The reported model as a string SymPy parses (sympy.sympify; gp_program_sympy, model.h):
 * glevo's protected operators as SymPy writes them, made plain where the training data show
 * that the protection never acts (an argument of one sign on every case), as the protected
 * division is printed as a plain quotient. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/sr/model.h"

static int sym(gp_out_buf *o, const unsigned char *signs, const uint32_t *c, const float *k,
               int n, int i);

/* Signs on d of the subtree at every code: SIGN_POSITIVE where it is positive on every case,
 * SIGN_NOT_NEGATIVE where it is never negative (NaN is neither); NULL without data, or
 * without memory (every protected operator then keeps its Abs). */
enum { SIGN_POSITIVE = 1, SIGN_NOT_NEGATIVE = 2 };
static unsigned char *subtree_signs(const uint32_t *c, const float *k, int n,
                                    const glevo_gp_data *d)
{
    unsigned char *signs = d ? malloc((size_t)n) : NULL;
    float *values = signs ? malloc((size_t)n * sizeof *values) : NULL;
    if (!values) {
        free(signs);
        return NULL;
    }
    memset(signs, SIGN_POSITIVE | SIGN_NOT_NEGATIVE, (size_t)n);
    for (int cs = 0; cs < d->cases; ++cs) {
        gp_interpret_nodes(c, n, k, d, cs, values);
        for (int i = 0; i < n; ++i)
            signs[i] &= values[i] > 0 ? SIGN_POSITIVE | SIGN_NOT_NEGATIVE
                        : values[i] == 0 ? SIGN_NOT_NEGATIVE : 0;
    }
    free(values);
    return signs;
}

/* A protected operator's argument as f(arg) where the argument has `sign` on every case of the
 * data, else as f(Abs(arg)). */
static int sym_protected(gp_out_buf *o, const unsigned char *signs, const uint32_t *c,
                         const float *k, int n, int j, const char *f, int sign)
{
    bool plain = signs && (signs[j] & sign);
    gp_out_put(o, plain ? "%s(" : "%s(Abs(", f);
    j = sym(o, signs, c, k, n, j);
    gp_out_put(o, plain ? ")" : "))");
    return j;
}

static int sym(gp_out_buf *o, const unsigned char *signs, const uint32_t *c, const float *k,
               int n, int i)
{
    glevo_gp_op op = GLEVO_GP_CODE_OP(c[i]);
    int j = i + 1;
    static const char *fn1[GLEVO_GP_OP_COUNT] = {
        [GLEVO_GP_SIN] = "sin", [GLEVO_GP_COS] = "cos", [GLEVO_GP_EXP] = "exp",
        [GLEVO_GP_TANH] = "tanh", [GLEVO_GP_ABS] = "Abs"};
    switch (op) {
    case GLEVO_GP_VAR: gp_out_var(o, GLEVO_GP_CODE_INDEX(c[i])); return j;
    case GLEVO_GP_CONST: {
        float v = k[GLEVO_GP_CODE_INDEX(c[i])];
        gp_out_put(o, v < 0 ? "(%.9g)" : "%.9g", (double)v);
        return j;
    }
    case GLEVO_GP_NEG: gp_out_put(o, "(-"); j = sym(o, signs, c, k, n, j); gp_out_put(o, ")"); return j;
    case GLEVO_GP_LOG: return sym_protected(o, signs, c, k, n, j, "log", SIGN_POSITIVE);
    case GLEVO_GP_SQRT:
        if (GLEVO_GP_CODE_OP(c[j]) == GLEVO_GP_EXP) {
            /* sqrt(exp(a)) as exp(a/2): the same real function, which SymPy's symbols (complex
             * unless declared otherwise) would not equate with exp(a/2) itself. */
            gp_out_put(o, "exp((");
            j = sym(o, signs, c, k, n, j + 1);
            gp_out_put(o, ")/2)");
            return j;
        }
        return sym_protected(o, signs, c, k, n, j, "sqrt", SIGN_NOT_NEGATIVE);
    case GLEVO_GP_SQUARE: gp_out_put(o, "("); j = sym(o, signs, c, k, n, j); gp_out_put(o, ")**2"); return j;
    case GLEVO_GP_CUBE: gp_out_put(o, "("); j = sym(o, signs, c, k, n, j); gp_out_put(o, ")**3"); return j;
    case GLEVO_GP_POW: {
        bool plain = signs && (signs[j] & SIGN_POSITIVE);
        gp_out_put(o, plain ? "((" : "(Abs(");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, ")**(");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, "))");
        return j;
    }
    case GLEVO_GP_AQ:
        gp_out_put(o, "((");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, ")/sqrt(1 + (");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, ")**2))");
        return j;
    case GLEVO_GP_IF: { /* (if c a b): a where c != 0, else b */
        int ce = gp_subtree_end(c, n, j);
        gp_out_put(o, "Piecewise((");
        int e = sym(o, signs, c, k, n, ce);
        gp_out_put(o, ", Ne(");
        sym(o, signs, c, k, n, j);
        gp_out_put(o, ", 0)), (");
        e = sym(o, signs, c, k, n, e);
        gp_out_put(o, ", True))");
        return e;
    }
    case GLEVO_GP_NOT: gp_out_put(o, "Piecewise((1, Eq("); j = sym(o, signs, c, k, n, j); gp_out_put(o, ", 0)), (0, True))"); return j;
    case GLEVO_GP_ADD: case GLEVO_GP_SUB: case GLEVO_GP_MUL: case GLEVO_GP_DIV: {
        const char *s = op == GLEVO_GP_ADD ? " + " : op == GLEVO_GP_SUB ? " - " : op == GLEVO_GP_MUL ? "*" : "/";
        gp_out_put(o, "(");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, "%s", s);
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, ")");
        return j;
    }
    case GLEVO_GP_LT: case GLEVO_GP_GT: case GLEVO_GP_EQ: case GLEVO_GP_AND: case GLEVO_GP_OR: {
        const char *f = op == GLEVO_GP_LT ? "Lt" : op == GLEVO_GP_GT ? "Gt" : op == GLEVO_GP_EQ ? "Eq"
                        : op == GLEVO_GP_AND ? "And" : "Or";
        int logic = op == GLEVO_GP_AND || op == GLEVO_GP_OR;
        gp_out_put(o, "Piecewise((1, %s(", f);
        if (logic) gp_out_put(o, "Ne(");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, logic ? ", 0), Ne(" : ", ");
        j = sym(o, signs, c, k, n, j);
        gp_out_put(o, logic ? ", 0))), (0, True))" : ")), (0, True))");
        return j;
    }
    default:
        if (fn1[op]) {
            gp_out_put(o, "%s(", fn1[op]);
            j = sym(o, signs, c, k, n, j);
            gp_out_put(o, ")");
            return j;
        }
        return j;
    }
}

char *gp_program_sympy(const uint32_t *codes, int length, const float *consts,
                       const char *const *names, const glevo_gp_data *d)
{
    unsigned char *signs = subtree_signs(codes, consts, length, d); /* once, for both passes */
    gp_out_buf o = {NULL, 0, 0, names};
    sym(&o, signs, codes, consts, length, 0); /* the length */
    char *buf = malloc(o.len + 1);
    if (buf) {
        o = (gp_out_buf){buf, o.len + 1, 0, names};
        sym(&o, signs, codes, consts, length, 0);
    }
    free(signs);
    return buf;
}
