/* The GPU layouts without GL (src/gp/plan.c): tiles of (program, case segment), the splits
 * below a driver's loop budget (llvmpipe: 65535 iterations per invocation), the draws split
 * for time and memory, and what is refused. */
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/gp_internal.h"
#include "testutil.h"

#define BUDGET 65535
#define MAX_TEX 16384

START_TEST(test_tiles_and_segments)
{
    gp_plan pl;
    glevo_gp_eval_params ep = {.strategy = GLEVO_GP_PPCU};
    /* 10 000 cases = 2500 quads: 5 segments of 512 quads, the last 452. */
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 37, 2500, 37 * 50, 50, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_eq(pl.nseg, 5);
    ck_assert_int_eq(pl.seg_quads, 512);
    ck_assert_int_eq(pl.tiles, 37 * 5);
    ck_assert_int_eq(pl.group, GP_SUM_LANES);
    ck_assert_int_eq(pl.tile_w * pl.tile_h, GP_SUM_LANES);
    ck_assert_int_eq(pl.walk_chunks, 1);
    ck_assert_int_ge((long long)pl.rows * pl.cols, pl.tiles);
    /* Tiles of 16 x 4; a group other than 64 is refused (the summation's lanes). */
    ep.tile_width = 16;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 37, 2500, 37 * 50, 50, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_eq(pl.tile_w, 16);
    ck_assert_int_eq(pl.tile_h, 4);
    ep.group = 5;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 37, 2500, 37 * 50, 50, MAX_TEX, 0), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "group 5"));
    /* AUTO: few cases and many programs is PPPE, a handful of programs FP. */
    glevo_gp_eval_params a = {0};
    ck_assert_int_eq(gp_plan_layout(&pl, &a, 5000, 4, 5000 * 20, 20, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_eq(pl.strategy, GLEVO_GP_PPPE);
    ck_assert_int_eq(pl.group, 1);
    ck_assert_int_eq(gp_plan_layout(&pl, &a, 3, 2500, 150, 50, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_eq(pl.strategy, GLEVO_GP_FP);
}
END_TEST

START_TEST(test_loop_budget_splits)
{
    gp_plan pl;
    glevo_gp_eval_params ep = {.strategy = GLEVO_GP_PPCU};
    /* A 30001-node program: 2 walks fit 65535 iterations, so a lane's 8 quads take 4 draws. */
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 3, 525, 32005, 30001, MAX_TEX, BUDGET), GLEVO_OK);
    ck_assert_int_eq(pl.walks_per_chunk, 2);
    ck_assert_int_eq(pl.walk_chunks, 4);
    ck_assert_int_le((long long)pl.walks_per_chunk * (30001 + 5) + 16, BUDGET);
    /* With 3 quads per walk, whole walks: 6 quads a draw. */
    ep.lanes = 3;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 3, 525, 32005, 30001, MAX_TEX, BUDGET), GLEVO_OK);
    ck_assert_int_eq(pl.walks_per_chunk, 6);
    ck_assert_int_eq(pl.walk_chunks, 2);
    /* No limit known (NVIDIA): one draw. */
    ep.lanes = 0;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 3, 525, 32005, 30001, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_eq(pl.walk_chunks, 1);
    /* PPPE on 12 cases: 3 busy lanes of one walk each, 2 a draw. */
    ep.strategy = GLEVO_GP_PPPE;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 3, 3, 32005, 30001, MAX_TEX, BUDGET), GLEVO_OK);
    ck_assert_int_eq(pl.lanes_per_chunk, 2);
    ck_assert_int_eq(pl.lane_chunks, 2);
    /* PPPE on 2100 cases cannot fit one lane (8 walks): refused, pointing at PPCU. */
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 3, 525, 32005, 30001, MAX_TEX, BUDGET),
                     GLEVO_ERR_UNSUPPORTED);
    ck_assert(strstr(glevo_last_error(), "ppcu"));
    /* One walk past the budget: refused by every layout, naming the CPU backend. */
    ep.strategy = GLEVO_GP_PPCU;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 1, 2, 70001, 70001, MAX_TEX, BUDGET),
                     GLEVO_ERR_UNSUPPORTED);
    ck_assert(strstr(glevo_last_error(), "--backend cpu"));
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 1, 2, 70001, 70001, BUDGET), GLEVO_ERR_UNSUPPORTED);
    /* The compute kernel also loads codes and adds lanes: still inside the budget. */
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 3, 525, 32005, 30001, BUDGET), GLEVO_OK);
    ck_assert_int_eq(pl.walk_chunks, 4);
}
END_TEST

