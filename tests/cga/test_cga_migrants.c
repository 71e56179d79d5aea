/* Emigrants chosen on the GPU (shaders/cga/migrants.glsl, src/cga/migrants.c) against
 * islands_select over the whole fitness: crafted fitness stores (random, many ties, NaN,
 * infinities, signed zeros, denormals), both directions, m = 1, a few and the cap, chunks that
 * do not divide the grid and chunks smaller than m; then the public path (evaluation counted
 * as glevo_cga_evaluate counts it) and the island adapter's select against its host path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/gpu_internal.h"
#include "islands/policy.h"
#include "testutil.h"
#ifdef GLEVO_HAVE_MPI
#include "glevo/islands.h"
#endif

#define W 38
#define H 29
#define N (W * H)
#define SEED 2027u

static glevo_cga *make(glevo_backend backend, const char *problem, int width, int height)
{
    if (backend != GLEVO_BACKEND_CPU) testutil_context();
    glevo_cga_params p = {.problem = glevo_problem_find(problem), .dim = 2, .width = width,
                          .height = height, .pm = 0.05, .backend = backend, .seed = SEED};
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    return cga;
}

static uint32_t next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* Pattern 0: spread-out values; 1: seven values (ties everywhere); 2: ties with NaN,
 * infinities, signed zeros and denormals; 3: one value (every cell ties); 4: signed zeros
 * with a few denormals and NaN, so that +0 and -0 tie at the top (m = 32) and a flushed
 * denormal would tie with them. */
static void craft(int pattern, uint32_t seed, float *fit)
{
    static const float specials[] = {0.0f, -0.0f, 1e-40f, -1e-40f, INFINITY, -INFINITY, 2.5f};
    uint32_t s = seed;
    for (int i = 0; i < N; ++i) {
        uint32_t r = next(&s);
        switch (pattern) {
        case 0: fit[i] = (float)((double)r / (1 << 24) * 2000.0 - 1000.0); break;
        case 1: fit[i] = (float)(r % 7) - 3.0f; break;
        case 2: fit[i] = r % 5 == 0 ? NAN : specials[r % 7]; break;
        case 3: fit[i] = 4.0f; break;
        default:
            fit[i] = r % 50 == 1 ? -1e-40f : r % 50 == 2 ? 1e-40f : r % 9 == 0 ? NAN
                   : r % 2 ? -0.0f : 0.0f;
            break;
        }
    }
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The GPU's candidates over the fitness store, reduced by islands_select_among, against
 * islands_select over the same store. */
static void check_store(glevo_cga *cga, const float *fit, bool maximize, int m, int chunk,
                        const char *what)
{
    int groups = (N + chunk - 1) / chunk, count = cga_gpu_candidate_count(cga, m, chunk);
    ck_assert_int_eq(count, 2 * m * groups);
    int *cells = malloc(sizeof(int) * (size_t)count);
    float *got = malloc(sizeof(float) * (size_t)count);
    ck_assert_msg(cga_gpu_candidates(cga, m, chunk, maximize, cells, got) == GLEVO_OK, "%s",
                  glevo_last_error());
    int half = count / 2;
    /* Every candidate is a cell of its chunk with its own fitness; a chunk lists
     * min(m, its cells) of each. */
    for (int c = 0; c < count; ++c) {
        int g = (c % half) / m, r = c % m, size = N - g * chunk < chunk ? N - g * chunk : chunk;
        if (r >= size) {
            ck_assert_msg(cells[c] == -1, "%s: entry %d of group %d holds cell %d, want none",
                          what, r, g, cells[c]);
            continue;
        }
        ck_assert_msg(cells[c] >= g * chunk && cells[c] < g * chunk + size,
                      "%s: group %d entry %d is cell %d", what, g, r, cells[c]);
        ck_assert_msg(same_bits(got[c], fit[cells[c]]), "%s: cell %d fitness %.9g, store %.9g",
                      what, cells[c], got[c], fit[cells[c]]);
    }
    int want_best[GLEVO_CGA_MAX_CANDIDATES], want_worst[GLEVO_CGA_MAX_CANDIDATES];
    double want_bs[GLEVO_CGA_MAX_CANDIDATES], want_ws[GLEVO_CGA_MAX_CANDIDATES];
    int best[GLEVO_CGA_MAX_CANDIDATES], worst[GLEVO_CGA_MAX_CANDIDATES];
    double bs[GLEVO_CGA_MAX_CANDIDATES], ws[GLEVO_CGA_MAX_CANDIDATES];
    islands_select(fit, N, maximize, m, want_best, want_bs, want_worst, want_ws);
    ck_assert_int_eq(islands_select_among(cells, got, half, maximize, m, best, bs, NULL, NULL), m);
    ck_assert_int_eq(islands_select_among(cells + half, got + half, half, maximize, m, NULL,
                                          NULL, worst, ws), m);
    for (int e = 0; e < m; ++e) {
        ck_assert_msg(cells[best[e]] == want_best[e] && bs[e] == want_bs[e],
                      "%s: best %d is cell %d (%.9g), islands_select cell %d (%.9g)", what, e,
                      cells[best[e]], bs[e], want_best[e], want_bs[e]);
        ck_assert(same_bits(got[best[e]], fit[want_best[e]]));
        ck_assert_msg(cells[half + worst[e]] == want_worst[e] && ws[e] == want_ws[e],
                      "%s: worst %d is cell %d (%.9g), islands_select cell %d (%.9g)", what, e,
                      cells[half + worst[e]], ws[e], want_worst[e], want_ws[e]);
    }
    free(cells), free(got);
}

static const int chunks[] = {CGA_MIGRANTS_CHUNK, 100, 256, 5};
static const int ms[] = {1, 3, GLEVO_CGA_MAX_CANDIDATES};

START_TEST(gpu_candidates_hold_islands_select)
{
    int pattern = _i;
    glevo_cga *cga = make(GLEVO_BACKEND_COMPUTE, "camel", W, H);
    float *fit = malloc(sizeof(float) * N);
    craft(pattern, SEED + (uint32_t)pattern, fit);
    ck_assert(gpu_texture_upload(&cga->gpu->fitness_tex, fit) == GLEVO_OK);
    for (int max = 0; max < 2; ++max)
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; ++c)
            for (size_t k = 0; k < sizeof ms / sizeof *ms; ++k) {
                char what[160];
                snprintf(what, sizeof what, "pattern %d (seed %u) %s m %d chunk %d", pattern,
                         SEED + (unsigned)pattern, max ? "maximise" : "minimise", ms[k],
                         chunks[c]);
                check_store(cga, fit, max, ms[k], chunks[c], what);
            }
    free(fit);
    glevo_cga_destroy(cga);
}
END_TEST

