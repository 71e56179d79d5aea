/* Random program trees for the GP engine and the benchmark: Koza's full and grow methods and
 * trees of an exact size, drawn from one Philox stream keyed by (seed, purpose), so that a run
 * is reproducible by seed. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/rng.h"
#include "gp/breed/tree.h"
#include "core/args.h"

/* ---- random numbers: Philox4x32 counted by (block, stream tag) under (seed, purpose) ---- */
void tree_rng_init(gp_rng *r, uint32_t seed, uint32_t purpose)
{
    memset(r, 0, sizeof *r);
    r->key0 = seed;
    r->key1 = purpose;
}

uint32_t tree_rng_u32(gp_rng *r)
{
    if (r->left == 0) {
        glevo_u32x4 v = glevo_philox4x32(r->counter++, 0x47502047u /* "GP G" */, r->stream, 0, r->key0,
                                         r->key1);
        memcpy(r->buf, v.v, sizeof r->buf);
        r->left = 4;
    }
    return r->buf[--r->left];
}

int tree_rng_below(gp_rng *r, int n) { return (int)glevo_rng_below(tree_rng_u32(r), (uint32_t)n); }
double tree_rng_u01(gp_rng *r) { return glevo_rng_u01(tree_rng_u32(r)); }

/* ---- random trees ---- */
void tree_gen_init(tree_gen *g, gp_rng *rng, uint32_t mask, int vars, double const_prob,
                   double cmin, double cmax)
{
    memset(g, 0, sizeof *g);
    g->rng = rng;
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if (mask >> op & 1u) g->funcs[g->nfuncs++] = op;
    g->vars = vars;
    g->const_prob = vars > 0 ? const_prob : 1.0;
    g->cmin = cmin;
    g->cmax = cmax;
}

/* One terminal into codes[*n]; constants go to consts[*n] (index = position). */
void tree_terminal(tree_gen *g, uint32_t *codes, float *consts, int *n)
{
    if (tree_rng_u01(g->rng) < g->const_prob) {
        consts[*n] = (float)(g->cmin + (g->cmax - g->cmin) * tree_rng_u01(g->rng));
        codes[*n] = GLEVO_GP_CODE(GLEVO_GP_CONST, *n);
    } else {
        codes[*n] = GLEVO_GP_CODE(GLEVO_GP_VAR, tree_rng_below(g->rng, g->vars));
    }
    (*n)++;
}

/* Koza's full (every branch to depth) or grow (terminals allowed early) method. */
void tree_random(tree_gen *g, int depth, int full, uint32_t *codes, float *consts, int *n)
{
    int nt = 1, nf = g->nfuncs;
    if (depth <= 0 || nf == 0 || (!full && tree_rng_below(g->rng, nf + nt) < nt)) {
        tree_terminal(g, codes, consts, n);
        return;
    }
    int op = g->funcs[tree_rng_below(g->rng, nf)];
    codes[(*n)++] = GLEVO_GP_CODE(op, 0);
    for (int a = 0; a < glevo_gp_op_arity((glevo_gp_op)op); ++a)
        tree_random(g, depth - 1, full, codes, consts, n);
}

/* A random tree of exactly `size` nodes (the benchmark's fixed tree size). */
static void tree_sized(tree_gen *g, int size, uint32_t *codes, float *consts, int *n)
{
    int fits[GLEVO_GP_OP_COUNT], nfits = 0;
    for (int i = 0; i < g->nfuncs; ++i)
        if (glevo_gp_op_arity((glevo_gp_op)g->funcs[i]) <= size - 1) fits[nfits++] = g->funcs[i];
    if (size <= 1 || nfits == 0) {
        tree_terminal(g, codes, consts, n);
        return;
    }
    int op = fits[tree_rng_below(g->rng, nfits)];
    int arity = glevo_gp_op_arity((glevo_gp_op)op);
    codes[(*n)++] = GLEVO_GP_CODE(op, 0);
    int rest = size - 1;
    for (int a = 0; a < arity; ++a) {
        int others = arity - a - 1;
        int take = a == arity - 1 ? rest : 1 + tree_rng_below(g->rng, rest - others);
        tree_sized(g, take, codes, consts, n);
        rest -= take;
    }
}

glevo_status glevo_gp_programs_random(glevo_gp_programs *p, int count, uint32_t ops, int vars,
                                      int size, uint32_t seed)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    if (size < 1 || count < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "random programs need size >= 1 (got %d)", size);
    if (count > INT_MAX - p->count || p->code_count + (long long)count * size > GP_MAX_NODES)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_programs_random: %d programs of %d nodes "
                          "would make %lld nodes in the set, above the limit of %lld", count, size,
                          p->code_count + (long long)count * size, GP_MAX_NODES);
    gp_rng rng;
    tree_rng_init(&rng, seed, 0x52414e44u);
    tree_gen g;
    tree_gen_init(&g, &rng, ops, vars, 0.3, -1.0, 1.0);
    uint32_t *codes = malloc((size_t)size * sizeof *codes);
    float *consts = malloc((size_t)size * sizeof *consts);
    glevo_status st = codes && consts ? GLEVO_OK : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < count && !st; ++i) {
        int n = 0;
        tree_sized(&g, size, codes, consts, &n);
        st = glevo_gp_programs_add(p, codes, n, consts);
    }
    free(codes);
    free(consts);
    return st;
}
