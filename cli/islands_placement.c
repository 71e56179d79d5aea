/* Where the islands run, shown at start-up: rank 0 gathers every rank's host, EGL device and
 * renderer (glevo_islands_placement), prints the map on stderr (one line a rank, unless
 * --quiet), warns in one line, --quiet or not, when a host's ranks share a GPU while another
 * of its GPUs sits idle, and puts the map in the JSON's islands object. */
#include "islands.h"

#ifdef GLEVO_HAVE_MPI
#include <stdio.h>
#include <stdlib.h>

#include "glevo/context.h"

int islands_usable_devices(int *out, int capacity)
{
    int n = glevo_egl_hardware_devices(out, capacity);
    if (n > 0) return n;
    n = glevo_egl_device_count();
    n = n < capacity ? n : capacity;
    for (int i = 0; i < n; ++i) out[i] = i;
    return n > 0 ? n : 0;
}

glevo_island_place *islands_placement_gather(glevo_islands *is, const char *renderer, bool gpu)
{
    int devices[GLEVO_ISLANDS_HOST_DEVICES], n = gpu ? islands_usable_devices(devices, GLEVO_ISLANDS_HOST_DEVICES) : 0;
    glevo_island_place *places = NULL;
    if (glevo_islands_rank(is) == 0)
        places = calloc((size_t)glevo_islands_count(is), sizeof *places);
    if (glevo_islands_placement(is, renderer, devices, n, places) != GLEVO_OK) {
        free(places);
        return NULL;
    }
    return places;
}

void islands_placement_print(const char *command, const glevo_island_place *p, int count,
                             bool quiet)
{
    if (!p) return;
    if (!quiet)
        for (int i = 0; i < count; ++i) {
            fprintf(stderr, "glevo %s: rank %d -> %s, ", command, p[i].rank, p[i].host_name);
            if (p[i].device >= 0) fprintf(stderr, "EGL device %d", p[i].device);
            else fprintf(stderr, "no EGL device");
            fprintf(stderr, " -> %s\n", p[i].renderer);
        }
    int host = -1, shared = -1, idle = glevo_islands_placement_idle(p, count, &host, &shared);
    if (idle >= 0) {
        const char *name = "";
        for (int i = 0; i < count && !*name; ++i)
            if (p[i].host == host) name = p[i].host_name;
        fprintf(stderr, "glevo %s: warning: ranks on %s share EGL device %d while its device %d "
                "sits idle (--island-devices, or a rank a GPU: mpirun -np G)\n", command, name,
                shared, idle);
    }
}

void islands_placement_json(json_writer *w, const glevo_island_place *p, int count)
{
    if (!p) return;
    json_begin_array(w, "placement");
    for (int i = 0; i < count; ++i) {
        json_begin_object(w, NULL);
        json_int(w, "rank", p[i].rank);
        json_string(w, "host", p[i].host_name);
        json_int(w, "device", p[i].device);
        json_string(w, "renderer", p[i].renderer);
        json_end_object(w);
    }
    json_end_array(w);
}
#endif
