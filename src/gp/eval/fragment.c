/* GP evaluation as fragment passes (the fragment driver; Augusto & Barbosa 2012, §3.4;
 * shaders/gp/eval.glsl, rowsum.glsl, combine.glsl): the layout comes from plan.c, the
 * textures and builds from gpu.c; here the draws of each strategy and the readback.
 *
 * A tile is one program on one case segment. PPCU draws every tile's 64 lane fragments at
 * once, FP one program's tiles per draw, and a row-sum pass adds each tile's lanes; PPPE gives a tile
 * one fragment that adds the lanes itself. The combine pass adds a program's segments. Draws
 * are split into ranges of tile columns (time, memory) and, where the driver limits loop
 * iterations, into walk or lane ranges that continue from the last draw's output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/gpu.h"

static const gpu_slot rowsum_samplers[] = {{"t_partial", 0}, {0}};
static const gpu_slot combine_samplers[] = {{"t_seg", 0}, {0}};

typedef struct gp_fragment {
    gp_gpu gpu;
    gpu_program rowsum, combine;
    gpu_texture partial[2]; /* PPCU/FP lane sums of one column range (two: walk ranges) */
    gpu_texture seg[2];     /* segment sums, one texel per tile (two: PPPE lane ranges) */
    gpu_texture bits_tex, counts_tex;
    uint32_t *host_bits, *host_counts;
    size_t host_cap;
} gp_fragment;

static glevo_status fragment_create(glevo_gp_evaluator *e)
{
    gp_fragment *f = calloc(1, sizeof *f);
    if (!f) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the evaluator");
    e->impl = f;
    glevo_status st = gp_gpu_create(&f->gpu, e->data);
    if (!st)
        st = gpu_program_build(&f->rowsum, &(gpu_program_desc){
                                   .name = "gp.rowsum", .fragment = "gp/rowsum.glsl",
                                   .samplers = rowsum_samplers,
                                   .uniform_size = sizeof(gp_uniforms)});
    if (!st)
        st = gpu_program_build(&f->combine, &(gpu_program_desc){
                                   .name = "gp.combine", .fragment = "gp/combine.glsl",
                                   .samplers = combine_samplers,
                                   .uniform_size = sizeof(gp_uniforms)});
    return st;
}

static void fragment_destroy(glevo_gp_evaluator *e)
{
    gp_fragment *f = e->impl;
    if (!f) return;
    gpu_texture *textures[] = {&f->partial[0], &f->partial[1], &f->seg[0], &f->seg[1],
                               &f->bits_tex, &f->counts_tex};
    for (size_t i = 0; i < sizeof textures / sizeof textures[0]; ++i)
        gpu_texture_destroy(textures[i]);
    gpu_program_destroy(&f->rowsum);
    gpu_program_destroy(&f->combine);
    gp_gpu_destroy(&f->gpu);
    free(f->host_bits);
    free(f->host_counts);
    free(f);
    e->impl = NULL;
}

/* (Re)creates t with w x h texels of format fmt unless it has them. */
static glevo_status ensure_texture(gpu_texture *t, int w, int h, gpu_format fmt)
{
    if (t->id && t->width == w && t->height == h) return GLEVO_OK;
    if (t->id) gpu_texture_destroy(t);
    return gpu_texture_create(t, w, h, fmt, NULL);
}

