/* The island model over MPI, in pagmo's vocabulary: one island (one population of a family
 * engine) per MPI rank, each on its own EGL device; every K generations the best M of each
 * island (selection policy "best") travel to its neighbours in the topology and replace the
 * worst there when they are better (replacement policy "worst-if-better"). Migration is
 * synchronous, so the same seed and the same number of islands give the same result on the
 * same renderer. Built only with MPI (GLEVO_MPI, Open MPI); docs/notes/islands-readme.md. */
#ifndef GLEVO_ISLANDS_H
#define GLEVO_ISLANDS_H

#include "glevo/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/gp.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_topology {
    GLEVO_TOPOLOGY_RING = 0,            /* island i exchanges with i - 1 and i + 1 (cyclic) */
    GLEVO_TOPOLOGY_FULLY_CONNECTED = 1, /* every island with every other */
    GLEVO_TOPOLOGY_UNCONNECTED = 2,     /* no migration: N independent runs */
    GLEVO_TOPOLOGY_TORUS = 3            /* rows of torus_width islands; 4 neighbours, cyclic */
} glevo_topology;

/* Zero means default for every field (glevo_islands_params_defaults). */
typedef struct glevo_islands_params {
    glevo_topology topology;  /* default ring */
    int migrants;             /* M, the best M of an island emigrate; default 1 */
    int migrate_every;        /* K, generations between migrations; default 50 */
    int torus_width;          /* islands per torus row, dividing N; default the most square */
    double sync_timeout;      /* seconds a rank waits for the others at a synchronisation
                               * point before giving up (glevo_islands_broken), naming the
                               * ranks that did not arrive. 0 (default): derived from the run,
                               * max(60 s, 20 x the longest this rank worked between two
                               * synchronisation points); GLEVO_ZERO: no limit */
    void *comm;               /* an MPI_Comm *; NULL: MPI_COMM_WORLD */
} glevo_islands_params;

/* What the island model needs from a family's engine (adapters below; a user may bring their
 * own). Genes travel as doubles: `dim` numbers an individual, in the family's own coding. */
typedef struct glevo_island_ops {
    const char *family;                                  /* "cga", "de", "gp" */
    glevo_status (*step)(void *algo, int generations);
    bool (*done)(void *algo);                            /* its own budget is spent */
    /* Best so far: the raw objective value, and x in the domain (dim numbers). */
    glevo_status (*best)(void *algo, double *fitness, double *x);
    long long (*generation)(const void *algo);
    long long (*evaluations)(const void *algo);
    int (*size)(const void *algo);                       /* individuals */
    int (*dim)(const void *algo);
    bool (*maximize)(const void *algo);
    /* Migration: the fitness of the current population (evaluating it if the engine must),
     * genes of a few individuals, and writing a few individuals (with their fitness, which a
     * family may also recompute). */
    glevo_status (*fitness)(void *algo, float *fitness);
    glevo_status (*read)(void *algo, int count, const int *index, double *genes);
    glevo_status (*write)(void *algo, int count, const int *index, const double *genes,
                          const double *fitness);
    /* Checkpoints (glevo/checkpoint.h): the engine's whole state into path, atomically; NULL
     * when the engine has none. */
    glevo_status (*save)(void *algo, const char *path);
    /* Optional (NULL: `fitness`, then the choice on the host): `fitness` and the choice of the
     * best m (best first, ties to the lower index) and the worst m (worst first, ties to the
     * higher index; NaN the worst) in one, without the whole fitness leaving the engine, for
     * 1 <= m <= select_limit(algo) (0: not now, e.g. on the CPU backend). Writes the indices,
     * their scores (fitness, negated when minimising; NaN as -infinity) and the fitness of the
     * best. Must give what `fitness` and that choice give, so runs do not change with it. */
    int (*select_limit)(const void *algo);
    glevo_status (*select)(void *algo, int m, int *best, double *best_score, float *best_fitness,
                           int *worst, double *worst_score);
} glevo_island_ops;

typedef struct glevo_island {
    const glevo_island_ops *ops;
    void *algo;
} glevo_island;

/* Adapters for the families (the engine stays owned by the caller). */
GLEVO_API glevo_island glevo_island_cga(glevo_cga *cga);
GLEVO_API glevo_island glevo_island_de(glevo_de *de);
/* GP: an individual is its error, then the program as glevo_gp_program_encode's block (dim =
 * 2 + 2 max_size); the error travels exact in the block (the ops' fitness is a float). */
GLEVO_API glevo_island glevo_island_gp(glevo_gp *gp);

typedef struct glevo_islands glevo_islands;

/* MPI_Init unless MPI is already initialised (then it does nothing), and MPI_Finalize unless
 * finalised; the library never calls either by itself. */
