/* Exact ground states of the L×L ±J torus. The transfer matrix runs spin by spin over a
 * "broken line" of L spins (the frontier), for each configuration of row 0 (needed again to
 * close the vertical wraparound bonds); global spin flip symmetry halves the row-0 choices.
 * Cost 2^(L-1) · L² · 2^(L+1): L = 8 in milliseconds, L = 10 in about a second. */
#include <limits.h>
#include <stdlib.h>

#include "dsmga_internal.h"
#include "core/args.h"

static int spin_of(unsigned bits, int c) { return (bits >> c) & 1u ? 1 : -1; }

glevo_status glevo_spin_ground_transfer(const glevo_spin_instance *s, int *energy)
{
    glevo_clear_error();
    ARG_NOT_NULL(s);
    ARG_NOT_NULL(energy);
    int L = s->L;
    if (L < 2 || L > 12)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "exact ground state: L = %d is outside 2..12", L);
    size_t states = (size_t)1 << L;
    int *cur = malloc(states * sizeof *cur), *next = malloc(states * sizeof *next);
    if (!cur || !next) {
        free(cur);
        free(next);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the transfer matrix (L = %d)", L);
    }
    int best = INT_MAX;
    for (unsigned row0 = 0; row0 < states; ++row0) {
        if (!(row0 & 1u)) continue; /* spin (0,0) = +1 by flip symmetry */
        int e0 = 0;
        for (int c = 0; c < L; ++c)
            e0 -= s->right[c] * spin_of(row0, c) * spin_of(row0, (c + 1) % L);
        for (size_t p = 0; p < states; ++p) cur[p] = INT_MAX;
        cur[row0] = e0;
        for (int r = 1; r < L; ++r) {
            for (int c = 0; c < L; ++c) {
                for (size_t p = 0; p < states; ++p) next[p] = INT_MAX;
                for (size_t p = 0; p < states; ++p) {
                    if (cur[p] == INT_MAX) continue;
                    for (int x = 0; x < 2; ++x) {
                        int sx = x ? 1 : -1;
                        int e = cur[p] - s->down[(r - 1) * L + c] * sx * spin_of((unsigned)p, c);
                        if (c > 0) e -= s->right[r * L + c - 1] * sx * spin_of((unsigned)p, c - 1);
                        if (c == L - 1) e -= s->right[r * L + L - 1] * sx * spin_of((unsigned)p, 0);
                        if (r == L - 1) e -= s->down[(L - 1) * L + c] * sx * spin_of(row0, c);
                        size_t q = (p & ~((size_t)1 << c)) | ((size_t)x << c);
                        if (e < next[q]) next[q] = e;
                    }
                }
                int *t = cur;
                cur = next;
                next = t;
            }
        }
        for (size_t p = 0; p < states; ++p)
            if (cur[p] < best) best = cur[p];
    }
    free(cur);
    free(next);
    *energy = best;
    return GLEVO_OK;
}

glevo_status glevo_spin_ground_brute(const glevo_spin_instance *s, int *energy)
{
    glevo_clear_error();
    ARG_NOT_NULL(s);
    ARG_NOT_NULL(energy);
    int n = s->L * s->L;
    if (n > 24) return glevo_fail(GLEVO_ERR_UNSUPPORTED, "brute force ground state: L = %d is too large", s->L);
    uint8_t bits[24] = {0};
    int best = INT_MAX;
    for (uint32_t m = 0; m < (1u << n); ++m) {
        for (int i = 0; i < n; ++i) bits[i] = (m >> i) & 1u;
        int e = glevo_spin_energy(s, bits);
        if (e < best) best = e;
    }
    *energy = best;
    return GLEVO_OK;
}
