/* The island model's policies without MPI (src/islands/policy.c): the neighbours each
 * topology gives, best-M selection and worst-if-better replacement, ties included, and the
 * placement check (a GPU shared while another of the host sits idle). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "glevo/islands.h"
#include "islands/policy.h"
#include "testutil.h"

static void assert_list(const int *got, int count, const int *want, int want_count,
                        const char *what)
{
    ck_assert_msg(count == want_count, "%s: %d neighbours, want %d", what, count, want_count);
    for (int i = 0; i < count; ++i)
        ck_assert_msg(got[i] == want[i], "%s: neighbour %d is %d, want %d", what, i, got[i], want[i]);
}

START_TEST(topologies_connect_the_documented_islands)
{
    int out[64];
    assert_list(out, islands_neighbours(ISLANDS_RING, 5, 0, 0, out), (int[]){1, 4}, 2, "ring 5 @0");
    assert_list(out, islands_neighbours(ISLANDS_RING, 5, 3, 0, out), (int[]){2, 4}, 2, "ring 5 @3");
    /* Two islands: left and right are the same island, listed once. */
    assert_list(out, islands_neighbours(ISLANDS_RING, 2, 1, 0, out), (int[]){0}, 1, "ring 2 @1");
    assert_list(out, islands_neighbours(ISLANDS_RING, 1, 0, 0, out), NULL, 0, "ring 1");
    assert_list(out, islands_neighbours(ISLANDS_FULLY_CONNECTED, 4, 2, 0, out), (int[]){0, 1, 3},
                3, "fully 4 @2");
    assert_list(out, islands_neighbours(ISLANDS_UNCONNECTED, 4, 2, 0, out), NULL, 0, "unconnected");
    /* 12 islands: 3 per row (the most square), rows of 3 wrap around. Island 4 is (1, 1). */
    ck_assert_int_eq(islands_torus_width(12), 3);
    ck_assert_int_eq(islands_torus_width(16), 4);
    ck_assert_int_eq(islands_torus_width(7), 1);
    assert_list(out, islands_neighbours(ISLANDS_TORUS, 12, 4, 0, out), (int[]){1, 3, 5, 7}, 4,
                "torus 12 @4");
    assert_list(out, islands_neighbours(ISLANDS_TORUS, 12, 0, 0, out), (int[]){1, 2, 3, 9}, 4,
                "torus 12 @0");
    assert_list(out, islands_neighbours(ISLANDS_TORUS, 12, 0, 6, out), (int[]){1, 5, 6}, 3,
                "torus 12 width 6 @0");
    /* 7 islands, one per row: up and down wrap to the same column, left and right are itself. */
    assert_list(out, islands_neighbours(ISLANDS_TORUS, 7, 3, 0, out), (int[]){2, 4}, 2, "torus 7 @3");
}
END_TEST

START_TEST(best_and_worst_pick_in_order_with_ties_fixed)
{
    const double s[] = {3, 9, -1, 9, NAN, 5, -1, 0};
    double score[8];
    for (int i = 0; i < 8; ++i) score[i] = islands_score(s[i], true);
    int out[8];
    islands_best(score, 8, 3, out);
    assert_list(out, 3, (int[]){1, 3, 5}, 3, "best 3");
    islands_worst(score, 8, 3, out);
    assert_list(out, 3, (int[]){4, 6, 2}, 3, "worst 3 (NaN first, ties to the higher index)");
    islands_best(score, 8, 20, out);
    assert_list(out, 8, (int[]){1, 3, 5, 0, 7, 2, 6, 4}, 8, "best of all");
    /* Minimising flips the order; NaN stays the worst. */
    for (int i = 0; i < 8; ++i) score[i] = islands_score(s[i], false);
    islands_best(score, 8, 2, out);
    assert_list(out, 2, (int[]){2, 6}, 2, "best 2 minimising");
    islands_worst(score, 8, 2, out);
    assert_list(out, 2, (int[]){4, 3}, 2, "worst 2 minimising");
}
END_TEST

START_TEST(replacement_takes_the_worst_only_when_better)
{
    const double resident[] = {5, 1, 7, 2, 8};
    int worst[3];
    islands_worst(resident, 5, 3, worst); /* 1, 3, 0 */
    double worst_score[3];
    for (int p = 0; p < 3; ++p) worst_score[p] = resident[worst[p]];
    const double imm[] = {1.5, 6, 0.5, 3};
    int order[3], slot[3], chosen[3];
    /* Best immigrants 6, 3, 1.5 against worst residents 1, 2, 5: 6 > 1, 3 > 2, 1.5 < 5. */
    int pairs = islands_replace(worst, worst_score, 3, imm, 4, 3, order, slot, chosen);
    ck_assert_int_eq(pairs, 2);
    assert_list(slot, 2, (int[]){1, 3}, 2, "slots");
    assert_list(chosen, 2, (int[]){1, 3}, 2, "chosen");
    /* Equal is not better. */
    const double same[] = {1};
    ck_assert_int_eq(islands_replace(worst, worst_score, 3, same, 1, 3, order, slot, chosen), 0);
    /* No more than m, even when more immigrants are better. */
    const double great[] = {100, 90, 80, 70};
    pairs = islands_replace(worst, worst_score, 1, great, 4, 1, order, slot, chosen);
    ck_assert_int_eq(pairs, 1);
    ck_assert_int_eq(slot[0], 1);
    ck_assert_int_eq(chosen[0], 0);
    ck_assert_int_eq(islands_replace(worst, worst_score, 3, great, 0, 3, order, slot, chosen), 0);
}
END_TEST

