/* Where every island runs: each rank's EGL device, renderer and host, gathered on rank 0 in
 * one fixed-size block a rank (glevo_islands_placement), so a front end can show the map and
 * warn about a GPU shared while another sits idle (glevo_islands_placement_idle, policy.c). */
#include "glevo/islands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/args.h"
#include "islands/islands_internal.h"

glevo_status glevo_islands_placement(glevo_islands *is, const char *renderer, const int *devices,
                                     int count, glevo_island_place *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(renderer);
    if (count > 0) ARG_NOT_NULL(devices);
    glevo_island_place mine = {.rank = is->rank, .device = is->device};
    /* A host is named by its lowest rank here, renumbered 0, 1, ... on rank 0 below. */
    MPI_Comm node;
    MPI_Comm_split_type(is->comm, MPI_COMM_TYPE_SHARED, is->rank, MPI_INFO_NULL, &node);
    MPI_Allreduce(&is->rank, &mine.host, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    MPI_Get_processor_name(name, &length);
    snprintf(mine.host_name, sizeof mine.host_name, "%.*s", length, name);
    snprintf(mine.renderer, sizeof mine.renderer, "%s", renderer);
    for (int i = 0; i < count && mine.device_count < GLEVO_ISLANDS_HOST_DEVICES; ++i)
        mine.devices[mine.device_count++] = devices[i];
    /* Rank 0 says first whether it can receive, so that every rank takes the same path. */
    glevo_island_place *all = NULL;
    if (is->rank == 0) all = out ? out : calloc((size_t)is->count, sizeof *all);
    int ready = all != NULL;
    MPI_Bcast(&ready, 1, MPI_INT, 0, is->comm);
    if (!ready) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, is->comm);
    if (is->rank != 0) return GLEVO_OK;
    /* all[i].rank == i, and a host's lowest rank comes first: renumber in that order. */
    int hosts = 0;
    for (int i = 0; i < is->count; ++i)
        all[i].host = all[i].host == i ? hosts++ : all[all[i].host].host;
    if (all != out) free(all);
    return GLEVO_OK;
}
