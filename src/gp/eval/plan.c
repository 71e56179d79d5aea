/* The GPU layouts, GL-free (Augusto & Barbosa 2012, §3.4, and EvoGP's hybrid layout for the
 * compute driver): the strategy AUTO resolves to, the tiles of (program, case segment) work
 * and where they sit, and how draws and dispatches are split: into tile ranges so that no
 * draw runs for long, and into walk or lane ranges where the driver limits the loop
 * iterations of one invocation (llvmpipe). Measurements behind the numbers are in
 * docs/performance.md ("GP evaluation"). */
#include <math.h>

#include "core/args.h"
#include "core/names.h"
#include "gp/eval/eval_internal.h"

/* The paper picks by shape; here: few cases and many programs -> PPPE (each fragment has
 * enough work alone), a handful of programs -> FP (only the cases give parallelism), else
 * PPCU, the paper's best strategy. */
static glevo_gp_strategy pick_strategy(int pop, int quads)
{
    if (quads <= 8 && pop >= 2048) return GLEVO_GP_PPPE;
    if (pop <= 4) return GLEVO_GP_FP;
    return GLEVO_GP_PPCU;
}

/* Loop iterations of `walks` walks of the longest program, counted generously (a walk's own
 * loop and the small constant loops around it, in case a compiler keeps them). */
static long long walk_iterations(int max_length, int walks)
{
    return (long long)walks * (max_length + 5) + 16;
}

static glevo_status budget_error(int max_length, long long need, long long budget)
{
    return glevo_fail(GLEVO_ERR_UNSUPPORTED,
                      "a program of %d nodes needs %lld shader loop iterations for one walk "
                      "over its cases, above this driver's %lld per shader invocation (Mesa "
                      "llvmpipe cuts longer loops short); evaluate it with --backend cpu",
                      max_length, need, budget);
}

/* Walks of one lane over a whole segment: its quads (at most GP_SEG_WALKS), lanes at a time. */
static int lane_walks(int seg_quads, int lanes)
{
    int quads = (seg_quads + GP_SUM_LANES - 1) / GP_SUM_LANES;
    return (quads + lanes - 1) / lanes;
}

/* A lane's walks split into ranges of whole walks (of `lanes` quads each) so that one
 * invocation stays inside the budget; *quads_per_range is in quads (the u_walk_range unit). */
static glevo_status fit_walks(int max_length, int seg_quads, int lanes, long long budget,
                              long long extra, int *quads_per_range)
{
    int w = lane_walks(seg_quads, lanes);
    while (budget > 0 && w > 1 && walk_iterations(max_length, w) + extra > budget) w--;
    if (budget > 0 && walk_iterations(max_length, w) + extra > budget)
        return budget_error(max_length, walk_iterations(max_length, 1) + extra, budget);
    *quads_per_range = w == lane_walks(seg_quads, lanes) ? GP_SEG_WALKS : w * lanes;
    return GLEVO_OK;
}

/* Time per draw: about `limit` quad-steps per fragment's share (2^26 by default: on the H100,
 * PPPE at 50000 x 50000 cases in 2^28-step draws came back without having run). */
static double draw_limit(const glevo_gp_eval_params *params)
{
    return params->max_draw_steps > 0 ? params->max_draw_steps : 67108864.0;
}

