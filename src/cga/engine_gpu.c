/* The cellular GA as render passes (paper §2.6, Steps 1-9). Three sets of gene textures
 * rather than a ping-pong pair: current -> selected -> crossed -> current, so every stage's
 * output stays in its own texture for the demo's pass inspector, at no extra pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cga/cga_internal.h"
#include "gl/gpgpu.h"
#include "reduce/reduce.h"

#define MAX_TEX (GLEVO_CGA_MAX_DIM / 4)

struct cga_gpu {
    gpu_program fitness, select, xpoints, crossover, mutate, keep_best;
    gpu_texture current[MAX_TEX], selected[MAX_TEX], crossed[MAX_TEX], points[MAX_TEX];
    gpu_texture fitness_tex, random_table;
    gpu_texture record[2];
    int record_index;
    gpu_reducer reducer;
};

static void name_array(char names[][24], const char *base, int count)
{
    for (int i = 0; i < count; ++i) snprintf(names[i], 24, "%s[%d]", base, i);
}

static glevo_status build_programs(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    char defines[256];
    snprintf(defines, sizeof defines,
             "#define GENE_TEXTURES %d\n#define DIM %d\n#define NEIGHBOURHOOD %d\n%s%s",
             l->textures, l->dim, (int)l->neighbourhood,
             cga->params.rng == GLEVO_RNG_TEXTURE ? "#define RNG_TEXTURE 1\n" : "",
             cga->mutation.mode == GLEVO_MUTATION_SKIP ? "#define MUTATION_SKIP 1\n" : "");
    const char *aliases[] = {"problem", cga->params.problem->snippet, NULL};
    glevo_status st = gpu_program_build(&g->fitness, "cga/fitness.glsl", defines, aliases);
    if (!st) st = gpu_program_build(&g->select, "cga/select.glsl", defines, NULL);
    if (!st) st = gpu_program_build(&g->xpoints, "cga/crossover_points.glsl", defines, NULL);
    if (!st) st = gpu_program_build(&g->crossover, "cga/crossover.glsl", defines, NULL);
    if (!st) st = gpu_program_build(&g->mutate, "cga/mutate.glsl", defines, NULL);
    if (!st) st = gpu_program_build(&g->keep_best, "cga/keep_best.glsl", defines, NULL);
    return st;
}

glevo_status cga_gpu_create(glevo_cga *cga)
{
    const cga_layout *l = &cga->layout;
    cga_gpu *g = calloc(1, sizeof *g);
    if (!g) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    cga->gpu = g;
    glevo_status st = build_programs(cga);
    for (int t = 0; t < l->textures && !st; ++t) {
        st = gpu_texture_create(&g->current[t], l->width, l->height, GPU_RGBA32F,
                                cga->genes + cga_texel(l, t, 0, 0));
        if (!st) st = gpu_texture_create(&g->selected[t], l->width, l->height, GPU_RGBA32F, NULL);
        if (!st) st = gpu_texture_create(&g->crossed[t], l->width, l->height, GPU_RGBA32F, NULL);
        if (!st) st = gpu_texture_create(&g->points[t], l->width / 2, l->height, GPU_RGBA32F, NULL);
    }
    if (!st) st = gpu_texture_create(&g->fitness_tex, l->width, l->height, GPU_R32F, NULL);
    if (!st) st = gpu_texture_create(&g->record[0], 1 + l->textures, 1, GPU_RGBA32F, NULL);
    if (!st) st = gpu_texture_create(&g->record[1], 1 + l->textures, 1, GPU_RGBA32F, NULL);
    if (!st && cga->params.rng == GLEVO_RNG_TEXTURE)
        st = gpu_texture_create(&g->random_table, GLEVO_RNG_TABLE_SIDE, GLEVO_RNG_TABLE_SIDE,
                                GPU_RGBA32UI, cga->rng.table);
    if (!st) st = gpu_reducer_create(&g->reducer, l->width, l->height);
    return st;
}

void cga_gpu_destroy(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    if (!g) return;
    gpu_program *programs[] = {&g->fitness, &g->select, &g->xpoints, &g->crossover, &g->mutate,
                               &g->keep_best};
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; ++i)
        gpu_program_destroy(programs[i]);
    for (int t = 0; t < MAX_TEX; ++t) {
        gpu_texture_destroy(&g->current[t]);
        gpu_texture_destroy(&g->selected[t]);
        gpu_texture_destroy(&g->crossed[t]);
        gpu_texture_destroy(&g->points[t]);
    }
    gpu_texture_destroy(&g->fitness_tex);
    gpu_texture_destroy(&g->random_table);
    gpu_texture_destroy(&g->record[0]);
    gpu_texture_destroy(&g->record[1]);
    gpu_reducer_destroy(&g->reducer);
    free(g);
    cga->gpu = NULL;
}

/* Uniforms every cGA pass shares: grid, gene length, random key and source. */
static void common_uniforms(glevo_cga *cga, gpu_pass *p)
{
    gpu_uniform_2i(p, "u_grid", cga->layout.width, cga->layout.height);
    gpu_uniform_1i(p, "u_bits", cga->layout.bits);
    gpu_uniform_key(p, cga->rng.seed, cga->rng.stream);
    gpu_uniform_1ui(p, "u_generation", cga->rng.generation);
    if (cga->params.rng == GLEVO_RNG_TEXTURE)
        gpu_uniform_4ui(p, "u_rng_offset", cga->rng.offset);
}

