/* The GP evaluator behind glevo_gp_evaluator (evaluator.c): its ops table (one per backend:
 * the CPU interpreter in evaluator.c, fragment.c, compute.c), the GL-free layout plan of the
 * fragment strategies (plan.c) and the host packing of programs both GPU drivers upload
 * (pack.c). */
#ifndef GLEVO_GP_EVAL_INTERNAL_H
#define GLEVO_GP_EVAL_INTERNAL_H

#include <stddef.h>

#include "gp/gp_internal.h"

/* Width of every GP data texture/row: programs never cross a row of this many codes unless
 * one is longer than a row. */
#define GP_TEX_WIDTH 4096
#define GP_ROW_PROGRAM (GP_TEX_WIDTH - 1)

typedef struct gp_eval_ops {
    glevo_status (*create)(glevo_gp_evaluator *e);
    glevo_status (*evaluate)(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                             glevo_gp_sums *sums);
    void (*destroy)(glevo_gp_evaluator *e);
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
};

/* The fragment strategies' layout (the paper's PPPE, FP, PPCU): which strategy, how many
 * fragments a program gets (a tile_w x tile_h tile), how the tiles sit in the target (rows x
 * cols), and into how many case-range chunks long draws are split. Pure arithmetic: tested
 * without GL (tests/gp/test_gp_plan.c). */
typedef struct gp_plan {
    glevo_gp_strategy strategy;
    int group, tile_w, tile_h;
    int rows, cols;
    int chunks, quads_per_chunk;
} gp_plan;

glevo_status gp_plan_layout(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                            int quads, long long code_count, int max_texture);

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
