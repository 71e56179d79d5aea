/* The island model's state shared by its files: islands.c (the topology and
 * the lifetime), sync.c (status checks and waits), migrate.c, evolve.c (the run loop) and
 * checkpoint.c (per-island checkpoints and their manifest). */
#ifndef GLEVO_ISLANDS_INTERNAL_H
#define GLEVO_ISLANDS_INTERNAL_H

#include <mpi.h>

#include "glevo/islands.h"

struct glevo_islands {
    glevo_islands_params params;
    MPI_Comm comm, graph;             /* graph: MPI_COMM_NULL when unconnected */
    int rank, count, local_rank, device;
    int *neighbours, neighbour_count;
    glevo_island island;
    bool attached, maximize, broken;
    long long migrations, immigrants;
    double migration_seconds, sync_seconds, step_seconds;
    double *best, *evaluations, *immigrant_counts; /* per island, from the last sync */
    long long checkpoint_generation;  /* of the last complete checkpoint; -1: none */
    long long checkpoints;            /* written by this run */
    /* Migration scratch kept from one migration to the next: a million-cell island would
     * otherwise fault in fresh pages for its fitness every time. */
    float *fitness;
    int scratch_size;
    /* The derived sync timeout (sync_timeout 0): when this rank last left a synchronisation
     * point, and the longest it has worked between two of them. */
    double work_since, longest_work;
};

/* The derived default of glevo_islands_params.sync_timeout: a rank that waits longer than
 * max(ISLANDS_TIMEOUT_FLOOR, ISLANDS_TIMEOUT_FACTOR x the longest stretch it worked between
 * two synchronisation points, the time from create to the first one included) has been
 * left by a rank that hung, stopped or died. Islands run the same engine on the same
 * population size, so a healthy rank is not 20 times slower than this one. */
#define ISLANDS_TIMEOUT_FLOOR 60.0
#define ISLANDS_TIMEOUT_FACTOR 20.0

/* glevo_islands_sync with a checkpoint request beside the stop request (out->checkpoint is
 * their OR over the ranks). */
glevo_status islands_sync(glevo_islands *is, glevo_status local, bool stop, bool checkpoint,
                          double best, glevo_islands_state *out);
/* The status check alone: every rank's status, the first failure named on every rank. */
glevo_status islands_agree(glevo_islands *is, glevo_status local);
/* Every island saves itself into dir at `generation`; once all have, rank 0 writes the
 * manifest and each island drops its previous file. A failure anywhere leaves the last
 * complete checkpoint as it was. Collective. */
glevo_status islands_checkpoint(glevo_islands *is, const char *dir, long long generation);

/* Monotonic seconds (islands.c). */
double islands_now(void);
/* Polls req until it completes, failing with a sentence naming what after the wait limit
 * (sync.c). Arriving ends a stretch of work. */
glevo_status islands_wait_for(glevo_islands *is, MPI_Request *req, const char *what);

#endif
