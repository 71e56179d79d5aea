/* CPU engines. The cellular GA runs the passes' C twins in the GPU engine's order, so the same
 * seed gives the same populations. The standard GA is the paper's baseline (Table 1, 2):
 * roulette over the whole population, then the same crossover and mutation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cga/engine_internal.h"
#include "reduce/reduce.h"

static void evaluate_and_keep_best(glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    cga_fitness_cpu(l, cga->params.problem, cga->genes, cga->fitness);
    float reduced[4];
    cpu_reduce(l->sign > 0 ? REDUCE_MAX : REDUCE_MIN, cga->fitness, l->width, l->height, 1, 0,
               reduced);
    cga_keep_best_cpu(l, reduced, cga->genes, cga->generation, cga->record);
}

static void vary(glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    cga_crossover_points_cpu(l, &cga->rng, (float)cga->params.pc, cga->points);
    cga_crossover_cpu(l, cga->selected, cga->points, cga->crossed);
    cga_mutate_cpu(l, &cga->rng, &cga->mutation, cga->crossed, cga->genes);
}

static glevo_status cpu_generation(glevo_cga *cga)
{
    evaluate_and_keep_best(cga);
    cga_select_cpu(&cga->layout, &cga->rng, cga->fitness, cga->genes, cga->selected);
    vary(cga);
    return GLEVO_OK;
}

/* Global roulette: cumulative weights in double (the whole population's sum would lose the
 * small weights in float), then a binary search per pick: O(n log n) rather than the O(n^2)
 * linear scan of a textbook SGA, so the baseline the GPU is compared with is not a straw man. */
static void roulette_select(glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    size_t n = (size_t)l->width * l->height;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; ++i) {
        double s = l->sign * cga->fitness[i];
        lo = fmin(lo, s);
        hi = fmax(hi, s);
    }
    double eps = fmax((hi - lo) * 0.01, 1e-20), total = 0;
    for (size_t i = 0; i < n; ++i) {
        total += (l->sign * cga->fitness[i] - lo) + eps;
        cga->cumulative[i] = total;
    }
    for (size_t i = 0; i < n; ++i) {
        int x = (int)(i % (size_t)l->width), y = (int)(i / (size_t)l->width);
        glevo_u32x4 r = glevo_rng_words(&cga->rng, (uint32_t)x, (uint32_t)y, (uint32_t)i,
                                        CGA_PASS_SELECT, 0);
        double u = glevo_rng_u01(r.v[0]) * total;
        size_t a = 0, b = n - 1;
        while (a < b) {
            size_t mid = (a + b) / 2;
            if (u < cga->cumulative[mid])
                b = mid;
            else
                a = mid + 1;
        }
        int px = (int)(a % (size_t)l->width), py = (int)(a / (size_t)l->width);
        for (int t = 0; t < l->textures; ++t)
            memcpy(cga->selected + cga_texel(l, t, x, y), cga->genes + cga_texel(l, t, px, py),
                   4 * sizeof(float));
    }
}

static glevo_status sga_generation(glevo_cga *cga)
{
    evaluate_and_keep_best(cga);
    roulette_select(cga);
    vary(cga);
    return GLEVO_OK;
}

/* The CPU engines' buffers: genes (allocated by glevo_cga_create) are the current population. */
static glevo_status cpu_create(glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    size_t cells = (size_t)l->width * l->height;
    cga->selected = calloc(cga->gene_floats, sizeof(float));
    cga->crossed = calloc(cga->gene_floats, sizeof(float));
    cga->points = calloc(cga->gene_floats / 2, sizeof(float));
    cga->fitness = calloc(cells, sizeof(float));
    if (cga->params.algorithm == GLEVO_CGA_STANDARD) cga->cumulative = calloc(cells, sizeof(double));
    if (!cga->selected || !cga->crossed || !cga->points || !cga->fitness ||
        (cga->params.algorithm == GLEVO_CGA_STANDARD && !cga->cumulative))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %dx%d population", l->width,
                          l->height);
    return GLEVO_OK;
}

static glevo_status cpu_read_record(glevo_cga *cga, float *record)
{
    if (record != cga->record)
        memcpy(record, cga->record, (4 + 4 * (size_t)cga->layout.textures) * sizeof(float));
    return GLEVO_OK;
}

static glevo_status cpu_read(glevo_cga *cga, float *genes, float *fitness)
{
    if (genes) memcpy(genes, cga->genes, cga->gene_floats * sizeof(float));
    if (fitness)
        memcpy(fitness, cga->fitness,
               (size_t)cga->layout.width * cga->layout.height * sizeof(float));
    return GLEVO_OK;
}

static glevo_status cpu_write(glevo_cga *cga, const float *genes)
{
    if (genes != cga->genes) memcpy(cga->genes, genes, cga->gene_floats * sizeof(float));
    return GLEVO_OK;
}

static glevo_status cpu_restore(glevo_cga *cga, const float *genes, const float *fitness,
                                const float *record)
{
    const cga_layout *l = &cga->layout;
    if (genes != cga->genes) memcpy(cga->genes, genes, cga->gene_floats * sizeof(float));
    memcpy(cga->fitness, fitness, (size_t)l->width * l->height * sizeof(float));
    memcpy(cga->record, record, (4 + 4 * (size_t)l->textures) * sizeof(float));
    return GLEVO_OK;
}

static void cpu_destroy(glevo_cga *cga)
{
    free(cga->selected), free(cga->crossed), free(cga->points);
    free(cga->fitness), free(cga->cumulative);
    cga->selected = cga->crossed = cga->points = cga->fitness = NULL;
    cga->cumulative = NULL;
}

static glevo_status cpu_evaluate(glevo_cga *cga)
{
    cga_fitness_cpu(&cga->layout, cga->params.problem, cga->genes, cga->fitness);
    return GLEVO_OK;
}

static glevo_status cpu_read_cells(glevo_cga *cga, int count, const int *cells, float *genes)
{
    const cga_layout *l = &cga->layout;
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < l->dim; ++j)
            genes[(size_t)i * l->dim + j] =
                cga->genes[cga_texel(l, j / 4, cells[i] % l->width, cells[i] / l->width) + j % 4];
    return GLEVO_OK;
}

static glevo_status cpu_write_cells(glevo_cga *cga, int count, const int *cells, const float *genes)
{
    const cga_layout *l = &cga->layout;
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < l->dim; ++j)
            cga->genes[cga_texel(l, j / 4, cells[i] % l->width, cells[i] / l->width) + j % 4] =
                genes[(size_t)i * l->dim + j];
    return GLEVO_OK;
}

const cga_engine_ops cga_cpu_ops = {cpu_create, cpu_generation, cpu_read_record, cpu_read,
                                    cpu_write, cpu_restore, cpu_destroy, cpu_evaluate,
                                    cpu_read_cells, cpu_write_cells, NULL};
const cga_engine_ops cga_sga_ops = {cpu_create, sga_generation, cpu_read_record, cpu_read,
                                    cpu_write, cpu_restore, cpu_destroy, cpu_evaluate,
                                    cpu_read_cells, cpu_write_cells, NULL};
