/* GP evaluation as fragment passes (the fragment driver; Augusto & Barbosa 2012, §3.4;
 * shaders/gp/eval.glsl and rowsum.glsl): programs in an R32UI texture, constants in R32F, the
 * dataset transposed in RGBA32F (four cases per texel), targets in their own texture. The
 * layout comes from plan.c; here the uploads, the draws of each strategy and the readback with
 * its run marks.
 *
 * Targets: programs are laid out in a grid of plan.rows rows of tiles; program p owns the
 * tile_w x tile_h texels of tile (p / rows, p % rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gpgpu.h"
#include "gp/eval_internal.h"

#define GP_BUILD_CACHE 8

/* The block of shaders/gp/uniforms.glsl (std140). */
typedef struct gp_uniforms {
    int32_t tile[2], quad_range[2];
    int32_t pop, group, prog_rows, cases, quads, data_width, data_rows, pad;
} gp_uniforms;

static const gpu_slot eval_samplers[] = {{"t_programs", 0}, {"t_index", 0}, {"t_consts", 0},
                                         {"t_data", 0}, {"t_target", 0}, {0}};
enum { SLOT_PROGRAMS, SLOT_INDEX, SLOT_CONSTS, SLOT_DATA, SLOT_TARGET };
static const gpu_slot rowsum_samplers[] = {{"t_partial", 0}, {0}};

typedef struct gp_build {
    uint32_t mask;
    int stack, lanes, long_programs;
    gpu_program program;
} gp_build;

typedef struct gp_fragment {
    int quads, data_width, data_rows, max_tex;
    gpu_texture data_tex, target_tex;
    gpu_texture programs_tex, index_tex, consts_tex;
    gpu_texture partial_tex, sums_tex;
    gpu_program rowsum;
    gp_build builds[GP_BUILD_CACHE];
    int build_count, build_next;
    gp_packed packed;
    float *host_sums;
    size_t host_sums_cap;
} gp_fragment;

static glevo_status upload_data(gp_fragment *f, const glevo_gp_data *d)
{
    f->quads = (d->cases + 3) / 4;
    f->data_width = f->quads < GP_TEX_WIDTH ? f->quads : GP_TEX_WIDTH;
    f->data_rows = (f->quads + f->data_width - 1) / f->data_width;
    int vars = d->vars > 0 ? d->vars : 1;
    if ((long long)vars * f->data_rows > f->max_tex)
        return glevo_fail(GLEVO_ERR_INVALID,
                          "dataset of %d variables x %d cases does not fit a %d texture", d->vars,
                          d->cases, f->max_tex);
    size_t row_floats = (size_t)f->data_width * f->data_rows * 4;
    float *buf = calloc(row_floats * vars, sizeof *buf);
    if (!buf) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory uploading the dataset");
    for (int v = 0; v < d->vars; ++v)
        memcpy(buf + row_floats * v, d->x + (size_t)v * d->cases, (size_t)d->cases * sizeof *buf);
    glevo_status st = gpu_texture_create(&f->data_tex, f->data_width, f->data_rows * vars,
                                         GPU_RGBA32F, buf);
    if (!st) {
        memset(buf, 0, row_floats * sizeof *buf);
        memcpy(buf, d->y, (size_t)d->cases * sizeof *buf);
        st = gpu_texture_create(&f->target_tex, f->data_width, f->data_rows, GPU_RGBA32F, buf);
    }
    free(buf);
    return st;
}

static glevo_status fragment_create(glevo_gp_evaluator *e)
{
    gp_fragment *f = calloc(1, sizeof *f);
    if (!f) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the evaluator");
    e->impl = f;
    f->max_tex = gpu_context_limits()->max_texture_size;
    glevo_status st = upload_data(f, e->data);
    if (!st)
        st = gpu_program_build(&f->rowsum, &(gpu_program_desc){
                                   .name = "gp.rowsum", .fragment = "gp/rowsum.glsl",
                                   .samplers = rowsum_samplers,
                                   .uniform_size = sizeof(gp_uniforms)});
    return st;
}

static void fragment_destroy(glevo_gp_evaluator *e)
{
    gp_fragment *f = e->impl;
    if (!f) return;
    gpu_texture *textures[] = {&f->data_tex, &f->target_tex, &f->programs_tex, &f->index_tex,
                               &f->consts_tex, &f->partial_tex, &f->sums_tex};
    for (size_t i = 0; i < sizeof textures / sizeof textures[0]; ++i)
        gpu_texture_destroy(textures[i]);
    gpu_program_destroy(&f->rowsum);
    for (int i = 0; i < f->build_count; ++i) gpu_program_destroy(&f->builds[i].program);
    gp_packed_free(&f->packed);
    free(f->host_sums);
    free(f);
    e->impl = NULL;
}

