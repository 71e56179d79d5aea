/* The one monotonic clock of the library's timings (clock.h). */
#include "core/clock.h"

#include <time.h>

double core_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
