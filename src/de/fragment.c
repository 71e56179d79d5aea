/* The fragment driver: two fused passes per generation (shaders/de/trial.glsl, select.glsl),
 * ping-ponging an R32F population texture and an RG32F fitness texture (layout in gpu.c);
 * best/1 strategies add a GPU min/max reduction per generation whose 1x1 result the passes
 * read, so no generation ever waits for the host. Best-so-far is read back only when asked
 * (every K generations for target checks, and at the end). */
#include <stdio.h>

#include "de/gpu_internal.h"

static glevo_status fragment_generation(glevo_de *de, uint32_t g)
{
    de_gpu *e = de->impl;
    int cur = e->cur, nxt = 1 - e->cur;
    de_uniforms u;
    glevo_status st = de_gpu_generation_begin(de, g, &u);
    if (st != GLEVO_OK) return st;
    gpu_pass t = {.name = "de.trial", .program = &e->trial};
    de_gpu_bind_current(de, &t);
    gpu_pass_target(&t, &e->fit[nxt]);
    gpu_pass_target(&t, &e->choice);
    gpu_pass_uniforms(&t, &u, sizeof u);
    st = gpu_pass_draw(&t);
    if (st != GLEVO_OK) return st;

    gpu_pass s = {.name = "de.select", .program = &e->select};
    gpu_pass_input(&s, SLOT_POPULATION, &e->pop[cur]);
    gpu_pass_input(&s, SLOT_FITNESS, &e->fit[nxt]);
    gpu_pass_input(&s, SLOT_CHOICE, &e->choice);
    gpu_pass_input(&s, SLOT_BOUNDS, &e->bounds);
    if (de_uses_best(&de->c)) gpu_pass_input(&s, SLOT_BEST, e->best);
    gpu_pass_target(&s, &e->pop[nxt]);
    gpu_pass_uniforms(&s, &u, sizeof u);
    st = gpu_pass_draw(&s);
    if (st != GLEVO_OK) return st;
    e->cur = nxt;
    return GLEVO_OK;
}

static glevo_status fragment_generations(glevo_de *de, uint32_t g, uint32_t count)
{
    glevo_status st = GLEVO_OK;
    for (uint32_t k = 0; k < count && st == GLEVO_OK; ++k) st = fragment_generation(de, g + k);
    return st;
}

static const de_engine_ops fragment_ops = {de_gpu_init, fragment_generations, de_gpu_best,
                                           de_gpu_population, de_gpu_restore, de_gpu_destroy,
                                           de_gpu_read_fitness, de_gpu_read_genes,
                                           de_gpu_write_genes};

glevo_status de_fragment_create(glevo_de *de)
{
    glevo_status st = de_gpu_create(de, false, &fragment_ops);
    if (st != GLEVO_OK) return st;
    de_gpu *e = de->impl;
    snprintf(de->engine, sizeof de->engine, "fragment");
    char defines[256];
    const char *aliases[3];
    gpu_program_desc d;
    de_gpu_program_desc(de, &d, defines, sizeof defines, aliases);
    d.name = "de.trial", d.fragment = "de/trial.glsl";
    st = gpu_program_build(&e->trial, &d);
    d.name = "de.select", d.fragment = "de/select.glsl";
    if (st == GLEVO_OK) st = gpu_program_build(&e->select, &d);
    if (st != GLEVO_OK) {
        de_gpu_destroy(de);
        de->ops = NULL;
    }
    return st;
}