/* (Re)creates t with w x h texels of format f. */
static glevo_status ensure_texture(gpu_texture *t, int w, int h, gpu_format f)
{
    if (t->id && t->width == w && t->height == h) return GLEVO_OK;
    if (t->id) gpu_texture_destroy(t);
    return gpu_texture_create(t, w, h, f, NULL);
}

/* The interpreter specialised to the operators in use (§5.4) and to the population's stack
 * depth (pack.c), cached over a run's generations. */
static glevo_status get_build(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                              gpu_program **out)
{
    gp_fragment *f = e->impl;
    uint32_t mask = p->ops_used;
    int stack = gp_stack_slots(p);
    int long_programs = f->packed.long_programs;
    for (int i = 0; i < f->build_count; ++i)
        if (f->builds[i].mask == mask && f->builds[i].stack == stack &&
            f->builds[i].lanes == e->params.lanes && f->builds[i].long_programs == long_programs) {
            *out = &f->builds[i].program;
            return GLEVO_OK;
        }
    char defines[512];
    int n = snprintf(defines, sizeof defines, "#define GP_STACK %d\n#define GP_LANES %d\n%s", stack,
                     e->params.lanes, long_programs ? "#define GP_LONG_PROGRAMS\n" : "");
    gp_op_defines(mask, defines + n, sizeof defines - (size_t)n);
    gp_build *slot;
    if (f->build_count < GP_BUILD_CACHE) {
        slot = &f->builds[f->build_count++];
    } else {
        slot = &f->builds[f->build_next];
        f->build_next = (f->build_next + 1) % GP_BUILD_CACHE;
        gpu_program_destroy(&slot->program);
    }
    glevo_status st = gpu_program_build(&slot->program, &(gpu_program_desc){
                                            .name = "gp.eval", .fragment = "gp/eval.glsl",
                                            .defines = defines, .samplers = eval_samplers,
                                            .uniform_size = sizeof(gp_uniforms)});
    if (st) {
        /* Forget the slot: it holds no program. */
        *slot = f->builds[--f->build_count];
        return st;
    }
    /* GLEVO_GP_DUMP_BINARY=FILE: the driver's program binary of each interpreter built, for
     * counting instructions per node (NVIDIA's embeds its assembly as text). */
    const char *dump = getenv("GLEVO_GP_DUMP_BINARY");
    if (dump && *dump) gpu_program_dump_binary(&slot->program, dump);
    slot->mask = mask;
    slot->stack = stack;
    slot->lanes = e->params.lanes;
    slot->long_programs = long_programs;
    *out = &slot->program;
    return GLEVO_OK;
}

/* Textures only grow (in rows), so steady-state generations upload into existing ones. */
static glevo_status upload_programs(gp_fragment *f, const glevo_gp_programs *p)
{
    gp_packed *pk = &f->packed;
    glevo_status st = gp_pack_programs(pk, p, f->max_tex);
    if (!st && (!f->programs_tex.id || f->programs_tex.height < (int)pk->rows))
        st = ensure_texture(&f->programs_tex, GP_TEX_WIDTH, (int)pk->rows, GPU_R32UI);
    if (!st) st = gpu_texture_upload_rect(&f->programs_tex, 0, 0, GP_TEX_WIDTH, (int)pk->rows, pk->codes);
    if (!st && (!f->index_tex.id || f->index_tex.height < (int)pk->index_rows))
        st = ensure_texture(&f->index_tex, GP_TEX_WIDTH, (int)pk->index_rows, GPU_R32UI);
    if (!st) st = gpu_texture_upload_rect(&f->index_tex, 0, 0, GP_TEX_WIDTH, (int)pk->index_rows, pk->index);
    if (!st && (!f->consts_tex.id || f->consts_tex.height < (int)pk->const_rows))
        st = ensure_texture(&f->consts_tex, GP_TEX_WIDTH, (int)pk->const_rows, GPU_R32F);
    if (!st) st = gpu_texture_upload_rect(&f->consts_tex, 0, 0, GP_TEX_WIDTH, (int)pk->const_rows, pk->consts);
    return st;
}

/* FP: one draw per program over its tile of case fragments (Algorithm 3). PPPE and PPCU: one
 * draw, or case-range chunks added by blending, each waited for. */
static glevo_status draw_eval(glevo_gp_evaluator *e, gpu_pass *pass, const gp_plan *plan,
                              gp_uniforms *u, int pop)
{
    gp_fragment *f = e->impl;
    glevo_status st = GLEVO_OK;
    if (plan->strategy == GLEVO_GP_FP) {
        u->quad_range[0] = 0;
        u->quad_range[1] = f->quads;
        for (int i = 0; i < pop && !st; ++i) {
            pass->x = (i / plan->rows) * plan->tile_w;
            pass->y = (i % plan->rows) * plan->tile_h;
            pass->w = plan->tile_w;
            pass->h = plan->tile_h;
            st = gpu_pass_draw(pass);
        }
        return st;
    }
    for (int q = 0; q < f->quads && !st; q += plan->quads_per_chunk) {
        pass->blend = q > 0 ? GPU_BLEND_ADD : GPU_BLEND_NONE;
        u->quad_range[0] = q;
        u->quad_range[1] = q + plan->quads_per_chunk < f->quads ? q + plan->quads_per_chunk : f->quads;
        st = gpu_pass_draw(pass);
        if (plan->chunks > 1) gpu_finish();
    }
    return st;
}