START_TEST(test_long_draws_split)
{
    gp_plan pl;
    glevo_gp_eval_params ep = {.strategy = GLEVO_GP_PPPE};
    /* PPPE at 50 000 x 50 000: columns short enough that no draw passes the step limit. */
    long long codes = 50000LL * 50;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 50000, 12500, codes, 50, MAX_TEX, 0), GLEVO_OK);
    double tile_steps = (double)codes * 512 * pl.nseg / pl.tiles;
    ck_assert_msg(tile_steps * pl.rows <= 67108864.0, "rows %d", pl.rows);
    ck_assert_int_le(pl.cols, MAX_TEX);
    ck_assert_int_ge(pl.tile_chunks, 2);
    ck_assert_int_ge((long long)pl.tile_chunks * pl.tiles_per_chunk, pl.tiles);
    /* PPCU partial sums stay under 2^24 texels a draw. */
    ep.strategy = GLEVO_GP_PPCU;
    ck_assert_int_eq(gp_plan_layout(&pl, &ep, 50000, 12500, codes, 50, MAX_TEX, 0), GLEVO_OK);
    ck_assert_int_le((long long)pl.tiles_per_chunk * pl.group, 1 << 24);
    /* Compute: at most 65535 work-groups a dispatch, all tiles covered. */
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 50000, 12500, codes, 50, 0), GLEVO_OK);
    ck_assert_int_le(pl.tiles_per_chunk, 65535);
    ck_assert_int_ge((long long)pl.tile_chunks * pl.tiles_per_chunk, pl.tiles);
}
END_TEST

/* The fragment evaluator's inlined build (gp_build_inline_all) from 10^7 program-cases a
 * generation: a run's own count once it is specialised, else the programs evaluated (so that
 * gp-eval and bench time the build a run of that size uses). */
START_TEST(test_inline_build_by_work)
{
    glevo_gp_data d = {.vars = 1, .cases = 1000};
    glevo_gp_evaluator e = {.data = &d};
    glevo_gp_programs big = {.count = 10000}, small = {.count = 9999};
    ck_assert(gp_build_inline_all(&e, &big));
    ck_assert(!gp_build_inline_all(&e, &small));
    gp_evaluator_specialise(&e, 0, 8, 100);
    ck_assert(!gp_build_inline_all(&e, &big));
    gp_evaluator_specialise(&e, 0, 8, 10000);
    ck_assert(gp_build_inline_all(&e, &small));
}
END_TEST

START_TEST(test_small_data_rule)
{
    gp_plan pl;
    glevo_gp_eval_params ep = {0};
    /* 100 cases (25 quads): a warp a program from 4096 programs on, one quad a walk. */
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 10000, 25, 10000LL * 22, 60, 0), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 32);
    ck_assert_int_eq(pl.walk_quads, 1);
    ck_assert_int_eq(pl.walk_chunks, 1);
    /* Whole work-groups (two tiles each) in every dispatch range, every tile covered. */
    ck_assert_int_eq(pl.tiles_per_chunk % 2, 0);
    ck_assert_int_ge((long long)pl.tile_chunks * pl.tiles_per_chunk, pl.tiles);
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 1000, 25, 1000LL * 22, 60, 0), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 64);
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 10000, 250, 10000LL * 22, 60, 0), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 64);
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 50000, 2500, 50000LL * 22, 60, 0), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 64);
    /* A layout asked for is kept, with params.lanes quads a walk... */
    ep.prog_lanes = 4, ep.lanes = 3;
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 97, 25, 97LL * 31, 31, 65535), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 4);
    ck_assert_int_eq(pl.walk_quads, 3);
    ck_assert_int_eq(pl.tiles_per_chunk % 16, 0);
    /* ...unless one invocation would pass the driver's loop budget; the rule then takes the
     * 64-lane kernel, which splits its walks. */
    ep.prog_lanes = 1, ep.lanes = 1;
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 9000, 2, 9000LL * 64000, 64000, BUDGET),
                     GLEVO_ERR_UNSUPPORTED);
    ck_assert(strstr(glevo_last_error(), "prog_lanes 1"));
    ep.prog_lanes = 0;
    ck_assert_int_eq(gp_plan_compute(&pl, &ep, 9000, 2, 9000LL * 64000, 64000, BUDGET), GLEVO_OK);
    ck_assert_int_eq(pl.prog_lanes, 64);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_plan");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_tiles_and_segments);
    tcase_add_test(tc, test_loop_budget_splits);
    tcase_add_test(tc, test_long_draws_split);
    tcase_add_test(tc, test_small_data_rule);
    tcase_add_test(tc, test_inline_build_by_work);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
