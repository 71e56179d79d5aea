/* The compute backend's blocked path (temporal blocking, src/cga/block.c) against its
 * one-generation path and the fragment engine: the same seed gives the same population, the
 * same fitness store and the same best-so-far record, bit for bit, after every step, whatever
 * the depth and the tile: grids that the tiles divide and ones they overhang (8x5, 130x66), a
 * tile larger than the whole torus, every neighbourhood, both mutation modes, a user GLSL
 * fitness, steps that split a block (as --report-every, snapshots and checkpoints do), and a
 * checkpoint taken and resumed inside what would have been one block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cga_state.h"

#define SEED 5209u

typedef struct block_case {
    const char *problem; /* NULL: the user GLSL fitness below */
    int dim, width, height;
    glevo_cga_neighbourhood neighbourhood;
    glevo_cga_mutation mutation;
    int depth, tile[2];
    int steps[4];           /* generations of each glevo_cga_step call */
    bool fragment;          /* also compared with the fragment engine */
} block_case;

/* A user fitness (sum of |x_j| * (j + 1), maximised) with a term the built-ins lack. Its
 * step is precise, as docs/guide.md asks of a user fitness that must give the same bits in
 * both kernels: without it NVIDIA fused the multiply-add in one kernel and not the other
 * (one ulp apart on the H100). */
static const char *const user_glsl =
    "vec4 problem_init() { return vec4(0.0); }\n"
    "vec4 problem_step(vec4 acc, int j, float x) {\n"
    "    precise vec4 r = acc + vec4(abs(x) * float(j + 1));\n"
    "    return r;\n"
    "}\n"
    "float problem_finish(vec4 acc, int dim) { return acc.x; }\n";

#define MO GLEVO_NEIGHBOURHOOD_MOORE
#define VN GLEVO_NEIGHBOURHOOD_VON_NEUMANN
#define M5 GLEVO_NEIGHBOURHOOD_MOORE5
#define PB GLEVO_MUTATION_PER_BIT
#define SK GLEVO_MUTATION_SKIP

static const block_case cases[] = {
    {"camel", 2, 8, 5, MO, PB, 1, {8, 8}, {3, 2}, true},
    {"camel", 2, 8, 5, MO, PB, 16, {2, 1}, {16, 5}, false},
    {"camel", 2, 8, 5, VN, SK, 7, {4, 2}, {9, 7}, true},
    {"rastrigin", 6, 8, 5, M5, SK, 5, {2, 2}, {11}, false},
    {"camel", 2, 64, 64, MO, PB, 3, {8, 4}, {20, 5}, true}, /* the H100 rule's plan */
    {"sphere", 5, 64, 64, M5, PB, 3, {8, 6}, {7}, false},
    {"camel", 2, 130, 66, VN, SK, 4, {12, 10}, {9}, false},
    {"ackley", 9, 130, 66, MO, PB, 2, {16, 6}, {5}, true},
    {NULL, 3, 18, 11, MO, SK, 12, {2, 2}, {13}, false},
    {"camel", 2, 6, 150, VN, PB, 5, {2, 4}, {12}, false}, /* halos wrap the torus twice */
    {NULL, 3, 18, 11, M5, PB, 2, {6, 4}, {5, 1}, true},
    /* moore5 on square tiles, partial ones too (the rule's 32x32 needs more shared memory
     * than llvmpipe's 32 KiB) */
    {"camel", 2, 70, 36, M5, PB, 2, {24, 24}, {3, 2}, false},
};

static glevo_problem user_problem;

static glevo_cga_params params_of(const block_case *k, int i)
{
    const glevo_problem *pr = cga_case_problem(k->problem, user_glsl, k->dim, GLEVO_MAXIMIZE,
                                               &user_problem);
    return (glevo_cga_params){.problem = pr, .dim = k->dim, .width = k->width,
                              .height = k->height, .pc = 0.7, .pm = 0.04,
                              .neighbourhood = k->neighbourhood, .mutation = k->mutation,
                              .backend = GLEVO_BACKEND_COMPUTE, .seed = SEED + (uint32_t)i,
                              .block_depth = k->depth, .block_tile = {k->tile[0], k->tile[1]}};
}

