/* One migration round as a neighbour all-gather: each island's best emigrants out, the best
 * immigrants in where they beat the worst residents (policy.c chooses them). */
#include "glevo/islands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/context.h"
#include "islands/islands_internal.h"
#include "islands/policy.h"
#include "core/args.h"

/* One emigrant block: the number of valid emigrants (0 when this island failed), then per
 * emigrant its fitness and its genes. */
static size_t block_doubles(int migrants, int dim) { return 1 + (size_t)migrants * (dim + 1); }

typedef struct migration_scratch {
    float *fitness;   /* borrowed from the islands (kept between migrations) */
    float *best_fitness;
    double *send, *recv, *imm_score, *genes, *imm_fitness, *best_score, *worst_score;
    int *best, *worst, *order, *slot, *chosen;
    const double **imm;
} migration_scratch;

static void scratch_free(migration_scratch *s)
{
    free(s->send), free(s->recv), free(s->imm_score), free(s->best_score), free(s->worst_score);
    free(s->genes), free(s->imm_fitness), free(s->best), free(s->worst), free(s->order);
    free(s->slot), free(s->chosen), free((void *)s->imm), free(s->best_fitness);
}

/* Chooses this island's emigrants (and, in the same pass, the residents immigrants may
 * replace) and packs the emigrants into s->send. */
static glevo_status emigrants(glevo_islands *is, migration_scratch *s, int n, int m, int dim)
{
    const glevo_island_ops *ops = is->island.ops;
    glevo_status st;
    /* The engine's own choice where it has one (on the GPU: no fitness readback). */
    bool own = ops->select && ops->select_limit && m <= ops->select_limit(is->island.algo);
    if (own) {
        st = ops->select(is->island.algo, m, s->best, s->best_score, s->best_fitness, s->worst,
                         s->worst_score);
    } else if (!(st = ops->fitness(is->island.algo, s->fitness))) {
        islands_select(s->fitness, n, is->maximize, m, s->best, s->best_score, s->worst,
                       s->worst_score);
        for (int e = 0; e < m; ++e) s->best_fitness[e] = s->fitness[s->best[e]];
    }
    if (st) return st;
    if ((st = ops->read(is->island.algo, m, s->best, s->genes))) return st;
    s->send[0] = m;
    for (int e = 0; e < m; ++e) {
        double *b = s->send + 1 + (size_t)e * (dim + 1);
        b[0] = s->best_fitness[e];
        memcpy(b + 1, s->genes + (size_t)e * dim, sizeof(double) * (size_t)dim);
    }
    return GLEVO_OK;
}

/* Replaces the worst residents by the best immigrants while those are better. */
static glevo_status immigrants(glevo_islands *is, migration_scratch *s, int n, int m, int dim)
{
    size_t block = block_doubles(m, dim);
    int k = 0;
    for (int j = 0; j < is->neighbour_count; ++j) {
        const double *b = s->recv + (size_t)j * block;
        for (int e = 0; e < (int)b[0]; ++e) {
            s->imm[k] = b + 1 + (size_t)e * (dim + 1);
            s->imm_score[k] = islands_score(s->imm[k][0], is->maximize);
            k++;
        }
    }
    int pairs = islands_replace(s->worst, s->worst_score, m < n ? m : n, s->imm_score, k, m,
                                s->order, s->slot, s->chosen);
    if (pairs == 0) return GLEVO_OK;
    for (int p = 0; p < pairs; ++p) {
        s->imm_fitness[p] = s->imm[s->chosen[p]][0];
        memcpy(s->genes + (size_t)p * dim, s->imm[s->chosen[p]] + 1, sizeof(double) * (size_t)dim);
    }
    glevo_status st = is->island.ops->write(is->island.algo, pairs, s->slot, s->genes,
                                            s->imm_fitness);
    if (!st) is->immigrants += pairs;
    return st;
}

