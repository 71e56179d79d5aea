/* The island model's policies, free of MPI and GL so they are tested on their own: which
 * islands a topology connects, the selection policy (best M) and the replacement policy
 * (replace the worst when better). Scores are "larger is better" (sign * fitness, NaN worst). */
#ifndef GLEVO_ISLANDS_POLICY_H
#define GLEVO_ISLANDS_POLICY_H

#include <stdbool.h>

#include "glevo/status.h"

/* Same values as glevo_topology (glevo/islands.h, which needs MPI to be useful). */
enum { ISLANDS_RING = 0, ISLANDS_FULLY_CONNECTED = 1, ISLANDS_UNCONNECTED = 2, ISLANDS_TORUS = 3 };

/* The most square torus: the largest divisor of n not above sqrt(n) islands per row. */
int islands_torus_width(int n);
/* Neighbours of `rank` among n islands, ascending, without itself or repeats (a ring of two,
 * a torus one row high); returns how many were written to out (capacity n). */
int islands_neighbours(int topology, int n, int rank, int torus_width, int *out);

/* sign * fitness with NaN as the worst possible score. */
double islands_score(double fitness, bool maximize);
/* Indices of the best m of n scores, best first; ties go to the lower index. */
void islands_best(const double *score, int n, int m, int *out);
/* Indices of the worst m of n scores, worst first; ties go to the higher index. */
void islands_worst(const double *score, int n, int m, int *out);

/* Both at once over raw fitness values (scored on the fly, no score array): the best m with
 * their scores and the worst m with theirs, exactly what islands_best and islands_worst give
 * on the scores. One pass over a million-cell island's fitness at each migration. */
void islands_select(const float *fitness, int n, bool maximize, int m, int *best,
                    double *best_score, int *worst, double *worst_score);

/* islands_select over a candidate list instead of the whole population: candidate c is
 * individual index[c] (< 0: no candidate, skipped; indices distinct) with fitness[c], in any
 * order. Writes positions in the list (so that the caller has both the individual and its
 * fitness): the best m candidates, best first, ties to the lower index, and the worst m,
 * worst first, ties to the higher index, with their scores; best or worst may be NULL. Over
 * a list holding the population's best m (or worst m) it gives what islands_select gives.
 * Returns how many of each were written (min(m, valid candidates)), -1 out of memory. */
int islands_select_among(const int *index, const float *fitness, int count, bool maximize,
                         int m, int *best, double *best_score, int *worst, double *worst_score);

/* Replace the worst when better: pairs the best immigrants (best first, ties to the earlier
 * one) with the worst residents (worst first) while the immigrant is strictly better, at most
 * m pairs. Writes the resident index to slot[p] and the immigrant index to chosen[p]; returns
 * the number of pairs. `worst` holds the worst residents with their scores (islands_select);
 * `order` is scratch for min(m, k) ints. */
int islands_replace(const int *worst, const double *worst_score, int worst_count,
                    const double *immigrant, int k, int m, int *order, int *slot, int *chosen);

#endif
