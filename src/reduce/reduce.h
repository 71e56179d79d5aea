/* GPU reductions over W x H textures of any size (multi-pass 2x2 ping-pong) and their exact
 * C twins. Min/max give (value, x, y, present) with ties to the lowest linear index
 * (y * W + x) and NaN never winning unless everything is NaN; sum adds all four channels.
 * Results stay on the GPU (a 1x1 texture) until somebody reads them: no sync per call. */
#ifndef GLEVO_REDUCE_H
#define GLEVO_REDUCE_H

#include "gl/gpgpu.h"

typedef enum reduce_op { REDUCE_MIN = 0, REDUCE_MAX = 1, REDUCE_SUM = 2 } reduce_op;

#define REDUCE_MAX_LEVELS 24
/* Compute driver: invocations per work-group and the most groups of the first dispatch (the
 * second reduces their results in one group, so the two must match). */
#define REDUCE_LOCAL 256

/* The block of shaders/reduce/common.glsl (std140). */
typedef struct reduce_uniforms {
    int32_t size[2];
    int32_t first, channel;
} reduce_uniforms;

typedef struct gpu_reducer {
    int width, height;
    bool compute;        /* dispatches (two at any size) instead of 2x2 passes */
    gpu_program best[2]; /* [REDUCE_MIN], [REDUCE_MAX] */
    gpu_program sum;     /* fragment only: its rounding follows the twin's 2x2 tree */
    gpu_program keep_best[2];
    gpu_texture levels[REDUCE_MAX_LEVELS];
    int level_count;
} gpu_reducer;

/* compute: use the compute driver (needs GL 4.3); the result texture is the same either way. */
glevo_status gpu_reducer_create(gpu_reducer *r, int width, int height, bool compute);
void gpu_reducer_destroy(gpu_reducer *r);
/* Reduces `input` (width x height of the reducer, any float format); for min/max only
 * `channel` counts; sum needs a fragment reducer. *result points at a 1x1 RGBA32F texture owned by the reducer, valid until
 * the next call. */
glevo_status gpu_reduce(gpu_reducer *r, reduce_op op, const gpu_texture *input, int channel,
                        const gpu_texture **result);
/* history_out = better of (current, history_in); textures are 1x1 RGBA32F. A history texel
 * with present == 0 counts as empty. */
glevo_status gpu_reduce_keep_best(gpu_reducer *r, reduce_op op, const gpu_texture *current,
                                  const gpu_texture *history_in, gpu_texture *history_out);

/* C twins: `data` is width x height texels of `channels` floats. out = (value, x, y, present)
 * for min/max, the four channel sums for sum (a missing channel reads 0, a missing alpha 1, as in GL). */
void cpu_reduce(reduce_op op, const float *data, int width, int height, int channels,
                int channel, float out[4]);
void cpu_reduce_keep_best(reduce_op op, const float current[4], const float history_in[4],
                          float history_out[4]);
/* Whether texel a comes before b in the order min/max keep (shaders/reduce/better.glsl). */
int cpu_better(reduce_op op, const float a[4], const float b[4]);

#endif