/* The public path on both GPU drivers: the candidates of the current genes' fitness,
 * evaluated and counted as glevo_cga_evaluate does; another engine from the same seed, taking
 * the host's path, agrees. The CPU backend and m outside 1..cap have none and count nothing. */
START_TEST(public_candidates_equal_the_host_path)
{
    glevo_backend backend = _i ? GLEVO_BACKEND_FRAGMENT : GLEVO_BACKEND_COMPUTE;
    /* 68 x 65 cells: two chunks, the second one short. */
    glevo_cga *a = make(backend, "camel", 68, 65), *b = make(backend, "camel", 68, 65);
    int n = 68 * 65, m = 4;
    ck_assert(glevo_cga_step(a, 3) == GLEVO_OK && glevo_cga_step(b, 3) == GLEVO_OK);
    ck_assert_int_eq(glevo_cga_candidate_count(a, m), 2 * m * 2);
    ck_assert_int_eq(glevo_cga_candidate_count(a, 0), 0);
    ck_assert_int_eq(glevo_cga_candidate_count(a, GLEVO_CGA_MAX_CANDIDATES + 1), 0);
    int cells[16], best[4], worst[4], want_best[4], want_worst[4];
    float got[16], *fit = malloc(sizeof(float) * (size_t)n);
    double bs[4], ws[4], want_bs[4], want_ws[4];
    ck_assert_msg(glevo_cga_candidates(a, m, cells, got) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_cga_evaluate(b) == GLEVO_OK && glevo_cga_read_fitness(b, fit) == GLEVO_OK);
    ck_assert_int_eq(glevo_cga_evaluations(a), glevo_cga_evaluations(b));
    ck_assert_int_eq(glevo_cga_evaluations(a), 4LL * n);
    islands_select(fit, n, false, m, want_best, want_bs, want_worst, want_ws);
    ck_assert_int_eq(islands_select_among(cells, got, 8, false, m, best, bs, NULL, NULL), m);
    ck_assert_int_eq(islands_select_among(cells + 8, got + 8, 8, false, m, NULL, NULL, worst,
                                          ws), m);
    for (int e = 0; e < m; ++e)
        ck_assert_msg(cells[best[e]] == want_best[e] && cells[8 + worst[e]] == want_worst[e] &&
                          bs[e] == want_bs[e] && ws[e] == want_ws[e],
                      "backend %d emigrant %d: best %d want %d, worst %d want %d", _i, e,
                      cells[best[e]], want_best[e], cells[8 + worst[e]], want_worst[e]);
    free(fit);
    glevo_cga_destroy(a), glevo_cga_destroy(b);

    glevo_cga *cpu = make(GLEVO_BACKEND_CPU, "camel", 8, 5);
    ck_assert_int_eq(glevo_cga_candidate_count(cpu, 1), 0);
    ck_assert(glevo_cga_candidates(cpu, 1, cells, got) == GLEVO_ERR_UNSUPPORTED);
    ck_assert_int_eq(glevo_cga_evaluations(cpu), 0);
    glevo_cga_destroy(cpu);
}
END_TEST

