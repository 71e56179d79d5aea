/* The GP evaluator behind glevo_gp_evaluator (evaluator.c): its ops table (one per backend:
 * the CPU interpreter in evaluator.c, fragment.c, compute.c), the summation order every
 * backend shares, the GL-free layout plans of the GPU drivers (plan.c) and the host packing of
 * programs both GPU drivers upload (pack.c). */
#ifndef GLEVO_GP_EVAL_INTERNAL_H
#define GLEVO_GP_EVAL_INTERNAL_H

#include <stddef.h>

#include "gp/gp_internal.h"

/* Width of every GP data texture/row: programs never cross a row of this many codes unless
 * one is longer than a row. */
#define GP_TEX_WIDTH 4096
#define GP_ROW_PROGRAM (GP_TEX_WIDTH - 1)

/* The summation order of the per-case errors, the same on every backend so that the sums, and
 * so a GP run, are the same bits on the CPU and the GPU (node values already are):
 *   quad q (cases 4q..4q+3, missing cases 0):  a_q = (e0 + e1) + (e2 + e3)      in float
 *   segment k = quads [512k, 512k + 512), lane t in 0..63:
 *       L_t = ((0 + a_{512k+t}) + a_{512k+t+64}) + ... + a_{512k+t+448}          in float
 *       s_k = ((0 + L_0) + L_1) + ... + L_63                                     in float
 *   program sum = ((0 + s_0) + s_1) + ...                                         in double
 * for |e|, e*e (float) and the hits (|e| < 0.5). A lane is one fragment of a PPCU tile, one
 * invocation of a compute work-group; a segment is one tile or one work-group. */
#define GP_SUM_LANES 64
#define GP_SEG_WALKS 8
#define GP_SEG_QUADS (GP_SUM_LANES * GP_SEG_WALKS)
/* What a cut-short fragment or invocation adds to its run marks (good ones add 1). */
#define GP_CUT_MARK (-1048576.0)

typedef struct gp_eval_ops {
    glevo_status (*create)(glevo_gp_evaluator *e);
    glevo_status (*evaluate)(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                             glevo_gp_sums *sums);
    void (*destroy)(glevo_gp_evaluator *e);
    /* glevo_gp_evaluate_timed (NULL: not offered) */
    glevo_status (*timed)(glevo_gp_evaluator *e, const glevo_gp_programs *p, int reps,
                          glevo_gp_sums *sums, glevo_gp_eval_timing *t);
    /* evaluate in two halves (NULL: not offered): the GPU's work issued, then its sums read
     * back, so that a run's searches issue theirs before any waits (gp_evaluate_submit). */
    glevo_status (*submit)(glevo_gp_evaluator *e, const glevo_gp_programs *p);
    glevo_status (*collect)(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                            glevo_gp_sums *sums);
} gp_eval_ops;

extern const gp_eval_ops gp_cpu_ops, gp_fragment_ops, gp_compute_ops;

struct glevo_gp_evaluator {
    glevo_gp_eval_params params;
    glevo_backend backend;
    glevo_gp_strategy used;
    const gp_eval_ops *ops;
    const glevo_gp_data *data;
    void *impl; /* the driver's state */
    glevo_gp_sums *sums;
    int sums_cap;
    double sum_y, sum_yy; /* of the target, in double (linear scaling) */
    unsigned long long context; /* GPU backends: the GL context it was created on */
    /* What a run's interpreter builds are specialised to (gp_evaluator_specialise): every
     * operator it can breed and the longest program it can hold, so that one build serves
     * all its generations (builds keyed by each population's operators and depth compiled
     * new variants mid-run, 0.3-2 s each cold on the H200). 0: the programs evaluated alone
     * decide. */
    uint32_t build_ops;
    int build_max_length;
    double build_work; /* programs x cases a generation evaluates (0: unknown) */
    bool submitted;    /* gp_evaluate_submit's work awaits gp_evaluate_collect */
    int stack_built; /* the deepest stack built so far (gp_build_stack) */
    /* The compute layout's invocations a tile at the last evaluation of a whole population,
     * kept by linear scaling's second look so that its few programs run the same build. */
    int last_prog_lanes;
    /* Linear scaling's second look on the GPU (evaluator.c, compute only): while set, the
     * evaluation scores a + b f of program i, (a, b) = affine[2 i], [2 i + 1], as the
     * interpreted (+ a (* b f)) rounds it; NULL otherwise. */
    const float *affine;
};

