/* What the cellular GA's two GPU drivers share: programs (built for the driver, from the same
 * pass bodies), the texture layout, the uniform block, readbacks and uploads. fragment.c and
 * compute.c only order the passes of a generation.
 *
 * Textures: gene sets of ceil(dim / 4) RGBA32F textures, or one R32F / RG32F texture where dim
 * is 1 / 2 (cga_gene_format: half the bytes a generation moves for camel; the host arrays keep
 * four channels a texel, the ones not stored read as 0). The fragment driver keeps every
 * stage in its own set (current -> selected -> crossed -> current) for the demo's pass
 * inspector; the compute driver ping-pongs `current` and `selected` (its fused step writes
 * the next population directly). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/gpu_internal.h"

/* Texture-unit tables, one per program; the slot enums in gpu_internal.h mirror them. */
static const gpu_slot fitness_samplers[] = {{"t_genes", MAX_TEX}, {0}};
static const gpu_slot keep_samplers[] = {{"t_reduced", 0}, {"t_record", 0}, {"t_genes", MAX_TEX}, {0}};
static const gpu_slot select_samplers[] = {{"t_fitness", 0}, {"t_genes", MAX_TEX}, {"t_random_table", 0}, {0}};
static const gpu_slot xpoints_samplers[] = {{"t_random_table", 0}, {0}};
static const gpu_slot crossover_samplers[] = {{"t_genes", MAX_TEX}, {"t_points", MAX_TEX}, {0}};
static const gpu_slot mutate_samplers[] = {{"t_genes", MAX_TEX}, {"t_random_table", 0}, {0}};
static const gpu_slot fitness_images[] = {{"i_fitness", 0}, {"i_partial", 0}, {0}};
static const gpu_slot record_images[] = {{"i_record", 0}, {0}};
static const gpu_slot genes_images[] = {{"i_genes", MAX_TEX}, {0}};
static const gpu_slot fitness_buffers[] = {{"evolve_bests", 0}, {0}}; /* compute only */

static glevo_status build(gpu_program *p, const char *name, const char *file, bool compute,
                          const gpu_slot *samplers, const gpu_slot *images,
                          const gpu_slot *buffers, const char *defines, const char *const *aliases)
{
    gpu_program_desc d = {.name = name, .defines = defines, .aliases = aliases,
                          .samplers = samplers, .uniform_size = sizeof(cga_uniforms)};
    if (compute) {
        d.compute = file;
        d.images = images;
        d.buffers = buffers;
    } else {
        d.fragment = file;
    }
    return gpu_program_build(p, &d);
}

gpu_format cga_gene_format(const cga_layout *l)
{
    return l->dim == 1 ? GPU_R32F : l->dim == 2 ? GPU_RG32F : GPU_RGBA32F;
}

int cga_gpu_defines(const glevo_cga *cga, char *out, size_t size)
{
    const cga_layout *l = &cga->layout;
    gpu_format genes = cga_gene_format(l);
    return snprintf(out, size,
                    "#define GENE_TEXTURES %d\n#define DIM %d\n#define NEIGHBOURHOOD %d\n"
                    "#define GENE_IMAGE_FORMAT %s\n"
                    "#define PASS_SELECT %uu\n#define PASS_XPOINTS %uu\n#define PASS_MUTATE %uu\n"
                    "#define FITNESS_SPAN %d\n%s%s%s",
                    l->textures, l->dim, (int)l->neighbourhood,
                    genes == GPU_R32F ? "r32f" : genes == GPU_RG32F ? "rg32f" : "rgba32f",
                    CGA_PASS_SELECT, CGA_PASS_XPOINTS, CGA_PASS_MUTATE, CGA_FITNESS_SPAN, cga->params.rng == GLEVO_RNG_TEXTURE ? "#define RNG_TEXTURE 1\n" : "",
                    cga->mutation.mode == GLEVO_MUTATION_SKIP ? "#define MUTATION_SKIP 1\n" : "",
                    l->sign > 0 ? "#define REDUCE_MAX 1\n" : "");
}

static glevo_status build_programs(glevo_cga *cga, bool compute)
{
    cga_gpu *g = cga->gpu;
    char defines[512];
    cga_gpu_defines(cga, defines, sizeof defines);
    const char *aliases[] = {"problem", cga->params.problem->snippet, NULL};
    glevo_status st = build(&g->fitness, "cga.fitness", "cga/fitness.glsl", compute,
                            fitness_samplers, fitness_images, fitness_buffers, defines, aliases);
    if (!st) st = build(&g->keep_best, "cga.keep_best", "cga/keep_best.glsl", compute,
                        keep_samplers, record_images, NULL, defines, NULL);
    if (!st && compute)
        st = build(&g->evolve, "cga.evolve", "cga/evolve.glsl", true, select_samplers,
                   genes_images, NULL, defines, aliases); /* its EVOLVE_FIT part includes fitness */
    if (!st && !compute)
        st = build(&g->select, "cga.select", "cga/select.glsl", false, select_samplers, NULL,
                   NULL, defines, NULL);
    if (!st && !compute)
        st = build(&g->xpoints, "cga.crossover_points", "cga/crossover_points.glsl", false,
                   xpoints_samplers, NULL, NULL, defines, NULL);
    if (!st && !compute)
        st = build(&g->crossover, "cga.crossover", "cga/crossover.glsl", false,
                   crossover_samplers, NULL, NULL, defines, NULL);
    if (!st && !compute)
        st = build(&g->mutate, "cga.mutate", "cga/mutate.glsl", false, mutate_samplers, NULL,
                   NULL, defines, NULL);
    return st;
}

