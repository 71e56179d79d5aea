/* Like terms collected (collect.c): a function of a collected argument as one factor, with the
 * identities that make equal functions one factor and print them as a person writes them. */
#include <math.h>
#include <stdlib.h>

#include "gp/sr/collect_internal.h"

/* sqrt of a monomial c * prod a_i^(2 k_i), c > 0, as sqrt(c) * prod |a_i|^k_i (sqrt is
 * sqrt|x|): *arg becomes that, true; false where arg is another sum. gp_readable drops the
 * |.| where a_i is never negative on the data. */
static bool sqrt_of_square(collector *C, glevo_gp_op op, poly *arg)
{
    if (op != GLEVO_GP_SQRT || arg->n != 1 || arg->t[0].coef <= 0 || arg->t[0].nf == 0)
        return false;
    term *t = &arg->t[0];
    for (int i = 0; i < t->nf; ++i)
        if (t->f[i].power % 2) return false;
    term r = {sqrt(t->coef), 0, {{0, 0}}};
    for (int i = 0; i < t->nf && !C->failed; ++i) {
        codes a = {0};
        collect_push(C, &a, GLEVO_GP_CODE(GLEVO_GP_ABS, 0), 0);
        collect_append(C, &a, &C->atoms[t->f[i].atom]);
        int abs_atom = collect_intern(C, &a);
        if (abs_atom < 0) break; /* the table is full: C->failed */
        term f = {1, 1, {{abs_atom, t->f[i].power / 2}}};
        r = collect_times(C, &r, &f);
    }
    *t = r;
    return true;
}

/* exp(c + a) = e^c exp(a): for exp, the constant term of arg (where it has others) taken out
 * as the factor's coefficient, e^c; else 1. */
static double exp_of_constant(glevo_gp_op op, poly *arg)
{
    if (op != GLEVO_GP_EXP || arg->n < 2) return 1;
    for (int i = 0; i < arg->n; ++i)
        if (arg->t[i].nf == 0) {
            double c = arg->t[i].coef;
            arg->t[i] = arg->t[--arg->n];
            return exp(c);
        }
    return 1;
}

/* For an odd or even function of arg (sin, tanh; cos and the functions of |a|: log and sqrt
 * protected so, abs): arg made to lead with a positive term (in the order terms are written),
 * so that f(-a) and f(a) are one factor; the factor's sign (-1 where f is odd and arg was
 * negated). */
static double odd_or_even(glevo_gp_op op, poly *arg)
{
    bool odd = op == GLEVO_GP_SIN || op == GLEVO_GP_TANH;
    bool even = op == GLEVO_GP_COS || op == GLEVO_GP_ABS || op == GLEVO_GP_LOG || op == GLEVO_GP_SQRT;
    if ((!odd && !even) || arg->n == 0) return 1;
    int lead = 0;
    for (int i = 1; i < arg->n; ++i)
        if (collect_by_factors(&arg->t[i], &arg->t[lead]) < 0) lead = i;
    if (arg->t[lead].coef > 0) return 1;
    for (int i = 0; i < arg->n; ++i) arg->t[i].coef = -arg->t[i].coef;
    return odd ? -1 : 1;
}

/* log|+-m^g| = g log|m| (log is ln|a|, so for any sign of m) where arg is one monomial of
 * coefficient +-1 whose powers share a factor g >= 2: the powers divided by g, g returned;
 * else 1. So log(V2^2/V1^2) is 2 log(V2/V1). */
static double log_of_power(glevo_gp_op op, poly *arg)
{
    if (op != GLEVO_GP_LOG || arg->n != 1 || arg->t[0].nf == 0 || fabs(arg->t[0].coef) != 1)
        return 1;
    term *t = &arg->t[0];
    int g = 0; /* the powers' greatest common divisor (Euclid) */
    for (int i = 0; i < t->nf; ++i)
        for (int a = abs(t->f[i].power); a;) {
            int r = g % a;
            g = a, a = r;
        }
    if (g < 2) return 1;
    for (int i = 0; i < t->nf; ++i) t->f[i].power /= g;
    t->coef = 1;
    return g;
}

/* Where arg is one monomial c * m with m's first factor to a negative power: arg becomes
 * 1/(c * m) (log is ln|a|, so log|1/a| = -log|a| wherever |a| is not within 1e-6 of 0), -1;
 * else 1. So log(V2/V1) and log(V1/V2) are one factor. */
static double log_oriented(glevo_gp_op op, poly *arg)
{
    if (op != GLEVO_GP_LOG || arg->n != 1 || arg->t[0].nf == 0 || arg->t[0].f[0].power > 0)
        return 1;
    arg->t[0] = collect_inverse(&arg->t[0]);
    return -1;
}

/* The atom op(arg) (arg collected, b where op has two operands). */
static int atom_of(collector *C, glevo_gp_op op, const poly *arg, const poly *b)
{
    codes a = {0};
    collect_push(C, &a, GLEVO_GP_CODE(op, 0), 0);
    collect_emit_poly(C, &a, arg);
    if (b) collect_emit_poly(C, &a, b);
    return collect_intern(C, &a);
}

void function_of_one(collector *C, glevo_gp_op op, poly *arg)
{
    /* In this order: each rewrites arg for the next. */
    double sign = odd_or_even(op, arg);
    sign *= exp_of_constant(op, arg);
    sign *= log_of_power(op, arg);
    sign *= log_oriented(op, arg);
    if (sqrt_of_square(C, op, arg)) return;
    int atom = atom_of(C, op, arg, NULL);
    bool monomial_log = op == GLEVO_GP_LOG && arg->n == 1 && arg->t[0].nf > 0;
    if (monomial_log && atom >= 0) { /* log(m) oriented: log(1/m) beside it, for printing */
        poly *inverse = malloc(sizeof *inverse);
        if (!inverse) {
            C->failed = true;
            return;
        }
        inverse->n = 1;
        inverse->t[0] = collect_inverse(&arg->t[0]);
        int other = atom_of(C, op, inverse, NULL);
        free(inverse);
        if (other >= 0) C->flip[atom] = other, C->flip[other] = atom;
    }
    collect_monomial(arg, sign, atom);
}

void function_of_two(collector *C, glevo_gp_op op, poly *arg, const poly *b)
{
    collect_monomial(arg, 1, atom_of(C, op, arg, b));
}