START_TEST(blocked_equals_one_generation_and_fragment)
{
    const block_case *k = &cases[_i];
    testutil_context();
    glevo_cga_params p = params_of(k, _i);
    glevo_cga *blocked, *one, *frag = NULL;
    ck_assert_msg(glevo_cga_create(&p, &blocked) == GLEVO_OK, "case %d: %s", _i, glevo_last_error());
    ck_assert_msg(blocked->gpu->block_plan.on, "case %d: the blocked path is off", _i);
    ck_assert_int_eq(blocked->gpu->block_plan.depth, k->depth);
    p.block_depth = GLEVO_ZERO;
    p.block_tile[0] = p.block_tile[1] = 0;
    ck_assert(glevo_cga_create(&p, &one) == GLEVO_OK);
    ck_assert(!one->gpu->block_plan.on);
    p.backend = GLEVO_BACKEND_FRAGMENT;
    if (k->fragment) ck_assert(glevo_cga_create(&p, &frag) == GLEVO_OK);
    size_t n = glevo_cga_gene_floats(blocked), cells = (size_t)k->width * k->height;
    cga_state s[3];
    for (int e = 0; e < 3; ++e) s[e].genes = malloc(n * 4), s[e].fitness = malloc(cells * 4);
    float *start = malloc(n * 4);
    cga_state_read(blocked, &s[0]);
    memcpy(start, s[0].genes, n * 4);
    for (int c = 0; c < 4 && k->steps[c]; ++c) {
        ck_assert_msg(glevo_cga_step(blocked, k->steps[c]) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(glevo_cga_step(one, k->steps[c]) == GLEVO_OK);
        long long gen = glevo_cga_generation(blocked);
        ck_assert(gen == glevo_cga_generation(one));
        cga_state_read(blocked, &s[0]);
        cga_state_read(one, &s[1]);
        cga_state_assert_same(&s[0], "blocked", &s[1], "one-generation", blocked, _i, gen);
        if (frag) {
            ck_assert(glevo_cga_step(frag, k->steps[c]) == GLEVO_OK);
            cga_state_read(frag, &s[2]);
            cga_state_assert_same(&s[0], "blocked", &s[2], "fragment", blocked, _i, gen);
        }
    }
    /* the run moved: variation happened and a record was kept */
    ck_assert_msg(memcmp(start, s[0].genes, n * 4) != 0, "case %d: the population never changed", _i);
    ck_assert_msg(s[0].record[3] > 0, "case %d: no best-so-far record", _i);
    for (int e = 0; e < 3; ++e) free(s[e].genes), free(s[e].fitness);
    free(start);
    glevo_cga_destroy(blocked);
    glevo_cga_destroy(one);
    glevo_cga_destroy(frag);
}
END_TEST

/* A checkpoint taken after 7 generations of a run that blocks 16 at a time (so inside what
 * one glevo_cga_step of 20 runs as blocks of 10), loaded into a new blocked engine and run on,
 * ends where the straight run does, and where the one-generation path does. */
START_TEST(checkpoint_inside_a_block_resumes_bit_for_bit)
{
    testutil_context();
    block_case k = {"camel", 2, 10, 6, MO, SK, 16, {2, 2}, {0}, false};
    glevo_cga_params p = params_of(&k, 40);
    glevo_cga *straight, *first, *resumed, *one;
    ck_assert_msg(glevo_cga_create(&p, &straight) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_cga_step(straight, 20) == GLEVO_OK);
    ck_assert(glevo_cga_create(&p, &first) == GLEVO_OK);
    ck_assert(glevo_cga_step(first, 7) == GLEVO_OK);
    char path[64];
    snprintf(path, sizeof path, "/tmp/glevo-test-block-%d.ckpt", (int)getpid());
    ck_assert_msg(glevo_cga_save(first, path, NULL) == GLEVO_OK, "%s", glevo_last_error());
    glevo_cga_params changes = {.block_depth = 16, .block_tile = {2, 2}};
    ck_assert_msg(glevo_cga_load(path, &changes, &resumed) == GLEVO_OK, "%s", glevo_last_error());
    unlink(path);
    ck_assert(resumed->gpu->block_plan.on && resumed->gpu->block_plan.depth == 16);
    ck_assert(glevo_cga_step(resumed, 13) == GLEVO_OK);
    p.block_depth = GLEVO_ZERO;
    p.block_tile[0] = p.block_tile[1] = 0;
    ck_assert(glevo_cga_create(&p, &one) == GLEVO_OK);
    ck_assert(glevo_cga_step(one, 20) == GLEVO_OK);
    size_t n = glevo_cga_gene_floats(straight), cells = 10 * 6;
    cga_state s[3];
    glevo_cga *engines[3] = {straight, resumed, one};
    for (int e = 0; e < 3; ++e) {
        s[e].genes = malloc(n * 4), s[e].fitness = malloc(cells * 4);
        cga_state_read(engines[e], &s[e]);
    }
    ck_assert(glevo_cga_generation(resumed) == 20);
    cga_state_assert_same(&s[1], "resumed", &s[0], "straight", straight, 100, 20);
    cga_state_assert_same(&s[0], "straight", &s[2], "one-generation", straight, 100, 20);
    for (int e = 0; e < 3; ++e) free(s[e].genes), free(s[e].fitness), glevo_cga_destroy(engines[e]);
    glevo_cga_destroy(first);
}
END_TEST

/* A progress callback (glevo_cga_params.progress) sees every multiple of report_every: blocks
 * end there, and the run is the one-generation path's. */
static long long seen[16];
static int seen_count;
static void on_progress(void *user, long long generation, double best)
{
    (void)user, (void)best;
    if (seen_count < 16) seen[seen_count++] = generation;
}

START_TEST(progress_sees_every_report)
{
    testutil_context();
    block_case k = {"camel", 2, 12, 8, VN, PB, 8, {4, 2}, {0}, false};
    glevo_cga_params p = params_of(&k, 41);
    p.report_every = 5;
    p.progress = on_progress;
    glevo_cga *blocked, *one;
    ck_assert_msg(glevo_cga_create(&p, &blocked) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(blocked->gpu->block_plan.on);
    seen_count = 0;
    ck_assert(glevo_cga_step(blocked, 23) == GLEVO_OK);
    ck_assert_int_eq(seen_count, 4);
    for (int i = 0; i < 4; ++i) ck_assert_int_eq(seen[i], 5 * (i + 1));
    p.progress = NULL;
    p.block_depth = GLEVO_ZERO;
    p.block_tile[0] = p.block_tile[1] = 0;
    ck_assert(glevo_cga_create(&p, &one) == GLEVO_OK);
    ck_assert(glevo_cga_step(one, 23) == GLEVO_OK);
    cga_state s[2];
    size_t n = glevo_cga_gene_floats(one);
    for (int e = 0; e < 2; ++e) {
        s[e].genes = malloc(n * 4), s[e].fitness = malloc(12 * 8 * 4);
        cga_state_read(e ? one : blocked, &s[e]);
    }
    cga_state_assert_same(&s[0], "blocked", &s[1], "one-generation", one, 101, 23);
    for (int e = 0; e < 2; ++e) free(s[e].genes), free(s[e].fitness);
    glevo_cga_destroy(blocked);
    glevo_cga_destroy(one);
}
END_TEST

/* Overrides the GPU cannot run are bad input: one line naming the limit, exit 2. */
START_TEST(impossible_overrides_are_refused)
{
    char out[4096], cmd[1024];
    static const struct { const char *args, *says; } bad[] = {
        {"--grid 200x100 --block-depth 64 --block-tile 1024x1024", "shared memory"},
        {"--block-depth 65", "--block-depth 65 is outside 0..64"},
        {"--block-tile 3x4", "--block-tile 3x4"},
        {"--block-depth 0 --block-tile 8x4", "--block-tile 8x4"},
        {"--block-depth 4 --rng texture", "texture"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(cmd, sizeof cmd, "%s cga --backend compute --grid 16x8 --generations 2 --quiet %s 2>&1",
                 testutil_cli(), bad[i].args);
        int rc = testutil_run(cmd, out, sizeof out);
        ck_assert_msg(rc == 2, "%s: exit %d (%s)", bad[i].args, rc, out);
        ck_assert_msg(strstr(out, bad[i].says) != NULL, "%s: '%s' lacks '%s'", bad[i].args, out,
                      bad[i].says);
        ck_assert_msg(strchr(out, '\n') == strrchr(out, '\n'), "%s: more than one line: %s",
                      bad[i].args, out);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_block");
    TCase *tc = tcase_create("block");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, blocked_equals_one_generation_and_fragment, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, checkpoint_inside_a_block_resumes_bit_for_bit);
    tcase_add_test(tc, impossible_overrides_are_refused);
    tcase_add_test(tc, progress_sees_every_report);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
