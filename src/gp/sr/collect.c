/* Like terms collected (issue 45, models a person reads): a model's arithmetic written as a sum
 * of monomials, c * f1^p1 * ... * fk^pk, each factor an input, a function of a collected
 * argument (sin, exp, ...) or, where a product would grow too large expanded, a sum kept whole;
 * monomials with the same factors are added. What the search leaves as
 *   0.49 + 0.019 ((-25.5 + (-0.60 + v (q / r)) + v (q / r)) + ... + (-(v q)) / (-0.29 r))
 * prints as -0.0001 + 0.159 ((v q) / r), and cos(t omega) and cos(omega t) are one factor.
 * The value changes by rounding, and a protected division (1 where |b| < 1e-6) becomes a
 * product by a reciprocal: gp_readable keeps the result only where it is shorter and the
 * training error does not change. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gp/sr/collect_internal.h"

/* The subtree at i as a polynomial (returns its end). */
static int read_poly(collector *C, int i, poly *out)
{
    uint32_t code = C->c[i];
    glevo_gp_op op = GLEVO_GP_CODE_OP(code);
    int arity = glevo_gp_op_arity(op);
    if (arity > 2) { /* if-then-else: not a model's arithmetic */
        C->failed = true;
        return i + 1;
    }
    if (op == GLEVO_GP_CONST) {
        collect_monomial(out, C->k[GLEVO_GP_CODE_INDEX(code)], -1);
        return i + 1;
    }
    if (op == GLEVO_GP_VAR) {
        codes a = {0};
        collect_push(C, &a, code, 0);
        collect_monomial(out, 1, collect_intern(C, &a));
        return i + 1;
    }
    int j = read_poly(C, i + 1, out);
    poly *b = NULL;
    if (arity == 2 && !(b = malloc(sizeof *b))) C->failed = true;
    if (b) j = read_poly(C, j, b);
    if (C->failed) {
        free(b);
        return j;
    }
    switch (op) {
    case GLEVO_GP_ADD: collect_add_poly(C, out, b, 1); break;
    case GLEVO_GP_SUB: collect_add_poly(C, out, b, -1); break;
    case GLEVO_GP_MUL: collect_mul_poly(C, out, b); break;
    case GLEVO_GP_DIV: collect_div_poly(C, out, b); break;
    case GLEVO_GP_NEG: for (int t = 0; t < out->n; ++t) out->t[t].coef = -out->t[t].coef; break;
    default: /* a function: one factor, its collected arguments inside (collect_function.c) */
        if (b) function_of_two(C, op, out, b);
        else function_of_one(C, op, out);
    }
    free(b);
    return j;
}

int gp_collect(const uint32_t *codes_in, int n, const float *consts, bool distribute,
               uint32_t *out_codes, float *out_consts, int cap)
{
    collector *C = calloc(1, sizeof *C);
    poly *p = malloc(sizeof *p);
    codes o = {0};
    int len = -1;
    if (C && p) {
        C->c = codes_in, C->k = consts, C->distribute = distribute;
        if (read_poly(C, 0, p) != n) C->failed = true;
        if (!C->failed) collect_emit_poly(C, &o, p);
        len = C->failed || o.n > cap ? 0 : o.n;
        if (len > 0) {
            memcpy(out_codes, o.c, (size_t)len * sizeof *out_codes);
            memcpy(out_consts, o.k, (size_t)len * sizeof *out_consts);
        }
        for (int i = 0; i < C->natoms; ++i) free(C->atoms[i].c), free(C->atoms[i].k);
    }
    free(o.c), free(o.k), free(p), free(C);
    return len;
}
