/* How the island tests launch MPI jobs: mpirun with as many ranks as asked on the two CI
 * cores (--oversubscribe), as root where CI runs (--allow-run-as-root), shared memory only,
 * under `timeout` so a hang fails the test instead of stalling CI. In the sanitizer build the
 * ranks keep AddressSanitizer but not its leak check: Open MPI 4.1 unloads its components at
 * MPI_Finalize, so their one-time allocations are reported from "<unknown module>", which no
 * suppression can name. */
#ifndef GLEVO_TEST_MPIRUN_H
#define GLEVO_TEST_MPIRUN_H

#include <stdio.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define MPIRUN_SANITIZER_ENV "ASAN_OPTIONS=detect_leaks=0 "
#else
#define MPIRUN_SANITIZER_ENV ""
#endif

static inline const char *mpirun_prefix(int ranks, int seconds)
{
    static char prefix[512];
    snprintf(prefix, sizeof prefix,
             MPIRUN_SANITIZER_ENV "LP_NUM_THREADS=1 timeout %d mpirun %s--oversubscribe "
             "--mca btl self,vader --mca btl_vader_single_copy_mechanism none -np %d", seconds,
             geteuid() == 0 ? "--allow-run-as-root " : "", ranks);
    return prefix;
}

#endif