/* The one-pass selection over raw fitness equals the two passes over scores, ties and NaN
 * included, both directions, on random inputs with many repeats (printed seed). */
START_TEST(one_pass_selection_equals_best_and_worst)
{
    unsigned seed = 12345u;
    for (int trial = 0; trial < 200; ++trial) {
        int n = 1 + (int)(seed % 97), m = 1 + (int)((seed >> 8) % 9);
        bool maximize = trial % 2;
        float fitness[97];
        double score[97];
        for (int i = 0; i < n; ++i) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 13;
            fitness[i] = r == 12 ? NAN : (float)r - 6.0f; /* few values: many ties */
            score[i] = islands_score(fitness[i], maximize);
        }
        int best[9], worst[9], want_best[9], want_worst[9];
        double best_score[9], worst_score[9];
        islands_select(fitness, n, maximize, m, best, best_score, worst, worst_score);
        islands_best(score, n, m, want_best);
        islands_worst(score, n, m, want_worst);
        int k = m < n ? m : n;
        for (int p = 0; p < k; ++p) {
            ck_assert_msg(best[p] == want_best[p] && worst[p] == want_worst[p],
                          "trial %d (n %d, m %d, seed %u) position %d: best %d/%d worst %d/%d",
                          trial, n, m, seed, p, best[p], want_best[p], worst[p], want_worst[p]);
            ck_assert(best_score[p] == score[best[p]] && worst_score[p] == score[worst[p]]);
        }
        seed = seed * 1103515245u + 12345u;
    }
}
END_TEST

/* The candidate-list variant equals islands_select: over the whole population in a shuffled
 * order with holes (index -1), and over the union of chunks' own best and worst m (the GPU's
 * candidates, src/cga/migrants.c), chunks shorter than m included; ties, NaN, both directions. */
START_TEST(selection_among_candidates_equals_islands_select)
{
    unsigned seed = 777u;
    for (int trial = 0; trial < 300; ++trial) {
        seed = seed * 1103515245u + 12345u;
        int n = 1 + (int)(seed % 97), m = 1 + (int)((seed >> 8) % 9);
        int chunk = 1 + (int)((seed >> 12) % 13);
        bool maximize = trial % 2;
        float fitness[97];
        for (int i = 0; i < n; ++i) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 13;
            fitness[i] = r == 12 ? NAN : r == 11 ? -INFINITY : r == 10 ? -0.0f : (float)r - 6.0f;
        }
        int best[9], worst[9], want_best[9], want_worst[9];
        double best_score[9], worst_score[9], want_bs[9], want_ws[9];
        islands_select(fitness, n, maximize, m, want_best, want_bs, want_worst, want_ws);
        int k = m < n ? m : n;
        /* Whole population, shuffled, a hole after every seventh. */
        int index[2 * 97];
        float values[2 * 97];
        int count = 0;
        for (int i = 0; i < n; ++i) {
            if (i % 7 == 3) values[count] = 99.0f, index[count++] = -1;
            values[count] = fitness[i], index[count++] = i;
        }
        for (int i = count - 1; i > 0; --i) {
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 16) % (unsigned)(i + 1));
            int ti = index[i]; index[i] = index[j]; index[j] = ti;
            float tv = values[i]; values[i] = values[j]; values[j] = tv;
        }
        ck_assert_int_eq(islands_select_among(index, values, count, maximize, m, best,
                                              best_score, worst, worst_score), k);
        for (int p = 0; p < k; ++p)
            ck_assert_msg(index[best[p]] == want_best[p] && index[worst[p]] == want_worst[p] &&
                              best_score[p] == want_bs[p] && worst_score[p] == want_ws[p],
                          "trial %d (n %d, m %d, seed %u) shuffled, position %d: best %d/%d "
                          "worst %d/%d", trial, n, m, seed, p, index[best[p]], want_best[p],
                          index[worst[p]], want_worst[p]);
        /* Each chunk's own best and worst m (fewer in a short chunk), in chunk order. */
        int bi[97 * 9], wi[97 * 9], cb = 0, cw = 0;
        float bv[97 * 9], wv[97 * 9];
        for (int start = 0; start < n; start += chunk) {
            int size = n - start < chunk ? n - start : chunk, kk = m < size ? m : size;
            int lb[9], lw[9];
            double ls[9], lt[9];
            islands_select(fitness + start, size, maximize, m, lb, ls, lw, lt);
            for (int p = 0; p < kk; ++p) {
                bi[cb] = start + lb[p], bv[cb++] = fitness[start + lb[p]];
                wi[cw] = start + lw[p], wv[cw++] = fitness[start + lw[p]];
            }
        }
        ck_assert_int_eq(islands_select_among(bi, bv, cb, maximize, m, best, best_score, NULL,
                                              NULL), k);
        ck_assert_int_eq(islands_select_among(wi, wv, cw, maximize, m, NULL, NULL, worst,
                                              worst_score), k);
        for (int p = 0; p < k; ++p)
            ck_assert_msg(bi[best[p]] == want_best[p] && wi[worst[p]] == want_worst[p] &&
                              best_score[p] == want_bs[p] && worst_score[p] == want_ws[p],
                          "trial %d (n %d, m %d, chunk %d, seed %u) chunks, position %d: best "
                          "%d/%d worst %d/%d", trial, n, m, chunk, seed, p, bi[best[p]],
                          want_best[p], wi[worst[p]], want_worst[p]);
    }
    const int none[] = {-1, -1};
    const float any[] = {1, 2};
    int out[2];
    ck_assert_int_eq(islands_select_among(none, any, 2, true, 1, out, NULL, out, NULL), 0);
}
END_TEST

