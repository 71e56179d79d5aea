/* DSMGA-II model building as GL 4.3 compute dispatches (the compute driver) (Li & Yu 2017
 * §4–5): the FastCounting rows go to the same R32UI texture as the fragment driver's, BuildDSM
 * is one dispatch of shared-memory tiles writing the DSM image (shaders/dsmga/build_dsm_tiles
 * .glsl), FindClique one dispatch of a work-group per start gene growing its whole set, the
 * lossy donor test included (clique_grow.glsl), instead of ~3 ell passes. Only the ILS comes
 * back. C twins: dsm.c, clique.c. */
#include <stdio.h>

#include "dsmga/model_internal.h"

#define DSM_TILE 16          /* BuildDSM work-groups: 16 x 16 gene pairs */
#define CLIQUE_GENES_WANTED 16 /* FindClique: genes an invocation holds, before the group grows */

enum { KERNEL_BUILD, KERNEL_CLIQUE };
enum { BUFFER_ILS, BUFFER_LAST };

static const gpu_slot build_images[] = {{"i_dsm", 0}, {0}};
static const gpu_slot clique_buffers[] = {{"clique_ils", 0}, {"clique_last", 0}, {0}};

static void compute_destroy(glevo_dsm_gpu *g)
{
    gpu_texture *tex[] = {&g->rows, &g->pop, &g->dsm};
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; ++i)
        if (tex[i]->id) gpu_texture_destroy(tex[i]);
    for (int i = 0; i < 4; ++i) {
        if (g->kernels[i].id) gpu_program_destroy(&g->kernels[i]);
        if (g->buffers[i].id) gpu_buffer_destroy(&g->buffers[i]);
    }
}

/* FindClique's work-group: a power of two from 32 (one NVIDIA warp) up, until every
 * invocation holds at most CLIQUE_GENES_WANTED genes in registers or the device's limit. */
static int clique_local(int ell)
{
    const gpu_limits *l = gpu_context_limits();
    int cap = l->max_work_group_invocations < l->max_work_group_size[0]
                  ? l->max_work_group_invocations : l->max_work_group_size[0];
    if (cap > 1024) cap = 1024;
    int local = 32;
    while (local * 2 <= cap && (long long)local * CLIQUE_GENES_WANTED < ell) local *= 2;
    return local;
}

/* Program `name` from shaders/dsmga/<name after "dsmga.">.glsl, on the model's sampler table. */
static glevo_status kernel(gpu_program *p, const char *name, const char *defines,
                           const gpu_slot *images, const gpu_slot *buffers)
{
    char file[96];
    snprintf(file, sizeof file, "dsmga/%s.glsl", name + sizeof "dsmga." - 1);
    return gpu_program_build(p, &(gpu_program_desc){.name = name, .compute = file,
                                                    .defines = defines, .samplers = dsm_samplers,
                                                    .images = images, .buffers = buffers,
                                                    .uniform_size = sizeof(dsm_uniforms)});
}

static glevo_status compute_create(glevo_dsm_gpu *g)
{
    int ell = g->ell;
    int local = clique_local(ell), split = 1;
    while (split * split < local) split *= 2; /* both reduction levels ~sqrt(local) long */
    char defines[320];
    snprintf(defines, sizeof defines,
             "#define CLIQUE_PASS_TIE %uu\n#define CLIQUE_PASS_REP %uu\n#define DSM_TILE %d\n"
             "#define CLIQUE_LOCAL %d\n#define CLIQUE_SPLIT %d\n#define CLIQUE_GENES %d\n"
             "#define CLIQUE_WORDS %d\n",
             CLIQUE_PASS_TIE, CLIQUE_PASS_REP, DSM_TILE, local, split, (ell + local - 1) / local,
             (g->words + local - 1) / local);
    glevo_status st = gpu_texture_create(&g->rows, g->words, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->pop, g->words, ell, GPU_R32UI, NULL);
    if (st == GLEVO_OK) st = gpu_texture_create(&g->dsm, ell, ell, GPU_R32F, NULL);
    if (st == GLEVO_OK)
        st = gpu_buffer_create(&g->buffers[BUFFER_ILS],
                               (size_t)ell * (size_t)(ell - 1) * sizeof(uint32_t), NULL);
    if (st == GLEVO_OK) st = gpu_buffer_create(&g->buffers[BUFFER_LAST], sizeof(uint32_t), NULL);
    if (st == GLEVO_OK)
        st = kernel(&g->kernels[KERNEL_BUILD], "dsmga.build_dsm_tiles", defines, build_images, NULL);
    if (st == GLEVO_OK)
        st = kernel(&g->kernels[KERNEL_CLIQUE], "dsmga.clique_grow", defines, NULL, clique_buffers);
    return st;
}

