/* BuildDSM's C twin (Li & Yu 2017 §4.2–4.3): n11 from the popcount of ANDed FastCounting rows,
 * n10, n01, n00 derived from the ones counts, mutual information in fp32 with the same
 * operations as shaders/dsmga/build_dsm.glsl. */
#include <math.h>
#include <stdlib.h>

#include "dsmga_internal.h"

static int popcount32(uint32_t x) { return __builtin_popcount(x); }

/* p(x,y)·ln(p(x,y) / (p(x)p(y))) with 0·log0 = 0; same float operations as the shader. */
static float mi_term(float nxy, float nx, float ny, float n)
{
    if (nxy == 0.0f) return 0.0f;
    return (nxy / n) * logf((nxy * n) / (nx * ny));
}

void glevo_dsm_mi_cpu(const uint32_t *rows, int n, int ell, float *mi)
{
    int words = glevo_dsm_words(n);
    int *ones = malloc((size_t)ell * sizeof *ones);
    for (int g = 0; g < ell; ++g) {
        int c = 0;
        for (int w = 0; w < words; ++w) c += popcount32(rows[(size_t)g * words + w]);
        ones[g] = c;
    }
    float fn = (float)n;
    for (int i = 0; i < ell; ++i) {
        mi[(size_t)i * ell + i] = 0.0f;
        for (int j = i + 1; j < ell; ++j) {
            int n11 = 0;
            const uint32_t *a = rows + (size_t)i * words, *b = rows + (size_t)j * words;
            for (int w = 0; w < words; ++w) n11 += popcount32(a[w] & b[w]);
            float oi = (float)ones[i], oj = (float)ones[j], f11 = (float)n11;
            float zi = fn - oi, zj = fn - oj;
            float v = mi_term(f11, oi, oj, fn) + mi_term(oi - f11, oi, zj, fn) +
                      mi_term(oj - f11, zi, oj, fn) + mi_term(fn - oi - oj + f11, zi, zj, fn);
            v = v > 0.0f ? v : 0.0f;
            mi[(size_t)i * ell + j] = mi[(size_t)j * ell + i] = v;
        }
    }
    free(ones);
}

uint32_t glevo_dsm_quantize(float mi) { return mi > 0.0f ? (uint32_t)(mi * 1048576.0f) : 0u; }
