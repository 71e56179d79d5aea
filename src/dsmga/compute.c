/* DSMGA-II model building as GL 4.3 compute dispatches (the compute driver) (Li & Yu 2017
 * §4–5): the FastCounting rows are packed from the population's bytes by one dispatch
 * (shaders/dsmga/pack.glsl) into the same R32UI texture as the fragment driver's, BuildDSM
 * is one dispatch of shared-memory tiles writing the DSM image (shaders/dsmga/build_dsm_tiles
 * .glsl), FindClique one dispatch of a work-group per start gene growing its whole set, the
 * lossy donor test included (clique_grow.glsl), instead of ~3 ell passes. Only the ILS comes
 * back. C twins: population.c (glevo_dsm_pack), dsm.c, clique.c. */
#include <stdio.h>

#include "dsmga/model_internal.h"

#define DSM_TILE 16          /* BuildDSM work-groups: 16 x 16 gene pairs */
#define CLIQUE_GENES_WANTED 16 /* FindClique: genes an invocation holds, before the group grows */
#define PACK_LOCAL 64          /* pack.glsl's work-group: genes of one word */
/* Lossy ILS columns read back at first, at least (2.4 KB each at ell = 600; one more read, a
 * sync, costs more than dozens of them). */
#define LOSSY_COLUMNS_MIN 16

enum { KERNEL_BUILD, KERNEL_CLIQUE, KERNEL_PACK };
enum { BUFFER_ILS };

static const gpu_slot build_images[] = {{"i_dsm", 0}, {0}};
static const gpu_slot pack_images[] = {{"i_rows", 0}, {0}};
static const gpu_slot clique_buffers[] = {{"clique_ils", 0}, {0}};

static void compute_destroy(glevo_dsm_gpu *g)
{
    if (g->dsm.id) gpu_texture_destroy(&g->dsm);
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
    /* A lossless set grows for ell - 1 steps inside one invocation's loops; where the renderer
     * cuts an invocation's loops short after a budget of iterations (llvmpipe: 65535 in all,
     * gpu_limits.max_loop_iterations), the sets would come back wrong without an error. Bound
     * the kernel's iterations (clique_grow.glsl's loops a step) and refuse beyond it. */
    long long genes = (ell + local - 1) / local, words = (g->words + local - 1) / local;
    long long per_step = 2 * genes + local / split + split + 2 * words + 2;
    long long budget = gpu_context_limits()->max_loop_iterations;
    if (budget > 0 && genes + words + (ell - 1) * per_step > budget)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "the compute model builder at ell %d needs about "
                          "%lld loop iterations a shader invocation, more than this renderer "
                          "runs (%lld, then it stops loops without an error); use the fragment "
                          "or cpu backend here", ell, genes + words + (ell - 1) * per_step,
                          budget);
    char defines[320];
    snprintf(defines, sizeof defines,
             "#define CLIQUE_PASS_TIE %uu\n#define CLIQUE_PASS_REP %uu\n#define DSM_TILE %d\n"
             "#define CLIQUE_LOCAL %d\n#define CLIQUE_SPLIT %d\n#define CLIQUE_GENES %d\n"
             "#define CLIQUE_WORDS %d\n",
             CLIQUE_PASS_TIE, CLIQUE_PASS_REP, DSM_TILE, local, split, (ell + local - 1) / local,
             (g->words + local - 1) / local);
    g->lossy_columns = LOSSY_COLUMNS_MIN;
    glevo_status st = gpu_texture_create(&g->dsm, ell, ell, GPU_R32F, NULL);
    if (st == GLEVO_OK)
        st = gpu_buffer_create(&g->buffers[BUFFER_ILS], (size_t)ell * (size_t)ell * sizeof(uint32_t),
                               NULL);
    if (st == GLEVO_OK)
        st = kernel(&g->kernels[KERNEL_BUILD], "dsmga.build_dsm_tiles", defines, build_images, NULL);
    if (st == GLEVO_OK)
        st = kernel(&g->kernels[KERNEL_CLIQUE], "dsmga.clique_grow", defines, NULL, clique_buffers);
    if (st == GLEVO_OK) st = kernel(&g->kernels[KERNEL_PACK], "dsmga.pack", defines, pack_images, NULL);
    return st;
}

