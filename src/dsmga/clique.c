/* FindClique's C twin (Li & Yu 2017 §4.4, Algorithms 3 and 4): one incremental linkage set
 * per start gene, grown by the unused gene with the largest summed connection to the set.
 * Connections are sums of fixed-point MI (glevo_dsm_quantize) in uint32, exact in any order,
 * and ties go to the larger Philox priority, so the shaders/dsmga/clique_*.glsl passes give
 * the same sets. Lossy: a set stops when no individual of the population is the complement
 * of a random representative on the whole set plus the candidate (no donor). */
#include <stdlib.h>
#include <string.h>

#include "dsmga_internal.h"
#include "core/args.h"

void glevo_find_clique_cpu(const float *mi, int ell, const glevo_clique_params *cp,
                           int32_t *ils, int32_t *len)
{
    ARG_NOT_NULL_OR(mi, );
    ARG_NOT_NULL_OR(cp, );
    ARG_NOT_NULL_OR(ils, );
    ARG_NOT_NULL_OR(len, );
    uint32_t *conn = malloc((size_t)ell * sizeof *conn);
    uint32_t *prio = malloc((size_t)ell * sizeof *prio);
    uint8_t *used = malloc((size_t)ell);
    int words = cp->lossy ? glevo_dsm_words(cp->pop_n) : 0;
    uint32_t *mask = cp->lossy ? malloc((size_t)words * sizeof *mask) : NULL;
    uint32_t tail = cp->lossy && cp->pop_n % 32 ? (1u << (cp->pop_n % 32)) - 1u : 0xFFFFFFFFu;

    for (int s = 0; s < ell; ++s) {
        int32_t *set = ils + (size_t)s * ell;
        memset(used, 0, (size_t)ell);
        for (int g = 0; g < ell; ++g) {
            conn[g] = glevo_dsm_quantize(mi[(size_t)s * ell + g]);
            prio[g] = clique_priority(cp->seed, cp->generation, s, g);
        }
        used[s] = 1;
        set[0] = s;
        int size = 1;
        int rep = 0;
        if (cp->lossy) {
            rep = clique_representative(cp->seed, cp->generation, s, cp->pop_n);
            /* mask: individuals complementary to the representative on the set so far */
            const uint32_t *row = cp->pop_rows + (size_t)s * words;
            uint32_t flip = (row[rep / 32] >> (rep % 32)) & 1u ? 0xFFFFFFFFu : 0u;
            for (int w = 0; w < words; ++w) mask[w] = (row[w] ^ flip) & (w == words - 1 ? tail : ~0u);
        }
        for (; size < ell; ++size) {
            int best = -1;
            for (int g = 0; g < ell; ++g) {
                if (used[g]) continue;
                if (best < 0 || conn[g] > conn[best] || (conn[g] == conn[best] && prio[g] > prio[best]))
                    best = g;
            }
            if (cp->lossy) {
                const uint32_t *row = cp->pop_rows + (size_t)best * words;
                uint32_t flip = (row[rep / 32] >> (rep % 32)) & 1u ? 0xFFFFFFFFu : 0u;
                uint32_t any = 0;
                for (int w = 0; w < words; ++w) any |= mask[w] & (row[w] ^ flip);
                if (!any) break;
                for (int w = 0; w < words; ++w) mask[w] &= row[w] ^ flip;
            }
            set[size] = best;
            used[best] = 1;
            const float *mrow = mi + (size_t)best * ell;
            for (int g = 0; g < ell; ++g)
                if (!used[g]) conn[g] += glevo_dsm_quantize(mrow[g]);
        }
        len[s] = size;
        if (!cp->sets_only)
            for (int t = size; t < ell; ++t) set[t] = -1;
    }
    free(conn);
    free(prio);
    free(used);
    free(mask);
}