/* Specialises e's interpreter builds to a run: programs of at most max_length codes over
 * the operators of ops (which must include every operator evaluated later), pop of them a
 * generation. */
void gp_evaluator_specialise(glevo_gp_evaluator *e, uint32_t ops, int max_length, int pop);
/* Whether the fragment evaluator of e is built with its calls inlined: where a generation's
 * evaluation is large enough that the driver's longer compile pays (gp/eval.glsl). */
bool gp_build_inline_all(const glevo_gp_evaluator *e, const glevo_gp_programs *p);
/* The build key's operators, stack slots and longest program for evaluating p on e. */
uint32_t gp_build_ops(const glevo_gp_evaluator *e, const glevo_gp_programs *p);
int gp_build_stack(glevo_gp_evaluator *e, const glevo_gp_programs *p);
int gp_build_max_length(const glevo_gp_evaluator *e, const glevo_gp_programs *p);

/* Where linear scaling's second look (evaluator.c) reads program i: its codes with constant
 * k at consts[k], and its length (at most the programs' max_length). */
typedef struct gp_program_source {
    glevo_status (*get)(void *user, int i, uint32_t *codes, float *consts, int *len);
    void *user;
} gp_program_source;
/* glevo_gp_evaluate without the check of the programs' variables: for a resident population
 * (src/gp/breed/resident.c) p is its shape only (count, code_count, max_length, max_depth,
 * ops_used), the programs being on the GPU already, and src reads the few programs linear
 * scaling looks at again from their slots. */
glevo_status gp_evaluate_unchecked(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                   glevo_gp_metric metric, double *errors,
                                   const gp_program_source *src);
/* gp_evaluate_unchecked in two halves: the GPU's work issued (where the backend offers it;
 * else nothing yet), then the errors. A portfolio's searches issue theirs one after another
 * and then collect, so that the GPU runs them back to back and the first read waits for all
 * (engine_run.c); between the halves p and the programs it names must not change. */
glevo_status gp_evaluate_submit(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                glevo_gp_metric metric);
glevo_status gp_evaluate_collect(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                 glevo_gp_metric metric, double *errors,
                                 const gp_program_source *src);
/* The GPU drivers' shared state (both drivers' state opens with a gp_gpu); NULL on the CPU. */
struct gp_gpu *gp_evaluator_gpu(glevo_gp_evaluator *e);
/* glevo_gp_interpret (arguments unchecked), also writing the value of the subtree at every
 * code i into node_values[i] (length floats) unless it is NULL. */
float gp_interpret_nodes(const uint32_t *codes, int length, const float *consts,
                         const glevo_gp_data *d, int c, float *node_values);
/* The CPU interpreter's values of one program on every case of d (block by block: the same
 * floats as glevo_gp_interpret, faster). */
glevo_status gp_predict_cpu(const uint32_t *codes, int length, const float *consts,
                            const glevo_gp_data *d, float *out);
/* The CPU interpreter's sums (moments: glevo_gp_eval_params.moments). */
glevo_status gp_evaluate_cpu_sums(const glevo_gp_programs *p, const glevo_gp_data *d,
                                  int threads, bool moments, glevo_gp_sums *sums);
/* A program whose values vary less than this (relative, var(f) / mean(f^2)) is taken as a
 * constant by linear scaling: the float lane sums carry ~1e-7 relative error, so a smaller
 * variance is noise and b = cov / var would be noise over noise (scaling.c; the constant
 * fitting pass, shaders/gp/const_fit.glsl, is given it). */
#define GP_SCALING_MIN_VAR 1e-5