GLEVO_API glevo_status glevo_islands_init(int *argc, char ***argv);
GLEVO_API void glevo_islands_finalize(void);
/* This process's rank in MPI_COMM_WORLD (after glevo_islands_init): which rank speaks for the
 * job before the islands exist, e.g. to report bad options once. */
GLEVO_API int glevo_islands_world_rank(void);

/* Ends every rank of the job (MPI_Abort): the way out when glevo_islands_broken says the
 * ranks can no longer meet in a collective (one hung past the timeout). */
GLEVO_API void glevo_islands_abort(int code);

GLEVO_API glevo_islands_params glevo_islands_params_defaults(const glevo_islands_params *params);
/* Checks the parameters against the number of islands and the population of one island; the
 * message names the params field and the bad value ("glevo_islands_params.migrants 40 is
 * above the population of an island, 36"). islands = 0 / population = 0 skip those checks. */
GLEVO_API glevo_status glevo_islands_validate(const glevo_islands_params *params, int islands,
                                    int population);
/* Collective over the communicator (every rank calls it): builds the topology. */
GLEVO_API glevo_status glevo_islands_create(const glevo_islands_params *params, glevo_islands **out);
GLEVO_API void glevo_islands_destroy(glevo_islands *is);

GLEVO_API int glevo_islands_rank(const glevo_islands *is);        /* this island, 0..count-1 */
GLEVO_API int glevo_islands_count(const glevo_islands *is);
GLEVO_API int glevo_islands_local_rank(const glevo_islands *is);  /* among the ranks of this host */
/* The documented derivation of an island's seed: seed + rank (mod 2^32), so that island i of
 * an unconnected run is the plain run with seed + i. */
GLEVO_API uint32_t glevo_islands_seed(const glevo_islands *is, uint32_t seed);
/* The EGL device of this island: devices[local rank mod count] (devices NULL: the local rank
 * mod count), so the ranks of a host spread over its GPUs; recorded for messages. -1 when
 * count < 1. glevo_islands_set_device records a choice made otherwise (-1: no GL device). */
GLEVO_API int glevo_islands_device(glevo_islands *is, const int *devices, int count);
GLEVO_API void glevo_islands_set_device(glevo_islands *is, int device);
/* Where an island runs (glevo_islands_placement). Fixed sizes: gathered as one block a rank. */
#define GLEVO_ISLANDS_HOST_DEVICES 16
typedef struct glevo_island_place {
    int rank;                 /* the island */
    int device;               /* its EGL device (glevo_islands_device); -1: none (CPU) */
    int host;                 /* hosts numbered 0, 1, ... in the order of their lowest rank */
    int device_count;         /* devices[]: the EGL devices its host's ranks may use */
    int devices[GLEVO_ISLANDS_HOST_DEVICES];
    char host_name[64];       /* MPI_Get_processor_name, cut to fit */
    char renderer[128];       /* as the rank gave it, cut to fit */
} glevo_island_place;
/* Collective, once every rank has its device: gathers every island's place on rank 0 into
 * out (glevo_islands_count entries; NULL: gathered and dropped; other ranks' out is not
 * used). renderer: this rank's GL renderer; devices, count: the EGL devices the ranks of
 * this host may use (those `glevo info` calls hardware, or all when all are software; at
 * most GLEVO_ISLANDS_HOST_DEVICES are kept). */
GLEVO_API glevo_status glevo_islands_placement(glevo_islands *is, const char *renderer,
                                               const int *devices, int count,
                                               glevo_island_place *out);
/* The placement check over count places (as glevo_islands_placement gathers them): the first
 * host whose ranks share a device while one of its devices[] has no rank. Returns that idle
 * device, with the host and the shared device through host and shared (either may be NULL);
 * -1 when no host is so. Ranks without a device (-1) share nothing. MPI-free. */
GLEVO_API int glevo_islands_placement_idle(const glevo_island_place *places, int count, int *host,
                                           int *shared);
/* Neighbours this island receives migrants from (sorted ranks); returns their number. */
GLEVO_API int glevo_islands_neighbours(const glevo_islands *is, int *out, int capacity);

/* The island this rank runs (checks that M does not exceed its population). */
GLEVO_API glevo_status glevo_islands_attach(glevo_islands *is, glevo_island island);

/* Where every island stands at a synchronisation point (the same on every rank). */
typedef struct glevo_islands_state {
    long long generation;       /* this island's */
    int count;                  /* islands */
    const double *best;         /* count values: each island's best so far */
    const double *evaluations;  /* count values */
    const double *immigrants;   /* count values: immigrants accepted so far */
    double global_best;
    int global_best_island;
    long long migrations;       /* migration rounds done */
    double seconds;             /* since glevo_islands_evolve began (this rank's clock) */
    bool stop;                  /* some island asked to stop (target reached, budget spent) */
    bool checkpoint;            /* some island asked for a checkpoint */
} glevo_islands_state;

