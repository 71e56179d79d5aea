/* Lexicographic parsimony pressure in tournaments (parsimony.c). */
#ifndef GLEVO_GP_PARSIMONY_H
#define GLEVO_GP_PARSIMONY_H

#include <stdbool.h>

/* Whether contender c (fitness fc, len_c codes) beats the tournament's current winner w:
 * with tolerance > 0, fitnesses within tolerance * max(|fc|, |fw|) of each other (or equal,
 * infinities included; an infinite band ties only equal fitnesses) tie and the shorter program wins (equal lengths: w stays); otherwise,
 * and always with tolerance 0, the lower fitness wins (equal: w stays). The GPU tournament
 * (gp/breed.glsl, tournament_beats) makes the same comparison in double on the same
 * fitnesses and lengths. */
bool gp_tournament_beats(double tolerance, double fc, int len_c, double fw, int len_w);

#endif