/* One evaluation draw over columns [c0, c1) of tiles into target, continuing from state. */
static glevo_status draw_columns(gp_fragment *f, gpu_pass *pass, const gp_plan *plan,
                                 gp_uniforms *u, gpu_texture *target, const gpu_texture *state,
                                 int c0, int c1, int local)
{
    gpu_pass_target(pass, target);
    gpu_pass_input(pass, GP_SLOT_STATE, state ? state : &f->gpu.data_tex);
    u->continue_ = state != NULL;
    /* PPCU/FP targets hold only this range's columns; PPPE writes the whole tile grid. */
    u->tile_base = local ? c0 * plan->rows : 0;
    int x0 = (local ? 0 : c0) * plan->tile_w;
    if (plan->strategy != GLEVO_GP_FP) {
        pass->x = x0;
        pass->y = 0;
        pass->w = (c1 - c0) * plan->tile_w;
        pass->h = plan->rows * plan->tile_h;
        gpu_pass_uniforms(pass, u, sizeof *u);
        return gpu_pass_draw(pass);
    }
    /* FP: one draw per program (Algorithm 3's loop), over its tiles in this column range: a
     * rectangle per column its tiles occupy. */
    glevo_status st = GLEVO_OK;
    int p0 = c0 * plan->rows / plan->nseg;
    for (int p = p0; p * plan->nseg < c1 * plan->rows && p * plan->nseg < plan->tiles && !st; ++p) {
        int t0 = p * plan->nseg, t1 = t0 + plan->nseg;
        for (int c = t0 / plan->rows; c < c1 && c * plan->rows < t1 && !st; ++c) {
            if (c < c0) continue;
            int r0 = t0 > c * plan->rows ? t0 - c * plan->rows : 0;
            int r1 = t1 < (c + 1) * plan->rows ? t1 - c * plan->rows : plan->rows;
            pass->x = x0 + (c - c0) * plan->tile_w;
            pass->y = r0 * plan->tile_h;
            pass->w = plan->tile_w;
            pass->h = (r1 - r0) * plan->tile_h;
            gpu_pass_uniforms(pass, u, sizeof *u);
            st = gpu_pass_draw(pass);
        }
    }
    return st;
}

/* PPCU and FP: per column range, the lane sums over the walk ranges (ping-pong), then the
 * row-sum pass into the segment sums. */
static glevo_status draw_lanes(gp_fragment *f, gpu_program *prog, const gp_plan *plan,
                               gp_uniforms *u)
{
    int cols_per = plan->tiles_per_chunk / plan->rows;
    int w = cols_per * plan->tile_w, h = plan->rows * plan->tile_h;
    glevo_status st = ensure_texture(&f->partial[0], w, h, GPU_RGBA32F);
    if (!st && plan->walk_chunks > 1) st = ensure_texture(&f->partial[1], w, h, GPU_RGBA32F);
    const char *name = plan->strategy == GLEVO_GP_FP ? "gp.eval.fp" : "gp.eval.ppcu";
    for (int c0 = 0; c0 < plan->cols && !st; c0 += cols_per) {
        int c1 = c0 + cols_per < plan->cols ? c0 + cols_per : plan->cols;
        int cur = 0;
        for (int k = 0; k < plan->walk_chunks && !st; ++k) {
            gpu_pass pass = {.name = name, .program = prog};
            gp_gpu_bind_eval(&f->gpu, &pass);
            u->walk_range[0] = k * plan->walks_per_chunk;
            u->walk_range[1] = u->walk_range[0] + plan->walks_per_chunk < GP_SEG_WALKS
                                   ? u->walk_range[0] + plan->walks_per_chunk
                                   : GP_SEG_WALKS;
            st = draw_columns(f, &pass, plan, u, &f->partial[cur], k ? &f->partial[1 - cur] : NULL,
                              c0, c1, 1);
            if (!st && (plan->tile_chunks > 1 || plan->walk_chunks > 1)) gpu_finish();
            cur = 1 - cur;
        }
        if (st) break;
        gpu_pass rs = {.name = "gp.rowsum", .program = &f->rowsum};
        gpu_pass_input(&rs, 0, &f->partial[1 - cur]);
        gpu_pass_target(&rs, &f->seg[0]);
        u->tile_base = c0 * plan->rows;
        rs.x = c0;
        rs.w = c1 - c0;
        rs.h = plan->rows;
        gpu_pass_uniforms(&rs, u, sizeof *u);
        st = gpu_pass_draw(&rs);
    }
    return st;
}

/* PPPE: the fragment of a tile adds its lanes itself; lane ranges continue (ping-pong).
 * Returns the texture holding the segment sums. */
static glevo_status draw_pppe(gp_fragment *f, gpu_program *prog, const gp_plan *plan,
                              gp_uniforms *u, gpu_texture **out)
{
    glevo_status st = GLEVO_OK;
    if (plan->lane_chunks > 1) st = ensure_texture(&f->seg[1], plan->cols, plan->rows, GPU_RGBA32F);
    int cols_per = plan->tiles_per_chunk / plan->rows, cur = 0;
    for (int k = 0; k < plan->lane_chunks && !st; ++k) {
        u->lane_range[0] = k * plan->lanes_per_chunk;
        u->lane_range[1] = u->lane_range[0] + plan->lanes_per_chunk < GP_SUM_LANES
                               ? u->lane_range[0] + plan->lanes_per_chunk
                               : GP_SUM_LANES;
        for (int c0 = 0; c0 < plan->cols && !st; c0 += cols_per) {
            gpu_pass pass = {.name = "gp.eval.pppe", .program = prog};
            gp_gpu_bind_eval(&f->gpu, &pass);
            int c1 = c0 + cols_per < plan->cols ? c0 + cols_per : plan->cols;
            st = draw_columns(f, &pass, plan, u, &f->seg[cur], k ? &f->seg[1 - cur] : NULL, c0,
                              c1, 0);
            if (!st && (plan->tile_chunks > 1 || plan->lane_chunks > 1)) gpu_finish();
        }
        cur = 1 - cur;
    }
    *out = &f->seg[1 - cur];
    return st;
}

