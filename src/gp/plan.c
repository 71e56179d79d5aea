/* The fragment strategies' layout, GL-free (Augusto & Barbosa 2012, §3.4): the strategy AUTO
 * resolves to, the group and tile a program's fragments form, the grid of tiles in the target
 * and the chunks long evaluations are split into. Measurements behind the numbers are in
 * docs/performance.md ("GP"). */
#include <math.h>

#include "gp/eval_internal.h"

/* The paper picks by shape; here: few cases and many programs -> PPPE (each fragment has
 * enough work alone), a handful of programs -> FP (only the cases give parallelism), else
 * PPCU, the paper's best strategy. */
static glevo_gp_strategy pick_strategy(int pop, int quads)
{
    if (quads <= 8 && pop >= 2048) return GLEVO_GP_PPPE;
    if (pop <= 4) return GLEVO_GP_FP;
    return GLEVO_GP_PPCU;
}

/* A program's tile: tile_w across, group / tile_w up. By default square-ish for a power of
 * two (64 -> 8 x 8, 32 -> 8 x 4, 1024 -> 32 x 32), one row otherwise. */
static void tile_shape(int group, int tile_width, int *w, int *h)
{
    if (tile_width > 0 && tile_width <= group && group % tile_width == 0) {
        *w = tile_width;
    } else if ((group & (group - 1)) == 0) {
        int hh = 1;
        while (hh * hh * 4 <= group) hh *= 2;
        *w = group / hh;
    } else {
        *w = group;
    }
    *h = group / *w;
}

static int initial_group(const glevo_gp_eval_params *params, glevo_gp_strategy s, int quads)
{
    if (s == GLEVO_GP_PPPE) return 1;
    int group;
    if (params->group > 0)
        group = params->group;
    else if (s == GLEVO_GP_FP)
        group = 1024;
    else /* PPCU: an 8 x 8 tile per program at every population, so no NVIDIA warp is split
          * between programs (8 x 4 and 4 x 4 tiles ran at 27 instead of 42 GPop/s at pop
          * 25000 and 50000 on the H100). Long draws are chunked, so more fragments cost nothing. */
        group = 64;
    if (group > quads) {
        /* fewer quads than fragments: the largest power of two (or the count) that fits */
        int g = 1;
        while (g * 2 <= quads) g *= 2;
        group = (group & (group - 1)) == 0 ? g : quads;
    }
    return group < 1 ? 1 : group;
}

glevo_status gp_plan_layout(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                            int quads, long long code_count, int max_texture)
{
    glevo_gp_strategy s = params->strategy == GLEVO_GP_AUTO ? pick_strategy(pop, quads)
                                                            : params->strategy;
    int group = initial_group(params, s, quads);
    int tile_w, tile_h;
    tile_shape(group, params->tile_width, &tile_w, &tile_h);
    /* Program grid: rows of tiles up to 8192 fragments high, so 50000 programs of 8 x 8 tiles
     * take 49 columns of 1024. */
    int rows = 8192 / tile_h;
    if (rows > pop) rows = pop;
    if (rows < 1) rows = 1;
    int cols = (pop + rows - 1) / rows;
    /* Keep the partial-sum texture under 2^24 texels (256 MiB of RGBA32F) and the max size. */
    while (group > 1 && ((long long)group * cols * rows > (1 << 24) || cols * tile_w > max_texture ||
                         rows * tile_h > max_texture)) {
        group = tile_w * tile_h / 2;
        tile_shape(group, 0, &tile_w, &tile_h);
        rows = 8192 / tile_h;
        if (rows > pop) rows = pop;
        cols = (pop + rows - 1) / rows;
    }
    if (cols > max_texture)
        return glevo_fail(GLEVO_ERR_INVALID, "population of %d programs does not fit a %d texture",
                          pop, max_texture);
    /* PPPE and PPCU in one draw unless that draw would be long: then in case-range chunks of
     * about 2^26 quad-steps, each waited for, so no draw runs for seconds (on the H100, PPPE at
     * 50000 x 50000 cases in 2^28-step chunks came back without having run). */
    int chunks = 1, per = quads;
    if (s != GLEVO_GP_FP) {
        double steps = (double)code_count * ((double)quads / group);
        double limit = params->max_draw_steps > 0 ? params->max_draw_steps : 67108864.0;
        int strides = (quads + group - 1) / group;
        chunks = steps > limit ? (int)ceil(steps / limit) : 1;
        if (chunks > strides) chunks = strides;
        per = (strides + chunks - 1) / chunks * group; /* whole strides: lanes stay in step */
        chunks = (quads + per - 1) / per;
    }
    *plan = (gp_plan){.strategy = s, .group = group, .tile_w = tile_w, .tile_h = tile_h,
                      .rows = rows, .cols = cols, .chunks = chunks, .quads_per_chunk = per};
    return GLEVO_OK;
}
