/* The island model's topologies and migration policies (policy.h), in pagmo's vocabulary:
 * ring, fully connected, unconnected, torus; selection "best M"; replacement "worst if
 * better". Bounded insertion keeps choosing M of a million-cell grid at O(n) per migration.
 * And the placement check: a GPU shared while another of the host sits idle. */
#include "islands/policy.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/args.h"
#include "glevo/islands.h"

int islands_torus_width(int n)
{
    int w = 1;
    for (int d = 1; (long long)d * d <= n; ++d)
        if (n % d == 0) w = d;
    return w;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int islands_neighbours(int topology, int n, int rank, int torus_width, int *out)
{
    int count = 0;
    if (n <= 1) return 0;
    switch (topology) {
    case ISLANDS_RING:
        out[count++] = (rank + n - 1) % n;
        out[count++] = (rank + 1) % n;
        break;
    case ISLANDS_FULLY_CONNECTED:
        for (int i = 0; i < n; ++i) out[count++] = i;
        break;
    case ISLANDS_TORUS: {
        int w = torus_width > 0 ? torus_width : islands_torus_width(n), h = n / w;
        int r = rank / w, c = rank % w;
        out[count++] = ((r + h - 1) % h) * w + c;
        out[count++] = ((r + 1) % h) * w + c;
        out[count++] = r * w + (c + w - 1) % w;
        out[count++] = r * w + (c + 1) % w;
        break;
    }
    default: return 0;
    }
    qsort(out, (size_t)count, sizeof *out, cmp_int);
    int kept = 0;
    for (int i = 0; i < count; ++i)
        if (out[i] != rank && (kept == 0 || out[kept - 1] != out[i])) out[kept++] = out[i];
    return kept;
}

double islands_score(double fitness, bool maximize)
{
    if (isnan(fitness)) return -INFINITY;
    return maximize ? fitness : -fitness;
}

/* Keeps the m most extreme of n scores in out (sorted, most extreme first): an element enters
 * only when it beats the last kept, so the common case costs one comparison. `best` picks the
 * direction; ties keep the element met first (best: lower index; worst: scan from the end, so
 * the higher index). */
static void extreme(const double *score, int n, int m, int *out, bool best)
{
    if (m > n) m = n;
    if (m <= 0) return;
    int kept = 0;
    for (int step = 0; step < n; ++step) {
        int i = best ? step : n - 1 - step;
        double s = score[i];
        if (kept == m) {
            double last = score[out[m - 1]];
            if (best ? !(s > last) : !(s < last)) continue;
            kept--;
        }
        int k = kept++;
        while (k > 0 && (best ? s > score[out[k - 1]] : s < score[out[k - 1]])) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = i;
    }
}

void islands_best(const double *score, int n, int m, int *out)
{
    extreme(score, n, m, out, true);
}

void islands_worst(const double *score, int n, int m, int *out)
{
    extreme(score, n, m, out, false);
}

/* Inserts (i, s) into a kept list sorted by `before` (most extreme first), at most m long. */
static void keep(int *index, double *score, int *kept, int m, int i, double s, bool best)
{
    if (*kept == m) {
        if (best ? !(s > score[m - 1]) : !(s <= score[m - 1])) return;
        (*kept)--;
    }
    int k = (*kept)++;
    while (k > 0 && (best ? s > score[k - 1] : s <= score[k - 1])) {
        index[k] = index[k - 1];
        score[k] = score[k - 1];
        k--;
    }
    index[k] = i;
    score[k] = s;
}

void islands_select(const float *fitness, int n, bool maximize, int m, int *best,
                    double *best_score, int *worst, double *worst_score)
{
    if (m > n) m = n;
    if (m <= 0) return;
    int nb = 0, nw = 0;
    /* Entry thresholds, kept in locals: until a list is full everything enters it. */
    double enter_best = -INFINITY, enter_worst = INFINITY;
    for (int i = 0; i < n; ++i) {
        float f = fitness[i];
        double s = f != f ? -INFINITY : maximize ? (double)f : -(double)f;
        /* The common case, neither list's business, costs two comparisons. */
        if (!(s > enter_best) && !(s <= enter_worst) && nb == m && nw == m) continue;
        keep(best, best_score, &nb, m, i, s, true);
        keep(worst, worst_score, &nw, m, i, s, false);
        enter_best = nb == m ? best_score[m - 1] : -INFINITY;
        enter_worst = nw == m ? worst_score[m - 1] : INFINITY;
    }
}

/* Candidate order for islands_select_among: the same order islands_select's scan makes (best:
 * higher score, then lower index; worst: lower score, then higher index), written out because
 * candidates come in any order. */
static bool ahead(double s, int i, double t, int j, bool best)
{
    if (s != t) return best ? s > t : s < t;
    return best ? i < j : i > j;
}

/* Keeps the m first of the candidates in that order (positions, sorted), insertion as keep. */
static void among(const int *index, const double *score, int count, int m, int *out,
                  double *out_score, bool best)
{
    int kept = 0;
    for (int c = 0; c < count; ++c) {
        if (index[c] < 0) continue;
        if (kept == m) {
            int last = out[m - 1];
            if (!ahead(score[c], index[c], score[last], index[last], best)) continue;
            kept--;
        }
        int k = kept++;
        while (k > 0 && ahead(score[c], index[c], score[out[k - 1]], index[out[k - 1]], best)) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = c;
    }
    for (int k = 0; k < kept && out_score; ++k) out_score[k] = score[out[k]];
}

int islands_select_among(const int *index, const float *fitness, int count, bool maximize,
                         int m, int *best, double *best_score, int *worst, double *worst_score)
{
    int valid = 0;
    for (int c = 0; c < count; ++c) valid += index[c] >= 0;
    if (m > valid) m = valid;
    if (m <= 0) return 0;
    double *score = malloc(sizeof(double) * (size_t)count);
    if (!score) return -1;
    for (int c = 0; c < count; ++c) {
        float f = fitness[c];
        score[c] = f != f ? -INFINITY : maximize ? (double)f : -(double)f;
    }
    if (best) among(index, score, count, m, best, best_score, true);
    if (worst) among(index, score, count, m, worst, worst_score, false);
    free(score);
    return m;
}

int islands_replace(const int *worst, const double *worst_score, int worst_count,
                    const double *immigrant, int k, int m, int *order, int *slot, int *chosen)
{
    int order_count = m < k ? m : k;
    islands_best(immigrant, k, order_count, order);
    int pairs = 0;
    for (int p = 0; p < order_count && p < worst_count; ++p) {
        if (!(immigrant[order[p]] > worst_score[p])) break;
        slot[pairs] = worst[p];
        chosen[pairs] = order[p];
        pairs++;
    }
    return pairs;
}

/* Placement: a host whose ranks double up on one GPU while another of its GPUs has none is
 * running at a fraction of its throughput (ranks on one GPU time-slice it). Quadratic in the
 * ranks, once at start-up. */
int glevo_islands_placement_idle(const glevo_island_place *places, int count, int *host,
                                 int *shared)
{
    ARG_NOT_NULL_OR(places, -1);
    const glevo_island_place *p = places;
    for (int first = 0; first < count; ++first) {
        int h = p[first].host, dup = -1;
        bool seen = false;
        for (int j = 0; j < first && !seen; ++j) seen = p[j].host == h;
        if (seen) continue; /* each host once, from its first rank */
        for (int i = first; i < count && dup < 0; ++i)
            for (int j = i + 1; j < count && dup < 0; ++j)
                if (p[i].host == h && p[j].host == h && p[i].device >= 0 &&
                    p[i].device == p[j].device)
                    dup = p[i].device;
        int n = p[first].device_count < GLEVO_ISLANDS_HOST_DEVICES ? p[first].device_count
                                                                   : GLEVO_ISLANDS_HOST_DEVICES;
        for (int d = 0; d < n && dup >= 0; ++d) {
            bool busy = false;
            for (int i = first; i < count && !busy; ++i)
                busy = p[i].host == h && p[i].device == p[first].devices[d];
            if (busy) continue;
            if (host) *host = h;
            if (shared) *shared = dup;
            return p[first].devices[d];
        }
    }
    return -1;
}
