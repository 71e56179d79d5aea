/* One GP generation as independent children (src/gp/breed/breed.c, the C twin of
 * shaders/gp/breed.glsl): child c of the next generation is a plan (its parents, crossover
 * points, mutation) made from random words keyed by (seed, generation, child, purpose), then a
 * gather, node k of the child read from a parent or a fresh subtree at an offset the plan
 * gives. Any child can be computed alone, so the GPU computes them all at once and the host
 * engine, the twin, one after another; both make the same codes and constants. */
#ifndef GLEVO_GP_BREED_H
#define GLEVO_GP_BREED_H

#include <stdint.h>

#include "gp/gp_internal.h"

/* Largest fresh subtree of subtree mutation (depth <= 4) for operators up to arity 3. */
#define GP_FRESH_MAX 121
#define GP_MUTATE_DEPTH 4
/* Elites copied unchanged at most (more are bred like the other children). */
#define GP_ELITE_MAX 64

/* Purposes of the random words (the counter's third word). */
enum { GP_DRAW_SELECT = 1, GP_DRAW_CROSS, GP_DRAW_MUTATE, GP_DRAW_GROW };
/* The stream's key: (seed, this tag). */
#define GP_BREED_TAG 0x47504232u /* "GPB2" */

/* Random words counted by (index, generation, purpose, block) under (seed, GP_BREED_TAG),
 * used four a block in order. */
typedef struct gp_stream {
    uint32_t seed, index, generation, purpose, block;
    uint32_t words[4];
    int used;
} gp_stream;

void gp_stream_init(gp_stream *s, uint32_t seed, uint32_t index, uint32_t generation,
                    uint32_t purpose);
uint32_t gp_stream_u32(gp_stream *s);
int gp_stream_below(gp_stream *s, int n);
float gp_stream_u01(gp_stream *s);

/* What breeding needs besides the parents (the uniforms of gp/breed.glsl). */
typedef struct gp_breed_params {
    uint32_t seed;
    int generation;   /* of the parents */
    int pop, tournament, elites, max_size, vars;
    double pc, pm, const_prob, const_min, const_max;
    int funcs[32], nfuncs; /* the function set's operators, in op order */
    uint32_t arity[4];     /* 2 bits per op: glevo_gp_op_arity of ops 0..63 */
    double parsimony;      /* issue 26: lexicographic parsimony pressure (src/gp/breed/parsimony.c);
                            * host breeding only until gp/breed.glsl compares the same way */
} gp_breed_params;

void gp_breed_params_init(gp_breed_params *bp, const glevo_gp_params *P, uint32_t mask, int vars,
                          int generation);
int gp_breed_arity(const gp_breed_params *bp, uint32_t code);

/* The parents: slot s holds len[s] codes at codes[s * cap], a constant beside each code
 * (consts) and the size of the subtree at each code (sizes); fit[s] is minimised. */
typedef struct gp_parents {
    const uint32_t *codes;
    const float *consts;
    const int32_t *sizes;
    const int32_t *len;
    const double *fit;
    int cap;
} gp_parents;

/* Child = a[0, i) + b[j, j + sb) + a[i + sa, len a), then the subtree of size old at m
 * replaced by fresh[0, t) (t = 0: none), then code pk replaced by pcode, pconst (pk < 0:
 * none). */
typedef struct gp_child_plan {
    int a, i, sa, b, j, sb;
    int m, old, t;
    int pk;
    uint32_t pcode;
    float pconst;
    int len;
    uint32_t fresh[GP_FRESH_MAX];
    float fresh_const[GP_FRESH_MAX];
    int32_t fresh_size[GP_FRESH_MAX];
} gp_child_plan;

/* Child c's plan; elite[e] is the e-th best parent (e < bp->elites). */
void gp_breed_plan(const gp_breed_params *bp, const gp_parents *par, const int32_t *elite, int c,
                   gp_child_plan *plan);
/* Node k (< plan->len) of the child: its code (a constant's index is cbase + k), constant
 * and subtree size. */
void gp_breed_node(const gp_breed_params *bp, const gp_parents *par, const gp_child_plan *plan,
                   int k, uint32_t cbase, uint32_t *code, float *cval, int32_t *size);
/* The e best slots by fit (ties: the lower index), e = min(bp->elites, GP_ELITE_MAX). */
void gp_breed_elites(const gp_breed_params *bp, const double *fit, int32_t *elite);
/* sizes[k] of the subtree at each code of a prefix tree. */
void gp_subtree_sizes(const uint32_t *codes, int len, int32_t *sizes);

#endif
