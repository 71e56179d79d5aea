/* libFuzzer harness: GP program files (prefix S-expressions, src/gp/parse_program.c). A parsed
 * program must print back as text that parses again to the same number of nodes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "glevo/gp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    glevo_gp_programs *p = NULL, *again = NULL;
    if (glevo_gp_programs_create(&p) != GLEVO_OK) abort();
    /* The first byte picks the variable limit: 0 (any) or 1..7, as a dataset would. */
    int vars = size ? data[0] % 8 : 0;
    if (glevo_gp_programs_parse(p, text, "fuzz", vars) == GLEVO_OK) {
        if (glevo_gp_programs_create(&again) != GLEVO_OK) abort();
        for (int i = 0; i < glevo_gp_programs_count(p); ++i) {
            int n = glevo_gp_program_sexpr(p, i, NULL, 0);
            char *s = malloc((size_t)n + 1);
            if (!s) abort();
            glevo_gp_program_sexpr(p, i, s, (size_t)n + 1);
            char *infix = malloc((size_t)glevo_gp_program_infix(p, i, NULL, 0) + 1);
            if (!infix) abort();
            glevo_gp_program_infix(p, i, infix, (size_t)glevo_gp_program_infix(p, i, NULL, 0) + 1);
            if (glevo_gp_programs_parse(again, s, "printed", vars) != GLEVO_OK) FUZZ_FAIL("printed program does not parse: %s", s);
            free(s);
            free(infix);
        }
        if (glevo_gp_programs_nodes(again) != glevo_gp_programs_nodes(p))
            FUZZ_FAIL("round trip changed the node count: %lld -> %lld", glevo_gp_programs_nodes(p),
                      glevo_gp_programs_nodes(again));
    }
    glevo_gp_programs_destroy(p);
    glevo_gp_programs_destroy(again);
    free(text);
    return 0;
}
