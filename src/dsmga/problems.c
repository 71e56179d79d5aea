/* The binary test problems of Li & Yu (2017) §6.2 and Hsu & Yu (2015): onemax, concatenated
 * trap (k = 5), folded (bipolar) trap (k = 6), cyclic trap (k = 5 overlapping by one bit,
 * wraparound) and the 2-D ±J Ising spin glass. Trap values are counted in units of 0.2. */
#include <stdlib.h>
#include <string.h>

#include "dsmga_internal.h"
#include "core/args.h"

/* f_trap(u), k = 5, in units of 0.2: 1 -> 5, else 0.8·(k-1-u)/(k-1) = 0.2·(4-u). */
static int trap5_units(int u) { return u == 5 ? 5 : 4 - u; }

/* Folded trap, k = 6: 1 if |u-3| = 3, 0.8 if 0, 0.4 if 1, else 0; units of 0.2. */
static int ftrap6_units(int u)
{
    int d = abs(u - 3);
    return d == 3 ? 5 : d == 0 ? 4 : d == 1 ? 2 : 0;
}

static int perfect_square_root(int n)
{
    int r = 0;
    while ((r + 1) * (r + 1) <= n) ++r;
    return r * r == n ? r : -1;
}

/* Lowest energy a greedy single-spin-flip descent reaches from a few random starts: an upper
 * bound on the ground state that costs O(starts · sweeps · L²). */
static int spin_descent_bound(const glevo_spin_instance *s)
{
    int L = s->L, n = L * L, best = 0;
    uint8_t *x = malloc((size_t)n);
    if (!x) return 0; /* 0 bounds every ground state (see check_file_ground) */
    for (uint32_t start = 0; start < 8; ++start) {
        for (int i = 0; i < n; ++i)
            x[i] = (uint8_t)(glevo_philox4x32((uint32_t)i, start, 0x6D0Du, 0u, 0x5EEDu, 0x1516u).v[0] >> 31);
        for (bool improved = true; improved;) {
            improved = false;
            for (int i = 0; i < n; ++i) {
                int r = i / L, c = i % L, si = x[i] ? 1 : -1;
                /* Local field of spin i: its four bonds. Flipping changes E by 2·si·h. */
                int h = s->right[i] * (x[r * L + (c + 1) % L] ? 1 : -1) +
                        s->right[r * L + (c + L - 1) % L] * (x[r * L + (c + L - 1) % L] ? 1 : -1) +
                        s->down[i] * (x[((r + 1) % L) * L + c] ? 1 : -1) +
                        s->down[((r + L - 1) % L) * L + c] * (x[((r + L - 1) % L) * L + c] ? 1 : -1);
                if (si * h < 0) {
                    x[i] ^= 1u;
                    improved = true;
                }
            }
        }
        int e = glevo_spin_energy(s, x);
        if (e < best) best = e;
    }
    free(x);
    return best;
}

/* A file's `ground` line decides when a run counts as solved, so a wrong one would report
 * success at generation 0. Small instances are recomputed exactly (the transfer matrix takes
 * milliseconds up to L = 8); larger ones must lie at or below what a descent finds. */
static glevo_status check_file_ground(const glevo_spin_instance *s, const char *path)
{
    if (s->L <= 8) {
        int exact;
        glevo_status st = glevo_spin_ground_transfer(s, &exact);
        if (st != GLEVO_OK) return st;
        if (exact != s->ground)
            return glevo_fail(GLEVO_ERR_INVALID, "%s: ground %d is not the ground-state energy of "
                              "this instance (it is %d)", path, s->ground, exact);
        return GLEVO_OK;
    }
    int bound = spin_descent_bound(s);
    if (s->ground > bound)
        return glevo_fail(GLEVO_ERR_INVALID, "%s: ground %d cannot be the ground-state energy: a "
                          "configuration with energy %d exists", path, s->ground, bound);
    return GLEVO_OK;
}

