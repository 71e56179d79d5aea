/* The island model over MPI (glevo/islands.h): the topology as a distributed-graph
 * communicator, the collective status check at every synchronisation point (so a failing rank
 * stops the job instead of leaving the others waiting), one migration round as a neighbour
 * all-gather, and the run loop. Requests are polled with a short sleep rather than blocked
 * on, so ranks sharing cores (or a GPU's driver threads) are not starved by busy waiting, and
 * so an optional timeout can turn a hung rank into an error instead of a hang. */
#include "glevo/islands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/names.h"
#include "glevo/context.h"
#include "islands/islands_internal.h"
#include "islands/policy.h"
#include "core/args.h"

static const char *const topology_names[] = {"ring", "fully-connected", "unconnected", "torus"};

const char *glevo_topology_name(glevo_topology t)
{
    return names_get(topology_names, NAMES_COUNT(topology_names), (int)t);
}

int glevo_topology_parse(const char *name)
{
    ARG_NOT_NULL_OR(name, -1);
    return names_find(topology_names, NAMES_COUNT(topology_names), name);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fixed-size record every rank contributes at a synchronisation point. */
typedef struct sync_record {
    int32_t status, device, stop, attached, checkpoint, padding; /* doubles 8-aligned */
    double best, evaluations, immigrants;
    char message[224];
} sync_record;

glevo_status glevo_islands_init(int *argc, char ***argv)
{
    glevo_clear_error();
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised && MPI_Init(argc, argv) != MPI_SUCCESS)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "MPI could not be initialised");
    return GLEVO_OK;
}

int glevo_islands_world_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

void glevo_islands_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

bool glevo_islands_broken(const glevo_islands *is) {
    ARG_NOT_NULL_OR(is, false);
    return is->broken;
}

void glevo_islands_finalize(void)
{
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    if (initialised && !finalised) MPI_Finalize();
}

glevo_islands_params glevo_islands_params_defaults(const glevo_islands_params *in)
{
    glevo_islands_params p = {0};
    if (in) p = *in;
    if (!p.migrants) p.migrants = 1;
    if (!p.migrate_every) p.migrate_every = 50;
    return p;
}

glevo_status glevo_islands_validate(const glevo_islands_params *in, int islands, int population)
{
    glevo_clear_error();
    ARG_NOT_NULL_AS(in, "params");
    glevo_islands_params p = glevo_islands_params_defaults(in);
    if ((unsigned)p.topology > GLEVO_TOPOLOGY_TORUS)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.topology %d is unknown",
                          (int)p.topology);
    if (p.migrants < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.migrants %d is below 1",
                          p.migrants);
    if (population > 0 && p.migrants > population)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.migrants %d is above the "
                          "population of an island, %d", p.migrants, population);
    if (p.migrate_every < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.migrate_every %d is below 1",
                          p.migrate_every);
    if (!(p.sync_timeout >= 0 || p.sync_timeout == GLEVO_ZERO) || isinf(p.sync_timeout))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.sync_timeout %g is not a "
                          "number of seconds (0: derived from the run, GLEVO_ZERO: no limit)",
                          p.sync_timeout);
    if (p.torus_width < 0 || (islands > 0 && p.torus_width > 0 && islands % p.torus_width))
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.torus_width %d does not "
                          "divide the %d islands", p.torus_width, islands);
    return GLEVO_OK;
}

