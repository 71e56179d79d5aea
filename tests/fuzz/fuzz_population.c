/* libFuzzer harness: population files for `glevo dsm` (src/dsmga/population.c). A parsed
 * population is n rows of ell 0/1 bytes; it is packed and its DSM built when small. */
#include <stdint.h>
#include <stdlib.h>

#include "dsmga/dsmga_internal.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *bits = NULL;
    int n = 0, ell = 0;
    if (glevo_dsm_population_parse((const char *)data, size, "fuzz", &bits, &n, &ell) == GLEVO_OK) {
        if (n < 1 || ell < 1 || (size_t)n * (size_t)ell > size) FUZZ_FAIL("n %d ell %d from %zu bytes", n, ell, size);
        for (size_t i = 0; i < (size_t)n * (size_t)ell; ++i)
            if (bits[i] > 1) FUZZ_FAIL("gene byte %u", bits[i]);
        if (ell <= 64) {
            uint32_t *rows = malloc((size_t)ell * (size_t)glevo_dsm_words(n) * sizeof *rows);
            float *mi = malloc((size_t)ell * (size_t)ell * sizeof *mi);
            if (!rows || !mi) abort();
            glevo_dsm_pack(bits, n, ell, rows);
            glevo_dsm_mi_cpu(rows, n, ell, mi);
            for (int i = 0; i < ell; ++i)
                if (mi[(size_t)i * ell + i] != 0.0f || !(mi[i] >= 0.0f)) FUZZ_FAIL("mutual information row %d", i);
            free(rows);
            free(mi);
        }
        free(bits);
    } else if (bits) {
        FUZZ_FAIL("a failed parse returned a population");
    }
    return 0;
}