glevo_status cga_gpu_create(glevo_cga *cga, bool compute)
{
    const cga_layout *l = &cga->layout;
    cga_gpu *g = calloc(1, sizeof *g);
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    cga->gpu = g;
    cga->context = gpu_context_serial();
    g->compute = compute;
    glevo_status st = build_programs(cga, compute);
    gpu_format genes = cga_gene_format(l);
    for (int t = 0; t < l->textures && !st; ++t) {
        st = gpu_texture_create_narrow(&g->current[t], l->width, l->height, genes, 4,
                                       cga->genes + cga_texel(l, t, 0, 0));
        if (!st)
            st = gpu_texture_create_narrow(&g->selected[t], l->width, l->height, genes, 4, NULL);
        if (!st && !compute)
            st = gpu_texture_create_narrow(&g->crossed[t], l->width, l->height, genes, 4, NULL);
        if (!st && !compute)
            st = gpu_texture_create(&g->points[t], l->width / 2, l->height, GPU_RGBA32F, NULL);
    }
    if (!st) st = gpu_texture_create(&g->fitness_tex, l->width, l->height, GPU_R32F, NULL);
    if (!st) st = gpu_texture_create(&g->record[0], 1 + l->textures, 1, GPU_RGBA32F, NULL);
    if (!st) st = gpu_texture_create(&g->record[1], 1 + l->textures, 1, GPU_RGBA32F, NULL);
    if (!st && cga->params.rng == GLEVO_RNG_TEXTURE)
        st = gpu_texture_create(&g->random_table, GLEVO_RNG_TABLE_SIDE, GLEVO_RNG_TABLE_SIDE,
                                GPU_RGBA32UI, cga->rng.table);
    /* The compute driver reduces inside its fitness and record dispatches (one best texel per
     * fitness work-group in `partial`); the fragment driver runs the 2x2 reduction passes. */
    int span = CGA_FITNESS_SPAN;
    if (!st && compute)
        st = gpu_texture_create(&g->partial, (l->width + span - 1) / span, (l->height + span - 1) / span,
                                GPU_RGBA32F, NULL);
    if (!st && !compute) st = gpu_reducer_create(&g->reducer, l->width, l->height, false);
    return st;
}

void cga_gpu_destroy(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    if (!g) return;
    gpu_program *programs[] = {&g->fitness, &g->select, &g->xpoints, &g->crossover,
                               &g->mutate, &g->keep_best, &g->evolve, &g->migrants,
                               &g->block, &g->evolve_fit};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; ++i)
        gpu_program_destroy(programs[i]);
    for (int t = 0; t < MAX_TEX; ++t) {
        gpu_texture_destroy(&g->current[t]);
        gpu_texture_destroy(&g->selected[t]);
        gpu_texture_destroy(&g->crossed[t]);
        gpu_texture_destroy(&g->points[t]);
    }
    gpu_texture_destroy(&g->fitness_tex);
    gpu_texture_destroy(&g->fitness_next);
    gpu_texture_destroy(&g->partial);
    gpu_texture_destroy(&g->random_table);
    gpu_texture_destroy(&g->record[0]);
    gpu_texture_destroy(&g->record[1]);
    gpu_reducer_destroy(&g->reducer);
    gpu_buffer_destroy(&g->candidates);
    gpu_buffer_destroy(&g->bests);
    gpu_buffer_destroy(&g->history);
    gpu_buffer_destroy(&g->flips);
    gpu_buffer_destroy(&g->evolve_bests);
    free(g);
    cga->gpu = NULL;
}

/* Every cGA pass reads the same block: grid, gene length, random key and source, and the
 * operators' parameters. */
void cga_gpu_uniforms(const glevo_cga *cga, cga_uniforms *u)
{
    memset(u, 0, sizeof *u);
    memcpy(u->rng_offset, cga->rng.offset, sizeof u->rng_offset);
    u->grid[0] = cga->layout.width;
    u->grid[1] = cga->layout.height;
    u->key[0] = cga->rng.seed;
    u->key[1] = cga->rng.stream;
    u->bits = cga->layout.bits;
    u->generation = cga->rng.generation;
    u->lower = cga->layout.lower;
    u->step = cga->layout.step;
    u->sign = cga->layout.sign;
    u->generation_plus_one = (float)(cga->generation + 1);
    u->pc = (float)cga->params.pc;
    u->pm = cga->mutation.pm;
    u->skip[0] = cga->mutation.log2_keep;
    memcpy(u->flip_cdf, cga->mutation.flip_cdf, sizeof u->flip_cdf);
}

