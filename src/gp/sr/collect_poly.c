/* Like terms collected (collect.c): the polynomials a model is read into (sums of monomials
 * over interned factors), their arithmetic, and the codes they are written back as. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp/sr/collect_internal.h"

void collect_push(collector *C, codes *o, uint32_t code, float k)
{
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 64;
        uint32_t *c = realloc(o->c, (size_t)cap * sizeof *c);
        if (c) o->c = c;
        float *kk = realloc(o->k, (size_t)cap * sizeof *kk);
        if (kk) o->k = kk;
        if (!c || !kk) {
            C->failed = true;
            return;
        }
        o->cap = cap;
    }
    if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) code = GLEVO_GP_CODE(GLEVO_GP_CONST, o->n);
    o->c[o->n] = code;
    o->k[o->n++] = k;
}

void collect_append(collector *C, codes *o, const codes *a)
{
    for (int i = 0; i < a->n && !C->failed; ++i) collect_push(C, o, a->c[i], a->k[i]);
}

static bool same_codes(const codes *a, const codes *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; ++i) {
        bool konst = GLEVO_GP_CODE_OP(a->c[i]) == GLEVO_GP_CONST;
        if (konst ? GLEVO_GP_CODE_OP(b->c[i]) != GLEVO_GP_CONST || a->k[i] != b->k[i]
                  : a->c[i] != b->c[i])
            return false;
    }
    return true;
}

/* The atom with these codes (taken: freed or kept), -1 where the table is full. */
int collect_intern(collector *C, codes *a)
{
    for (int i = 0; i < C->natoms; ++i)
        if (same_codes(&C->atoms[i], a)) {
            free(a->c), free(a->k);
            return i;
        }
    if (C->natoms == MAX_ATOMS || C->failed) {
        free(a->c), free(a->k);
        C->failed = true;
        return -1;
    }
    C->atoms[C->natoms] = *a;
    C->flip[C->natoms] = -1;
    return C->natoms++;
}

void collect_monomial(poly *p, double coef, int atom)
{
    p->n = coef != 0;
    p->t[0] = (term){coef, atom >= 0, {{atom, 1}}};
}

static bool same_factors(const term *a, const term *b)
{
    if (a->nf != b->nf) return false;
    for (int i = 0; i < a->nf; ++i)
        if (a->f[i].atom != b->f[i].atom || a->f[i].power != b->f[i].power) return false;
    return true;
}

/* p += t, like terms added. */
static void add_term(collector *C, poly *p, const term *t)
{
    if (t->coef == 0) return;
    for (int i = 0; i < p->n; ++i)
        if (same_factors(&p->t[i], t)) {
            p->t[i].coef += t->coef;
            if (p->t[i].coef == 0) p->t[i] = p->t[--p->n];
            return;
        }
    if (p->n == MAX_TERMS) C->failed = true;
    else p->t[p->n++] = *t;
}

void collect_add_poly(collector *C, poly *p, const poly *q, double sign)
{
    for (int i = 0; i < q->n; ++i) {
        term t = q->t[i];
        t.coef *= sign;
        add_term(C, p, &t);
    }
}

/* 1 / t of a monomial: the coefficient inverted, the powers negated. */
term collect_inverse(const term *t)
{
    term r = *t;
    r.coef = 1 / r.coef;
    for (int i = 0; i < r.nf; ++i) r.f[i].power = -r.f[i].power;
    return r;
}

/* a * b of two monomials (factors merged by atom, powers added). */
term collect_times(collector *C, const term *a, const term *b)
{
    term t = {a->coef * b->coef, 0, {{0, 0}}};
    int i = 0, j = 0;
    while (i < a->nf || j < b->nf) {
        factor f;
        if (j == b->nf || (i < a->nf && a->f[i].atom < b->f[j].atom)) f = a->f[i++];
        else if (i == a->nf || b->f[j].atom < a->f[i].atom) f = b->f[j++];
        else f = (factor){a->f[i].atom, a->f[i].power + b->f[j].power}, ++i, ++j;
        if (f.power == 0) continue;
        if (t.nf == MAX_FACTORS || abs(f.power) > MAX_POWER) C->failed = true;
        else t.f[t.nf++] = f;
    }
    return t;
}

/* p as one factor: itself where a monomial, else the atom of its sum. */
static void as_monomial(collector *C, poly *p)
{
    if (p->n <= 1) return;
    codes a = {0};
    collect_emit_poly(C, &a, p);
    collect_monomial(p, 1, collect_intern(C, &a));
}

/* a *= b (b is scratch). */
void collect_mul_poly(collector *C, poly *a, poly *b)
{
    if (!C->distribute || a->n * b->n > MAX_TERMS) {
        as_monomial(C, a);
        as_monomial(C, b);
    }
    poly *r = malloc(sizeof *r);
    if (!r) {
        C->failed = true;
        return;
    }
    r->n = 0;
    for (int i = 0; i < a->n && !C->failed; ++i)
        for (int j = 0; j < b->n && !C->failed; ++j) {
            term t = collect_times(C, &a->t[i], &b->t[j]);
            add_term(C, r, &t);
        }
    *a = *r;
    free(r);
}