glevo_status glevo_islands_create(const glevo_islands_params *params, glevo_islands **out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
    *out = NULL;
    MPI_Comm parent = params && params->comm ? *(MPI_Comm *)params->comm : MPI_COMM_WORLD;
    int size;
    MPI_Comm_size(parent, &size);
    glevo_status st = glevo_islands_validate(params, size, 0);
    if (st) return st;
    glevo_islands *is = calloc(1, sizeof *is);
    if (!is) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    is->params = glevo_islands_params_defaults(params);
    is->params.comm = NULL;
    is->device = -1;
    is->graph = MPI_COMM_NULL;
    is->checkpoint_generation = -1;
    is->work_since = now();
    MPI_Comm_dup(parent, &is->comm);
    MPI_Comm_rank(is->comm, &is->rank);
    MPI_Comm_size(is->comm, &is->count);
    MPI_Comm node;
    MPI_Comm_split_type(is->comm, MPI_COMM_TYPE_SHARED, is->rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &is->local_rank);
    MPI_Comm_free(&node);
    is->neighbours = malloc(sizeof(int) * (size_t)(is->count + 4));
    is->best = calloc((size_t)is->count, sizeof(double));
    is->evaluations = calloc((size_t)is->count, sizeof(double));
    is->immigrant_counts = calloc((size_t)is->count, sizeof(double));
    if (!is->neighbours || !is->best || !is->evaluations || !is->immigrant_counts) {
        glevo_islands_destroy(is);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    if (is->params.topology != GLEVO_TOPOLOGY_UNCONNECTED) {
        is->neighbour_count = islands_neighbours((int)is->params.topology, is->count, is->rank,
                                                 is->params.torus_width, is->neighbours);
        /* The same list both ways: every topology here is symmetric. reorder = 0 keeps rank
         * i as island i, which the seeds and the results name. Unit weights rather than
         * MPI_UNWEIGHTED, whose sentinel pointer GCC's access checks flag in Open MPI's header. */
        int *weights = malloc(sizeof(int) * (size_t)(is->neighbour_count + 1));
        if (!weights) {
            glevo_islands_destroy(is);
            return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i <= is->neighbour_count; ++i) weights[i] = 1;
        MPI_Dist_graph_create_adjacent(is->comm, is->neighbour_count, is->neighbours, weights,
                                       is->neighbour_count, is->neighbours, weights,
                                       MPI_INFO_NULL, 0, &is->graph);
        free(weights);
    }
    *out = is;
    return GLEVO_OK;
}

void glevo_islands_destroy(glevo_islands *is)
{
    if (!is) return;
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (!finalised) {
        if (is->graph != MPI_COMM_NULL) MPI_Comm_free(&is->graph);
        if (is->comm != MPI_COMM_NULL) MPI_Comm_free(&is->comm);
    }
    free(is->neighbours), free(is->best), free(is->evaluations), free(is->immigrant_counts);
    free(is->fitness);
    free(is);
}

int glevo_islands_rank(const glevo_islands *is) {
    ARG_NOT_NULL_OR(is, -1);
    return is->rank;
}
int glevo_islands_count(const glevo_islands *is) {
    ARG_NOT_NULL_OR(is, -1);
    return is->count;
}
int glevo_islands_local_rank(const glevo_islands *is) {
    ARG_NOT_NULL_OR(is, -1);
    return is->local_rank;
}
uint32_t glevo_islands_seed(const glevo_islands *is, uint32_t seed)
{
    ARG_NOT_NULL_OR(is, 0);
    return seed + (uint32_t)is->rank;
}

int glevo_islands_device(glevo_islands *is, const int *devices, int count)
{
    ARG_NOT_NULL_OR(is, -1);
    int slot = count > 0 ? is->local_rank % count : -1;
    is->device = slot < 0 ? -1 : devices ? devices[slot] : slot;
    return is->device;
}

void glevo_islands_set_device(glevo_islands *is, int device) {
    ARG_NOT_NULL_OR(is, );
    is->device = device;
}

int glevo_islands_neighbours(const glevo_islands *is, int *out, int capacity)
{
    ARG_NOT_NULL_OR(is, -1);
    ARG_NOT_NULL_OR(out, -1);
    for (int i = 0; i < is->neighbour_count && i < capacity; ++i) out[i] = is->neighbours[i];
    return is->neighbour_count;
}

glevo_status glevo_islands_attach(glevo_islands *is, glevo_island island)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    int n = island.ops->size(island.algo);
    if (is->params.migrants > n)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_islands_params.migrants %d is above the "
                          "population of an island, %d", is->params.migrants, n);
    is->island = island;
    is->maximize = island.ops->maximize(island.algo);
    is->attached = true;
    return GLEVO_OK;
}

/* How long a rank waits at a synchronisation point: the set limit, none (GLEVO_ZERO), or the
 * derived one (islands_internal.h). Arriving ends a stretch of work. */
static double wait_limit(glevo_islands *is)
{
    double worked = now() - is->work_since;
    if (worked > is->longest_work) is->longest_work = worked;
    if (is->params.sync_timeout == GLEVO_ZERO) return 0;
    if (is->params.sync_timeout > 0) return is->params.sync_timeout;
    double derived = ISLANDS_TIMEOUT_FACTOR * is->longest_work;
    return derived > ISLANDS_TIMEOUT_FLOOR ? derived : ISLANDS_TIMEOUT_FLOOR;
}