/* Every fragment of every chunk wrote 1 to .w: a program's sum of marks is group x chunks
 * (exact in float). Anything else means draws did not run. */
static glevo_status read_sums(glevo_gp_evaluator *e, const gp_plan *plan, int pop,
                              glevo_gp_sums *sums)
{
    gp_fragment *f = e->impl;
    size_t need = (size_t)plan->cols * plan->rows * 4;
    if (need > f->host_sums_cap) {
        float *grown = realloc(f->host_sums, need * sizeof(float));
        if (!grown) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading errors back");
        f->host_sums = grown;
        f->host_sums_cap = need;
    }
    glevo_status st = gpu_texture_read(&f->sums_tex, f->host_sums);
    if (st) return st;
    float marks = (float)plan->group * (float)plan->chunks;
    for (int i = 0; i < pop; ++i) {
        const float *t = f->host_sums + ((size_t)(i % plan->rows) * plan->cols + (size_t)(i / plan->rows)) * 4;
        if (t[3] != marks)
            return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back "
                              "without its %g run marks (%g): the GPU did not run the %s draws "
                              "(lost context or driver timeout?)", i + 1, (double)marks,
                              (double)t[3], glevo_gp_strategy_name(plan->strategy));
        sums[i].abs_sum = t[0];
        sums[i].sq_sum = t[1];
        sums[i].hits = t[2];
    }
    return GLEVO_OK;
}

static glevo_status fragment_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                      glevo_gp_sums *sums)
{
    gp_fragment *f = e->impl;
    int pop = p->count;
    gp_plan plan;
    glevo_status st = gp_plan_layout(&plan, &e->params, pop, f->quads, p->code_count, f->max_tex);
    if (st) return st;
    e->used = plan.strategy;
    if ((st = upload_programs(f, p))) return st;
    gpu_program *prog;
    if ((st = get_build(e, p, &prog))) return st;
    if ((st = ensure_texture(&f->sums_tex, plan.cols, plan.rows, GPU_RGBA32F))) return st;
    gpu_texture *eval_target = &f->sums_tex;
    if (plan.group > 1) {
        st = ensure_texture(&f->partial_tex, plan.cols * plan.tile_w, plan.rows * plan.tile_h,
                            GPU_RGBA32F);
        if (st) return st;
        eval_target = &f->partial_tex;
    }
    /* No stale result survives: every sum's run marker (.w) must come back. */
    if ((st = gpu_texture_clear(&f->sums_tex))) return st;
    gp_uniforms u = {.tile = {plan.tile_w, plan.tile_h}, .pop = pop,
                     .group = plan.tile_w * plan.tile_h, .prog_rows = plan.rows,
                     .cases = e->data->cases, .quads = f->quads, .data_width = f->data_width,
                     .data_rows = f->data_rows};
    gpu_pass pass = {.name = plan.strategy == GLEVO_GP_FP     ? "gp.eval.fp"
                             : plan.strategy == GLEVO_GP_PPCU ? "gp.eval.ppcu"
                                                              : "gp.eval.pppe",
                     .program = prog};
    gpu_pass_input(&pass, SLOT_PROGRAMS, &f->programs_tex);
    gpu_pass_input(&pass, SLOT_INDEX, &f->index_tex);
    gpu_pass_input(&pass, SLOT_CONSTS, &f->consts_tex);
    gpu_pass_input(&pass, SLOT_DATA, &f->data_tex);
    gpu_pass_input(&pass, SLOT_TARGET, &f->target_tex);
    gpu_pass_target(&pass, eval_target);
    gpu_pass_uniforms(&pass, &u, sizeof u);
    if ((st = draw_eval(e, &pass, &plan, &u, pop))) return st;
    if (plan.group > 1) {
        gpu_pass rs = {.name = "gp.rowsum", .program = &f->rowsum};
        gpu_pass_input(&rs, 0, &f->partial_tex);
        gpu_pass_target(&rs, &f->sums_tex);
        gpu_pass_uniforms(&rs, &u, sizeof u);
        if ((st = gpu_pass_draw(&rs))) return st;
    }
    return read_sums(e, &plan, pop, sums);
}

const gp_eval_ops gp_fragment_ops = {fragment_create, fragment_evaluate, fragment_destroy};
