/* Internal pieces shared by the DSMGA-II files: the problem struct and the host RNG. */
#ifndef GLEVO_DSMGA_INTERNAL_H
#define GLEVO_DSMGA_INTERNAL_H

#include <stddef.h>

#include "glevo/dsmga.h"
#include "glevo/rng.h"

enum dsmga_kind { DSMGA_ONEMAX, DSMGA_TRAP, DSMGA_FTRAP, DSMGA_CYCTRAP, DSMGA_SPIN };

struct glevo_dsmga_problem {
    enum dsmga_kind kind;
    const char *name;
    int ell;
    glevo_spin_instance spin;
};

/* Parses a spin-glass instance from text (the format of glevo_spin_load; `source` names it in
 * errors). The ground line, when present, is range-checked here; whether it is the exact
 * ground state is checked by glevo_dsmga_problem_create. */
glevo_status glevo_spin_parse(const char *text, size_t length, const char *source,
                              glevo_spin_instance *out);

/* Parses a population (the format of glevo_dsm_population_read) from text. */
glevo_status glevo_dsm_population_parse(const char *text, size_t length, const char *source,
                                        uint8_t **bits, int *n, int *ell);

/* Counter words the FindClique passes and their twin use (pass id in counter word 2). */
#define CLIQUE_STREAM 0x05D5u
#define CLIQUE_PASS_TIE 1u
#define CLIQUE_PASS_REP 2u
#define CLIQUE_END 0xFFFFFFFFu

/* Tie-break priority of gene g in the set started at s (higher wins among equal sums). */
static inline uint32_t clique_priority(uint32_t seed, uint32_t gen, int s, int g)
{
    return glevo_philox4x32((uint32_t)g, gen, CLIQUE_PASS_TIE, (uint32_t)s, seed, CLIQUE_STREAM).v[0];
}
/* Lossy: the representative individual of the set started at s. */
static inline int clique_representative(uint32_t seed, uint32_t gen, int s, int n)
{
    uint32_t x = glevo_philox4x32((uint32_t)s, gen, CLIQUE_PASS_REP, 0u, seed, CLIQUE_STREAM).v[0];
    return (int)glevo_rng_below(x, (uint32_t)n);
}

/* Host RNG for the evolutionary loop: Philox counted sequentially. */
typedef struct host_rng {
    uint32_t seed, counter_lo, counter_hi;
    uint32_t buf[4];
    int left;
} host_rng;

static inline void host_rng_init(host_rng *r, uint32_t seed)
{
    r->seed = seed;
    r->counter_lo = r->counter_hi = 0;
    r->left = 0;
}
static inline uint32_t host_rng_u32(host_rng *r)
{
    if (r->left == 0) {
        glevo_u32x4 v = glevo_philox4x32(r->counter_lo, r->counter_hi, 0x4057u, 0u, r->seed, 0xD56Au);
        for (int i = 0; i < 4; ++i) r->buf[i] = v.v[i];
        r->left = 4;
        if (++r->counter_lo == 0) ++r->counter_hi;
    }
    return r->buf[--r->left];
}
static inline int host_rng_below(host_rng *r, int n) { return (int)glevo_rng_below(host_rng_u32(r), (uint32_t)n); }

#endif