glevo_status glevo_dsmga_problem_create(const char *name, int ell, const char *spin_file,
                                        uint32_t seed, glevo_dsmga_problem **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(name);
    ARG_NOT_NULL(out);
    *out = NULL;
    if (!name) return glevo_fail(GLEVO_ERR_INVALID, "no problem name given");
    enum dsmga_kind kind;
    int multiple = 1;
    if (!strcmp(name, "onemax")) kind = DSMGA_ONEMAX;
    else if (!strcmp(name, "trap")) kind = DSMGA_TRAP, multiple = 5;
    else if (!strcmp(name, "ftrap")) kind = DSMGA_FTRAP, multiple = 6;
    else if (!strcmp(name, "cyctrap")) kind = DSMGA_CYCTRAP, multiple = 4;
    else if (!strcmp(name, "spin")) kind = DSMGA_SPIN;
    else
        return glevo_fail(GLEVO_ERR_INVALID,
                          "unknown problem '%s' (known: onemax, trap, ftrap, cyctrap, spin)", name);
    if (kind != DSMGA_SPIN || !spin_file) {
        if (ell < 1) return glevo_fail(GLEVO_ERR_INVALID, "--ell %d must be positive", ell);
        if (ell % multiple)
            return glevo_fail(GLEVO_ERR_INVALID, "--ell %d is not a multiple of %d for %s", ell,
                              multiple, name);
        if (kind == DSMGA_CYCTRAP && ell < 8)
            return glevo_fail(GLEVO_ERR_INVALID, "--ell %d: cyctrap needs at least 8 bits", ell);
    }
    glevo_dsmga_problem *p = calloc(1, sizeof *p);
    if (!p) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the problem");
    p->kind = kind;
    p->ell = ell;
    p->name = kind == DSMGA_ONEMAX ? "onemax" : kind == DSMGA_TRAP ? "trap"
              : kind == DSMGA_FTRAP ? "ftrap" : kind == DSMGA_CYCTRAP ? "cyctrap" : "spin";
    if (kind == DSMGA_SPIN) {
        glevo_status st;
        if (spin_file) {
            st = glevo_spin_load(spin_file, &p->spin);
        } else {
            int L = perfect_square_root(ell);
            if (L < 2 || L > 10) {
                free(p);
                return glevo_fail(GLEVO_ERR_INVALID,
                                  "--ell %d: a generated spin glass needs ell = L*L, 2 <= L <= 10", ell);
            }
            st = glevo_spin_random(L, seed, &p->spin);
            if (st == GLEVO_OK) st = glevo_spin_ground_transfer(&p->spin, &p->spin.ground);
            p->spin.has_ground = st == GLEVO_OK;
        }
        if (st != GLEVO_OK) {
            glevo_spin_free(&p->spin);
            free(p);
            return st;
        }
        if (spin_file && ell > 0 && ell != p->spin.L * p->spin.L) {
            int L = p->spin.L;
            glevo_spin_free(&p->spin);
            free(p);
            return glevo_fail(GLEVO_ERR_INVALID, "--ell %d does not match the instance %s (L = %d)",
                              ell, spin_file, L);
        }
        if (spin_file && p->spin.has_ground && (st = check_file_ground(&p->spin, spin_file))) {
            glevo_spin_free(&p->spin);
            free(p);
            return st;
        }
        if (!p->spin.has_ground) {
            st = glevo_spin_ground_transfer(&p->spin, &p->spin.ground);
            if (st != GLEVO_OK) {
                glevo_spin_free(&p->spin);
                free(p);
                return st;
            }
            p->spin.has_ground = true;
        }
        p->ell = p->spin.L * p->spin.L;
    }
    *out = p;
    return GLEVO_OK;
}

void glevo_dsmga_problem_destroy(glevo_dsmga_problem *p)
{
    if (!p) return;
    glevo_spin_free(&p->spin);
    free(p);
}

int glevo_dsmga_problem_ell(const glevo_dsmga_problem *p) {
    ARG_NOT_NULL_OR(p, -1);
    return p->ell;
}
const char *glevo_dsmga_problem_name(const glevo_dsmga_problem *p) {
    ARG_NOT_NULL_OR(p, NULL);
    return p->name;
}

double glevo_dsmga_problem_eval(const glevo_dsmga_problem *p, const uint8_t *x)
{
    ARG_NOT_NULL_OR(p, NAN);
    ARG_NOT_NULL_OR(x, NAN);
    int ell = p->ell, units = 0;
    switch (p->kind) {
    case DSMGA_ONEMAX:
        for (int i = 0; i < ell; ++i) units += x[i];
        return units;
    case DSMGA_TRAP:
        for (int b = 0; b < ell; b += 5)
            units += trap5_units(x[b] + x[b + 1] + x[b + 2] + x[b + 3] + x[b + 4]);
        return units * 0.2;
    case DSMGA_FTRAP:
        for (int b = 0; b < ell; b += 6)
            units += ftrap6_units(x[b] + x[b + 1] + x[b + 2] + x[b + 3] + x[b + 4] + x[b + 5]);
        return units * 0.2;
    case DSMGA_CYCTRAP:
        /* Trap i covers bits 4i .. 4i+4 (mod ell): neighbours share one bit. */
        for (int b = 0; b < ell; b += 4) {
            int u = 0;
            for (int j = 0; j < 5; ++j) u += x[(b + j) % ell];
            units += trap5_units(u);
        }
        return units * 0.2;
    case DSMGA_SPIN:
        return -(double)glevo_spin_energy(&p->spin, x);
    }
    return 0.0;
}

double glevo_dsmga_problem_optimum(const glevo_dsmga_problem *p)
{
    ARG_NOT_NULL_OR(p, NAN);
    switch (p->kind) {
    case DSMGA_ONEMAX: return p->ell;
    case DSMGA_TRAP: return (p->ell / 5) * 5 * 0.2;
    case DSMGA_FTRAP: return (p->ell / 6) * 5 * 0.2;
    case DSMGA_CYCTRAP: return (p->ell / 4) * 5 * 0.2;
    case DSMGA_SPIN: return -(double)p->spin.ground;
    }
    return 0.0;
}
