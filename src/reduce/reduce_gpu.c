/* GPU reductions, both drivers. Fragment: a chain of ceil(W/2) x ceil(H/2) textures, one 2x2
 * pass per level. Compute: two dispatches, a grid-stride pass of up to REDUCE_LOCAL groups
 * into a row of partial results, then one group over that row. Either chain is allocated
 * once per size, so a generation's reduction allocates nothing. Shaders: shaders/reduce/. */
#include <stdio.h>
#include <string.h>

#include "reduce/reduce.h"

static const gpu_slot input_slot[] = {{"t_input", 0}, {0}};
static const gpu_slot history_slots[] = {{"t_current", 0}, {"t_history", 0}, {0}};
static const gpu_slot best_image[] = {{"i_best", 0}, {0}};

static glevo_status build(gpu_program *p, const char *name, const char *file, bool max,
                          bool compute, bool block)
{
    char defines[96];
    snprintf(defines, sizeof defines, "#define REDUCE_GROUP %d\n%s", REDUCE_LOCAL,
             max ? "#define REDUCE_MAX 1\n" : "");
    gpu_program_desc d = {.name = name, .defines = defines,
                          .samplers = block ? input_slot : history_slots,
                          .uniform_size = block ? sizeof(reduce_uniforms) : 0};
    if (compute) {
        d.compute = file;
        d.images = best_image;
    } else {
        d.fragment = file;
    }
    return gpu_program_build(p, &d);
}

glevo_status gpu_reducer_create(gpu_reducer *r, int width, int height, bool compute)
{
    memset(r, 0, sizeof *r);
    r->width = width;
    r->height = height;
    r->compute = compute;
    glevo_status st = build(&r->best[REDUCE_MIN], "reduce.min", "reduce/best.glsl", false,
                            compute, true);
    if (!st) st = build(&r->best[REDUCE_MAX], "reduce.max", "reduce/best.glsl", true, compute,
                        true);
    if (!st && !compute) st = build(&r->sum, "reduce.sum", "reduce/sum.glsl", false, false, true);
    if (!st) st = build(&r->keep_best[REDUCE_MIN], "reduce.keep_best", "reduce/keep_best.glsl",
                        false, false, false);
    if (!st) st = build(&r->keep_best[REDUCE_MAX], "reduce.keep_best", "reduce/keep_best.glsl",
                        true, false, false);
    if (compute) {
        long long n = (long long)width * height;
        int groups = gpu_groups(n, REDUCE_LOCAL);
        if (groups > REDUCE_LOCAL) groups = REDUCE_LOCAL;
        if (!st) st = gpu_texture_create(&r->levels[r->level_count++], groups, 1, GPU_RGBA32F, NULL);
        if (!st) st = gpu_texture_create(&r->levels[r->level_count++], 1, 1, GPU_RGBA32F, NULL);
    } else {
        int w = width, h = height;
        do {
            w = (w + 1) / 2;
            h = (h + 1) / 2;
            if (!st) st = gpu_texture_create(&r->levels[r->level_count++], w, h, GPU_RGBA32F, NULL);
        } while ((w > 1 || h > 1) && r->level_count < REDUCE_MAX_LEVELS);
    }
    if (st) gpu_reducer_destroy(r);
    return st;
}

void gpu_reducer_destroy(gpu_reducer *r)
{
    for (int i = 0; i < 2; ++i) {
        gpu_program_destroy(&r->best[i]);
        gpu_program_destroy(&r->keep_best[i]);
    }
    gpu_program_destroy(&r->sum);
    for (int i = 0; i < r->level_count; ++i) gpu_texture_destroy(&r->levels[i]);
    r->level_count = 0;
}

glevo_status gpu_reduce(gpu_reducer *r, reduce_op op, const gpu_texture *input, int channel,
                        const gpu_texture **result)
{
    static const char *names[] = {"reduce.min", "reduce.max", "reduce.sum"};
    if (input->width != r->width || input->height != r->height)
        return glevo_fail(GLEVO_ERR_INVALID, "reduce: input is %dx%d, reducer is %dx%d",
                          input->width, input->height, r->width, r->height);
    if (op == REDUCE_SUM && r->compute)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "reduce.sum has no compute driver");
    const gpu_texture *src = input;
    for (int level = 0; level < r->level_count; ++level) {
        gpu_pass p = {.name = names[op], .program = op == REDUCE_SUM ? &r->sum : &r->best[op]};
        reduce_uniforms u = {{src->width, src->height}, level == 0, channel};
        gpu_pass_input(&p, 0, src);
        gpu_pass_uniforms(&p, &u, sizeof u);
        glevo_status st;
        if (r->compute) {
            gpu_pass_image(&p, 0, &r->levels[level], GPU_WRITE_ONLY);
            p.groups[0] = r->levels[level].width;
            st = gpu_pass_dispatch(&p);
        } else {
            gpu_pass_target(&p, &r->levels[level]);
            st = gpu_pass_draw(&p);
        }
        if (st) return st;
        src = &r->levels[level];
    }
    *result = src;
    return GLEVO_OK;
}

glevo_status gpu_reduce_keep_best(gpu_reducer *r, reduce_op op, const gpu_texture *current,
                                  const gpu_texture *history_in, gpu_texture *history_out)
{
    gpu_pass p = {.name = "reduce.keep_best", .program = &r->keep_best[op == REDUCE_MAX]};
    gpu_pass_input(&p, 0, current);
    gpu_pass_input(&p, 1, history_in);
    gpu_pass_target(&p, history_out);
    return gpu_pass_draw(&p);
}
