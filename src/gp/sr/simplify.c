/* Readable models (issue 26): the best program simplified by rewrites that keep its value
 * wherever that value is finite, bit for bit (glevo's own arithmetic folds the constants), and
 * printed as a string SymPy parses (sympy.sympify). The rewrites, bottom-up:
 *   an operator of constants        -> its value (when finite)
 *   (neg (neg a)) -> a              (+ a 0), (+ 0 a), (- a 0), (* a 1), (* 1 a), (/ a 1) -> a
 *   (- 0 a), (* -1 a), (* a -1) -> (neg a)        (* a 0), (* 0 a), (- a a) -> 0
 *   (/ a a) -> 1 (protected division: 1 also where |a| < 1e-6)   (/ a c) -> 1 where |c| < 1e-6
 *   (+ a (neg b)) -> (- a b)   (+ (neg a) b) -> (- b a)   (- a (neg b)) -> (+ a b)
 *   (log (neg a)), (log (abs a)) -> (log a); the same for sqrt, abs and square (functions
 *   of |a|: log and sqrt are protected so)
 * Where a subtree is infinite or NaN, 0 * a, a - a and a / a are NaN, not 0 or 1: those
 * rewrites hold for finite values only (the documented contract; tests/gp/test_gp_simplify.c).
 * The SymPy string is sympy.c's. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "gp/sr/model.h"

/* Codes with the constant of code i at k[i] (a constant's index is its own position). */
typedef struct sbuf {
    uint32_t *c;
    float *k;
    int n;
    bool algebra; /* also the rewrites of real arithmetic (gp_simplify_algebra) */
    bool changed; /* an algebra rewrite was made in this pass */
} sbuf;

static glevo_gp_op op_at(const sbuf *o, int i) { return GLEVO_GP_CODE_OP(o->c[i]); }
static int is_const(const sbuf *o, int i, float v)
{
    return op_at(o, i) == GLEVO_GP_CONST && o->k[i] == v;
}

static void emit(sbuf *o, uint32_t code, float k)
{
    if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) code = GLEVO_GP_CODE(GLEVO_GP_CONST, o->n);
    o->c[o->n] = code;
    o->k[o->n] = k;
    o->n++;
}

/* Moves codes [s, e) to position t <= s, keeping constants at their own positions. */
static void move(sbuf *o, int s, int e, int t)
{
    memmove(o->c + t, o->c + s, (size_t)(e - s) * sizeof *o->c);
    memmove(o->k + t, o->k + s, (size_t)(e - s) * sizeof *o->k);
    for (int i = t; i < t + (e - s); ++i)
        if (op_at(o, i) == GLEVO_GP_CONST) o->c[i] = GLEVO_GP_CODE(GLEVO_GP_CONST, i);
}

static int same(const sbuf *o, int a0, int a1, int b0, int b1)
{
    if (a1 - a0 != b1 - b0) return 0;
    for (int i = 0; i < a1 - a0; ++i) {
        glevo_gp_op op = op_at(o, a0 + i);
        if (op != op_at(o, b0 + i)) return 0;
        if (op == GLEVO_GP_CONST ? o->k[a0 + i] != o->k[b0 + i] : o->c[a0 + i] != o->c[b0 + i])
            return 0;
    }
    return 1;
}

/* The subtree at start becomes the constant v. */
static void to_const(sbuf *o, int start, float v)
{
    o->n = start;
    emit(o, GLEVO_GP_CODE(GLEVO_GP_CONST, 0), v);
}

/* The subtree at start becomes its child [s, e). */
static void to_child(sbuf *o, int start, int s, int e)
{
    move(o, s, e, start);
    o->n = start + (e - s);
}