/* Polls a request: spin for a moment (a collective of ranks in step completes in
 * microseconds), then sleep between polls so a waiting rank leaves its core to the others. */
static glevo_status wait_for(glevo_islands *is, MPI_Request *req, const char *what)
{
    double start = now(), limit = wait_limit(is);
    for (long polls = 0;; ++polls) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) {
            is->work_since = now();
            return GLEVO_OK;
        }
        double waited = now() - start;
        if (limit > 0 && waited > limit) {
            is->broken = true;
            return glevo_fail(GLEVO_ERR_UNSUPPORTED, "island %d: no answer from the other "
                              "islands within %g s at the %s (a rank hung, stopped or died)",
                              is->rank, limit, what);
        }
        if (waited > 2e-4) nanosleep(&(struct timespec){0, 100000}, NULL);
    }
}

/* Before a status check, every rank tells every other that it has arrived (empty messages),
 * so that a rank waiting past the limit names the ranks that did not come, rather than
 * waiting on a collective that cannot say who is missing. */
#define ARRIVAL_TAG 0x6c5
static glevo_status wait_arrivals(glevo_islands *is, const char *what)
{
    int n = is->count;
    if (n < 2) return GLEVO_OK;
    MPI_Request *sends = malloc(sizeof *sends * (size_t)n * 2);
    if (!sends) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Request *recvs = sends + n;
    for (int i = 0; i < n; ++i) {
        sends[i] = recvs[i] = MPI_REQUEST_NULL;
        if (i == is->rank) continue;
        MPI_Isend(NULL, 0, MPI_BYTE, i, ARRIVAL_TAG, is->comm, &sends[i]);
        MPI_Irecv(NULL, 0, MPI_BYTE, i, ARRIVAL_TAG, is->comm, &recvs[i]);
    }
    double start = now(), limit = wait_limit(is);
    glevo_status st = GLEVO_OK;
    for (;;) {
        int done = 0;
        MPI_Testall(n, recvs, &done, MPI_STATUSES_IGNORE);
        if (done) break;
        double waited = now() - start;
        if (limit > 0 && waited > limit) {
            char missing[256] = "";
            size_t used = 0;
            int count = 0;
            for (int i = 0; i < n && used + 16 < sizeof missing; ++i) {
                int arrived = recvs[i] == MPI_REQUEST_NULL;
                if (!arrived) MPI_Test(&recvs[i], &arrived, MPI_STATUS_IGNORE);
                if (!arrived)
                    used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%d",
                                             count++ ? ", " : "", i);
            }
            is->broken = true;
            st = glevo_fail(GLEVO_ERR_UNSUPPORTED, "island %d: island%s %s (rank%s %s) did not "
                            "reach the %s within %g s: it hung, was stopped or died",
                            is->rank, count > 1 ? "s" : "", missing, count > 1 ? "s" : "",
                            missing, what, limit);
            break;
        }
        if (waited > 2e-4) nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    /* Empty sends complete at once where everyone arrived; after a timeout the job ends. */
    if (!st) MPI_Waitall(n, sends, MPI_STATUSES_IGNORE);
    if (!st) is->work_since = now();
    free(sends);
    return st;
}

static void describe_rank(const sync_record *r, int rank, char *out, size_t size)
{
    if (r->device >= 0)
        snprintf(out, size, "island %d (rank %d, EGL device %d)", rank, rank, (int)r->device);
    else
        snprintf(out, size, "island %d (rank %d, no GL device)", rank, rank);
}

glevo_status glevo_islands_sync(glevo_islands *is, glevo_status local, bool stop, double best,
                                glevo_islands_state *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(out);
    return islands_sync(is, local, stop, false, best, out);
}

glevo_status islands_agree(glevo_islands *is, glevo_status local)
{
    glevo_islands_state ignored;
    return islands_sync(is, local, false, false, is->best[is->rank], &ignored);
}

