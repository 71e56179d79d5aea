/* C twins of the shaders in shaders/reduce/: the same 2x2 tree in the same order, so min/max agree
 * exactly and sums round identically. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"

static int is_nan(float x) { return isnan(x); }

int cpu_better(reduce_op op, const float a[4], const float b[4])
{
    if (a[3] == 0.0f) return 0;
    if (b[3] == 0.0f) return 1;
    int a_nan = is_nan(a[0]), b_nan = is_nan(b[0]);
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && a[0] != b[0]) return op == REDUCE_MAX ? a[0] > b[0] : a[0] < b[0];
    return a[2] < b[2] || (a[2] == b[2] && a[1] < b[1]);
}

static void add4(float *acc, const float *t)
{
    for (int k = 0; k < 4; ++k) acc[k] += t[k];
}

void cpu_reduce(reduce_op op, const float *data, int width, int height, int channels,
                int channel, float out[4])
{
    /* Level 0 as the shader sees it: (value, x, y, 1) or the four channels. */
    float *cur = malloc(sizeof(float) * 4 * (size_t)width * (size_t)height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float *t = data + ((size_t)y * width + x) * channels;
            float *c = cur + ((size_t)y * width + x) * 4;
            if (op == REDUCE_SUM) {
                /* texelFetch of a one-channel texture reads (r, 0, 0, 1). */
                for (int k = 0; k < 4; ++k) c[k] = k < channels ? t[k] : (k == 3 ? 1.0f : 0.0f);
            } else {
                c[0] = t[channel];
                c[1] = (float)x;
                c[2] = (float)y;
                c[3] = 1.0f;
            }
        }
    int w = width, h = height;
    do {
        int nw = (w + 1) / 2, nh = (h + 1) / 2;
        float *next = calloc(4 * (size_t)nw * (size_t)nh, sizeof(float));
        for (int y = 0; y < nh; ++y)
            for (int x = 0; x < nw; ++x) {
                const float empty[4] = {0, 0, 0, 0};
                const float *q[4];
                for (int k = 0; k < 4; ++k) {
                    int sx = 2 * x + (k & 1), sy = 2 * y + (k >> 1);
                    q[k] = (sx < w && sy < h) ? cur + ((size_t)sy * w + sx) * 4 : empty;
                }
                float *o = next + ((size_t)y * nw + x) * 4;
                if (op == REDUCE_SUM) {
                    float left[4], right[4];
                    memcpy(left, q[0], sizeof left);
                    add4(left, q[1]);
                    memcpy(right, q[2], sizeof right);
                    add4(right, q[3]);
                    add4(left, right);
                    memcpy(o, left, sizeof left);
                } else {
                    const float *best = q[0];
                    for (int k = 1; k < 4; ++k)
                        if (cpu_better(op, q[k], best)) best = q[k];
                    memcpy(o, best, 4 * sizeof(float));
                }
            }
        free(cur);
        cur = next;
        w = nw;
        h = nh;
    } while (w > 1 || h > 1);
    memcpy(out, cur, 4 * sizeof(float));
    free(cur);
}

void cpu_reduce_keep_best(reduce_op op, const float current[4], const float history_in[4],
                          float history_out[4])
{
    int take = history_in[3] == 0.0f || (is_nan(history_in[0]) && !is_nan(current[0]));
    if (!take && current[3] != 0.0f && !is_nan(current[0]))
        take = op == REDUCE_MAX ? current[0] > history_in[0] : current[0] < history_in[0];
    memcpy(history_out, take ? current : history_in, 4 * sizeof(float));
}
