/* GPU state shared by the GP drivers (gpu.h): dataset and program textures, the interpreter
 * builds, the uniform block, and the results with their run marks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/gpu.h"

const gpu_slot gp_eval_samplers[] = {{"t_programs", 0}, {"t_index", 0}, {"t_consts", 0},
                                     {"t_data", 0},     {"t_target", 0}, {"t_state", 0},
                                     {0}};
/* The compute kernel reads the same textures but continues from a buffer, not t_state. */
static const gpu_slot compute_samplers[] = {{"t_programs", 0}, {"t_index", 0}, {"t_consts", 0},
                                            {"t_data", 0},     {"t_target", 0}, {0}};
/* gp_affine_ab (linear scaling's second look) is the last slot of each: 2, or 1 without
 * gp_state (GP_AFFINE_SLOT). */
static const gpu_slot compute_buffers[] = {{"gp_seg_sums", 0}, {"gp_state", 0}, {"gp_affine_ab", 0}, {0}};
/* The small-data kernel never continues a walk range; fused kernels (one case segment) write
 * the results themselves (gp/seg_out.glsl). */
static const gpu_slot small_buffers[] = {{"gp_seg_sums", 0}, {"gp_affine_ab", 0}, {0}};
static const gpu_slot fused_buffers[] = {{"gp_results", 0}, {"gp_state", 0}, {"gp_affine_ab", 0}, {0}};
static const gpu_slot small_fused_buffers[] = {{"gp_results", 0}, {"gp_affine_ab", 0}, {0}};

glevo_status gp_gpu_create(gp_gpu *g, const glevo_gp_data *d)
{
    memset(g, 0, sizeof *g);
    g->max_tex = gpu_context_limits()->max_texture_size;
    g->quads = (d->cases + 3) / 4;
    g->data_width = g->quads < GP_TEX_WIDTH ? g->quads : GP_TEX_WIDTH;
    g->data_rows = (g->quads + g->data_width - 1) / g->data_width;
    int vars = d->vars > 0 ? d->vars : 1;
    if ((long long)vars * g->data_rows > g->max_tex)
        return glevo_fail(GLEVO_ERR_INVALID,
                          "dataset of %d variables x %d cases does not fit a %d texture", d->vars,
                          d->cases, g->max_tex);
    size_t row_floats = (size_t)g->data_width * g->data_rows * 4;
    float *buf = calloc(row_floats * vars, sizeof *buf);
    if (!buf) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory uploading the dataset");
    for (int v = 0; v < d->vars; ++v)
        memcpy(buf + row_floats * v, d->x + (size_t)v * d->cases, (size_t)d->cases * sizeof *buf);
    glevo_status st = gpu_texture_create(&g->data_tex, g->data_width, g->data_rows * vars,
                                         GPU_RGBA32F, buf);
    if (!st) {
        memset(buf, 0, row_floats * sizeof *buf);
        memcpy(buf, d->y, (size_t)d->cases * sizeof *buf);
        st = gpu_texture_create(&g->target_tex, g->data_width, g->data_rows, GPU_RGBA32F, buf);
    }
    free(buf);
    return st;
}

void gp_gpu_destroy(gp_gpu *g)
{
    gpu_texture *textures[] = {&g->data_tex, &g->target_tex, &g->programs_tex, &g->index_tex,
                               &g->consts_tex};
    for (size_t i = 0; i < (g->resident ? 2 : sizeof textures / sizeof textures[0]); ++i)
        gpu_texture_destroy(textures[i]);
    gpu_texture_destroy(&g->own_programs_tex);
    gpu_texture_destroy(&g->own_index_tex);
    gpu_texture_destroy(&g->own_consts_tex);
    for (int i = 0; i < g->build_count; ++i) gpu_program_destroy(&g->builds[i].program);
    gp_packed_free(&g->packed);
    g->build_count = 0;
}