/* The subtree at start becomes (op A B) from children [a0, a1) and [b0, b1) of it. */
static void to_binary(sbuf *o, int start, glevo_gp_op op, int a0, int a1, int b0, int b1,
                      uint32_t *tc, float *tk)
{
    int na = a1 - a0, nb = b1 - b0;
    memcpy(tc, o->c + a0, (size_t)na * sizeof *tc);
    memcpy(tk, o->k + a0, (size_t)na * sizeof *tk);
    memcpy(tc + na, o->c + b0, (size_t)nb * sizeof *tc);
    memcpy(tk + na, o->k + b0, (size_t)nb * sizeof *tk);
    o->n = start;
    emit(o, GLEVO_GP_CODE(op, 0), 0);
    for (int i = 0; i < na + nb; ++i) emit(o, tc[i], tk[i]);
}

static void to_neg(sbuf *o, int start, int s, int e)
{
    move(o, s, e, start + 1);
    o->c[start] = GLEVO_GP_CODE(GLEVO_GP_NEG, 0);
    o->n = start + 1 + (e - s);
}

/* ---- algebra: rewrites of real arithmetic that round differently (gp_simplify_algebra) ---- */

/* The end of the subtree at i. */
static int end_of(const sbuf *o, int i)
{
    for (int need = 1; need; ++i) need += glevo_gp_op_arity(op_at(o, i)) - 1;
    return i;
}

static bool is_k(const sbuf *o, int s, int e) { return e - s == 1 && op_at(o, s) == GLEVO_GP_CONST; }

/* The subtree at start becomes (op v X), X = [x0, x1). */
static void to_const_op(sbuf *o, int start, glevo_gp_op op, float v, int x0, int x1, uint32_t *tc,
                        float *tk)
{
    int nx = x1 - x0;
    memcpy(tc, o->c + x0, (size_t)nx * sizeof *tc);
    memcpy(tk, o->k + x0, (size_t)nx * sizeof *tk);
    o->n = start;
    emit(o, GLEVO_GP_CODE(op, 0), 0);
    emit(o, GLEVO_GP_CODE(GLEVO_GP_CONST, 0), v);
    for (int i = 0; i < nx; ++i) emit(o, tc[i], tk[i]);
}

/* Node [a0, a1) as (op L R): its children's spans, or false where it is another operator. */
static bool split(const sbuf *o, int a0, glevo_gp_op op, int *l0, int *l1, int *r1)
{
    if (op_at(o, a0) != op || glevo_gp_op_arity(op) != 2) return false;
    *l0 = a0 + 1;
    *l1 = end_of(o, *l0);
    *r1 = end_of(o, *l1);
    return true;
}

/* One rewrite at the node [start, o->n) = (op A B), A = [a0, a1), B = [b0, b1): constants
 * gathered to the left and folded across + - * (and a quotient by a constant), a - (a - b),
 * (a + b) - a, a + (b - a), a (b / a), (a b) / a cancelled, -(a - b) as b - a, log(exp(a)) as
 * a, exp(log(a)) as |a|. Returns whether
 * it rewrote. */
