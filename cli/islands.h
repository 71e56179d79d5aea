/* --islands for the algorithm commands: `mpirun -np N glevo cga|de|gp ... --islands` runs one
 * island per MPI rank (glevo/islands.h). The options, and the generic front end each
 * family's glue (islands_cga.c, islands_de.c, islands_gp.c) calls with its engine. */
#ifndef GLEVO_CLI_ISLANDS_H
#define GLEVO_CLI_ISLANDS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "glevo/islands.h"

typedef struct island_opts {
    bool enabled;
    const char *topology;
    int migrants, migrate_every, torus_width;
    const char *devices; /* "0,1,2": the EGL device of each node-local rank, cyclically */
    double sync_timeout;
} island_opts;

/* torus_width -1: not given (the most square); sync_timeout NaN (no flag parses to it): not
 * given, derived from the run. */
#define ISLAND_OPTS_DEFAULT {.topology = "ring", .migrants = 1, .migrate_every = 50, .torus_width = -1, \
                             .sync_timeout = NAN}
#define ISLAND_OPT_SPECS(o)                                                                    \
    {"islands", OPT_FLAG, &(o).enabled,                                                        \
     "one island per MPI rank: mpirun -np N glevo ... --islands (island i: seed + i)"},       \
        {"topology", OPT_CHOICE, OPT_CHOICES((o).topology, "ring fully-connected unconnected torus"),                                                \
         "with --islands: ring, fully-connected, unconnected or torus"},                       \
        {"migrants", OPT_INT, &(o).migrants,                                                   \
         "with --islands: the best M of an island emigrate, replacing the worst when better"}, \
        {"migrate-every", OPT_INT, &(o).migrate_every,                                         \
         "with --islands: generations between migrations"},                                   \
        {"torus-width", OPT_INT, &(o).torus_width,                                             \
         "with --topology torus: islands per row (default: the most square)"},                 \
        {"island-devices", OPT_STRING, &(o).devices,                                           \
         "with --islands: EGL devices by node-local rank, e.g. 0,1 (default: rank mod devices)"}, \
        {"sync-timeout", OPT_DOUBLE, &(o).sync_timeout,                                        \
         "with --islands: seconds to wait for the other ranks before aborting, naming the "    \
         "missing ones (default: max(60, 20 x the longest stretch between synchronisations); "  \
         "0: no limit)"}

/* A command that takes --islands runs between these two. With --islands, begin starts MPI
 * before the options are parsed, so that rank 0 alone reports bad input (every rank reads the
 * same command line) and end's MPI_Finalize keeps the other ranks from exiting, and mpirun from
 * ending the job, before rank 0 has said why. end returns code. */
void islands_begin(int argc, char **argv);
int islands_end(int code);

/* A family's island maker: this rank's engine, new with seed or loaded from `resume` (its
 * checkpoint file), returned as an island. */
typedef glevo_status (*island_create_fn)(void *user, uint32_t seed, const char *resume,
                                         glevo_island *out);

/* What a family gives the front end (glevo/islands.h declares the types with or without MPI;
 * only the calls need it). create builds this rank's engine (on the context
 * current, with the island's seed) and returns it as an island; json writes the family's
 * own fields of the one JSON object. */
typedef struct island_family {
    const char *command;     /* "cga", "de", "gp" */
    int population;          /* of one island */
    long long generations;   /* at most (0: until the engine's budget is spent) */
    bool has_target;
    double target;
    int report_every;
    island_create_fn create;
    void (*destroy)(void *user);
    /* Fields after the common ones, given the global best (fitness, x). */
    void (*json)(void *user, json_writer *w, double best_fitness, const double *best_x);
    /* Where x is the family's own coding (gp's program block) rather than a point: the JSON
     * has no best_x and the text summary calls text for its last lines instead. */
    bool opaque_x;
    void (*text)(void *user, double best_fitness, const double *best_x);
    void *user;
} island_family;

#ifndef GLEVO_HAVE_MPI
/* Without MPI islands_main refuses --islands before any island is made: every family's create
 * is this one, which only says so. */
glevo_status islands_create_unavailable(void *user, uint32_t seed, const char *resume,
                                        glevo_island *out);
#endif

#ifdef GLEVO_HAVE_MPI
/* Placement (islands_placement.c). The EGL devices a host's ranks are spread over: the
 * hardware devices (an NVIDIA host also lists Mesa's software one, which no rank should land
 * on), or every device where all are software (llvmpipe in CI); returns their number. */
int islands_usable_devices(int *out, int capacity);
/* Collective: every rank's place, on rank 0 (count entries, to free); NULL elsewhere or when
 * it could not be gathered. gpu: this rank opened an EGL device. */
glevo_island_place *islands_placement_gather(glevo_islands *is, const char *renderer, bool gpu);
/* Rank 0: the map on stderr unless quiet, and the one-line warning about an idle GPU. */
void islands_placement_print(const char *command, const glevo_island_place *p, int count,
                             bool quiet);
/* The "placement" array of the islands object. */
void islands_placement_json(json_writer *w, const glevo_island_place *p, int count);
#endif

/* With --islands, --checkpoint and --resume name folders (a file per island and a
 * manifest): checked here instead of run_control_check. 0, or 2 after rank 0's one line. */
int islands_control_check(const char *command, run_control *ctl);

/* Runs the island of this rank to the end; rank 0 prints the JSON (or the text summary) and
 * progress, writes the trace. ctl: --checkpoint DIR, --checkpoint-every, --resume DIR and
 * the signals that stop a run. Returns the exit code (the same on every rank). */
int islands_main(const island_family *f, const common_opts *c, const island_opts *o,
                 const char *trace_path, run_control *ctl);

/* The families' glue (islands_cga.c, islands_de.c, islands_gp.c): params already validated,
 * changes what was typed (compared with the checkpoints on --resume); tolerance NaN when not
 * given. */
int islands_cga(const glevo_cga_params *params, const glevo_cga_params *changes,
                long long generations, bool has_target, double target, double tolerance,
                const common_opts *c, const island_opts *o, const char *trace, run_control *ctl);
int islands_de(const glevo_de_params *params, const glevo_de_params *changes,
               const common_opts *c, const island_opts *o, const char *trace, run_control *ctl);
/* data and test (NULL: none) are this rank's copies of --data and --test. */
int islands_gp(const glevo_gp_params *params, const glevo_gp_params *changes,
               const glevo_gp_data *data, const char *data_path, const glevo_gp_data *test,
               const common_opts *c, const island_opts *o, const char *trace, run_control *ctl);

#endif
