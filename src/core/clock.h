/* The one monotonic clock of the library's timings (CLOCK_MONOTONIC, in seconds). */
#ifndef GLEVO_CORE_CLOCK_H
#define GLEVO_CORE_CLOCK_H

double core_seconds_now(void);

#endif
