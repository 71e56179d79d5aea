/* What the cGA's bit-for-bit tests compare between two engines: population, fitness store and
 * best-so-far record of two GPU engines (the blocked kernel, the fused and plain
 * one-generation paths, the fragment driver), read back after a step; and the populations of
 * any two engines stepped together; the stage-by-stage tests' cases and float comparison.
 * Included by one test each. */
#ifndef GLEVO_TESTS_CGA_STATE_H
#define GLEVO_TESTS_CGA_STATE_H
#include <stdlib.h>
#include <string.h>

#include "cga/gpu_internal.h"
#include "testutil.h"

typedef struct cga_state { float *genes, *fitness, record[4 + 4 * 8]; } cga_state;

static inline void cga_state_read(glevo_cga *cga, cga_state *s)
{
    ck_assert(glevo_cga_read_population(cga, s->genes, s->fitness) == GLEVO_OK);
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, s->record) == GLEVO_OK);
}

/* Every float of a and b the same bits (the engines named a_name and b_name; case c after
 * generation gen, for the message). */
static inline void cga_state_assert_same(const cga_state *a, const char *a_name, const cga_state *b,
                                  const char *b_name, const glevo_cga *cga, int c, long long gen)
{
    size_t n = glevo_cga_gene_floats(cga), cells = (size_t)cga->layout.width * cga->layout.height;
    for (size_t i = 0; i < n; ++i)
        ck_assert_msg(a->genes[i] == b->genes[i], "case %d generation %lld: gene float %zu "
                      "%s %.0f %s %.0f", c, gen, i, a_name, a->genes[i], b_name, b->genes[i]);
    for (size_t i = 0; i < cells; ++i)
        ck_assert_msg(memcmp(&a->fitness[i], &b->fitness[i], 4) == 0, "case %d generation %lld: "
                      "fitness %zu %s %.9g %s %.9g", c, gen, i, a_name, a->fitness[i], b_name,
                      b->fitness[i]);
    for (int i = 0; i < 4 + 4 * cga->layout.textures; ++i)
        ck_assert_msg(memcmp(&a->record[i], &b->record[i], 4) == 0, "case %d generation %lld: "
                      "record float %d %s %.9g %s %.9g", c, gen, i, a_name, a->record[i], b_name,
                      b->record[i]);
}

/* A case of the stage-by-stage tests (test_cga_passes.c, test_cga_compute.c): a built-in
 * problem on an odd grid, with the random source and mutation it runs. */
typedef struct cga_pass_case {
    const char *problem;
    int dim, width, height, bits;
    glevo_cga_neighbourhood neighbourhood;
    glevo_rng_mode rng;
    glevo_cga_mutation mutation;
} cga_pass_case;

/* The engine a stage-by-stage case runs: pc 0.7, pm 0.05 on backend from seed. */
static inline glevo_cga_params cga_pass_case_params(const cga_pass_case *k, glevo_backend backend,
                                                    uint32_t seed)
{
    return (glevo_cga_params){.problem = glevo_problem_find(k->problem), .dim = k->dim,
                              .width = k->width, .height = k->height, .bits = k->bits,
                              .pc = 0.7, .pm = 0.05, .neighbourhood = k->neighbourhood,
                              .rng = k->rng, .mutation = k->mutation, .backend = backend,
                              .seed = seed};
}

/* A GPU stage's n floats the same as its C twin's (case c, the run's base seed in the
 * message). */
static inline void cga_assert_same_floats(const float *gpu, const float *cpu, size_t n,
                                          const char *stage, int c, unsigned seed)
{
    for (size_t i = 0; i < n; ++i)
        ck_assert_msg(gpu[i] == cpu[i], "case %d %s: float %zu GPU %.9g CPU %.9g (seed %u)", c,
                      stage, i, gpu[i], cpu[i], seed);
}

/* The problem a test case names, or (name NULL) the user GLSL fitness `glsl` over [-2, 3]^dim,
 * loaded from a temporary file into *user. */
static inline const glevo_problem *cga_case_problem(const char *name, const char *glsl, int dim,
                                                    glevo_direction direction, glevo_problem *user)
{
    if (name) return glevo_problem_find(name);
    ck_assert_msg(glevo_problem_from_glsl(testutil_write_tmp(glsl), dim, -2, 3, direction, user) ==
                  GLEVO_OK, "%s", glevo_last_error());
    return user;
}

/* Steps engines a and b (the same parameters, e.g. a GPU engine and the CPU's) one generation
 * at a time and asserts that their populations are the same floats after each (label names
 * the run in the messages). */
static inline void cga_assert_same_populations(glevo_cga *a, glevo_cga *b, int generations,
                                        const char *label)
{
    size_t n = glevo_cga_gene_floats(a);
    float *ga = malloc(n * 4), *gb = malloc(n * 4);
    for (int g = 0; g < generations; ++g) {
        ck_assert(glevo_cga_step(a, 1) == GLEVO_OK);
        ck_assert(glevo_cga_step(b, 1) == GLEVO_OK);
        ck_assert(glevo_cga_read_population(a, ga, NULL) == GLEVO_OK);
        ck_assert(glevo_cga_read_population(b, gb, NULL) == GLEVO_OK);
        for (size_t i = 0; i < n; ++i)
            ck_assert_msg(ga[i] == gb[i], "%s generation %d float %zu: %.0f against %.0f", label, g,
                          i, ga[i], gb[i]);
    }
    free(ga), free(gb);
}
#endif
