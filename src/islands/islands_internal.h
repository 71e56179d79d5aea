/* The island model's state shared by its files: islands.c (topology, status checks,
 * migration, the run loop) and checkpoint.c (per-island checkpoints and their manifest). */
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
    double migration_seconds, sync_seconds;
    double *best, *evaluations, *immigrant_counts; /* per island, from the last sync */
    long long checkpoint_generation;  /* of the last complete checkpoint; -1: none */
    long long checkpoints;            /* written by this run */
    /* Migration scratch kept from one migration to the next: a million-cell island would
     * otherwise fault in fresh pages for its fitness every time. */
    float *fitness;
    int scratch_size;
};

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

#endif
