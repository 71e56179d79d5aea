/* The C twin of shaders/gp/breed.glsl (see breed.h): a child's plan from its random words,
 * then its nodes one by one. Every line here has its GLSL counterpart in the same order, with
 * the same random words, integer arithmetic and double-precision constants, so the host
 * engine and the GPU breed the same children. */
#include <string.h>

#include "glevo/rng.h"
#include "gp/breed/parsimony.h"
#include "gp/breed/breed.h"


void gp_stream_init(gp_stream *s, uint32_t seed, uint32_t index, uint32_t generation,
                    uint32_t purpose)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    s->index = index;
    s->generation = generation;
    s->purpose = purpose;
    s->used = 4;
}

uint32_t gp_stream_u32(gp_stream *s)
{
    if (s->used == 4) {
        glevo_u32x4 v = glevo_philox4x32(s->index, s->generation, s->purpose, s->block++,
                                         s->seed, GP_BREED_TAG);
        memcpy(s->words, v.v, sizeof s->words);
        s->used = 0;
    }
    return s->words[s->used++];
}

int gp_stream_below(gp_stream *s, int n) { return (int)glevo_rng_below(gp_stream_u32(s), (uint32_t)n); }
float gp_stream_u01(gp_stream *s) { return glevo_rng_u01(gp_stream_u32(s)); }

void gp_breed_params_init(gp_breed_params *bp, const glevo_gp_params *P, uint32_t mask, int vars,
                          int generation)
{
    memset(bp, 0, sizeof *bp);
    bp->seed = P->seed;
    bp->generation = generation;
    bp->pop = P->pop;
    bp->tournament = P->tournament;
    bp->parsimony = P->parsimony;
    bp->elites = P->elitism < GP_ELITE_MAX ? P->elitism : GP_ELITE_MAX;
    bp->max_size = P->max_size;
    bp->vars = vars;
    bp->pc = P->pc;
    bp->pm = P->pm;
    bp->const_prob = P->const_prob;
    bp->const_min = P->const_min;
    bp->const_max = P->const_max;
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT && bp->nfuncs < 32; ++op)
        if (mask >> op & 1u) bp->funcs[bp->nfuncs++] = op;
    gp_op_arity_words(bp->arity);
}

int gp_breed_arity(const gp_breed_params *bp, uint32_t code)
{
    uint32_t op = code & 63u;
    return (int)(bp->arity[op / 16] >> (2 * (op % 16)) & 3u);
}

void gp_subtree_sizes(const uint32_t *codes, int len, int32_t *sizes)
{
    for (int k = len - 1; k >= 0; --k) {
        int s = 1, ch = k + 1;
        for (int a = 0; a < glevo_gp_op_arity(GLEVO_GP_CODE_OP(codes[k])); ++a) {
            s += sizes[ch];
            ch += sizes[ch];
        }
        sizes[k] = s;
    }
}

void gp_breed_elites(const gp_breed_params *bp, const double *fit, int32_t *elite)
{
    for (int e = 0; e < bp->elites; ++e) {
        int b = -1;
        for (int i = 0; i < bp->pop; ++i) {
            int taken = 0;
            for (int k = 0; k < e; ++k) taken |= elite[k] == i;
            if (!taken && (b < 0 || fit[i] < fit[b])) b = i;
        }
        elite[e] = b;
    }
}

/* ---- the plan ---- */
#define CODE(s, k) par->codes[(size_t)(s) * (size_t)par->cap + (size_t)(k)]
#define SIZE(s, k) par->sizes[(size_t)(s) * (size_t)par->cap + (size_t)(k)]

/* A crossover point of slot s: a function node 90% of the time when s has one (Koza), the
 * r-th function node in prefix order; otherwise any node. Two words whatever happens. */
static int pick_point(const gp_breed_params *bp, const gp_parents *par, gp_stream *x, int s)
{
    float u = gp_stream_u01(x);
    uint32_t r = gp_stream_u32(x);
    int len = par->len[s], nf = 0;
    for (int k = 0; k < len; ++k) nf += gp_breed_arity(bp, CODE(s, k)) > 0;
    if (u < 0.9f && nf > 0) {
        int want = (int)glevo_rng_below(r, (uint32_t)nf);
        for (int k = 0; k < len; ++k)
            if (gp_breed_arity(bp, CODE(s, k)) > 0 && want-- == 0) return k;
    }
    return (int)glevo_rng_below(r, (uint32_t)len);
}