/* Texture t grown to at least `rows` rows of GP_TEX_WIDTH texels, then rows uploaded. */
static glevo_status upload_rows(gpu_texture *t, gpu_format f, size_t rows, const void *data)
{
    glevo_status st = GLEVO_OK;
    if (!t->id || t->height < (int)rows) {
        if (t->id) gpu_texture_destroy(t);
        st = gpu_texture_create(t, GP_TEX_WIDTH, (int)rows, f, NULL);
    }
    return st ? st : gpu_texture_upload_rect(t, 0, 0, GP_TEX_WIDTH, (int)rows, data);
}

static void swap_texture(gpu_texture *a, gpu_texture *b)
{
    gpu_texture t = *a;
    *a = *b;
    *b = t;
}

void gp_gpu_swap_own(gp_gpu *g)
{
    swap_texture(&g->programs_tex, &g->own_programs_tex);
    swap_texture(&g->index_tex, &g->own_index_tex);
    swap_texture(&g->consts_tex, &g->own_consts_tex);
    g->resident = !g->resident;
}

glevo_status gp_gpu_upload_programs(gp_gpu *g, const glevo_gp_programs *p)
{
    if (g->resident) return GLEVO_OK;
    gp_packed *pk = &g->packed;
    glevo_status st = gp_pack_programs(pk, p, g->max_tex);
    if (!st) st = upload_rows(&g->programs_tex, GPU_R32UI, pk->rows, pk->codes);
    if (!st) st = upload_rows(&g->index_tex, GPU_R32UI, pk->index_rows, pk->index);
    if (!st) st = upload_rows(&g->consts_tex, GPU_R32F, pk->const_rows, pk->consts);
    return st;
}

glevo_status gp_gpu_build(gp_gpu *g, const gp_build_key *key, gpu_program **out)
{
    for (int i = 0; i < g->build_count; ++i)
        if (!memcmp(&g->builds[i].key, key, sizeof *key)) {
            *out = &g->builds[i].program;
            return GLEVO_OK;
        }
    char defines[1024];
    int n = snprintf(defines, sizeof defines,
                     "#define GP_STACK %d\n#define GP_LANES %d\n#define GP_SUM_LANES %d\n"
                     "#define GP_SEG_WALKS %d\n#define GP_SEG_QUADS %d\n"
                     "#define GP_CUT_MARK (%.1f)\n%s%s",
                     key->stack, key->lanes, GP_SUM_LANES, GP_SEG_WALKS, GP_SEG_QUADS,
                     GP_CUT_MARK, key->long_programs ? "#define GP_LONG_PROGRAMS\n" : "",
                     key->stack_shared ? "#define GP_STACK_SHARED\n" : "");
    if (key->codes_shared > 0)
        n += snprintf(defines + n, sizeof defines - (size_t)n, "#define GP_CODES_SHARED %d\n",
                      key->codes_shared);
    if (key->fused)
        n += snprintf(defines + n, sizeof defines - (size_t)n, "#define GP_FUSED\n");
    if (key->inline_all)
        n += snprintf(defines + n, sizeof defines - (size_t)n, "#define GP_INLINE_ALL\n");
    if (key->prog_lanes > 0)
        n += snprintf(defines + n, sizeof defines - (size_t)n,
                      "#define GP_PROG_LANES %d\n#define GP_LANE_SLOTS %d\n", key->prog_lanes,
                      key->lane_slots);
    gp_op_defines(key->mask, defines + n, sizeof defines - (size_t)n);
    int slot;
    if (g->build_count < GP_BUILD_CACHE) {
        slot = g->build_count++;
    } else {
        slot = g->build_next;
        g->build_next = (g->build_next + 1) % GP_BUILD_CACHE;
        gpu_program_destroy(&g->builds[slot].program);
    }
    gpu_program_desc desc = {.name = "gp.eval", .fragment = "gp/eval.glsl",
                             .defines = defines, .samplers = gp_eval_samplers,
                             .uniform_size = sizeof(gp_uniforms)};
    if (key->compute)
        desc = (gpu_program_desc){.name = "gp.eval_compute", .compute = "gp/eval_compute.glsl",
                                  .defines = defines, .samplers = compute_samplers,
                                  .buffers = key->fused ? fused_buffers : compute_buffers,
                                  .uniform_size = sizeof(gp_uniforms)};
    if (key->compute && key->prog_lanes > 0)
        desc = (gpu_program_desc){.name = "gp.eval_small", .compute = "gp/eval_small.glsl",
                                  .defines = defines, .samplers = compute_samplers,
                                  .buffers = key->fused ? small_fused_buffers : small_buffers,
                                  .uniform_size = sizeof(gp_uniforms)};
    glevo_status st = gpu_program_build(&g->builds[slot].program, &desc);
    if (st) {
        /* Forget the slot: it holds no program. */
        g->builds[slot] = g->builds[--g->build_count];
        return st;
    }
    /* GLEVO_GP_DUMP_BINARY=FILE: the driver's program binary of each interpreter built, for
     * counting instructions per node (NVIDIA's embeds its assembly as text). */
    const char *dump = getenv("GLEVO_GP_DUMP_BINARY");
    if (dump && *dump) gpu_program_dump_binary(&g->builds[slot].program, dump);
    g->builds[slot].key = *key;
    *out = &g->builds[slot].program;
    return GLEVO_OK;
}