glevo_status gp_plan_layout(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                            int quads, long long code_count, int max_length, int max_texture,
                            long long loop_budget)
{
    glevo_gp_strategy s = params->strategy == GLEVO_GP_AUTO ? pick_strategy(pop, quads)
                                                            : params->strategy;
    gp_plan pl = {.strategy = s};
    pl.nseg = (quads + GP_SEG_QUADS - 1) / GP_SEG_QUADS;
    pl.seg_quads = quads < GP_SEG_QUADS ? quads : GP_SEG_QUADS;
    pl.tiles = pop * pl.nseg;
    if ((long long)pop * pl.nseg > 1 << 30)
        return glevo_fail(GLEVO_ERR_INVALID, "%d programs x %d case segments are too many tiles",
                          pop, pl.nseg);
    if (s == GLEVO_GP_PPPE) {
        pl.group = pl.tile_w = pl.tile_h = 1;
    } else {
        /* 64 fragments, the lanes of the shared summation; by default an 8 x 8 tile, so no
         * NVIDIA warp is split between programs (8 x 4 and 4 x 4 tiles ran at 27 instead of 42
         * GPop/s at pop 25000 and 50000 on the H100, rows of 64 at a quarter). */
        if (params->group != 0 && params->group != GP_SUM_LANES)
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.group %d: PPCU and FP "
                              "give each program and case segment %d fragments (the lanes of "
                              "the summation every backend shares)", params->group,
                              GP_SUM_LANES);
        int tw = params->tile_width > 0 ? params->tile_width : 8;
        if (tw > GP_SUM_LANES || GP_SUM_LANES % tw != 0)
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_eval_params.tile_width %d does not "
                              "divide %d", params->tile_width, GP_SUM_LANES);
        pl.group = GP_SUM_LANES;
        pl.tile_w = tw;
        pl.tile_h = GP_SUM_LANES / tw;
    }
    /* Loop budget: PPCU/FP split a lane's walks, PPPE a segment's lanes, over draws. */
    int lanes = params->lanes > 0 ? params->lanes : 1;
    pl.walk_chunks = pl.lane_chunks = 1;
    pl.walks_per_chunk = GP_SEG_WALKS;
    pl.lanes_per_chunk = GP_SUM_LANES;
    glevo_status st;
    if (s == GLEVO_GP_PPPE) {
        /* The busiest lanes first: lane_walks each, the lane loop's own iteration besides. */
        int active = pl.seg_quads < GP_SUM_LANES ? pl.seg_quads : GP_SUM_LANES;
        long long lane = walk_iterations(max_length, lane_walks(pl.seg_quads, lanes)) + 1;
        int t = active;
        while (loop_budget > 0 && t > 1 && t * lane + 16 > loop_budget) t--;
        if (loop_budget > 0 && t * lane + 16 > loop_budget) {
            /* Not even one lane: name the program's length as the other drivers would. */
            int q;
            if ((st = fit_walks(max_length, pl.seg_quads, lanes, loop_budget, 0, &q))) return st;
            return glevo_fail(GLEVO_ERR_UNSUPPORTED, "PPPE: a program of %d nodes needs %lld "
                              "shader loop iterations for one lane of a case segment, above "
                              "this driver's %lld per invocation; use the ppcu strategy",
                              max_length, lane + 16, loop_budget);
        }
        pl.lanes_per_chunk = t;
        pl.lane_chunks = (active + t - 1) / t;
    } else {
        st = fit_walks(max_length, pl.seg_quads, lanes, loop_budget, 0, &pl.walks_per_chunk);
        if (st) return st;
        pl.walk_chunks = (GP_SEG_WALKS + pl.walks_per_chunk - 1) / pl.walks_per_chunk;
    }
    if (loop_budget > 0 && pl.nseg + 16 > loop_budget)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "%d case segments exceed this driver's %lld "
                          "shader loop iterations per invocation", pl.nseg, loop_budget);
    /* Tile grid: columns of tiles up to 8192 fragments high, fewer where one column would be
     * a long draw (PPPE at 50 000 x 50 000: a column of 8192 tiles is 2^27.6 quad-steps). */
    double steps = (double)code_count * ((double)pl.seg_quads * pl.nseg / pl.group);
    steps /= (double)(pl.walk_chunks * pl.lane_chunks);
    double tile_steps = steps / pl.tiles;
    pl.rows = 8192 / pl.tile_h;
    if (tile_steps * pl.rows > draw_limit(params))
        pl.rows = tile_steps >= draw_limit(params) ? 1 : (int)(draw_limit(params) / tile_steps);
    int min_rows = (pl.tiles + max_texture - 1) / max_texture;
    if (pl.rows < min_rows) pl.rows = min_rows;
    if (pl.rows > pl.tiles) pl.rows = pl.tiles;
    if (pl.rows < 1) pl.rows = 1;
    pl.cols = (pl.tiles + pl.rows - 1) / pl.rows;
    if (pl.cols > max_texture || pl.rows * pl.tile_h > max_texture)
        return glevo_fail(GLEVO_ERR_INVALID, "%d programs x %d case segments do not fit a %d "
                          "texture", pop, pl.nseg, max_texture);
    /* Draws split by whole columns of tiles: for time (quad-steps of one fragment's share, as
     * the paper's strategies count them), and so that the PPCU/FP partial sums stay under
     * 2^24 texels (256 MiB). */
    int chunks = steps > draw_limit(params) ? (int)ceil(steps / draw_limit(params)) : 1;
    long long texels = (long long)pl.tiles * pl.group;
    if (pl.group > 1 && texels > (1 << 24)) {
        int by_memory = (int)((texels + (1 << 24) - 1) / (1 << 24));
        if (by_memory > chunks) chunks = by_memory;
    }
    if (chunks > pl.cols) chunks = pl.cols;
    int cols_per = (pl.cols + chunks - 1) / chunks;
    pl.tile_chunks = (pl.cols + cols_per - 1) / cols_per;
    pl.tiles_per_chunk = cols_per * pl.rows;
    *plan = pl;
    return GLEVO_OK;
}