/* A random terminal: a constant with probability const_prob (its value in double, rounded
 * once to float), else a variable. */
static void random_terminal(const gp_breed_params *bp, gp_stream *r, uint32_t *code, float *cval)
{
    if (gp_stream_u01(r) < (float)bp->const_prob) {
        double u = (double)gp_stream_u01(r);
        *cval = (float)(bp->const_min + (bp->const_max - bp->const_min) * u);
        *code = GLEVO_GP_CODE(GLEVO_GP_CONST, 0);
    } else {
        *cval = 0.0f;
        *code = GLEVO_GP_CODE(GLEVO_GP_VAR, gp_stream_below(r, bp->vars));
    }
}

/* Koza's grow method to depth <= depth, iteratively in prefix order (rem[l]: children still
 * to draw of the open function whose children sit at level l). Returns the node count. */
static int grow_tree(const gp_breed_params *bp, gp_stream *g, int depth, gp_child_plan *plan)
{
    int rem[GP_MUTATE_DEPTH + 2];
    int n = 0, level = 0, nf = bp->nfuncs;
    for (;;) {
        int open = 0;
        if (level >= depth || nf == 0 || gp_stream_below(g, nf + 1) < 1) {
            random_terminal(bp, g, &plan->fresh[n], &plan->fresh_const[n]);
        } else {
            int op = bp->funcs[gp_stream_below(g, nf)];
            plan->fresh[n] = GLEVO_GP_CODE(op, 0);
            plan->fresh_const[n] = 0.0f;
            open = gp_breed_arity(bp, plan->fresh[n]);
        }
        n++;
        if (open > 0) {
            rem[++level] = open;
            continue;
        }
        while (level > 0 && --rem[level] == 0) level--;
        if (level == 0) break;
    }
    gp_subtree_sizes(plan->fresh, n, plan->fresh_size);
    return n;
}

/* Node q of the crossover child: its parent slot and position, and what its subtree size
 * gains (an ancestor of the crossover point gains sb - sa). */
static void cross_source(const gp_parents *par, const gp_child_plan *p, int q, int *slot, int *pos,
                         int *delta)
{
    *delta = 0;
    if (q < p->i) {
        *slot = p->a, *pos = q;
        if (q + SIZE(p->a, q) > p->i) *delta = p->sb - p->sa;
    } else if (q < p->i + p->sb) {
        *slot = p->b, *pos = p->j + q - p->i;
    } else {
        *slot = p->a, *pos = q - p->sb + p->sa;
    }
}

static void plan_copy(gp_child_plan *p, const gp_parents *par, int a)
{
    p->a = p->b = a;
    p->i = p->j = 0;
    p->sa = p->sb = par->len[a];
}