static void gene_inputs(gpu_pass *p, const char *base, gpu_texture *tex, int count,
                        char names[][24])
{
    name_array(names, base, count);
    for (int t = 0; t < count; ++t) gpu_pass_input(p, names[t], &tex[t]);
}

static void gene_targets(gpu_pass *p, gpu_texture *tex, int count)
{
    for (int t = 0; t < count; ++t) gpu_pass_target(p, &tex[t]);
}

static glevo_status run_pass(glevo_cga *cga, gpu_pass *p, void (*uniforms)(glevo_cga *, gpu_pass *))
{
    if (cga->params.rng == GLEVO_RNG_TEXTURE)
        gpu_pass_input(p, "t_random_table", &cga->gpu->random_table);
    glevo_status st = gpu_pass_begin(p);
    if (st) return st;
    common_uniforms(cga, p);
    if (uniforms) uniforms(cga, p);
    return gpu_pass_draw(p);
}

static void fitness_uniforms(glevo_cga *cga, gpu_pass *p)
{
    gpu_uniform_1f(p, "u_lower", cga->layout.lower);
    gpu_uniform_1f(p, "u_step", cga->layout.step);
}
static void sign_uniforms(glevo_cga *cga, gpu_pass *p)
{
    gpu_uniform_1f(p, "u_sign", cga->layout.sign);
    gpu_uniform_1f(p, "u_generation_plus_one", (float)(cga->generation + 1));
}
static void pc_uniforms(glevo_cga *cga, gpu_pass *p) { gpu_uniform_1f(p, "u_pc", (float)cga->params.pc); }
static void pm_uniforms(glevo_cga *cga, gpu_pass *p)
{
    gpu_uniform_1f(p, "u_pm", cga->mutation.pm);
    if (cga->mutation.mode == GLEVO_MUTATION_SKIP)
        gpu_uniform_1fv(p, "u_flip_cdf", CGA_MAX_GENE_BITS, cga->mutation.flip_cdf);
}