/* Loop iterations of one invocation of the small-data kernel with w invocations a tile and q
 * quads a walk: its walks, the share of the codes it loads, the in-order sum of the tile's
 * lanes and marks (counted generously, as walk_iterations). */
static long long small_iterations(int max_length, int seg_quads, int w, int q)
{
    int per_lane = (seg_quads + GP_SUM_LANES - 1) / GP_SUM_LANES;
    int lanes = seg_quads < GP_SUM_LANES ? seg_quads : GP_SUM_LANES;
    int items = ((lanes + w - 1) / w) * per_lane;
    long long walks = (items + q - 1) / q;
    return walks * (max_length + 5 + 2LL * q) + (max_length + 1) / w + 1 + GP_SUM_LANES + w + 16;
}

/* The small-data layout's rule (issue 24), measured on the H100 (docs/performance-history.md, "GP
 * evaluation on small data", EvoGP's random trees, programs resident): a warp a program (32
 * invocations a tile, one quad a walk) where a segment holds at most 32 quads (128 cases) and
 * there are at least 4096 tiles: 1.3-1.7x the 64-lane kernel at 10 000 and 50 000 programs x
 * 100 cases, no gain at 1000 programs (and 3x slower on the trigonometric set there). Every
 * layout of fewer invocations a tile lost: the programs of one warp diverge at every node
 * (10 000 x 100: 82 GPop/s at 8 a tile, 37 at 1, against 209 for the 64-lane kernel), and at
 * 1000 cases and more the 64-lane kernel won at every population. */
#define GP_SMALL_MAX_QUADS 32
#define GP_SMALL_MIN_TILES 4096
static int pick_prog_lanes(long long tiles, int seg_quads)
{
    return seg_quads <= GP_SMALL_MAX_QUADS && tiles >= GP_SMALL_MIN_TILES ? 32 : GP_SUM_LANES;
}

