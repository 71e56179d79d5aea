/* Reading and writing a few individuals of a running DE (what the island model's migration
 * uses: glevo_de_read_fitness, _read_genes, _write_genes), checked before the backend's op. */
#include "de/de_internal.h"
#include "core/args.h"

glevo_status glevo_de_read_fitness(glevo_de *de, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(fitness);
    return de->ops->read_fitness(de, fitness);
}

static glevo_status check_indices(const glevo_de *de, int count, const int *index)
{
    if (count < 0) return glevo_fail(GLEVO_ERR_INVALID, "individual count %d is negative", count);
    for (int k = 0; k < count; ++k)
        if (index[k] < 0 || index[k] >= de->c.np)
            return glevo_fail(GLEVO_ERR_INVALID, "individual %d is outside the population "
                              "(0..%d)", index[k], de->c.np - 1);
    return GLEVO_OK;
}

glevo_status glevo_de_read_genes(glevo_de *de, int count, const int *index, float *genes)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(genes);
    glevo_status st = check_indices(de, count, index);
    return st ? st : de->ops->read_genes(de, count, index, genes);
}

/* Inside the domain, as every individual DE makes (its bound handling re-draws the rest). */
glevo_status glevo_de_write_genes(glevo_de *de, int count, const int *index,
                                  const float *genes, const float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(de);
    DE_GL_READY(de);
    ARG_NOT_NULL(index);
    ARG_NOT_NULL(genes);
    ARG_NOT_NULL(fitness);
    glevo_status st = check_indices(de, count, index);
    const de_config *c = &de->c;
    for (int k = 0; k < count && !st; ++k)
        for (int j = 0; j < c->dim && !st; ++j) {
            float y = genes[(size_t)k * (size_t)c->dim + (size_t)j];
            if (!(y >= c->lo[j] && y <= c->hi[j]))
                st = glevo_fail(GLEVO_ERR_INVALID, "gene %d of individual %d, %g, is outside "
                                "[%g, %g]", j, index[k], y, c->lo[j], c->hi[j]);
        }
    return st ? st : de->ops->write_genes(de, count, index, genes, fitness);
}
