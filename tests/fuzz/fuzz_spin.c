/* libFuzzer harness: 2-D ±J spin-glass files (src/dsmga/spin.c). A parsed instance has L in
 * 2..64 and ±1 couplings; small ones get their energy and exact ground state computed, which
 * must lie at or below the energy of any configuration and within the ground line's range. */
#include <stdint.h>
#include <stdlib.h>

#include "dsmga/dsmga_internal.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    glevo_spin_instance s;
    if (glevo_spin_parse((const char *)data, size, "fuzz", &s) != GLEVO_OK) return 0;
    if (s.L < 2 || s.L > 64) FUZZ_FAIL("L = %d", s.L);
    int n = s.L * s.L;
    for (int i = 0; i < n; ++i)
        if ((s.right[i] != 1 && s.right[i] != -1) || (s.down[i] != 1 && s.down[i] != -1))
            FUZZ_FAIL("coupling %d is not +-1", i);
    if (s.has_ground && (s.ground > 0 || s.ground < -2 * n || s.ground % 2))
        FUZZ_FAIL("ground %d accepted for L = %d", s.ground, s.L);
    uint8_t *x = calloc((size_t)n, 1);
    if (!x) abort();
    int e = glevo_spin_energy(&s, x);
    if (s.L <= 5) {
        int ground;
        if (glevo_spin_ground_transfer(&s, &ground) != GLEVO_OK) FUZZ_FAIL("transfer matrix failed");
        if (ground > e || ground % 2 || ground > 0) FUZZ_FAIL("ground %d above energy %d", ground, e);
    }
    free(x);
    glevo_spin_free(&s);
    return 0;
}
