/* BuildDSM's C twin (Li & Yu 2017 §4.2–4.3): n11 from the popcount of ANDed FastCounting rows,
 * n10, n01, n00 derived from the ones counts, mutual information in fp32 with the same
 * operations as shaders/dsmga/build_dsm.glsl, so the two DSMs are equal bit for bit. */
#include <math.h>
#include <stdlib.h>

#include "dsmga_internal.h"
#include "mi_log.h"
#include "core/args.h"

static int popcount32(uint32_t x) { return __builtin_popcount(x); }

/* p(x,y)·ln(p(x,y) / (p(x)p(y))) with 0·log0 = 0, as (nxy/n)(ln(nxy n) - ln(nx ny)); same
 * float operations as the shader. */
static float mi_term(float nxy, float nx, float ny, float n, float inv_n)
{
    /* A select, not a branch, so the row loop can vectorise; dsm_log(0) is finite. */
    float t = (nxy * inv_n) * (dsm_log(nxy * n) - dsm_log(nx * ny));
    return nxy == 0.0f ? 0.0f : t;
}

void glevo_dsm_mi_cpu(const uint32_t *rows, int n, int ell, float *mi)
{
    ARG_NOT_NULL_OR(rows, );
    ARG_NOT_NULL_OR(mi, );
    int words = glevo_dsm_words(n);
    int *ones = malloc((size_t)ell * sizeof *ones);
    for (int g = 0; g < ell; ++g) {
        int c = 0;
        for (int w = 0; w < words; ++w) c += popcount32(rows[(size_t)g * words + w]);
        ones[g] = c;
    }
    /* Counts first, then the mutual information over the whole row, so the log polynomial
     * runs in a loop without popcounts that the compiler can schedule (and vectorise). */
    int *n11 = malloc((size_t)ell * sizeof *n11);
    float fn = (float)n, inv_n = 1.0f / fn;
    for (int i = 0; i < ell; ++i) {
        mi[(size_t)i * ell + i] = 0.0f;
        const uint32_t *a = rows + (size_t)i * words;
        for (int j = i + 1; j < ell; ++j) {
            const uint32_t *b = rows + (size_t)j * words;
            int c = 0;
            for (int w = 0; w < words; ++w) c += popcount32(a[w] & b[w]);
            n11[j] = c;
        }
        float oi = (float)ones[i], zi = fn - oi;
        for (int j = i + 1; j < ell; ++j) {
            float oj = (float)ones[j], f11 = (float)n11[j], zj = fn - oj;
            float v = mi_term(f11, oi, oj, fn, inv_n) + mi_term(oi - f11, oi, zj, fn, inv_n) +
                      mi_term(oj - f11, zi, oj, fn, inv_n) +
                      mi_term(fn - oi - oj + f11, zi, zj, fn, inv_n);
            mi[(size_t)i * ell + j] = v > 0.0f ? v : 0.0f;
        }
        for (int j = i + 1; j < ell; ++j) mi[(size_t)j * ell + i] = mi[(size_t)i * ell + j];
    }
    free(n11);
    free(ones);
}

uint32_t glevo_dsm_quantize(float mi) { return mi > 0.0f ? (uint32_t)(mi * 1048576.0f) : 0u; }
