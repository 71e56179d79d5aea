/* What the cGA's bit-for-bit tests of the compute paths compare between two GPU engines (the
 * blocked kernel, the fused and plain one-generation paths, the fragment driver): population,
 * fitness store and best-so-far record, read back after a step. Included by one test each. */
#ifndef GLEVO_TESTS_CGA_STATE_H
#define GLEVO_TESTS_CGA_STATE_H
#include <string.h>

#include "cga/gpu_internal.h"
#include "testutil.h"

typedef struct cga_state { float *genes, *fitness, record[4 + 4 * 8]; } cga_state;

static void cga_state_read(glevo_cga *cga, cga_state *s)
{
    ck_assert(glevo_cga_read_population(cga, s->genes, s->fitness) == GLEVO_OK);
    ck_assert(cga_gpu_read_stage(cga, CGA_STAGE_RECORD, s->record) == GLEVO_OK);
}

/* Every float of a and b the same bits (the engines named a_name and b_name; case c after
 * generation gen, for the message). */
static void cga_state_assert_same(const cga_state *a, const char *a_name, const cga_state *b,
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
#endif