glevo_status gp_plan_compute(gp_plan *plan, const glevo_gp_eval_params *params, int pop,
                             int quads, long long code_count, int max_length,
                             long long loop_budget)
{
    gp_plan pl = {.strategy = GLEVO_GP_AUTO, .group = GP_SUM_LANES, .tile_w = GP_SUM_LANES,
                  .tile_h = 1};
    pl.nseg = (quads + GP_SEG_QUADS - 1) / GP_SEG_QUADS;
    pl.seg_quads = quads < GP_SEG_QUADS ? quads : GP_SEG_QUADS;
    if ((long long)pop * pl.nseg > 1 << 30)
        return glevo_fail(GLEVO_ERR_INVALID, "%d programs x %d case segments are too many tiles",
                          pop, pl.nseg);
    pl.tiles = pop * pl.nseg;
    pl.rows = pl.tiles;
    pl.cols = 1;
    pl.lane_chunks = 1;
    pl.lanes_per_chunk = GP_SUM_LANES;
    if (loop_budget > 0 && pl.nseg + 16 > loop_budget)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "%d case segments exceed this driver's %lld "
                          "shader loop iterations per invocation", pl.nseg, loop_budget);
    /* The layout: as asked (the small kernel with params->lanes quads a walk), or by the rule
     * (one quad a walk). */
    int w = params->prog_lanes, q = params->lanes > 0 ? params->lanes : 1;
    if (w == 0) {
        q = 1;
        w = pick_prog_lanes(pl.tiles, pl.seg_quads);
        /* Within the driver's loop budget, or the 64-lane kernel, which splits its walks. */
        while (w < GP_SUM_LANES && loop_budget > 0 &&
               small_iterations(max_length, pl.seg_quads, w, q) > loop_budget)
            w *= 2;
    } else if (w < GP_SUM_LANES && loop_budget > 0 &&
               small_iterations(max_length, pl.seg_quads, w, q) > loop_budget) {
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "glevo_gp_eval_params.prog_lanes %d: a "
                          "program of %d nodes needs %lld shader loop iterations per "
                          "invocation, above this driver's %lld; use 0 or 64", w, max_length,
                          small_iterations(max_length, pl.seg_quads, w, q), loop_budget);
    }
    pl.prog_lanes = w;
    pl.walk_quads = w < GP_SUM_LANES ? q : 0;
    int lanes = params->lanes > 0 ? params->lanes : 1;
    pl.walk_chunks = 1;
    pl.walks_per_chunk = GP_SEG_WALKS;
    if (w == GP_SUM_LANES) {
        /* An invocation loads its share of the codes and lane 0 adds the 64 lanes. */
        long long extra = (max_length + 1) / GP_SUM_LANES + 1 + GP_SUM_LANES;
        glevo_status st = fit_walks(max_length, pl.seg_quads, lanes, loop_budget, extra,
                                    &pl.walks_per_chunk);
        if (st) return st;
        pl.walk_chunks = (GP_SEG_WALKS + pl.walks_per_chunk - 1) / pl.walks_per_chunk;
    }
    /* Dispatches split into tile ranges: GL promises 65535 work-groups per dispatch, and no
     * dispatch should run for long (the fragment limit in node-quads of a 64-lane tile); a
     * range holds whole work-groups (64 / prog_lanes tiles each). */
    int per_group = GP_SUM_LANES / w;
    double steps = (double)code_count * pl.seg_quads * pl.nseg / pl.walk_chunks;
    double limit = draw_limit(params) * GP_SUM_LANES;
    long long chunks = steps > limit ? (long long)ceil(steps / limit) : 1;
    if (chunks > pl.tiles) chunks = pl.tiles;
    long long per = (pl.tiles + chunks - 1) / chunks;
    per = (per + per_group - 1) / per_group * per_group;
    if (per > 65535LL * per_group) per = 65535LL * per_group;
    pl.tiles_per_chunk = (int)per;
    pl.tile_chunks = (int)((pl.tiles + per - 1) / per);
    *plan = pl;
    return GLEVO_OK;
}

static const char *const strategy_names[] = {"auto", "pppe", "fp", "ppcu"};

const char *glevo_gp_strategy_name(glevo_gp_strategy s)
{
    return names_get(strategy_names, NAMES_COUNT(strategy_names), (int)s);
}

glevo_status glevo_gp_strategy_parse(const char *text, glevo_gp_strategy *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(text);
    ARG_NOT_NULL(out);
    int s = names_find(strategy_names, NAMES_COUNT(strategy_names), text);
    if (s < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "strategy '%s' is unknown (auto, pppe, fp or ppcu)",
                          text);
    *out = (glevo_gp_strategy)s;
    return GLEVO_OK;
}