glevo_status islands_sync(glevo_islands *is, glevo_status local, bool stop, bool checkpoint,
                          double best, glevo_islands_state *out)
{
    double start = now();
    const glevo_island *isl = &is->island;
    sync_record mine = {.status = (int32_t)local, .device = is->device, .stop = stop,
                        .attached = is->attached, .checkpoint = checkpoint, .best = best,
                        .evaluations = is->attached ? (double)isl->ops->evaluations(isl->algo) : 0,
                        .immigrants = (double)is->immigrants};
    if (local) snprintf(mine.message, sizeof mine.message, "%s", glevo_last_error());
    glevo_status arrived = wait_arrivals(is, "status check");
    if (arrived) return arrived;
    sync_record *all = malloc(sizeof *all * (size_t)is->count);
    if (!all) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Request req;
    MPI_Iallgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, is->comm,
                   &req);
    glevo_status st = wait_for(is, &req, "status check");
    if (st) {
        free(all);
        return st;
    }
    memset(out, 0, sizeof *out);
    out->count = is->count;
    out->best = is->best;
    out->evaluations = is->evaluations;
    out->immigrants = is->immigrant_counts;
    out->global_best = NAN;
    out->global_best_island = -1;
    out->migrations = is->migrations;
    out->generation = is->attached ? is->island.ops->generation(is->island.algo) : 0;
    for (int i = 0; i < is->count; ++i) {
        const sync_record *r = &all[i];
        if (r->status && !st) {
            char who[96];
            describe_rank(r, i, who, sizeof who);
            st = glevo_fail((glevo_status)r->status, "%s failed: %s", who, r->message);
        }
        is->best[i] = r->best;
        is->evaluations[i] = r->evaluations;
        is->immigrant_counts[i] = r->immigrants;
        out->stop = out->stop || r->stop;
        out->checkpoint = out->checkpoint || r->checkpoint;
        double score = islands_score(r->best, is->maximize);
        bool first = out->global_best_island < 0;
        if (r->attached && !isnan(r->best) &&
            (first || score > islands_score(out->global_best, is->maximize))) {
            out->global_best = r->best;
            out->global_best_island = i;
        }
    }
    free(all);
    is->sync_seconds += now() - start;
    return st;
}

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
    double start = now();
    int m = is->params.migrants;
    int n = is->attached ? is->island.ops->size(is->island.algo) : 0;
    int dim = is->attached ? is->island.ops->dim(is->island.algo) : 0;
    /* Every rank must post the exchange with the same block size, even one that failed
     * before attaching: the dimension is agreed on first. */
    int agreed_dim = 0;
    MPI_Request agree;
    MPI_Iallreduce(&dim, &agreed_dim, 1, MPI_INT, MPI_MAX, is->comm, &agree);
    glevo_status st = wait_for(is, &agree, "migration");
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
        glevo_status wait = wait_for(is, &req, "migration");
        if (!st) st = wait;
    }
    if (!st) st = immigrants(is, &s, n, m, dim);
    scratch_free(&s);
    is->migrations++;
    is->migration_seconds += now() - start;
    return st;
}

static bool reached(const glevo_islands *is, const glevo_islands_run *run, double best)
{
    return run->has_target && !isnan(best) &&
           (is->maximize ? best >= run->target : best <= run->target);
}