gp_uniforms gp_gpu_uniforms(const gp_gpu *g, const gp_plan *plan, int pop, int cases)
{
    return (gp_uniforms){.tile = {plan->tile_w, plan->tile_h},
                         .walk_range = {0, GP_SEG_WALKS},
                         .lane_range = {0, GP_SUM_LANES},
                         .tiles = plan->tiles, .nseg = plan->nseg, .pop = pop,
                         .group = plan->group, .prog_rows = plan->rows, .cases = cases,
                         .quads = g->quads, .data_width = g->data_width,
                         .data_rows = g->data_rows};
}

void gp_gpu_bind_eval(gp_gpu *g, gpu_pass *pass)
{
    gpu_pass_input(pass, GP_SLOT_PROGRAMS, &g->programs_tex);
    gpu_pass_input(pass, GP_SLOT_INDEX, &g->index_tex);
    gpu_pass_input(pass, GP_SLOT_CONSTS, &g->consts_tex);
    gpu_pass_input(pass, GP_SLOT_DATA, &g->data_tex);
    gpu_pass_input(pass, GP_SLOT_TARGET, &g->target_tex);
}

long long gp_loop_budget(void)
{
    const char *env = getenv("GLEVO_GP_LOOP_BUDGET");
    if (env && *env) return strtoll(env, NULL, 10);
    return gpu_context_limits()->max_loop_iterations;
}

glevo_status gp_gpu_take_sums(const uint32_t *bits, const uint32_t *counts, size_t stride,
                              int pop, const gp_plan *plan, double marks, int stamp,
                              const char *what, glevo_gp_sums *sums)
{
    for (int i = 0; i < pop; ++i) {
        float c[4];
        memcpy(c, counts + (size_t)i * stride, sizeof c);
        if (c[1] != marks || c[2] != plan->nseg || c[3] != 1.0f + (float)stamp) {
            const char *why = c[1] < 0 || c[2] != plan->nseg
                                  ? "a shader loop was cut short (this driver limits the loop "
                                    "iterations of one invocation)"
                                  : "the GPU did not run them all (lost context or driver "
                                    "timeout?)";
            return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back "
                              "with run marks %g instead of %g from the %s: %s", i + 1,
                              (double)c[1], marks, what, why);
        }
        const uint32_t *b = bits + (size_t)i * stride;
        uint64_t abs_bits = (uint64_t)b[1] << 32 | b[0], sq_bits = (uint64_t)b[3] << 32 | b[2];
        memcpy(&sums[i].abs_sum, &abs_bits, sizeof abs_bits);
        memcpy(&sums[i].sq_sum, &sq_bits, sizeof sq_bits);
        sums[i].hits = c[0];
    }
    return GLEVO_OK;
}
