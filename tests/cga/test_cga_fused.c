/* The compute backend's fused one-generation path (shaders/cga/evolve.glsl with EVOLVE_FIT,
 * src/cga/compute.c: a stretch of generations, one dispatch each, the children scored where
 * they are born and the bests folded by the next dispatch) against the plain path of three
 * dispatches a generation (GLEVO_CGA_FUSED=0) and the fragment engine: population, fitness
 * store and best-so-far record bit for bit after every step, over steps of two generations
 * (a stretch whose one fold must reach the record), longer than a stretch (64) and of one
 * generation, odd grids, every neighbourhood, both mutation modes, both random
 * sources, 1 to 6 gene textures and a user GLSL fitness, the kernel scoring the children or
 * the fitness dispatch scoring them; 7 textures keep the plain path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga_state.h"

#define SEED 7411u

typedef struct fused_case {
    const char *problem; /* NULL: the user GLSL fitness below */
    int dim, width, height;
    glevo_cga_neighbourhood neighbourhood;
    glevo_cga_mutation mutation;
    glevo_rng_mode rng;
    bool fragment; /* also compared with the fragment engine */
} fused_case;

/* precise: the same bits from the fitness dispatch and the fused kernel (docs/guide.md). */
static const char *const user_glsl =
    "vec4 problem_init() { return vec4(0.0); }\n"
    "vec4 problem_step(vec4 acc, int j, float x) {\n"
    "    precise vec4 r = acc + vec4(x * x * float(j + 2));\n"
    "    return r;\n"
    "}\n"
    "float problem_finish(vec4 acc, int dim) { return acc.x; }\n";

static const fused_case cases[] = {
    {"camel", 2, 14, 5, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_MUTATION_PER_BIT, GLEVO_RNG_PHILOX, true},
    {"rastrigin", 6, 10, 7, GLEVO_NEIGHBOURHOOD_VON_NEUMANN, GLEVO_MUTATION_PER_BIT,
     GLEVO_RNG_TEXTURE, false},
    {"ackley", 7, 34, 17, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_MUTATION_SKIP, GLEVO_RNG_TEXTURE, true},
    {NULL, 3, 18, 11, GLEVO_NEIGHBOURHOOD_MOORE5, GLEVO_MUTATION_SKIP, GLEVO_RNG_PHILOX, false},
    {"sphere", 24, 6, 9, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_MUTATION_PER_BIT, GLEVO_RNG_PHILOX, false},
    /* 17 x 17 tiles of 16 x 8 cells: the fold reads their 289 bests four a round (evolve.glsl),
     * a full round and one of 33. */
    {"camel", 2, 258, 136, GLEVO_NEIGHBOURHOOD_MOORE, GLEVO_MUTATION_SKIP, GLEVO_RNG_PHILOX, false},
};
static const int steps[] = {2, 2, 2, 2, 2, 2, 2, 2, 70, 1, 3, 64};

static glevo_problem user_problem;

static glevo_cga_params params_of(const fused_case *k, int i)
{
    const glevo_problem *pr = cga_case_problem(k->problem, user_glsl, k->dim, GLEVO_MINIMIZE,
                                               &user_problem);
    return (glevo_cga_params){.problem = pr, .dim = k->dim, .width = k->width,
                              .height = k->height, .pc = 0.7, .pm = 0.04,
                              .neighbourhood = k->neighbourhood, .mutation = k->mutation,
                              .rng = k->rng, .backend = GLEVO_BACKEND_COMPUTE,
                              .seed = SEED + (uint32_t)i, .block_depth = GLEVO_ZERO};
}

/* Loop index: case _i / 3, and who scores the children: the rule (the kernel, on these grids
 * of at most 2^20 cells), GLEVO_CGA_FUSED=1 (the kernel) or =fitness (the fitness dispatch). */