static glevo_status read_results(gp_fragment *f, const gp_plan *plan, int pop, double marks,
                                 glevo_gp_sums *sums)
{
    size_t n = (size_t)f->bits_tex.width * f->bits_tex.height * 4;
    if (n > f->host_cap) {
        uint32_t *b = realloc(f->host_bits, n * sizeof *b);
        if (b) f->host_bits = b;
        uint32_t *c = realloc(f->host_counts, n * sizeof *c);
        if (c) f->host_counts = c;
        if (!b || !c) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading errors back");
        f->host_cap = n;
    }
    glevo_status st = gpu_texture_read(&f->bits_tex, f->host_bits);
    if (!st) st = gpu_texture_read(&f->counts_tex, f->host_counts);
    if (st) return st;
    char what[64];
    snprintf(what, sizeof what, "%s draws", glevo_gp_strategy_name(plan->strategy));
    return gp_gpu_take_sums(f->host_bits, f->host_counts, 4, pop, plan, marks, 0, what, sums);
}

static glevo_status fragment_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                      glevo_gp_sums *sums)
{
    gp_fragment *f = e->impl;
    int pop = p->count;
    gp_plan plan;
    glevo_status st = gp_plan_layout(&plan, &e->params, pop, f->gpu.quads, p->code_count,
                                     p->max_length, f->gpu.max_tex,
                                     gp_loop_budget());
    if (st) return st;
    e->used = plan.strategy;
    if ((st = gp_gpu_upload_programs(&f->gpu, p))) return st;
    gp_build_key key = {.mask = gp_build_ops(e, p), .stack = gp_build_stack(e, p),
                        .lanes = e->params.lanes, .long_programs = f->gpu.packed.long_programs,
                        .inline_all = gp_build_inline_all(e, p)};
    gpu_program *prog;
    if ((st = gp_gpu_build(&f->gpu, &key, &prog))) return st;
    int rw = pop < GP_TEX_WIDTH ? pop : GP_TEX_WIDTH, rh = (pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    if ((st = ensure_texture(&f->seg[0], plan.cols, plan.rows, GPU_RGBA32F)) ||
        (st = ensure_texture(&f->bits_tex, rw, rh, GPU_RGBA32UI)) ||
        (st = ensure_texture(&f->counts_tex, rw, rh, GPU_RGBA32F)))
        return st;
    /* No stale result survives: every program's run marks must come back. */
    if ((st = gpu_texture_clear(&f->counts_tex))) return st;
    gp_uniforms u = gp_gpu_uniforms(&f->gpu, &plan, pop, e->data->cases);
    u.moments = e->params.moments;
    gpu_texture *seg = &f->seg[0];
    double marks;
    if (plan.strategy == GLEVO_GP_PPPE) {
        st = draw_pppe(f, prog, &plan, &u, &seg);
        marks = (double)plan.nseg * plan.lane_chunks;
    } else {
        st = draw_lanes(f, prog, &plan, &u);
        marks = (double)plan.nseg * GP_SUM_LANES * plan.walk_chunks;
    }
    if (st) return st;
    gpu_pass cb = {.name = "gp.combine", .program = &f->combine};
    gpu_pass_input(&cb, 0, seg);
    gpu_pass_target(&cb, &f->bits_tex);
    gpu_pass_target(&cb, &f->counts_tex);
    u.tile_base = 0;
    gpu_pass_uniforms(&cb, &u, sizeof u);
    if ((st = gpu_pass_draw(&cb))) return st;
    return read_results(f, &plan, pop, marks, sums);
}

const gp_eval_ops gp_fragment_ops = {fragment_create, fragment_evaluate, fragment_destroy, NULL,
                                     NULL, NULL};
