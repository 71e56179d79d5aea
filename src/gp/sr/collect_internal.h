/* Like terms collected (collect.c): the polynomials it reads a model into, and what the rules
 * for functions (collect_function.c) share with it. */
#ifndef GLEVO_GP_COLLECT_INTERNAL_H
#define GLEVO_GP_COLLECT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gp/sr/model.h"

/* Bounds that keep the work small (a model is at most a few hundred nodes here): past them
 * the collection gives up and the model stays as it was. */
enum { MAX_TERMS = 48, MAX_FACTORS = 8, MAX_POWER = 6, MAX_ATOMS = 256 };

typedef struct factor { int atom, power; } factor;
typedef struct term { double coef; int nf; factor f[MAX_FACTORS]; } term; /* f by atom */
typedef struct poly { int n; term t[MAX_TERMS]; } poly;

/* Codes in preorder with constant i at k[i]. */
typedef struct codes { uint32_t *c; float *k; int n, cap; } codes;

typedef struct collector {
    const uint32_t *c;
    const float *k;
    bool distribute; /* products of sums expanded (else a sum times a sum stays a product) */
    bool failed;     /* a bound passed or memory ran out */
    codes atoms[MAX_ATOMS]; /* each factor's codes, interned: equal codes, one atom */
    int flip[MAX_ATOMS];    /* log(1/m) for the atom log(m) and back, -1 for any other atom */
    int natoms;
} collector;

/* collect_poly.c: code (constant k) appended to o; a's codes appended to o. */
void collect_push(collector *C, codes *o, uint32_t code, float k);
void collect_append(collector *C, codes *o, const codes *a);
/* The atom with these codes (taken: freed or kept), -1 where the table is full. */
int collect_intern(collector *C, codes *a);
/* p = coef * atom (atom -1: the constant coef). */
void collect_monomial(poly *p, double coef, int atom);
/* 1 / t of a monomial (the coefficient inverted, the powers negated). */
term collect_inverse(const term *t);
/* a * b of two monomials (factors merged by atom, powers added). */
term collect_times(collector *C, const term *a, const term *b);
/* p += sign q; a *= b and a /= b (b is scratch; a factor b may become its sum's atom). */
void collect_add_poly(collector *C, poly *p, const poly *q, double sign);
void collect_mul_poly(collector *C, poly *a, poly *b);
void collect_div_poly(collector *C, poly *a, poly *b);
/* qsort's order of terms: by their factors (the constant first). */
int collect_by_factors(const void *x, const void *y);
/* The sum as codes appended to o. */
void collect_emit_poly(collector *C, codes *o, const poly *p);

/* collect_function.c: *arg (the collected argument) becomes the monomial of op(arg) or
 * op(arg, b). */
void function_of_one(collector *C, glevo_gp_op op, poly *arg);
void function_of_two(collector *C, glevo_gp_op op, poly *arg, const poly *b);
/* The terms of p with a negative coefficient and a factor log(m) (an odd power) written with
 * log(1/m) and the opposite sign: -log(V1/V2) as log(V2/V1). */
void collect_flip_logs(collector *C, term *t, int n);

#endif