/* Places of n ranks: host[i] and device[i] each; every host's devices are `devices` (count). */
static int idle_of(int n, const int *host, const int *device, const int *devices, int count,
                   int *which_host, int *shared)
{
    glevo_island_place p[8] = {{0}};
    for (int i = 0; i < n; ++i) {
        p[i] = (glevo_island_place){.rank = i, .host = host[i], .device = device[i],
                                    .device_count = count};
        memcpy(p[i].devices, devices, sizeof(int) * (size_t)count);
    }
    *which_host = *shared = -7;
    return glevo_islands_placement_idle(p, n, which_host, shared);
}

START_TEST(a_shared_gpu_beside_an_idle_one_is_found)
{
    int two[] = {0, 1}, one[] = {0}, odd[] = {3, 5, 7}, h = 0, shared = 0;
    const int same[] = {0, 0, 0, 0};
    ck_assert_int_eq(idle_of(2, same, (int[]){0, 0}, two, 2, &h, &shared), 1);
    ck_assert_int_eq(h, 0);
    ck_assert_int_eq(shared, 0);
    ck_assert_int_eq(idle_of(2, same, (int[]){0, 1}, two, 2, &h, &shared), -1);
    ck_assert_int_eq(h, -7); /* untouched when nothing is found */
    ck_assert_int_eq(idle_of(2, same, (int[]){0, 0}, one, 1, &h, &shared), -1);
    /* 4 ranks on 2 GPUs, two each: shared, but none idle. */
    ck_assert_int_eq(idle_of(4, same, (int[]){0, 1, 0, 1}, two, 2, &h, &shared), -1);
    /* The first idle device in the host's order, not an index 0..n-1. */
    ck_assert_int_eq(idle_of(3, same, (int[]){5, 3, 5}, odd, 3, &h, &shared), 7);
    ck_assert_int_eq(shared, 5);
    /* Ranks without a device (-1, the CPU backend) share nothing; one rank shares nothing. */
    ck_assert_int_eq(idle_of(2, same, (int[]){-1, -1}, two, 2, &h, &shared), -1);
    ck_assert_int_eq(idle_of(1, same, (int[]){1}, two, 2, &h, &shared), -1);
    /* Hosts apart: device 0 on each of two hosts is no sharing (global rank mod G would have
     * been); two ranks on host 1's device 0 with its device 1 idle are, named by host. */
    ck_assert_int_eq(idle_of(2, (int[]){0, 1}, (int[]){0, 0}, two, 2, &h, &shared), -1);
    ck_assert_int_eq(idle_of(4, (int[]){0, 0, 1, 1}, (int[]){0, 1, 0, 0}, two, 2, &h, &shared), 1);
    ck_assert_int_eq(h, 1);
    ck_assert_int_eq(shared, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("islands_policy");
    TCase *tc = tcase_create("policy");
    tcase_add_test(tc, topologies_connect_the_documented_islands);
    tcase_add_test(tc, best_and_worst_pick_in_order_with_ties_fixed);
    tcase_add_test(tc, replacement_takes_the_worst_only_when_better);
    tcase_add_test(tc, one_pass_selection_equals_best_and_worst);
    tcase_add_test(tc, selection_among_candidates_equals_islands_select);
    tcase_add_test(tc, a_shared_gpu_beside_an_idle_one_is_found);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