START_TEST(fused_equals_plain_and_fragment)
{
    static const char *const knobs[] = {NULL, "1", "fitness"};
    const fused_case *k = &cases[_i / 3];
    const char *knob = knobs[_i % 3];
    testutil_context();
    glevo_cga_params p = params_of(k, _i / 3);
    glevo_cga *fused, *plain, *frag = NULL;
    if (knob) setenv("GLEVO_CGA_FUSED", knob, 1);
    glevo_status st = glevo_cga_create(&p, &fused);
    ck_assert_msg(st == GLEVO_OK, "case %d: %s", _i, glevo_last_error());
    ck_assert_msg(fused->gpu->fused && !fused->gpu->block_plan.on, "case %d: not fused", _i);
    bool kernel_scores = knob ? knob[0] == '1' : true;
    ck_assert_int_eq(fused->gpu->score_children, kernel_scores);
    setenv("GLEVO_CGA_FUSED", "0", 1);
    st = glevo_cga_create(&p, &plain);
    unsetenv("GLEVO_CGA_FUSED");
    ck_assert(st == GLEVO_OK);
    ck_assert(!plain->gpu->fused);
    p.backend = GLEVO_BACKEND_FRAGMENT;
    if (k->fragment) ck_assert(glevo_cga_create(&p, &frag) == GLEVO_OK);
    size_t n = glevo_cga_gene_floats(fused), cells = (size_t)k->width * k->height;
    cga_state s[3];
    for (int e = 0; e < 3; ++e) s[e].genes = malloc(n * 4), s[e].fitness = malloc(cells * 4);
    float *start = malloc(n * 4);
    cga_state_read(fused, &s[0]);
    memcpy(start, s[0].genes, n * 4);
    for (size_t c = 0; c < sizeof steps / sizeof steps[0]; ++c) {
        ck_assert_msg(glevo_cga_step(fused, steps[c]) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(glevo_cga_step(plain, steps[c]) == GLEVO_OK);
        long long gen = glevo_cga_generation(fused);
        cga_state_read(fused, &s[0]);
        cga_state_read(plain, &s[1]);
        cga_state_assert_same(&s[0], "fused", &s[1], "plain", fused, _i, gen);
        if (frag) {
            ck_assert(glevo_cga_step(frag, steps[c]) == GLEVO_OK);
            cga_state_read(frag, &s[2]);
            cga_state_assert_same(&s[0], "fused", &s[2], "fragment", fused, _i, gen);
        }
    }
    /* the run moved, and its record was taken after the first stretch's start */
    ck_assert_msg(memcmp(start, s[0].genes, n * 4) != 0, "case %d: the population never changed", _i);
    ck_assert_msg(s[0].record[3] > 1, "case %d: record of generation %g", _i, s[0].record[3] - 1);
    for (int e = 0; e < 3; ++e) free(s[e].genes), free(s[e].fitness);
    free(start);
    glevo_cga_destroy(fused);
    glevo_cga_destroy(plain);
    glevo_cga_destroy(frag);
}
END_TEST

/* The rule (src/cga/compute.c, measured on the H100): the fused kernel scores the children
 * with per-bit mutation, and with skip where the genes are one texture of at most 2^20 cells
 * or three textures and more; the fitness dispatch scores skip's children of one texture on
 * larger grids. Every case fuses. */
START_TEST(the_rule_scores_children_in_the_kernel_but_for_large_skip_grids)
{
    static const struct {
        const char *problem;
        int dim, width, height;
        glevo_cga_mutation mutation;
        bool kernel;
    } rule[] = {
        {"camel", 2, 6, 4, GLEVO_MUTATION_PER_BIT, true},
        {"camel", 2, 6, 4, GLEVO_MUTATION_SKIP, true},
        {"camel", 2, 1024, 1024, GLEVO_MUTATION_SKIP, true},
        {"camel", 2, 1026, 1024, GLEVO_MUTATION_SKIP, false},
        {"camel", 2, 1026, 1024, GLEVO_MUTATION_PER_BIT, true},
        {"rastrigin", 10, 1026, 1024, GLEVO_MUTATION_SKIP, true},
    };
    testutil_context();
    for (size_t i = 0; i < sizeof rule / sizeof rule[0]; ++i) {
        glevo_cga_params p = {.problem = glevo_problem_find(rule[i].problem), .dim = rule[i].dim,
                              .width = rule[i].width, .height = rule[i].height,
                              .mutation = rule[i].mutation, .backend = GLEVO_BACKEND_COMPUTE,
                              .seed = SEED, .block_depth = GLEVO_ZERO};
        glevo_cga *cga;
        ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(cga->gpu->fused);
        ck_assert_msg(cga->gpu->score_children == rule[i].kernel, "rule %zu", i);
        glevo_cga_destroy(cga);
    }
}
END_TEST

/* Skip mutation's gap (cga/mutate.glsl: a logarithm's guess, confirmed by compares, else the
 * whole bisection) equals the C twin's at every pm, with the guess as the host makes it, with
 * none (0, as the WebGL2 page leaves it) and with a wrong one (the guess of pm 0.5): the compute
 * engine's population equals the CPU engine's after every generation (sphere: exact fitness). */
START_TEST(skip_gaps_equal_the_twin_at_every_pm)
{
    static const double pms[] = {0.001, 0.01, 0.05, 0.3, 0.9, 1.0};
    const float guesses[] = {NAN, 0.0f, -1.0f}; /* NAN: the host's */
    testutil_context();
    for (size_t k = 0; k < 3 * sizeof pms / sizeof pms[0]; ++k) {
        double pm = pms[k / 3];
        float guess = guesses[k % 3];
        glevo_cga_params p = {.problem = glevo_problem_find("sphere"), .dim = 5, .width = 12,
                              .height = 6, .pm = pm, .mutation = GLEVO_MUTATION_SKIP,
                              .backend = GLEVO_BACKEND_COMPUTE, .seed = SEED + (uint32_t)k,
                              .block_depth = GLEVO_ZERO};
        glevo_cga *gpu, *cpu;
        ck_assert_msg(glevo_cga_create(&p, &gpu) == GLEVO_OK, "%s", glevo_last_error());
        if (!isnan(guess)) gpu->mutation.log2_keep = guess; /* the uniforms are made from it */
        p.backend = GLEVO_BACKEND_CPU;
        ck_assert(glevo_cga_create(&p, &cpu) == GLEVO_OK);
        char label[64];
        snprintf(label, sizeof label, "pm %g guess %g (compute against CPU)", pm, guess);
        cga_assert_same_populations(gpu, cpu, 4, label);
        glevo_cga_destroy(gpu);
        glevo_cga_destroy(cpu);
    }
}
END_TEST

/* Seven gene textures do not fit the fused kernel's images (genes, fitness, record: 8 at
 * most on NVIDIA): the plain path runs. */
START_TEST(seven_textures_keep_the_plain_path)
{
    testutil_context();
    glevo_cga_params p = {.problem = glevo_problem_find("sphere"), .dim = 25, .width = 6,
                          .height = 4, .backend = GLEVO_BACKEND_COMPUTE, .seed = SEED};
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(cga->layout.textures, 7);
    ck_assert(!cga->gpu->fused);
    ck_assert(glevo_cga_step(cga, 3) == GLEVO_OK);
    glevo_cga_destroy(cga);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_fused");
    TCase *tc = tcase_create("fused");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, fused_equals_plain_and_fragment, 0, 3 * (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, seven_textures_keep_the_plain_path);
    tcase_add_test(tc, the_rule_scores_children_in_the_kernel_but_for_large_skip_grids);
    tcase_add_test(tc, skip_gaps_equal_the_twin_at_every_pm);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
