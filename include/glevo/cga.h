/* Fine-grained (cellular) parallel GA — Li, Chi, Wan 2008 — as render passes: a W x H
 * toroidal grid, one individual per texel, genes as 24-bit integers held exactly in RGBA32F
 * channels. Per generation: fitness -> reduction -> neighbourhood roulette selection ->
 * odd-even single-point crossover -> per-bit mutation. The CPU engine runs the passes' C
 * twins on the same random stream; the standard GA (global roulette) is the paper's baseline. */
#ifndef GLEVO_CGA_H
#define GLEVO_CGA_H

#include "glevo/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glevo/backend.h"
#include "glevo/checkpoint.h"
#include "glevo/context.h"
#include "glevo/problem.h"
#include "glevo/rng_source.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_cga_neighbourhood {
    GLEVO_NEIGHBOURHOOD_MOORE = 0,       /* 3x3: the paper's choice (9 candidates) */
    GLEVO_NEIGHBOURHOOD_VON_NEUMANN = 1, /* the cell and its 4 edge neighbours */
    GLEVO_NEIGHBOURHOOD_MOORE5 = 2       /* 5x5: 25 candidates */
} glevo_cga_neighbourhood;

typedef enum glevo_cga_algorithm {
    GLEVO_CGA_CELLULAR = 0, /* the paper's fine-grained GA */
    GLEVO_CGA_STANDARD = 1  /* the paper's baseline: global roulette (CPU only) */
} glevo_cga_algorithm;

typedef enum glevo_cga_mutation {
    GLEVO_MUTATION_PER_BIT = 0, /* the paper's: one random number per bit */
    GLEVO_MUTATION_SKIP = 1     /* same distribution: draw the gap to the next flipped bit */
} glevo_cga_mutation;

#define GLEVO_CGA_MAX_DIM 32 /* 8 RGBA textures: the draw-buffer limit of one pass */

/* Progress (the shape of glevo_gp_progress_fn): the generation just reached and the best
 * so far under the problem's direction. */
typedef void (*glevo_cga_progress_fn)(void *user, long long generation, double best_fitness);

/* Zero means default for every field (glevo_cga_params_defaults); GLEVO_ZERO asks for 0. */
typedef struct glevo_cga_params {
    const glevo_problem *problem; /* required */
    int dim;                      /* default: the problem's default dimension */
    int width, height;            /* grid; width even (crossover pairs); default 64x64 */
    int bits;                     /* gene length L, 1..24; default 24 */
    double pc;                    /* crossover probability per pair and gene; default 0.8 */
    double pm;                    /* mutation probability per bit; default 0.005 */
    glevo_cga_neighbourhood neighbourhood;
    glevo_cga_algorithm algorithm;
    glevo_backend backend;        /* auto (default), compute, fragment or cpu */
    glevo_rng_mode rng;
    glevo_cga_mutation mutation;
    uint32_t seed;
    int report_every;             /* read best-so-far back every K generations; default 25 */
    /* Compute backend, temporal blocking: generations one dispatch runs (1..64; 0: the rule
     * measured on the H100; GLEVO_ZERO: one generation a dispatch, three dispatches) and the
     * cells a work-group owns (even width; 0x0: the rule). Refused at create where this GPU
     * cannot run them. The run is the same bit for bit whatever they are. */
    int block_depth;
    int block_tile[2];
    /* NULL: none. Else glevo_cga_step calls it whenever the generation count reaches a
     * multiple of report_every, after reading the best back (what a front end would read);
     * the run is the same with or without it. Not stored in checkpoints: give it again in
     * glevo_cga_load's changes. */
    glevo_cga_progress_fn progress;
    void *progress_user;
} glevo_cga_params;

typedef struct glevo_cga glevo_cga;

typedef struct glevo_cga_best {
    double fitness;              /* best-so-far raw objective value */
    double x[GLEVO_CGA_MAX_DIM]; /* decoded genes of that individual */
    int x_cell, y_cell;          /* where it was found */
    long long generation;        /* generation it was found in */
} glevo_cga_best;

typedef struct glevo_cga_stats {
    double best, mean, worst;    /* of the current population's fitness */
    double diversity;            /* mean over genes of the population's std of x / range */
} glevo_cga_stats;

/* The parameters with every default filled in (what a run uses; what --help prints). */
GLEVO_API glevo_cga_params glevo_cga_params_defaults(const glevo_cga_params *params);
/* Checks every parameter; the message names the params field and the bad value
 * ("glevo_cga_params.dim 40 is outside 1..32"). */
GLEVO_API glevo_status glevo_cga_validate(const glevo_cga_params *params);
/* GPU backends run on the GL context current on this thread (glevo_context_create). */
GLEVO_API glevo_status glevo_cga_create(const glevo_cga_params *params, glevo_cga **out);
GLEVO_API void glevo_cga_destroy(glevo_cga *cga);
/* Runs `generations` generations (no readback on the GPU except every report_every). */
GLEVO_API glevo_status glevo_cga_step(glevo_cga *cga, int generations);
/* Best so far (a small readback on the GPU). */
GLEVO_API glevo_status glevo_cga_best_get(glevo_cga *cga, glevo_cga_best *out);
/* Statistics of the current population (reads the whole fitness and genes back). */
GLEVO_API glevo_status glevo_cga_stats_get(glevo_cga *cga, glevo_cga_stats *out);
GLEVO_API long long glevo_cga_generation(const glevo_cga *cga);
GLEVO_API long long glevo_cga_evaluations(const glevo_cga *cga);
GLEVO_API const glevo_cga_params *glevo_cga_params_of(const glevo_cga *cga);

