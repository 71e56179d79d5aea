/* The island model over MPI (glevo/islands.h): the topology as a distributed-graph
 * communicator, the collective status check at every synchronisation point (so a failing rank
 * stops the job instead of leaving the others waiting), one migration round as a neighbour
 * all-gather, and the run loop. Requests are polled with a short sleep rather than blocked
 * on, so ranks sharing cores (or a GPU's driver threads) are not starved by busy waiting, and
 * so an optional timeout can turn a hung rank into an error instead of a hang. The status
 * checks and waits are in sync.c, migration in migrate.c, the run loop in evolve.c. */
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

double islands_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

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
    is->work_since = islands_now();
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
