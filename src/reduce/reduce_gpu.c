/* GPU reductions: a chain of ceil(W/2) x ceil(H/2) textures, one 2x2 pass per level
 * (shaders/reduce/). The chain is allocated once per size, so a generation's reduction
 * allocates nothing. */
#include <string.h>

#include "reduce/reduce.h"

glevo_status gpu_reducer_create(gpu_reducer *r, int width, int height)
{
    memset(r, 0, sizeof *r);
    r->width = width;
    r->height = height;
    glevo_status st = gpu_program_build(&r->best[REDUCE_MIN], "reduce/best.glsl", NULL, NULL);
    if (!st) st = gpu_program_build(&r->best[REDUCE_MAX], "reduce/best.glsl",
                                    "#define REDUCE_MAX 1\n", NULL);
    if (!st) st = gpu_program_build(&r->sum, "reduce/sum.glsl", NULL, NULL);
    if (!st) st = gpu_program_build(&r->keep_best[REDUCE_MIN], "reduce/keep_best.glsl", NULL,
                                    NULL);
    if (!st) st = gpu_program_build(&r->keep_best[REDUCE_MAX], "reduce/keep_best.glsl",
                                    "#define REDUCE_MAX 1\n", NULL);
    int w = width, h = height;
    do {
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        if (!st) st = gpu_texture_create(&r->levels[r->level_count++], w, h, GPU_RGBA32F, NULL);
    } while ((w > 1 || h > 1) && r->level_count < REDUCE_MAX_LEVELS);
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
    const gpu_texture *src = input;
    for (int level = 0; level < r->level_count; ++level) {
        gpu_pass p = {.name = names[op], .program = op == REDUCE_SUM ? &r->sum : &r->best[op]};
        gpu_pass_input(&p, "t_input", src);
        gpu_pass_target(&p, &r->levels[level]);
        glevo_status st = gpu_pass_begin(&p);
        if (st) return st;
        gpu_uniform_2i(&p, "u_size", src->width, src->height);
        if (op != REDUCE_SUM) {
            gpu_uniform_1i(&p, "u_first", level == 0);
            gpu_uniform_1i(&p, "u_channel", channel);
        }
        st = gpu_pass_draw(&p);
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
    gpu_pass_input(&p, "t_current", current);
    gpu_pass_input(&p, "t_history", history_in);
    gpu_pass_target(&p, history_out);
    glevo_status st = gpu_pass_begin(&p);
    return st ? st : gpu_pass_draw(&p);
}