static glevo_status compute_pack(glevo_dsm_gpu *g, gpu_texture *rows)
{
    gpu_pass p = {.name = "dsmga.pack", .program = &g->kernels[KERNEL_PACK],
                  .groups = {gpu_groups(g->ell, PACK_LOCAL), g->words, 1}};
    dsm_uniforms u = dsm_uniforms_for(g, NULL);
    gpu_pass_input(&p, DSM_SLOT_BITS, &g->bits);
    gpu_pass_image(&p, 0, rows, GPU_WRITE_ONLY);
    gpu_pass_uniforms(&p, &u, sizeof u);
    return gpu_pass_dispatch(&p);
}

static glevo_status compute_build(glevo_dsm_gpu *g)
{
    glevo_status st;
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

/* Lossy sets, column-major: a set that stopped wrote CLIQUE_END after its last gene (a full
 * set, ell - 1 genes, has none), so a prefix of columns shows whether it holds every set. Read
 * the first g->lossy_columns (twice the last call's longest set), more only when some set runs
 * past them: one small read, one sync a generation, where reading the longest set's length
 * first took two. *last = the longest set's genes. */
static glevo_status read_lossy(glevo_dsm_gpu *g, int *last)
{
    int ell = g->ell, columns = ell - 1, have = 0, longest = 0;
    int want = g->lossy_columns < columns ? g->lossy_columns : columns;
    while (want > have) {
        glevo_status st = gpu_buffer_read(&g->buffers[BUFFER_ILS], (size_t)have * ell * 4,
                                          (size_t)(want - have) * ell * 4,
                                          g->ils_host + (size_t)have * ell);
        if (st != GLEVO_OK) return st;
        have = want;
        bool open = false; /* a set with no CLIQUE_END in the columns read */
        for (int s = 0; s < ell; ++s) {
            int genes = 0;
            while (genes < have && g->ils_host[(size_t)genes * ell + s] != CLIQUE_END) ++genes;
            if (genes > longest) longest = genes;
            if (genes == have) open = true;
        }
        if (open) want = have * 2 < columns ? have * 2 : columns;
    }
    *last = longest;
    g->lossy_columns = 2 * longest > LOSSY_COLUMNS_MIN ? 2 * longest : LOSSY_COLUMNS_MIN;
    return GLEVO_OK;
}

static glevo_status compute_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp, int32_t *ils,
                                   int *last)
{
    glevo_status st;
    dsm_uniforms u = dsm_uniforms_for(g, cp);
    gpu_pass p = {.name = "dsmga.clique_grow", .program = &g->kernels[KERNEL_CLIQUE],
                  .groups = {g->ell, 1, 1}};
    gpu_pass_input(&p, DSM_SLOT_DSM, &g->dsm);
    gpu_pass_input(&p, DSM_SLOT_POP, &g->pop);
    gpu_pass_buffer(&p, BUFFER_ILS, &g->buffers[BUFFER_ILS]);
    gpu_pass_uniforms(&p, &u, sizeof u);
    if ((st = gpu_pass_dispatch(&p)) != GLEVO_OK) return st;
    if (cp->lossy) {
        g->ils_row = 1;
        g->ils_col = (size_t)g->ell;
        return read_lossy(g, last);
    }
    /* Lossless: the kernel wrote the sets whole in the caller's layout (no copy, no pass over
     * ell² entries on the host). */
    g->ils_whole = true;
    *last = g->ell - 1;
    return gpu_buffer_read(&g->buffers[BUFFER_ILS], 0, (size_t)g->ell * g->ell * sizeof *ils, ils);
}

const dsm_model_ops dsm_compute_ops = {compute_create, compute_pack, compute_build,
                                       compute_read, compute_clique, compute_destroy};
