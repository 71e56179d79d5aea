/* Emigrant candidates on the GPU for the island model (glevo_cga_candidates): one dispatch of
 * shaders/cga/migrants.glsl over the fitness store, then a readback of groups x 2m (cell,
 * fitness) pairs instead of the whole fitness (4 MB at 1024 x 1024 cells, most of a
 * migration's time on the H100). The island adapter picks the global best and worst m among
 * them with islands_select_among. Works for both GPU drivers: both keep the fitness in the
 * same R32F texture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/gpu_internal.h"
#include "core/args.h"

/* Work-group of the kernel: 256 invocations, 16 cells each at the largest chunk. Shared memory
 * 4 x 4096 + 2 x 8 x 256 bytes = 20 KiB (GL guarantees 32). Loop steps per invocation at most
 * 16 + 32 x (16 + 8), far inside llvmpipe's budget of 65535. */
#define MIGRANTS_LOCAL 256

typedef struct migrants_uniforms {
    int32_t cells, width, m, chunk;
    uint32_t negate, pad[3];
} migrants_uniforms;

static const gpu_slot migrants_samplers[] = {{"t_fitness", 0}, {0}};
static const gpu_slot migrants_buffers[] = {{"migrant_candidates", 0}, {0}};

static bool available(const glevo_cga *cga)
{
    return cga->gpu && gpu_context_limits()->compute;
}

static glevo_status build(cga_gpu *g)
{
    if (g->migrants.id) return GLEVO_OK;
    char defines[128];
    snprintf(defines, sizeof defines, "#define MIGRANTS_LOCAL %d\n#define MIGRANTS_CHUNK %d\n",
             MIGRANTS_LOCAL, CGA_MIGRANTS_CHUNK);
    return gpu_program_build(&g->migrants, &(gpu_program_desc){
        .name = "cga.migrants", .compute = "cga/migrants.glsl", .defines = defines,
        .samplers = migrants_samplers, .buffers = migrants_buffers,
        .uniform_size = sizeof(migrants_uniforms)});
}

static glevo_status reserve(cga_gpu *g, size_t bytes)
{
    if (g->candidates.size >= bytes) return GLEVO_OK;
    gpu_buffer_destroy(&g->candidates);
    return gpu_buffer_create(&g->candidates, bytes, NULL);
}

int cga_gpu_candidate_count(const glevo_cga *cga, int m, int chunk)
{
    if (!available(cga) || m < 1 || m > GLEVO_CGA_MAX_CANDIDATES || chunk < 1 ||
        chunk > CGA_MIGRANTS_CHUNK)
        return 0;
    int cells = cga->layout.width * cga->layout.height;
    return 2 * m * gpu_groups(cells, chunk);
}

/* The dispatch alone: candidates into g->candidates (count entries of two words). */
static glevo_status dispatch(glevo_cga *cga, int m, int chunk, bool maximize, int count)
{
    cga_gpu *g = cga->gpu;
    glevo_status st = build(g);
    if (!st) st = reserve(g, (size_t)count * 2 * sizeof(uint32_t));
    if (st) return st;
    migrants_uniforms u = {.cells = cga->layout.width * cga->layout.height,
                           .width = cga->layout.width, .m = m, .chunk = chunk,
                           .negate = maximize ? 0u : 1u};
    gpu_pass p = {.name = "cga.migrants", .program = &g->migrants,
                  .groups = {count / (2 * m), 1, 1}};
    gpu_pass_input(&p, 0, &g->fitness_tex);
    gpu_pass_buffer(&p, 0, &g->candidates);
    gpu_pass_uniforms(&p, &u, sizeof u);
    return gpu_pass_dispatch(&p);
}

glevo_status cga_gpu_candidates(glevo_cga *cga, int m, int chunk, bool maximize, int *cells,
                                float *fitness)
{
    int count = cga_gpu_candidate_count(cga, m, chunk);
    if (count == 0)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "emigrant candidates for m = %d, chunk %d: "
                          "this engine has none (GPU backend with compute shaders, m in "
                          "1..%d)", m, chunk, GLEVO_CGA_MAX_CANDIDATES);
    glevo_status st = dispatch(cga, m, chunk, maximize, count);
    if (st) return st;
    size_t bytes = (size_t)count * 2 * sizeof(uint32_t);
    uint32_t *pairs = malloc(bytes);
    if (!pairs) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d candidates", count);
    st = gpu_buffer_read(&cga->gpu->candidates, 0, bytes, pairs);
    for (int c = 0; c < count && !st; ++c) {
        /* Cell 0xFFFFFFFF: the chunk had no more cells. */
        cells[c] = pairs[2 * c] == 0xFFFFFFFFu ? -1 : (int)pairs[2 * c];
        memcpy(&fitness[c], &pairs[2 * c + 1], sizeof(float));
    }
    free(pairs);
    return st;
}

int glevo_cga_candidate_count(const glevo_cga *cga, int m)
{
    ARG_NOT_NULL_OR(cga, -1);
    return cga_gpu_candidate_count(cga, m, CGA_MIGRANTS_CHUNK);
}

glevo_status glevo_cga_candidates(glevo_cga *cga, int m, int *cells, float *fitness)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    ARG_NOT_NULL(cells);
    ARG_NOT_NULL(fitness);
    /* Refused before evaluating, so that a caller falling back counts the evaluations once. */
    if (!glevo_cga_candidate_count(cga, m))
        return cga_gpu_candidates(cga, m, CGA_MIGRANTS_CHUNK, true, cells, fitness);
    glevo_status st = glevo_cga_evaluate(cga);
    return st ? st : cga_gpu_candidates(cga, m, CGA_MIGRANTS_CHUNK, cga->layout.sign > 0,
                                        cells, fitness);
}

glevo_status glevo_cga_candidates_prepare(glevo_cga *cga)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    CGA_GL_READY(cga);
    int most = glevo_cga_candidate_count(cga, GLEVO_CGA_MAX_CANDIDATES);
    if (!most) return GLEVO_OK;
    glevo_status st = build(cga->gpu);
    if (!st) st = reserve(cga->gpu, (size_t)most * 2 * sizeof(uint32_t));
    /* One dispatch over the store as it is, nothing read back: drivers that compile a program
     * on its first use (llvmpipe) do it now too. */
    if (!st) st = dispatch(cga, 1, CGA_MIGRANTS_CHUNK, true, glevo_cga_candidate_count(cga, 1));
    /* And one texel read from every gene texture an emigrant may be read from: NVIDIA's first
     * read of a texture that compute shaders wrote costs ~32 ms (H100, 580.159), the whole of
     * a 300-generation run's migration time if the first migration paid it. */
    cga_gpu *g = cga->gpu;
    for (int t = 0; t < cga->layout.textures && !st; ++t) {
        const gpu_texture *sets[] = {&g->current[t], &g->selected[t], &g->crossed[t]};
        for (int k = 0; k < 3 && !st; ++k) {
            float texel[4];
            if (sets[k]->id) st = gpu_texture_read_rect(sets[k], 0, 0, 1, 1, texel);
        }
    }
    return st;
}