/* a /= b where b is a nonzero monomial or a sum (its atom to the power -1). */
void collect_div_poly(collector *C, poly *a, poly *b)
{
    as_monomial(C, b);
    if (b->n == 0) { /* a / 0 is the protected division's 1: not arithmetic */
        C->failed = true;
        return;
    }
    term inv = collect_inverse(&b->t[0]);
    poly *r = malloc(sizeof *r);
    if (!r) {
        C->failed = true;
        return;
    }
    r->n = 0;
    for (int i = 0; i < a->n && !C->failed; ++i) {
        term t = collect_times(C, &a->t[i], &inv);
        add_term(C, r, &t);
    }
    *a = *r;
    free(r);
}

int collect_by_factors(const void *x, const void *y)
{
    const term *a = x, *b = y;
    if (a->nf != b->nf) return a->nf - b->nf;
    for (int i = 0; i < a->nf; ++i) {
        if (a->f[i].atom != b->f[i].atom) return a->f[i].atom - b->f[i].atom;
        if (a->f[i].power != b->f[i].power) return b->f[i].power - a->f[i].power;
    }
    return 0;
}

static void emit_constant(collector *C, codes *o, double v)
{
    float f = (float)v;
    if (!isfinite(f) || (f == 0 && v != 0)) C->failed = true;
    collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_CONST, 0), f);
}

/* The product of the factors whose power has sign s (a power as repeats), left to right,
 * ((a b) c); 1 where there is none. */
static void emit_factors(collector *C, codes *o, const term *t, int s)
{
    int items = 0;
    for (int i = 0; i < t->nf; ++i)
        if (t->f[i].power * s > 0) items += abs(t->f[i].power);
    if (items == 0) {
        emit_constant(C, o, 1);
        return;
    }
    for (int m = 1; m < items; ++m) collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_MUL, 0), 0);
    for (int i = 0; i < t->nf; ++i)
        for (int r = 0; r < abs(t->f[i].power) && t->f[i].power * s > 0; ++r)
            collect_append(C, o, &C->atoms[t->f[i].atom]);
}

/* c * (numerator / denominator): the coefficient outside, so that the monomial itself is a
 * subtree (a term the result's linear layer can weigh), as c / denominator where the
 * numerator is 1; the sign of c as a negation where |c| is 1. */
static void emit_term(collector *C, codes *o, const term *t, double coef)
{
    float printed = (float)coef; /* a coefficient that rounds to 1 is no factor */
    bool has_coef = t->nf == 0 || fabsf(printed) != 1, num = false, den = false;
    for (int i = 0; i < t->nf; ++i) num |= t->f[i].power > 0, den |= t->f[i].power < 0;
    if (t->nf == 0) {
        emit_constant(C, o, coef);
        return;
    }
    if (!has_coef && printed == -1) collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_NEG, 0), 0);
    if (!num) { /* c / D, or 1 / D */
        collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_DIV, 0), 0);
        emit_constant(C, o, has_coef ? coef : 1);
    } else {    /* c * (N / D), c * N, N / D or N */
        if (has_coef) collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_MUL, 0), 0);
        if (has_coef) emit_constant(C, o, coef);
        if (den) collect_push(C, o, GLEVO_GP_CODE(GLEVO_GP_DIV, 0), 0);
        emit_factors(C, o, t, 1);
    }
    if (den) emit_factors(C, o, t, -1);
}

/* The sum, constant first, then the terms in the order of their factors; a term after the
 * first with a negative coefficient is subtracted. */
void collect_emit_poly(collector *C, codes *o, const poly *p)
{
    if (p->n == 0) {
        emit_constant(C, o, 0);
        return;
    }
    term *t = malloc((size_t)p->n * sizeof *t);
    if (!t) {
        C->failed = true;
        return;
    }
    memcpy(t, p->t, (size_t)p->n * sizeof *t);
    collect_flip_logs(C, t, p->n);
    qsort(t, (size_t)p->n, sizeof *t, collect_by_factors);
    for (int i = p->n - 1; i >= 1; --i)
        collect_push(C, o, GLEVO_GP_CODE(t[i].coef < 0 ? GLEVO_GP_SUB : GLEVO_GP_ADD, 0), 0);
    emit_term(C, o, &t[0], t[0].coef);
    for (int i = 1; i < p->n; ++i) emit_term(C, o, &t[i], fabs(t[i].coef));
    free(t);
}

static int by_atom(const void *x, const void *y)
{
    return ((const factor *)x)->atom - ((const factor *)y)->atom;
}

void collect_flip_logs(collector *C, term *t, int n)
{
    for (int k = 0; k < n; ++k) {
        if (t[k].coef >= 0) continue;
        for (int i = 0; i < t[k].nf; ++i) {
            int other = C->flip[t[k].f[i].atom];
            if (other < 0 || t[k].f[i].power % 2 == 0) continue;
            t[k].f[i].atom = other, t[k].coef = -t[k].coef;
            qsort(t[k].f, (size_t)t[k].nf, sizeof t[k].f[0], by_atom);
            break;
        }
    }
}
