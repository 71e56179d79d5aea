/* libFuzzer harness: CSV datasets (src/gp/csv.c). A parsed dataset must hold finite floats
 * and as many names as columns. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_common.h"
#include "glevo/gp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    /* The first byte picks the target: the last column, or the column named "y". */
    const char *target = size && (data[0] & 1) ? "y" : NULL;
    glevo_gp_data *d = NULL;
    if (glevo_gp_data_parse_csv(text, "fuzz.csv", target, &d) == GLEVO_OK) {
        int vars = glevo_gp_data_vars(d), cases = glevo_gp_data_cases(d);
        if (vars < 0 || cases < 1) FUZZ_FAIL("%d vars, %d cases", vars, cases);
        for (int v = 0; v < vars; ++v) {
            if (!glevo_gp_data_var_name(d, v)[0]) FUZZ_FAIL("empty name of column %d", v);
            for (int c = 0; c < cases; ++c)
                if (!isfinite(glevo_gp_data_row(d, v)[c])) FUZZ_FAIL("non-finite value");
        }
        for (int c = 0; c < cases; ++c)
            if (!isfinite(glevo_gp_data_target(d)[c])) FUZZ_FAIL("non-finite target");
        if (!glevo_gp_data_target_name(d)[0]) FUZZ_FAIL("empty target name");
        glevo_gp_data_destroy(d);
    } else if (d) {
        FUZZ_FAIL("a failed parse returned a dataset");
    }
    free(text);
    return 0;
}