glevo_status cga_gpu_generation(glevo_cga *cga)
{
    cga_gpu *g = cga->gpu;
    int m = cga->layout.textures;
    char names[3][MAX_TEX][24];
    glevo_status st;

    gpu_pass fit = {.name = "cga.fitness", .program = &g->fitness};
    gene_inputs(&fit, "t_genes", g->current, m, names[0]);
    gpu_pass_target(&fit, &g->fitness_tex);
    if ((st = run_pass(cga, &fit, fitness_uniforms))) return st;

    const gpu_texture *reduced;
    st = gpu_reduce(&g->reducer, cga->layout.sign > 0 ? REDUCE_MAX : REDUCE_MIN, &g->fitness_tex,
                    0, &reduced);
    if (st) return st;
    gpu_pass keep = {.name = "cga.keep_best", .program = &g->keep_best};
    gpu_pass_input(&keep, "t_reduced", reduced);
    gpu_pass_input(&keep, "t_record", &g->record[g->record_index]);
    gene_inputs(&keep, "t_genes", g->current, m, names[1]);
    gpu_pass_target(&keep, &g->record[1 - g->record_index]);
    if ((st = run_pass(cga, &keep, sign_uniforms))) return st;
    g->record_index = 1 - g->record_index;

    gpu_pass sel = {.name = "cga.select", .program = &g->select};
    gpu_pass_input(&sel, "t_fitness", &g->fitness_tex);
    gene_inputs(&sel, "t_genes", g->current, m, names[2]);
    gene_targets(&sel, g->selected, m);
    if ((st = run_pass(cga, &sel, sign_uniforms))) return st;

    gpu_pass pts = {.name = "cga.crossover_points", .program = &g->xpoints};
    gene_targets(&pts, g->points, m);
    if ((st = run_pass(cga, &pts, pc_uniforms))) return st;

    gpu_pass cross = {.name = "cga.crossover", .program = &g->crossover};
    gene_inputs(&cross, "t_genes", g->selected, m, names[0]);
    gene_inputs(&cross, "t_points", g->points, m, names[1]);
    gene_targets(&cross, g->crossed, m);
    if ((st = run_pass(cga, &cross, NULL))) return st;

    gpu_pass mut = {.name = "cga.mutate", .program = &g->mutate};
    gene_inputs(&mut, "t_genes", g->crossed, m, names[2]);
    gene_targets(&mut, g->current, m);
    return run_pass(cga, &mut, pm_uniforms);
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

unsigned cga_gpu_texture(const glevo_cga *cga, glevo_cga_stage stage, int index)
{
    const cga_gpu *g = cga->gpu;
    if (!g || index < 0 || index >= cga->layout.textures) return 0;
    switch (stage) {
    case GLEVO_CGA_STAGE_POPULATION: return g->current[index].id;
    case GLEVO_CGA_STAGE_FITNESS: return g->fitness_tex.id;
    case GLEVO_CGA_STAGE_SELECTED: return g->selected[index].id;
    case GLEVO_CGA_STAGE_CROSSED: return g->crossed[index].id;
    }
    return 0;
}

glevo_status cga_gpu_read_stage(glevo_cga *cga, int stage, float *out)
{
    cga_gpu *g = cga->gpu;
    const cga_layout *l = &cga->layout;
    if (stage == GLEVO_CGA_STAGE_FITNESS) return gpu_texture_read(&g->fitness_tex, out);
    if (stage == CGA_STAGE_RECORD) return cga_gpu_read_record(cga, out);
    glevo_status st = GLEVO_OK;
    for (int t = 0; t < l->textures && !st; ++t) {
        switch (stage) {
        case GLEVO_CGA_STAGE_POPULATION: st = gpu_texture_read(&g->current[t], out + cga_texel(l, t, 0, 0)); break;
        case GLEVO_CGA_STAGE_SELECTED: st = gpu_texture_read(&g->selected[t], out + cga_texel(l, t, 0, 0)); break;
        case GLEVO_CGA_STAGE_CROSSED: st = gpu_texture_read(&g->crossed[t], out + cga_texel(l, t, 0, 0)); break;
        case CGA_STAGE_POINTS:
            st = gpu_texture_read(&g->points[t], out + (size_t)t * l->height * (l->width / 2) * 4);
            break;
        default: return glevo_fail(GLEVO_ERR_INVALID, "unknown stage %d", stage);
        }
    }
    return st;
}