void gp_breed_plan(const gp_breed_params *bp, const gp_parents *par, const int32_t *elite, int c,
                   gp_child_plan *plan)
{
    plan->m = plan->old = plan->t = 0;
    plan->pk = -1;
    plan->pcode = 0;
    plan->pconst = 0.0f;
    uint32_t gen = (uint32_t)bp->generation;
    if (c < bp->elites) {
        plan_copy(plan, par, elite[c]);
        plan->len = par->len[plan->a];
        return;
    }
    int q = c - bp->elites, pair = q >> 1, role = q & 1;
    gp_stream s;
    gp_stream_init(&s, bp->seed, (uint32_t)pair, gen, GP_DRAW_SELECT);
    int parent[2];
    for (int k = 0; k < 2; ++k) {
        int w = gp_stream_below(&s, bp->pop);
        for (int t = 1; t < bp->tournament; ++t) {
            int x = gp_stream_below(&s, bp->pop);
            /* issue 26: lexicographic parsimony pressure (parsimony.c; 0: fit < fit) */
            if (gp_tournament_beats(bp->parsimony, par->fit[x], par->len[x], par->fit[w],
                                    par->len[w]))
                w = x;
        }
        parent[k] = w;
    }
    gp_stream x;
    gp_stream_init(&x, bp->seed, (uint32_t)pair, gen, GP_DRAW_CROSS);
    int cross = gp_stream_u01(&x) < (float)bp->pc;
    int point[2];
    point[0] = pick_point(bp, par, &x, parent[0]);
    point[1] = pick_point(bp, par, &x, parent[1]);
    int a = parent[role], b = parent[1 - role], i = point[role], j = point[1 - role];
    plan_copy(plan, par, a);
    if (cross) {
        int sa = SIZE(a, i), sb = SIZE(b, j);
        /* The size limit is checked before anything is written: over it, the child is a. */
        if (par->len[a] - sa + sb <= bp->max_size) {
            plan->b = b, plan->i = i, plan->j = j, plan->sa = sa, plan->sb = sb;
        }
    }
    plan->len = par->len[a] - plan->sa + plan->sb;
    gp_stream m;
    gp_stream_init(&m, bp->seed, (uint32_t)c, gen, GP_DRAW_MUTATE);
    if (!(gp_stream_u01(&m) < (float)bp->pm)) return;
    int slot, pos, delta;
    if (gp_stream_u01(&m) < 0.5f) { /* point mutation: a node keeps its arity */
        int k = gp_stream_below(&m, plan->len);
        cross_source(par, plan, k, &slot, &pos, &delta);
        int arity = gp_breed_arity(bp, CODE(slot, pos));
        plan->pk = k;
        if (arity == 0) {
            random_terminal(bp, &m, &plan->pcode, &plan->pconst);
            return;
        }
        int ns = 0;
        for (int f = 0; f < bp->nfuncs; ++f)
            ns += gp_breed_arity(bp, (uint32_t)bp->funcs[f]) == arity;
        int want = gp_stream_below(&m, ns);
        for (int f = 0; f < bp->nfuncs; ++f)
            if (gp_breed_arity(bp, (uint32_t)bp->funcs[f]) == arity && want-- == 0)
                plan->pcode = GLEVO_GP_CODE(bp->funcs[f], 0);
        return;
    }
    /* subtree mutation: a grown tree of depth <= 4 at a random node, if it fits */
    int at = gp_stream_below(&m, plan->len);
    int depth = gp_stream_below(&m, GP_MUTATE_DEPTH + 1);
    gp_stream g;
    gp_stream_init(&g, bp->seed, (uint32_t)c, gen, GP_DRAW_GROW);
    int t = grow_tree(bp, &g, depth, plan);
    cross_source(par, plan, at, &slot, &pos, &delta);
    int old = SIZE(slot, pos) + delta;
    if (plan->len - old + t > bp->max_size) return;
    plan->m = at, plan->old = old, plan->t = t;
    plan->len += t - old;
}

void gp_breed_node(const gp_breed_params *bp, const gp_parents *par, const gp_child_plan *plan,
                   int k, uint32_t cbase, uint32_t *code, float *cval, int32_t *size)
{
    (void)bp; /* the GLSL twin reads the same parameters as uniforms */
    int slot, pos, delta;
    if (k >= plan->m && k < plan->m + plan->t) {
        *code = plan->fresh[k - plan->m];
        *cval = plan->fresh_const[k - plan->m];
        *size = plan->fresh_size[k - plan->m];
    } else {
        int q = k < plan->m ? k : k - plan->t + plan->old;
        cross_source(par, plan, q, &slot, &pos, &delta);
        *code = CODE(slot, pos);
        *cval = par->consts[(size_t)slot * (size_t)par->cap + (size_t)pos];
        *size = SIZE(slot, pos) + delta;
        /* An ancestor of the mutated node gains t - old. */
        if (k < plan->m && k + *size > plan->m) *size += plan->t - plan->old;
    }
    if (k == plan->pk) *code = plan->pcode, *cval = plan->pconst;
    if (GLEVO_GP_CODE_OP(*code) == GLEVO_GP_CONST)
        *code = GLEVO_GP_CODE(GLEVO_GP_CONST, cbase + (uint32_t)k);
    else
        *cval = 0.0f;
}
