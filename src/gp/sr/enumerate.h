/* Bottom-up enumeration of short programs, seeding the main search (enumerate.c). */
#ifndef GLEVO_GP_ENUMERATE_H
#define GLEVO_GP_ENUMERATE_H

#include "gp/gp_internal.h"

#define GP_ENUM_CASES 32    /* cases it scores on: a stride sample of the data's */
#define GP_ENUM_SEEDS 16    /* the best it keeps */
#define GP_ENUM_MAX_SIZE 15 /* far beyond any budget's reach: 10^7 candidates end near 9 */
/* A program fits the cases to rounding where its squared error is at most this share of the
 * target's centred sum of squares (1 - R^2 <= 1e-10; float rounding leaves ~1e-14). */
#define GP_ENUM_EXACT 1e-10

/* The best programs found, best first (ties: the one met first, the smaller), with their
 * squared errors summed over the sampled cases; what the budget covered. */
typedef struct gp_enumerated {
    int count;
    uint32_t codes[GP_ENUM_SEEDS][GP_ENUM_MAX_SIZE];
    int len[GP_ENUM_SEEDS];
    double sse[GP_ENUM_SEEDS];
    long long tried;   /* candidates made (the budget's unit) */
    long long distinct;/* of them kept: finite and unlike every earlier one on the cases */
    int complete_size; /* every program of up to this many nodes was made */
    double target_ss;  /* the sampled targets' centred sum of squares */
} gp_enumerated;

/* Every program over d's variables and mask's operators of arity 1 and 2, smallest first,
 * up to `budget` candidates and max_size nodes, scored by the squared error of a + b f with
 * least squares' a and b (scaling) or of f; out's programs have no constants. threads: as
 * gp_cpu_threads takes them (0: every core); the result is the same on any count. */
glevo_status gp_enumerate(const glevo_gp_data *d, uint32_t mask, bool scaling,
                          long long budget, int max_size, int threads, gp_enumerated *out);

#endif
