/* C twin of shaders/cga/keep_best.glsl: the history best of the paper's Step 4, kept with the
 * genes of the individual, so a later pass overwriting the cell cannot lose it. */
#include <math.h>
#include <string.h>

#include "cga/passes.h"

void cga_keep_best_cpu(const cga_layout *l, const float reduced[4], const float *genes,
                       long long generation, float *record)
{
    float current = l->sign * reduced[0], old = l->sign * record[0];
    int take = record[3] == 0.0f || (isnan(record[0]) && !isnan(reduced[0]));
    if (!take && reduced[3] != 0.0f && !isnan(reduced[0])) take = current > old;
    if (!take) return;
    int x = (int)reduced[1], y = (int)reduced[2];
    record[0] = reduced[0];
    record[1] = reduced[1];
    record[2] = reduced[2];
    record[3] = (float)(generation + 1);
    for (int t = 0; t < l->textures; ++t)
        memcpy(record + 4 + 4 * t, genes + cga_texel(l, t, x, y), 4 * sizeof(float));
}
