/* Random program trees (src/gp/breed/tree.c): the GP engine's random stream and tree builders. */
#ifndef GLEVO_GP_TREE_H
#define GLEVO_GP_TREE_H

#include "gp/gp_internal.h"

/* Philox4x32 counted by block under the key (seed, purpose): one stream per purpose. */
typedef struct gp_rng {
    uint32_t key0, key1, counter;
    uint32_t stream; /* the counter's third word: one stream per program (0 by default) */
    uint32_t buf[4];
    int left;
} gp_rng;

void tree_rng_init(gp_rng *r, uint32_t seed, uint32_t purpose);
uint32_t tree_rng_u32(gp_rng *r);
int tree_rng_below(gp_rng *r, int n);
double tree_rng_u01(gp_rng *r);

/* What a random tree may hold: the functions of a mask, variables x1..x{vars} and constants
 * in [cmin, cmax] (a terminal is a constant with probability const_prob). */
typedef struct tree_gen {
    gp_rng *rng;
    int funcs[GLEVO_GP_OP_COUNT], nfuncs;
    int vars;
    double const_prob, cmin, cmax;
} tree_gen;

void tree_gen_init(tree_gen *g, gp_rng *rng, uint32_t mask, int vars, double const_prob,
                   double cmin, double cmax);
/* One terminal into codes[*n]; a constant goes to consts[*n] (its index is its position). */
void tree_terminal(tree_gen *g, uint32_t *codes, float *consts, int *n);
/* A tree of at most `depth` levels at codes[*n]: full (every branch to depth) or grown. */
void tree_random(tree_gen *g, int depth, int full, uint32_t *codes, float *consts, int *n);

#endif