static glevo_status compute_build(glevo_dsm_gpu *g, const uint32_t *rows)
{
    glevo_status st = gpu_texture_upload(&g->rows, rows);
    if (st != GLEVO_OK) return st;
    int tiles = gpu_groups(g->ell, DSM_TILE);
    gpu_pass p = {.name = "dsmga.build_dsm_tiles", .program = &g->kernels[KERNEL_BUILD],
                  .groups = {tiles, tiles, 1}};
    dsm_uniforms u = dsm_uniforms_for(g, NULL);
    gpu_pass_input(&p, DSM_SLOT_ROWS, &g->rows);
    gpu_pass_image(&p, 0, &g->dsm, GPU_WRITE_ONLY);
    gpu_pass_uniforms(&p, &u, sizeof u);
    st = gpu_pass_dispatch(&p);
    /* As the fragment driver: one sync so that host timers charge BuildDSM, not FindClique. */
    gpu_finish();
    return st;
}

static glevo_status compute_read(glevo_dsm_gpu *g, float *mi) { return gpu_texture_read(&g->dsm, mi); }

static glevo_status compute_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int *last)
{
    glevo_status st;
    dsm_uniforms u = dsm_uniforms_for(g, cp);
    if (cp->lossy) {
        uint32_t zero = 0;
        if ((st = gpu_texture_upload(&g->pop, cp->pop_rows)) != GLEVO_OK) return st;
        if ((st = gpu_buffer_upload(&g->buffers[BUFFER_LAST], 0, sizeof zero, &zero))) return st;
    }
    gpu_pass p = {.name = "dsmga.clique_grow", .program = &g->kernels[KERNEL_CLIQUE],
                  .groups = {g->ell, 1, 1}};
    gpu_pass_input(&p, DSM_SLOT_DSM, &g->dsm);
    gpu_pass_input(&p, DSM_SLOT_POP, &g->pop);
    gpu_pass_buffer(&p, BUFFER_ILS, &g->buffers[BUFFER_ILS]);
    gpu_pass_buffer(&p, BUFFER_LAST, &g->buffers[BUFFER_LAST]);
    gpu_pass_uniforms(&p, &u, sizeof u);
    if ((st = gpu_pass_dispatch(&p)) != GLEVO_OK) return st;
    *last = g->ell - 1;
    if (cp->lossy) {
        /* The longest set's last column: the only columns worth reading back. */
        uint32_t longest = 0;
        st = gpu_buffer_read(&g->buffers[BUFFER_LAST], 0, sizeof longest, &longest);
        if (st != GLEVO_OK) return st;
        *last = (int)longest;
    }
    g->ils_row = cp->lossy ? 1 : (size_t)(g->ell - 1);
    g->ils_col = cp->lossy ? (size_t)g->ell : 1;
    return GLEVO_OK;
}

static glevo_status compute_read_ils(glevo_dsm_gpu *g, int last, uint32_t *out)
{
    /* Lossless: all rows of ell - 1 columns; lossy: the first `last` columns. Either way a
     * prefix of the buffer. */
    return gpu_buffer_read(&g->buffers[BUFFER_ILS], 0, (size_t)last * g->ell * sizeof *out, out);
}

const dsm_model_ops dsm_compute_ops = {compute_create, compute_build, compute_read,
                                       compute_clique, compute_read_ils, compute_destroy};
