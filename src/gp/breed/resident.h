/* The GP population resident on the GPU (src/gp/breed/resident.c): fixed-capacity slots that the
 * evaluator reads in place and the breeding pass (shaders/gp/breed.glsl) writes, two
 * generations ping-ponged. The host reads back only what it reports. */
#ifndef GLEVO_GP_RESIDENT_H
#define GLEVO_GP_RESIDENT_H

#include "gl/gpgpu.h"
#include "gp/breed/breed.h"

typedef struct gp_resident {
    int pop, cap, spr;          /* slots, codes a slot, slots per 4096-word row of codes */
    gpu_texture codes[2], consts[2], sizes[2], index;
    gpu_buffer in, stats;       /* elites and fitness; depth, total, longest, ops, lengths */
    gpu_program breed, lens_prog, plan_prog;
    gpu_texture plan[4];        /* fragment: each child's plan, four words a texture */
    int compute;                /* the breeding driver: compute dispatch or fragment draw */
    gpu_texture fit, lens_tex;  /* fragment: fitness as double bits, the children's lengths */
    gpu_program fit_prog;       /* compute: gp/fitness.glsl */
    gpu_buffer errs;            /* compute: the errors gp/fitness.glsl wrote */
    int cur;                    /* codes[cur] ... hold the evaluated generation */
    uint32_t mask;              /* the function set's operators */
    int stats_pending;          /* the last breed's lengths are not read back yet */
    long long total;            /* codes in the current generation (once read) */
    glevo_gp_programs shape;    /* what the evaluator's plan and build need of it */
    int32_t *lens;              /* the lengths of the evaluated generation (host copy) */
    uint32_t *stage;            /* host staging for uploads and reads */
} gp_resident;

/* Whether a run of pop programs of max_size codes fits the resident layout: slots inside a
 * 4096-word row, constant indices (word indices) in 24 bits, textures within the limit; where
 * it does not, a GPU run is refused before anything is allocated (GLEVO_ERR_INVALID, one line
 * naming the limit and the value). */
glevo_status gp_resident_check(int pop, int max_size, uint32_t mask);
glevo_status gp_resident_create(gp_resident *r, int pop, int max_size, uint32_t mask, int compute);
/* Where slot s's [length, codes...] start (its constants and sizes start there too). */
size_t gp_resident_slot_offset(const gp_resident *r, int s);
void gp_resident_destroy(gp_resident *r);
/* The host population (slot s: len[s] codes at codes[s * cap], constants beside them) into
 * the current generation's slots. */
glevo_status gp_resident_upload(gp_resident *r, const uint32_t *codes, const float *consts,
                                const int32_t *len);
/* The current generation back to the host, constant indices as their own positions. */
glevo_status gp_resident_download(gp_resident *r, uint32_t *codes, float *consts, int32_t *len);
/* One slot back (the best program for progress). */
glevo_status gp_resident_read_slot(gp_resident *r, int s, uint32_t *codes, float *consts, int *len);
/* The next generation from the current one and the parents' fitness; it becomes current
 * (its lengths come with gp_resident_read_stats). */
glevo_status gp_resident_breed(gp_resident *r, const gp_breed_params *bp, const double *fit,
                               const int32_t *elite);
/* The last breed's lengths (lens), code total and shape, read back once the GPU is done
 * (after the evaluation, so that the read waits for nothing). */
glevo_status gp_resident_read_stats(gp_resident *r);
/* The head of the compute driver's input buffer (gp_breed_in of gp/breed.glsl and
 * gp/fitness.glsl, std430), the fitness after it. best_fit: the best's fitness of generation
 * g at g % GP_BEST_HISTORY, kept on the GPU so that a portfolio's restart count reads the
 * bests of several generations at once when it needs them (src/gp/engine.c). */
#define GP_BEST_HISTORY 64
struct gp_gpu_results;
typedef struct gp_fit_head {
    int32_t elite[GP_ELITE_MAX];
    int32_t best, bad;
    double codes;
    double best_fit[GP_BEST_HISTORY];
} gp_fit_head;

/* With linear scaling the fitness takes two passes around the evaluator's second look
 * (gp/fitness.glsl): pass 1 the scaled errors and the nearly exact programs' a and b, pass 2
 * the second look's errors, then fitness, best and elites. */
typedef struct gp_scaled_pass {
    int pass;              /* 1 or 2 */
    double sum_y, sum_yy;  /* the target's (the evaluator's) */
    double limit;          /* the second look's bound (gp_evaluator_refine_limit) */
    gpu_buffer *affine;    /* the second look's a and b a program (gp_compute_affine) */
} gp_scaled_pass;
/* Compute driver (src/gp/breed/fitness_gpu.c): the fitness of the evaluated generation, its best
 * and elites from the evaluator's results, left on the GPU for the next breed (scaled: NULL
 * without linear scaling). */
glevo_status gp_resident_fitness(gp_resident *r, const struct gp_gpu_results *res,
                                 glevo_gp_metric metric, int cases, int elites, int generation,
                                 const gp_scaled_pass *scaled);
/* The shape a grown generation of walks at most depth deep will have (the evaluator's build
 * for it: gp_engine_prebuild), before it is grown. */
void gp_resident_grown_shape(const gp_resident *r, int depth, glevo_gp_programs *out);
/* Its program built now (else at the first gp_resident_fitness). */
glevo_status gp_resident_fitness_prebuild(gp_resident *r);
/* What gp_resident_fitness left: errors, fitness, head (any may be NULL). */
glevo_status gp_resident_read_fitness(gp_resident *r, double *err, double *fit, gp_fit_head *head);
/* What gp_resident_fitness left of the best alone: its index and fitness, in one read (a
 * portfolio's restart keeps it: src/gp/engine.c). */
glevo_status gp_resident_read_best(gp_resident *r, int *best, double *fit);
/* The best's fitness of generations first .. first + n - 1 (n <= GP_BEST_HISTORY, the last
 * of them evaluated most recently), in one read. */
glevo_status gp_resident_read_best_history(gp_resident *r, int first, int n, double *fit);
/* The host's fitness and elites for the next compute breed (after a resume or a migration). */
glevo_status gp_resident_put_fitness(gp_resident *r, const double *fit, const int32_t *elite,
                                     int elites);

/* The evaluator reads the current generation in place from now on. */
void gp_resident_lend(gp_resident *r, glevo_gp_evaluator *ev);

#endif