glevo_status glevo_islands_migrate(glevo_islands *is)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    if (is->graph == MPI_COMM_NULL) return GLEVO_OK;
    /* The GPU may still be running the generations queued before this point: that time is
     * theirs, so migration's clock starts once they are done (a no-op without a context). */
    glevo_context_finish(NULL);
    double start = islands_now();
    int m = is->params.migrants;
    int n = is->attached ? is->island.ops->size(is->island.algo) : 0;
    int dim = is->attached ? is->island.ops->dim(is->island.algo) : 0;
    /* Every rank must post the exchange with the same block size, even one that failed
     * before attaching: the dimension is agreed on first. */
    int agreed_dim = 0;
    MPI_Request agree;
    MPI_Iallreduce(&dim, &agreed_dim, 1, MPI_INT, MPI_MAX, is->comm, &agree);
    glevo_status st = islands_wait_for(is, &agree, "migration");
    if (st) return st;
    if (is->attached && agreed_dim != dim)
        st = glevo_fail(GLEVO_ERR_INVALID, "island %d: its dimension %d differs from another "
                        "island's %d", is->rank, dim, agreed_dim);
    dim = agreed_dim;
    size_t block = block_doubles(m, dim), k_max = (size_t)m * (size_t)is->neighbour_count;
    migration_scratch s = {0};
    s.send = calloc(block, sizeof(double));
    size_t blocks = (size_t)(is->neighbour_count ? is->neighbour_count : 1);
    s.recv = calloc(block * blocks, sizeof(double));
    if (n > is->scratch_size) {
        free(is->fitness);
        is->fitness = malloc(sizeof(float) * (size_t)n);
        is->scratch_size = is->fitness ? n : 0;
    }
    s.fitness = is->fitness;
    s.best_score = malloc(sizeof(double) * (size_t)m);
    s.worst_score = malloc(sizeof(double) * (size_t)m);
    s.genes = malloc(sizeof(double) * (size_t)m * (size_t)(dim ? dim : 1));
    s.imm_fitness = malloc(sizeof(double) * (size_t)m);
    s.imm_score = malloc(sizeof(double) * (k_max ? k_max : 1));
    s.imm = malloc(sizeof(*s.imm) * (k_max ? k_max : 1));
    s.best_fitness = malloc(sizeof(float) * (size_t)m);
    s.best = malloc(sizeof(int) * (size_t)m);
    s.worst = malloc(sizeof(int) * (size_t)m);
    s.order = malloc(sizeof(int) * (size_t)m);
    s.slot = malloc(sizeof(int) * (size_t)m);
    s.chosen = malloc(sizeof(int) * (size_t)m);
    bool scratch = (!n || s.fitness) && s.best_score && s.worst_score && s.best_fitness;
    if (!st && (!s.send || !s.recv || !scratch || !s.genes || !s.imm_fitness || !s.imm_score ||
                !s.imm || !s.best || !s.worst || !s.order || !s.slot || !s.chosen))
        st = glevo_fail(GLEVO_ERR_NOMEM, "island %d: out of memory for migration", is->rank);
    else if (!st && !is->attached)
        st = glevo_fail(GLEVO_ERR_INVALID, "island %d has no algorithm attached", is->rank);
    if (!st) st = emigrants(is, &s, n, m, dim);
    if (st && s.send) s.send[0] = 0; /* a failed island sends nothing, but still takes part */
    if (s.send && s.recv) {
        MPI_Request req;
        MPI_Ineighbor_allgather(s.send, (int)block, MPI_DOUBLE, s.recv, (int)block, MPI_DOUBLE,
                                is->graph, &req);
        glevo_status wait = islands_wait_for(is, &req, "migration");
        if (!st) st = wait;
    }
    if (!st) st = immigrants(is, &s, n, m, dim);
    scratch_free(&s);
    is->migrations++;
    is->migration_seconds += islands_now() - start;
    return st;
}