/* Collective: every rank reports its status, a stop request and its best so far. Returns
 * GLEVO_OK when every island is fine; otherwise, on every rank, the failing island's status
 * with glevo_last_error() = "island R (rank R, EGL device D) failed: <its message>" (the
 * lowest failing rank), so that all ranks stop together (the last complete checkpoint of
 * glevo_islands_evolve stands). */
GLEVO_API glevo_status glevo_islands_sync(glevo_islands *is, glevo_status local, bool stop, double best,
                                glevo_islands_state *out);
/* True once a rank waited past the timeout: the others cannot be met again, so the caller
 * should report and glevo_islands_abort rather than finalise. */
GLEVO_API bool glevo_islands_broken(const glevo_islands *is);
/* Collective: one migration round (best M out to the neighbours, worst-if-better in). A local
 * failure still takes part in the exchange (sending nothing), so no rank waits forever; the
 * failure is returned here and should be passed to the next glevo_islands_sync. */
GLEVO_API glevo_status glevo_islands_migrate(glevo_islands *is);

/* Summary of a run, per island (filled on rank 0; other ranks get their own row only). */
typedef struct glevo_island_report {
    int island, device;
    double best_fitness;
    long long generations, evaluations, immigrants;
    double seconds, migration_seconds, sync_seconds;
    double step_seconds; /* inside the engine's generations (evaluation and breeding); the rest
                          * of seconds beside migration and sync is checkpoints and waiting */
} glevo_island_report;

typedef struct glevo_islands_summary {
    int count, dim;
    glevo_island_report *islands; /* count rows on rank 0; one row elsewhere */
    double best_fitness;          /* the global best (rank 0; elsewhere this island's) */
    double *best_x;               /* dim numbers */
    int best_island;
    long long migrations;
    bool stopped;                 /* ended by a stop request (target, budget, interruption) */
    long long checkpoints;        /* complete checkpoints written by this run */
    long long checkpoint_generation; /* of the last complete one; -1: none */
} glevo_islands_summary;

typedef struct glevo_islands_run {
    long long generations;      /* at most this many (0: until an island's budget is spent) */
    bool has_target;            /* stop when some island's best reaches target */
    double target;
    int report_every;           /* synchronise (and call report) every this many generations
                                 * as well as at migrations; 0: at migrations only */
    void (*report)(void *user, const glevo_islands_state *state);
    void *user;
    /* Checkpoints into checkpoint_dir (NULL: none), at the synchronisation points where some
     * rank's checkpoint_due says so (NULL: never) and at the end when final_checkpoint, always
     * before that point's migration, so a resumed run goes on exactly as this one would. */
    const char *checkpoint_dir;
    int checkpoint_every;       /* also synchronise at its multiples (0: no such points) */
    bool (*checkpoint_due)(void *user, long long generation);
    void (*checkpoint_written)(void *user, long long generation, double seconds);
    bool final_checkpoint;
    /* Some rank was asked to stop (a signal): every island stops at the next point. NULL:
     * never. */
    bool (*interrupted)(void *user);
} glevo_islands_run;

/* Collective, before creating this island's engine: reads dir/manifest.txt of a checkpoint
 * written by glevo_islands_evolve, checks that this job matches it (the same number of
 * islands, topology, migrants, K and torus width; GLEVO_ERR_INVALID naming the field
 * otherwise), restores the island model's counts (migrations, immigrants) and gives the
 * path of this island's engine checkpoint for the family's load (glevo_cga_load,
 * glevo_de_load, glevo_gp_load). The job must see dir at the same path on every host (shared
 * storage). */
GLEVO_API glevo_status glevo_islands_resume(glevo_islands *is, const char *dir, char *path, size_t size,
                                  long long *generation);
/* The generation of the last complete checkpoint (written or resumed from); -1: none. */
GLEVO_API long long glevo_islands_checkpoint_generation(const glevo_islands *is);

/* Collective: runs the attached island to the end, migrating every K generations and
 * synchronising at every migration and report point. Returns the first failure of any
 * island (see glevo_islands_sync) or GLEVO_OK with the summary gathered on rank 0. */
GLEVO_API glevo_status glevo_islands_evolve(glevo_islands *is, const glevo_islands_run *run,
                                  glevo_islands_summary *out);
GLEVO_API void glevo_islands_summary_free(glevo_islands_summary *s);

/* "ring", "fully-connected", "unconnected", "torus"; parse returns -1 for unknown names. */
GLEVO_API const char *glevo_topology_name(glevo_topology t);
GLEVO_API int glevo_topology_parse(const char *name);

#ifdef __cplusplus
}
#endif
#endif