static bool algebra(sbuf *o, int start, glevo_gp_op op, int a0, int a1, int b0, int b1,
                    uint32_t *tc, float *tk)
{
    int l0, l1, r1;
    bool ka = is_k(o, a0, a1);
    float c1 = ka ? o->k[a0] : 0;
    switch (op) {
    case GLEVO_GP_LOG: /* log(exp(a)) = a, where exp(a) neither overflows nor vanishes */
        if (op_at(o, a0) == GLEVO_GP_EXP) return to_child(o, start, a0 + 1, a1), true;
        return false;
    case GLEVO_GP_EXP: /* exp(log(a)) = |a| (log is ln|a|), where |a| is not within 1e-6 of 0 */
        if (op_at(o, a0) != GLEVO_GP_LOG) return false;
        o->c[a0] = GLEVO_GP_CODE(GLEVO_GP_ABS, 0);
        to_child(o, start, a0, a1);
        return true;
    case GLEVO_GP_NEG:
        if (split(o, a0, GLEVO_GP_SUB, &l0, &l1, &r1)) {
            to_binary(o, start, GLEVO_GP_SUB, l1, r1, l0, l1, tc, tk);
            return true;
        }
        return false;
    case GLEVO_GP_ADD:
    case GLEVO_GP_MUL:
        if (!ka && is_k(o, b0, b1)) { /* the constant first */
            to_binary(o, start, op, b0, b1, a0, a1, tc, tk);
            return true;
        }
        break;
    default: break;
    }
    if (op == GLEVO_GP_ADD) {
        if (ka && split(o, b0, GLEVO_GP_ADD, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_ADD, c1 + o->k[l0], l1, r1, tc, tk), true;
        if (ka && split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_SUB, c1 + o->k[l0], l1, r1, tc, tk), true;
        if (ka && split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && is_k(o, l1, r1))
            return to_const_op(o, start, GLEVO_GP_ADD, c1 - o->k[l1], l0, l1, tc, tk), true;
        if (split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && same(o, a0, a1, l1, r1))
            return to_child(o, start, l0, l1), true; /* a + (b - a) */
        if (split(o, a0, GLEVO_GP_SUB, &l0, &l1, &r1) && same(o, b0, b1, l1, r1))
            return to_child(o, start, l0, l1), true; /* (b - a) + a */
    } else if (op == GLEVO_GP_SUB) {
        if (ka && split(o, b0, GLEVO_GP_ADD, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_SUB, c1 - o->k[l0], l1, r1, tc, tk), true;
        if (ka && split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_ADD, c1 - o->k[l0], l1, r1, tc, tk), true;
        if (ka && split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && is_k(o, l1, r1))
            return to_const_op(o, start, GLEVO_GP_SUB, c1 + o->k[l1], l0, l1, tc, tk), true;
        if (is_k(o, b0, b1) && split(o, a0, GLEVO_GP_ADD, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_ADD, o->k[l0] - o->k[b0], l1, r1, tc, tk), true;
        if (is_k(o, b0, b1) && split(o, a0, GLEVO_GP_SUB, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_SUB, o->k[l0] - o->k[b0], l1, r1, tc, tk), true;
        if (split(o, b0, GLEVO_GP_SUB, &l0, &l1, &r1) && same(o, a0, a1, l0, l1))
            return to_child(o, start, l1, r1), true; /* a - (a - b) */
        if (split(o, a0, GLEVO_GP_ADD, &l0, &l1, &r1) && same(o, b0, b1, l0, l1))
            return to_child(o, start, l1, r1), true; /* (a + b) - a */
        if (split(o, a0, GLEVO_GP_ADD, &l0, &l1, &r1) && same(o, b0, b1, l1, r1))
            return to_child(o, start, l0, l1), true; /* (a + b) - b */
        if (split(o, b0, GLEVO_GP_ADD, &l0, &l1, &r1) && same(o, a0, a1, l0, l1))
            return to_neg(o, start, l1, r1), true; /* a - (a + b) */
    } else if (op == GLEVO_GP_MUL) {
        /* A negation out of a product, up to a constant factor that takes it. */
        bool nb = op_at(o, b0) == GLEVO_GP_NEG, na = op_at(o, a0) == GLEVO_GP_NEG;
        if ((!ka && nb) || (na && !is_k(o, b0, b1))) {
            if (nb) to_binary(o, start, GLEVO_GP_MUL, a0, a1, b0 + 1, b1, tc, tk);
            else to_binary(o, start, GLEVO_GP_MUL, a0 + 1, a1, b0, b1, tc, tk);
            move(o, start, o->n, start + 1);
            o->c[start] = GLEVO_GP_CODE(GLEVO_GP_NEG, 0);
            o->n++;
            return true;
        }
        if (ka && split(o, b0, GLEVO_GP_MUL, &l0, &l1, &r1) && is_k(o, l0, l1))
            return to_const_op(o, start, GLEVO_GP_MUL, c1 * o->k[l0], l1, r1, tc, tk), true;
        if (ka && op_at(o, b0) == GLEVO_GP_NEG)
            return to_const_op(o, start, GLEVO_GP_MUL, -c1, b0 + 1, b1, tc, tk), true;
        if (ka && split(o, b0, GLEVO_GP_DIV, &l0, &l1, &r1) && is_k(o, l1, r1) &&
            fabsf(o->k[l1]) >= 1e-6f) /* not where the protected division gives 1 */
            return to_const_op(o, start, GLEVO_GP_MUL, c1 / o->k[l1], l0, l1, tc, tk), true;
        if (split(o, b0, GLEVO_GP_DIV, &l0, &l1, &r1) && same(o, a0, a1, l1, r1))
            return to_child(o, start, l0, l1), true; /* a (b / a) */
        if (split(o, a0, GLEVO_GP_DIV, &l0, &l1, &r1) && same(o, b0, b1, l1, r1))
            return to_child(o, start, l0, l1), true; /* (b / a) a */
    } else if (op == GLEVO_GP_DIV) {
        if (split(o, a0, GLEVO_GP_MUL, &l0, &l1, &r1) && same(o, b0, b1, l0, l1))
            return to_child(o, start, l1, r1), true; /* (a b) / a */
        if (split(o, a0, GLEVO_GP_MUL, &l0, &l1, &r1) && same(o, b0, b1, l1, r1))
            return to_child(o, start, l0, l1), true; /* (a b) / b */
    }
    return false;
}

static int simp(const uint32_t *c, const float *k, int i, sbuf *o, uint32_t *tc, float *tk,
                const glevo_gp_data *none)
{
    uint32_t code = c[i];
    glevo_gp_op op = GLEVO_GP_CODE_OP(code);
    int arity = glevo_gp_op_arity(op);
    if (arity == 0) {
        emit(o, code, op == GLEVO_GP_CONST ? k[GLEVO_GP_CODE_INDEX(code)] : 0);
        return i + 1;
    }
    int start = o->n, cs[3] = {0}, ce[3] = {0}, consts = 0, j = i + 1;
    emit(o, GLEVO_GP_CODE(op, 0), 0);
    for (int a = 0; a < arity; ++a) {
        cs[a] = o->n;
        j = simp(c, k, j, o, tc, tk, none);
        ce[a] = o->n;
        consts += ce[a] - cs[a] == 1 && op_at(o, cs[a]) == GLEVO_GP_CONST;
    }
    if (consts == arity) { /* fold with glevo's own arithmetic: the same float */
        float v = glevo_gp_interpret(o->c + start, o->n - start, o->k, none, 0);
        if (isfinite(v)) to_const(o, start, v);
        return j;
    }
    int a0 = cs[0], a1 = ce[0], b0 = arity > 1 ? cs[1] : 0, b1 = arity > 1 ? ce[1] : 0;
    switch (op) {
    case GLEVO_GP_NEG:
        if (op_at(o, a0) == GLEVO_GP_NEG) to_child(o, start, a0 + 1, a1);
        break;
    case GLEVO_GP_LOG: case GLEVO_GP_SQRT: case GLEVO_GP_ABS: case GLEVO_GP_SQUARE:
        /* Functions of |a|: the sign inside is not seen (log and sqrt protected as |a|). */
        while (op_at(o, a0) == GLEVO_GP_NEG || op_at(o, a0) == GLEVO_GP_ABS) {
            move(o, a0 + 1, a1, a0);
            o->n = a1 - 1;
            a1 = o->n;
        }
        break;
    case GLEVO_GP_ADD:
        if (is_const(o, a0, 0.0f)) to_child(o, start, b0, b1);
        else if (is_const(o, b0, 0.0f)) to_child(o, start, a0, a1);
        else if (op_at(o, b0) == GLEVO_GP_NEG) to_binary(o, start, GLEVO_GP_SUB, a0, a1, b0 + 1, b1, tc, tk);
        else if (op_at(o, a0) == GLEVO_GP_NEG) to_binary(o, start, GLEVO_GP_SUB, b0, b1, a0 + 1, a1, tc, tk);
        break;
    case GLEVO_GP_SUB:
        if (same(o, a0, a1, b0, b1)) to_const(o, start, 0.0f);
        else if (is_const(o, b0, 0.0f)) to_child(o, start, a0, a1);
        else if (is_const(o, a0, 0.0f)) to_neg(o, start, b0, b1);
        else if (op_at(o, b0) == GLEVO_GP_NEG) to_binary(o, start, GLEVO_GP_ADD, a0, a1, b0 + 1, b1, tc, tk);
        break;
    case GLEVO_GP_MUL:
        if (is_const(o, a0, 0.0f) || is_const(o, b0, 0.0f)) to_const(o, start, 0.0f);
        else if (is_const(o, a0, 1.0f)) to_child(o, start, b0, b1);
        else if (is_const(o, b0, 1.0f)) to_child(o, start, a0, a1);
        else if (is_const(o, a0, -1.0f)) to_neg(o, start, b0, b1);
        else if (is_const(o, b0, -1.0f)) to_neg(o, start, a0, a1);
        break;
    case GLEVO_GP_DIV:
        if (same(o, a0, a1, b0, b1)) to_const(o, start, 1.0f);
        else if (is_const(o, b0, 1.0f)) to_child(o, start, a0, a1);
        else if (b1 - b0 == 1 && op_at(o, b0) == GLEVO_GP_CONST && fabsf(o->k[b0]) < 1e-6f)
            to_const(o, start, 1.0f); /* the protected division's value, whatever a is */
        break;
    default: break;
    }
    /* The algebra's rewrites where the exact ones left the node as it was. */
    if (o->algebra && op_at(o, start) == op && o->n == (arity > 1 ? b1 : a1) &&
        algebra(o, start, op, a0, a1, b0, b1, tc, tk))
        o->changed = true;
    /* A rewrite may leave (neg (neg a)) or a constant operator behind: one more look. */
    if (op_at(o, start) == GLEVO_GP_NEG && o->n - start > 1 && op_at(o, start + 1) == GLEVO_GP_NEG)
        to_child(o, start, start + 2, o->n);
    return j;
}

int gp_simplify(const uint32_t *codes, int length, const float *consts, uint32_t *out_codes,
                float *out_consts)
{
    uint32_t *tc = malloc((size_t)length * sizeof *tc);
    float *tk = malloc((size_t)length * sizeof *tk);
    if (!tc || !tk) {
        free(tc), free(tk);
        return -1;
    }
    sbuf o = {out_codes, out_consts, 0, false, false};
    simp(codes, consts, 0, &o, tc, tk, NULL);
    free(tc);
    free(tk);
    return o.n;
}

int gp_simplify_algebra(const uint32_t *codes, int length, const float *consts,
                        uint32_t *out_codes, float *out_consts)
{
    uint32_t *tc = malloc((size_t)length * 2 * sizeof *tc), *ic = tc + length;
    float *tk = malloc((size_t)length * 2 * sizeof *tk), *ik = tk + length;
    if (!tc || !tk) {
        free(tc), free(tk);
        return -1;
    }
    memcpy(ic, codes, (size_t)length * sizeof *ic);
    for (int i = 0; i < length; ++i) /* constants at their own positions, as sbuf keeps them */
        ik[i] = GLEVO_GP_CODE_OP(codes[i]) == GLEVO_GP_CONST ? consts[GLEVO_GP_CODE_INDEX(codes[i])] : 0;
    for (int i = 0; i < length; ++i)
        if (GLEVO_GP_CODE_OP(ic[i]) == GLEVO_GP_CONST) ic[i] = GLEVO_GP_CODE(GLEVO_GP_CONST, i);
    sbuf o = {out_codes, out_consts, 0, true, true};
    /* A pass rewrites bottom-up; a rewrite may open another above it: passes until none. */
    for (int pass = 0; pass < 16 && o.changed; ++pass) {
        o.n = 0;
        o.changed = false;
        simp(ic, ik, 0, &o, tc, tk, NULL);
        memcpy(ic, o.c, (size_t)o.n * sizeof *ic);
        memcpy(ik, o.k, (size_t)o.n * sizeof *ik);
    }
    free(tc);
    free(tk);
    return o.n;
}