/* The population as floats: textures t = 0..ceil(dim/4)-1, each W*H RGBA texels, gene
 * 4t + c in channel c (24-bit integers); fitness W*H floats (of the last evaluation). */
GLEVO_API size_t glevo_cga_gene_floats(const glevo_cga *cga);
GLEVO_API glevo_status glevo_cga_read_population(glevo_cga *cga, float *genes, float *fitness);
GLEVO_API glevo_status glevo_cga_write_population(glevo_cga *cga, const float *genes);

/* Checkpoints (docs/checkpoint.md). save writes the whole state between steps (parameters,
 * generation and evaluation counts, the population and its fitness read back from the GPU,
 * the best-so-far record, the front end's extra; NULL: none) atomically: a file already at
 * path stays valid until the new one is complete. */
GLEVO_API glevo_status glevo_cga_save(glevo_cga *cga, const char *path, const glevo_checkpoint_extra *extra);
/* Builds an engine from a checkpoint; stepping it ends bit for bit where the saved run would
 * have (on the same renderer; across backends where they agree exactly). changes: NULL, or
 * the parameters to change, zero meaning "as in the file" (GLEVO_ZERO asks for 0:
 * .backend = GLEVO_ZERO is the fragment backend). backend and report_every may change; any
 * other field that differs from the file's is refused naming it. A built-in problem is found
 * by its name; a user GLSL problem must be given again in changes->problem. */
GLEVO_API glevo_status glevo_cga_load(const char *path, const glevo_cga_params *changes, glevo_cga **out);

/* Migration (the island model, glevo/islands.h): small transfers, never the population.
 * After a step the fitness store holds the population's before the last variation;
 * glevo_cga_evaluate runs the fitness pass on the current genes (counted as width * height
 * evaluations), so that glevo_cga_read_fitness then gives the fitness of the current genes.
 * Cells are numbered y * width + x; a cell's genes are `dim` floats (24-bit integers). Reads
 * and writes cost one texel per cell and gene texture on the GPU backends. */
GLEVO_API glevo_status glevo_cga_evaluate(glevo_cga *cga);
GLEVO_API glevo_status glevo_cga_read_fitness(glevo_cga *cga, float *fitness);
GLEVO_API glevo_status glevo_cga_read_cells(glevo_cga *cga, int count, const int *cells, float *genes);
GLEVO_API glevo_status glevo_cga_write_cells(glevo_cga *cga, int count, const int *cells,
                                   const float *genes);

/* Emigrant candidates chosen on the GPU, so that a migration reads back a few hundred cells
 * instead of the whole fitness (GPU backends where the context has compute shaders, GL 4.3).
 * glevo_cga_candidates evaluates the current genes as glevo_cga_evaluate does (counted the
 * same), then every chunk of cells keeps its best m and its worst m, in islands' order (score
 * = fitness, negated when minimising, NaN the worst; best: ties to the lower cell, worst: to
 * the higher): together they hold the population's best m and worst m. It writes
 * glevo_cga_candidate_count(cga, m) cells and fitness values, the chunks' best in the first
 * half and their worst in the second, cell -1 where a chunk had fewer than m cells. The count
 * is 0 where this engine cannot (CPU backend, no compute shaders, m outside
 * 1..GLEVO_CGA_MAX_CANDIDATES): read the fitness instead. */
#define GLEVO_CGA_MAX_CANDIDATES 32
GLEVO_API int glevo_cga_candidate_count(const glevo_cga *cga, int m);
GLEVO_API glevo_status glevo_cga_candidates(glevo_cga *cga, int m, int *cells, float *fitness);
/* Builds what glevo_cga_candidates needs (a GPU program, a buffer) and runs it once ahead,
 * so that the first migration does not pay for that (the island adapter calls it); changes
 * nothing of the run; does nothing where the count is 0. */
GLEVO_API glevo_status glevo_cga_candidates_prepare(glevo_cga *cga);

/* For viewers (demo, snapshots): GL texture ids of the engine's stages, GPU backends only.
 * stage: 0 population (after mutation), 1 fitness, 2 after selection, 3 after crossover;
 * index picks the gene texture for the population stages. 0 when unavailable (the compute
 * backend fuses selection, crossover and mutation, so it has no stages 2 and 3). */
typedef enum glevo_cga_stage {
    GLEVO_CGA_STAGE_POPULATION = 0,
    GLEVO_CGA_STAGE_FITNESS = 1,
    GLEVO_CGA_STAGE_SELECTED = 2,
    GLEVO_CGA_STAGE_CROSSED = 3
} glevo_cga_stage;
GLEVO_API unsigned glevo_cga_texture(const glevo_cga *cga, glevo_cga_stage stage, int index);
/* Names of the enums ("moore", "von-neumann", "moore5"; "cellular", "sga"; "per-bit",
 * "skip"); parse returns -1 for an unknown name. */
GLEVO_API const char *glevo_cga_neighbourhood_name(glevo_cga_neighbourhood n);
GLEVO_API int glevo_cga_neighbourhood_parse(const char *name);
GLEVO_API const char *glevo_cga_algorithm_name(glevo_cga_algorithm a);
GLEVO_API int glevo_cga_algorithm_parse(const char *name);
GLEVO_API const char *glevo_cga_mutation_name(glevo_cga_mutation m);
GLEVO_API int glevo_cga_mutation_parse(const char *name);
/* Decoding of a gene integer to the problem's domain (what the fitness pass computes). */
GLEVO_API double glevo_cga_decode(const glevo_cga *cga, float gene);

#ifdef __cplusplus
}
#endif
#endif
