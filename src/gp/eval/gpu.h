/* GPU state both GP drivers share (fragment.c, compute.c): the dataset and the programs in
 * textures (the fragment pass and the compute kernel read the same ones), the interpreter
 * builds specialised per population (Augusto & Barbosa 2012, §5.4), the uniform block, and the
 * check of the results with their run marks. */
#ifndef GLEVO_GP_GPU_H
#define GLEVO_GP_GPU_H

#include "gl/gpgpu.h"
#include "gp/eval/eval_internal.h"

#define GP_BUILD_CACHE 8

/* The block of shaders/gp/uniforms.glsl (std140). */
typedef struct gp_uniforms {
    int32_t tile[2], walk_range[2], lane_range[2];
    int32_t tiles, nseg, pop, group, prog_rows, cases, quads, data_width, data_rows;
    int32_t continue_, tile_base, stamp, moments, pad;
} gp_uniforms;

/* Sampler slots of the evaluation programs (both drivers). */
enum { GP_SLOT_PROGRAMS, GP_SLOT_INDEX, GP_SLOT_CONSTS, GP_SLOT_DATA, GP_SLOT_TARGET, GP_SLOT_STATE };
extern const gpu_slot gp_eval_samplers[];

/* What an interpreter build is specialised to. */
typedef struct gp_build_key {
    int compute;       /* 1: gp/eval_compute.glsl */
    uint32_t mask;     /* operators in use */
    int stack, lanes, long_programs;
    int codes_shared;  /* compute: codes in shared memory, this many slots (0: from the texture) */
    int stack_shared;  /* compute: the stack below the top in shared memory */
    int prog_lanes;    /* compute: 0, the 64-lane kernel; else gp/eval_small.glsl with this many
                        * invocations per tile */
    int lane_slots;    /* gp/eval_small.glsl: shared L_t slots per tile */
    int fused;         /* compute, one case segment: results written by the kernel */
    int inline_all;    /* fragment: calls inlined (gp_build_inline_all) */
} gp_build_key;

typedef struct gp_gpu {
    int quads, data_width, data_rows, max_tex;
    gpu_texture data_tex, target_tex;
    gpu_texture programs_tex, index_tex, consts_tex;
    /* 1: programs, index and consts are the resident population's textures (lent by
     * src/gp/breed/resident.c at every evaluation): nothing is uploaded, nor destroyed here. */
    int resident;
    /* The evaluator's own program textures while it reads a resident population, swapped in
     * (gp_gpu_swap_own) to evaluate programs of its own, as linear scaling's second look does. */
    gpu_texture own_programs_tex, own_index_tex, own_consts_tex;
    gp_packed packed;
    struct {
        gp_build_key key;
        gpu_program program;
    } builds[GP_BUILD_CACHE];
    int build_count, build_next;
} gp_gpu;

/* Uploads the dataset (transposed, four cases a texel). */
glevo_status gp_gpu_create(gp_gpu *g, const glevo_gp_data *d);
void gp_gpu_destroy(gp_gpu *g);
/* Packs and uploads the programs; textures only grow, so later generations reuse them. */
glevo_status gp_gpu_upload_programs(gp_gpu *g, const glevo_gp_programs *p);
/* Between the resident population's textures and the evaluator's own (evaluator.c's second
 * look at nearly exact scaled programs, which are not in the population): call it twice. */
void gp_gpu_swap_own(gp_gpu *g);
/* The interpreter built for key (cached over a run's generations). */
glevo_status gp_gpu_build(gp_gpu *g, const gp_build_key *key, gpu_program **out);
/* The block's fields every GP pass shares. */
gp_uniforms gp_gpu_uniforms(const gp_gpu *g, const gp_plan *plan, int pop, int cases);
/* Binds the evaluation samplers (programs, index, constants, data, target) to pass. */
void gp_gpu_bind_eval(gp_gpu *g, gpu_pass *pass);

/* The loop iterations one invocation may run (gpu_limits.max_loop_iterations; 0: no limit).
 * GLEVO_GP_LOOP_BUDGET=N replaces it (0: plan as if there were none, which is how the tests
 * check that the run marks catch loops a driver cuts short). */
long long gp_loop_budget(void);

/* Program i's result as the combine step writes it: four words at bits + i * stride, the
 * bits of the two double sums, and four floats (as words) at counts + i * stride: hits, run
 * marks, the combine loop's count and 1 + the evaluation's stamp (u_stamp; 0 where the driver
 * clears its results instead). Checks that every mark came back (so a draw or dispatch that
 * did not run, or a loop the driver cut short, fails loudly) and fills sums. */
glevo_status gp_gpu_take_sums(const uint32_t *bits, const uint32_t *counts, size_t stride,
                              int pop, const gp_plan *plan, double marks, int stamp,
                              const char *what, glevo_gp_sums *sums);

/* An evaluation left on the GPU (compute driver): program i's result at i of results, as
 * gp_gpu_take_sums reads it, with the run marks and stamp it must carry. */
typedef struct gp_gpu_results {
    gpu_buffer *results;
    float marks;
    int nseg, stamp;
} gp_gpu_results;
/* The compute evaluator's dispatches on p (resident programs) without the read-back. */
glevo_status gp_compute_evaluate_on_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                        gp_gpu_results *out);
/* Linear scaling's second look on the GPU without the host: the buffer of a and b a program
 * (at least pop of them) that gp/fitness.glsl's pass 1 fills, and the evaluation of p with
 * them (the programs whose a is NaN skipped). */
gpu_buffer *gp_compute_affine(glevo_gp_evaluator *e, int pop, glevo_status *st);
glevo_status gp_compute_second_look_on_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                           gp_gpu_results *out);
/* The interpreter an evaluation of p would build, built now (in a run's program batch, so
 * that it compiles beside the run's other programs: gl/program_batch.c). */
glevo_status gp_compute_prebuild(glevo_gp_evaluator *e, const glevo_gp_programs *p);

#endif