#ifdef GLEVO_HAVE_MPI
/* The island adapter's select against its host path (fitness, then islands_select) on twin
 * engines: the same emigrants with the same fitness, the same residents, the same counts. A
 * maximising problem, so both directions pass through the adapter across this file. */
START_TEST(island_select_equals_fitness_then_islands_select)
{
    glevo_backend backend = _i ? GLEVO_BACKEND_FRAGMENT : GLEVO_BACKEND_COMPUTE;
    ck_assert(glevo_problem_find("schaffer")->direction == GLEVO_MAXIMIZE);
    glevo_cga *a = make(backend, "schaffer", 34, 31), *b = make(backend, "schaffer", 34, 31);
    glevo_island ia = glevo_island_cga(a), ib = glevo_island_cga(b);
    int n = 34 * 31;
    ck_assert(ia.ops->select && ia.ops->select_limit(a) == GLEVO_CGA_MAX_CANDIDATES);
    float *fit = malloc(sizeof(float) * (size_t)n);
    for (int round = 0; round < 3; ++round) {
        int m = round == 0 ? 1 : round == 1 ? 5 : GLEVO_CGA_MAX_CANDIDATES;
        ck_assert(ia.ops->step(a, 4) == GLEVO_OK && ib.ops->step(b, 4) == GLEVO_OK);
        int best[32], worst[32], want_best[32], want_worst[32];
        double bs[32], ws[32], want_bs[32], want_ws[32];
        float bf[32];
        ck_assert_msg(ia.ops->select(a, m, best, bs, bf, worst, ws) == GLEVO_OK, "%s",
                      glevo_last_error());
        ck_assert(ib.ops->fitness(b, fit) == GLEVO_OK);
        islands_select(fit, n, ib.ops->maximize(b), m, want_best, want_bs, want_worst, want_ws);
        for (int e = 0; e < m; ++e)
            ck_assert_msg(best[e] == want_best[e] && bs[e] == want_bs[e] &&
                              same_bits(bf[e], fit[want_best[e]]) && worst[e] == want_worst[e] &&
                              ws[e] == want_ws[e],
                          "backend %d m %d emigrant %d: best %d/%d worst %d/%d", _i, m, e,
                          best[e], want_best[e], worst[e], want_worst[e]);
        ck_assert_int_eq(ia.ops->evaluations(a), ib.ops->evaluations(b));
    }
    free(fit);
    glevo_cga_destroy(a), glevo_cga_destroy(b);
    glevo_cga *cpu = make(GLEVO_BACKEND_CPU, "camel", 8, 5);
    ck_assert_int_eq(glevo_island_cga(cpu).ops->select_limit(cpu), 0);
    glevo_cga_destroy(cpu);
}
END_TEST
#endif

int main(void)
{
    Suite *s = suite_create("cga_migrants");
    TCase *tc = tcase_create("migrants");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, gpu_candidates_hold_islands_select, 0, 5);
    tcase_add_loop_test(tc, public_candidates_equal_the_host_path, 0, 2);
#ifdef GLEVO_HAVE_MPI
    tcase_add_loop_test(tc, island_select_equals_fitness_then_islands_select, 0, 2);
#endif
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