/* Gathers each island's row to rank 0: the report, then the best x. */
static glevo_status gather_summary(glevo_islands *is, glevo_island_report *mine,
                                   const double *x, glevo_islands_summary *out)
{
    enum { fields = 8 };
    int dim = out->dim;
    size_t row = (size_t)fields + (size_t)dim;
    double *send = malloc(sizeof(double) * row);
    double *all = is->rank == 0 ? malloc(sizeof(double) * row * (size_t)is->count) : NULL;
    if (!send || (is->rank == 0 && !all)) {
        free(send), free(all);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    double head[fields] = {mine->device, mine->best_fitness, (double)mine->generations,
                           (double)mine->evaluations, (double)mine->immigrants, mine->seconds,
                           mine->migration_seconds, mine->sync_seconds};
    memcpy(send, head, sizeof head);
    memcpy(send + fields, x, sizeof(double) * (size_t)dim);
    MPI_Request req;
    MPI_Igather(send, (int)row, MPI_DOUBLE, all, (int)row, MPI_DOUBLE, 0, is->comm, &req);
    glevo_status st = wait_for(is, &req, "summary");
    if (!st && is->rank == 0) {
        glevo_island_report *rows = calloc((size_t)is->count, sizeof *rows);
        if (!rows) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        for (int i = 0; rows && i < is->count; ++i) {
            const double *r = all + (size_t)i * row;
            rows[i] = (glevo_island_report){
                .island = i, .device = (int)r[0], .best_fitness = r[1],
                .generations = (long long)r[2], .evaluations = (long long)r[3],
                .immigrants = (long long)r[4], .seconds = r[5], .migration_seconds = r[6],
                .sync_seconds = r[7]};
            double score = islands_score(r[1], is->maximize);
            if (out->best_island < 0 || score > islands_score(out->best_fitness, is->maximize)) {
                out->best_island = i;
                out->best_fitness = r[1];
                memcpy(out->best_x, r + fields, sizeof(double) * (size_t)dim);
            }
        }
        out->islands = rows;
    } else if (!st) {
        out->islands = malloc(sizeof *mine);
        if (out->islands) *out->islands = *mine;
        out->best_island = is->rank;
        out->best_fitness = mine->best_fitness;
        memcpy(out->best_x, x, sizeof(double) * (size_t)dim);
    }
    free(send), free(all);
    return st;
}

glevo_status glevo_islands_evolve(glevo_islands *is, const glevo_islands_run *run,
                                  glevo_islands_summary *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(run);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    out->best_island = -1;
    out->best_fitness = NAN;
    const glevo_island_ops *ops = is->attached ? is->island.ops : NULL;
    void *algo = is->island.algo;
    int dim = ops ? ops->dim(algo) : 0;
    out->count = is->count;
    out->dim = dim;
    out->best_x = calloc((size_t)(dim ? dim : 1), sizeof(double));
    double *x = calloc((size_t)(dim ? dim : 1), sizeof(double));
    glevo_status local = GLEVO_OK, st;
    if (!out->best_x || !x) local = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!local && !ops)
        local = glevo_fail(GLEVO_ERR_INVALID, "island %d has no algorithm attached", is->rank);
    long long every = is->params.migrate_every, report = run->report_every;
    double start = now(), best = NAN, migration0 = is->migration_seconds, sync0 = is->sync_seconds;
    for (;;) {
        long long gen = ops ? ops->generation(algo) : 0;
        bool stop = run->interrupted && run->interrupted(run->user), save = false;
        if (!local) local = ops->best(algo, &best, x);
        if (!local) stop = stop || ops->done(algo) || reached(is, run, best);
        if (run->checkpoint_dir && run->checkpoint_due) save = run->checkpoint_due(run->user, gen);
        glevo_islands_state state;
        if ((st = islands_sync(is, local, stop, save, best, &state))) break;
        state.seconds = now() - start;
        if (run->report) run->report(run->user, &state);
        out->stopped = state.stop;
        bool end = state.stop || (run->generations > 0 && gen >= run->generations);
        /* Before this point's migration: a resumed run starts with it, as this one goes on. */
        if (run->checkpoint_dir && (state.checkpoint || (end && run->final_checkpoint)) &&
            gen != is->checkpoint_generation) {
            double t0 = now();
            if ((st = islands_checkpoint(is, run->checkpoint_dir, gen))) break;
            if (run->checkpoint_written) run->checkpoint_written(run->user, gen, now() - t0);
        }
        if (end) break;
        if (gen > 0 && gen % every == 0) local = glevo_islands_migrate(is);
        long long next = gen - gen % every + every;
        if (report > 0 && gen - gen % report + report < next) next = gen - gen % report + report;
        long long ck = run->checkpoint_every;
        if (run->checkpoint_dir && ck > 0 && gen - gen % ck + ck < next) next = gen - gen % ck + ck;
        if (run->generations > 0 && run->generations < next) next = run->generations;
        if (!local) local = ops->step(algo, (int)(next - gen));
    }
    if (!st) {
        glevo_island_report mine = {
            .island = is->rank, .device = is->device, .best_fitness = best,
            .generations = ops->generation(algo), .evaluations = ops->evaluations(algo),
            .immigrants = is->immigrants, .seconds = now() - start,
            .migration_seconds = is->migration_seconds - migration0,
            .sync_seconds = is->sync_seconds - sync0};
        out->migrations = is->migrations;
        out->checkpoints = is->checkpoints;
        out->checkpoint_generation = is->checkpoint_generation;
        st = gather_summary(is, &mine, x, out);
    }
    free(x);
    return st;
}

void glevo_islands_summary_free(glevo_islands_summary *s)
{
    if (!s) return;
    free(s->islands), free(s->best_x);
    s->islands = NULL;
    s->best_x = NULL;
}