glevo_status cga_gpu_read_record(glevo_cga *cga, float *record)
{
    return gpu_texture_read(&cga->gpu->record[cga->gpu->record_index], record);
}

glevo_status cga_gpu_read(glevo_cga *cga, float *genes, float *fitness)
{
    const cga_layout *l = &cga->layout;
    glevo_status st = GLEVO_OK;
    for (int t = 0; t < l->textures && !st && genes; ++t)
        st = gpu_texture_read(&cga->gpu->current[t], genes + cga_texel(l, t, 0, 0));
    if (!st && fitness) st = gpu_texture_read(&cga->gpu->fitness_tex, fitness);
    return st;
}

glevo_status cga_gpu_write(glevo_cga *cga, const float *genes)
{
    const cga_layout *l = &cga->layout;
    glevo_status st = GLEVO_OK;
    for (int t = 0; t < l->textures && !st; ++t)
        st = gpu_texture_upload(&cga->gpu->current[t], genes + cga_texel(l, t, 0, 0));
    return st;
}

/* Migration moves a few individuals: one 1 x 1 rectangle per cell and gene texture, so a
 * migration costs a handful of texels, never the population. Channels past dim stay 0, as
 * the initial population has them and the operators keep them. */
glevo_status cga_gpu_read_cells(glevo_cga *cga, int count, const int *cells, float *genes)
{
    const cga_layout *l = &cga->layout;
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < count && !st; ++i)
        for (int t = 0; t < l->textures && !st; ++t) {
            float texel[4];
            st = gpu_texture_read_rect(&cga->gpu->current[t], cells[i] % l->width,
                                       cells[i] / l->width, 1, 1, texel);
            for (int c = 0; c < 4 && 4 * t + c < l->dim; ++c)
                genes[(size_t)i * l->dim + 4 * t + c] = texel[c];
        }
    return st;
}

glevo_status cga_gpu_write_cells(glevo_cga *cga, int count, const int *cells, const float *genes)
{
    const cga_layout *l = &cga->layout;
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < count && !st; ++i)
        for (int t = 0; t < l->textures && !st; ++t) {
            float texel[4] = {0, 0, 0, 0};
            for (int c = 0; c < 4 && 4 * t + c < l->dim; ++c)
                texel[c] = genes[(size_t)i * l->dim + 4 * t + c];
            st = gpu_texture_upload_rect(&cga->gpu->current[t], cells[i] % l->width,
                                         cells[i] / l->width, 1, 1, texel);
        }
    return st;
}

glevo_status cga_gpu_restore(glevo_cga *cga, const float *genes, const float *fitness,
                             const float *record)
{
    glevo_status st = cga_gpu_write(cga, genes);
    if (!st) st = gpu_texture_upload(&cga->gpu->fitness_tex, fitness);
    if (!st) st = gpu_texture_upload(&cga->gpu->record[cga->gpu->record_index], record);
    return st;
}

unsigned cga_gpu_texture(const glevo_cga *cga, glevo_cga_stage stage, int index)
{
    const cga_gpu *g = cga->gpu;
    if (!g || index < 0 || index >= cga->layout.textures) return 0;
    switch (stage) {
    case GLEVO_CGA_STAGE_POPULATION: return g->current[index].id;
    case GLEVO_CGA_STAGE_FITNESS: return g->fitness_tex.id;
    case GLEVO_CGA_STAGE_SELECTED: return g->compute ? 0 : g->selected[index].id;
    case GLEVO_CGA_STAGE_CROSSED: return g->compute ? 0 : g->crossed[index].id;
    }
    return 0;
}

glevo_status cga_gpu_read_stage(glevo_cga *cga, int stage, float *out)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    if (stage == GLEVO_CGA_STAGE_FITNESS) return gpu_texture_read(&g->fitness_tex, out);
    if (stage == CGA_STAGE_RECORD) return cga_gpu_read_record(cga, out);
    if (g->compute && stage != GLEVO_CGA_STAGE_POPULATION)
        return glevo_fail(GLEVO_ERR_INVALID, "the compute backend keeps no stage %d", stage);
    glevo_status st = GLEVO_OK;
    for (int t = 0; t < l->textures && !st; ++t) {
        float *genes_out = out + cga_texel(l, t, 0, 0);
        switch (stage) {
        case GLEVO_CGA_STAGE_POPULATION: st = gpu_texture_read(&g->current[t], genes_out); break;
        case GLEVO_CGA_STAGE_SELECTED: st = gpu_texture_read(&g->selected[t], genes_out); break;
        case GLEVO_CGA_STAGE_CROSSED: st = gpu_texture_read(&g->crossed[t], genes_out); break;
        case CGA_STAGE_POINTS:
            st = gpu_texture_read(&g->points[t], out + (size_t)t * l->height * (l->width / 2) * 4);
            break;
        default: return glevo_fail(GLEVO_ERR_INVALID, "unknown stage %d", stage);
        }
    }
    return st;
}