/* Linear scaling's closed form (scaling.c): from the moments (abs_sum = sum f*y, sq_sum =
 * sum f*f, hits = sum f) and the target's sums, the a and b of min sum (y - a - b f)^2 and
 * that least squared error (infinity where the moments are not finite). */
/* The scaled squared error at or below which a program takes linear scaling's second look
 * (its error then that of a + b f evaluated, not of the moments: evaluator.c). */
double gp_evaluator_refine_limit(const glevo_gp_evaluator *e);
void gp_scaling_from_moments(const glevo_gp_sums *m, double sum_y, double sum_yy, int cases,
                             double *a, double *b, double *sse);
/* a and b of least squares for a + b f on d, from double sums of the CPU interpreter's values. */
void gp_fit_scaling(const uint32_t *codes, int length, const float *consts,
                    const glevo_gp_data *d, double *a, double *b);
/* (+ a (* b f)) into out (length + 4 codes, constants at their own positions); returns its
 * length. consts are indexed by the codes' constant indices. */
int gp_scaled_program(const uint32_t *codes, int length, const float *consts, float a, float b,
                      uint32_t *out_codes, float *out_consts);

/* The GPU layouts (the paper's PPPE, FP, PPCU for the fragment driver; tiles of work-groups
 * for the compute driver). The unit of work is a tile: one program on one case segment, 64
 * lanes (PPCU/FP: a tile_w x tile_h block of fragments; compute: a work-group) or one fragment
 * doing every lane in turn (PPPE, group 1). Tiles sit in a grid of rows x cols (fragment
 * targets); draws and dispatches are split into tile ranges so that none runs for long
 * (tile_chunks), and into walk or lane ranges continued from the last one's state where a
 * driver limits the loop iterations of one invocation (walk_chunks, lane_chunks). Pure
 * arithmetic, tested without GL (tests/gp/test_gp_plan.c). */
typedef struct gp_plan {
    glevo_gp_strategy strategy;
    int group, tile_w, tile_h;
    int nseg, seg_quads, tiles;
    int rows, cols;
    int tile_chunks, tiles_per_chunk;  /* fragment: whole columns of tiles per chunk */
    int walk_chunks, walks_per_chunk;  /* PPCU, FP, compute: a lane's quads per invocation */
    int lane_chunks, lanes_per_chunk;  /* PPPE: lanes per fragment per draw */
    /* compute: invocations per tile, 64 (gp/eval_compute.glsl, a work-group a tile) or 1..32
     * (gp/eval_small.glsl, 64 / prog_lanes tiles a work-group), and the small kernel's
     * case-quads per walk */
    int prog_lanes, walk_quads;
} gp_plan;

/* The driver's loop budget: iterations one invocation may run in all its loops together (0:
 * no limit known). */
glevo_status gp_plan_layout(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                            int quads, long long code_count, int max_length, int max_texture,
                            long long loop_budget);
glevo_status gp_plan_compute(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                             int quads, long long code_count, int max_length,
                             long long loop_budget);

/* Programs packed for upload: per program [length, codes...] in rows of GP_TEX_WIDTH words (a
 * program never crosses a row unless one is longer than a row), the offset of each program,
 * and the constants. Buffers grow and are reused between generations. */
typedef struct gp_packed {
    uint32_t *codes, *index;
    float *consts;
    size_t codes_cap, index_cap, consts_cap;
    size_t rows, index_rows, const_rows;
    int long_programs; /* some program crosses a row: the shader splits offsets */
} gp_packed;

glevo_status gp_pack_programs(gp_packed *pk, const glevo_gp_programs *p, int max_rows);
void gp_packed_free(gp_packed *pk);
/* Stack slots the interpreter needs for this population (its deepest walk, rounded up to a
 * multiple of 4 so a GP run does not rebuild every generation, at most footnote 7's bound). */
int gp_stack_slots(const glevo_gp_programs *p);
/* "#define GP_USE_ADD\n..." for the operators in mask (the paper's §5.4). */
int gp_op_defines(uint32_t mask, char *out, size_t size);

#endif
