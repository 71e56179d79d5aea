/* The compute driver of differential evolution (Qin et al. 2012's cudaDE_i as GL 4.3
 * kernels), on the textures of gpu.c. Two kernels, chosen at create (glevo_de_params.kernel):
 * - generation (shaders/de/evolve.glsl, pass de.evolve): one dispatch a generation, a
 *   work-group per individual (several when D is small) and an invocation per gene, trial +
 *   evaluation + selection fused; best/1 strategies add the reduce module's two compute
 *   dispatches first.
 * - resident (shaders/de/evolve_resident.glsl, pass de.evolve_resident): one work-group keeps
 *   the whole population in shared memory and runs up to RESIDENT_MAX_GENERATIONS generations
 *   a dispatch, for populations small enough to be launch-bound; auto picks it whenever the
 *   population fits the device's shared memory.
 * Both draw the same counters through the same GLSL bodies as the fragment passes, so each
 * generation's population equals theirs (and the CPU engine's where those are) bit for bit. */
#include <stdio.h>
#include <string.h>

#include "de/gpu_internal.h"

/* evolve.glsl: at most this many invocations a work-group; larger D loops. */
#define EVOLVE_MAX_LOCAL 256
/* A dispatch of the resident kernel runs at most this many generations (~1 ms at D 100,
 * NP 50 on the H100: far from any watchdog, and the dispatch cost is already negligible). */
#define RESIDENT_MAX_GENERATIONS 256

static const gpu_slot evolve_images[] = {{"i_population", 0}, {"i_fitness", 0}, {0}};
enum { IMAGE_POPULATION, IMAGE_FITNESS };

static int round_up(int n, int m) { return (n + m - 1) / m * m; }

/* Shared bytes of evolve_resident.glsl (its declarations; drivers may add a little). */
static long long resident_shared_bytes(const de_config *c, int local)
{
    long long np = c->np, genes = 2LL * c->np * c->dim;
    return 4 * genes + np * (4 + 4 + 16) + (de_uses_best(c) ? 4LL * local : 0);
}

/* Generations one resident dispatch may run. On llvmpipe every loop iteration of an
 * invocation counts against one budget (gpu_limits.max_loop_iterations, 65535), and a loop cut
 * short there returns a wrong population without an error: so the batch is sized from an upper
 * bound of the kernel's loop iterations a generation (the quad loop with its channels, the
 * fold over D for each individual an invocation owns, the best-index tree), with the setup's
 * loops kept aside. */
static uint32_t resident_batch(const de_config *c, int local, const gpu_limits *l)
{
    if (l->max_loop_iterations <= 0) return RESIDENT_MAX_GENERATIONS;
    long long quads = ((long long)c->np * ((c->dim + 3) / 4) + local - 1) / local;
    long long owned = (c->np + local - 1) / local;
    long long per_generation = 5 * quads + owned * (c->dim + 2) + 2 * 11 + 8;
    long long setup = 3 * (((long long)c->np * c->dim + local - 1) / local) + 3 * owned + 16;
    long long n = (l->max_loop_iterations - setup) / per_generation;
    if (n > RESIDENT_MAX_GENERATIONS) n = RESIDENT_MAX_GENERATIONS;
    return n < 1 ? 0 : (uint32_t)n;
}

/* Invocations of a resident work-group: a power of two (the best-index tree) between 64 and
 * the device's limit (at most 1024), about one for every two quads of genes: enough warps to
 * hide the Philox chains' latency on one multiprocessor, and tests on llvmpipe's 32 KiB reach
 * the strided loops (more individuals than invocations). */
static int resident_local(const de_config *c, const gpu_limits *l)
{
    long long want = ((long long)c->np * ((c->dim + 3) / 4) + 1) / 2;
    int local = 64;
    while (local < want && local * 2 <= l->max_work_group_invocations && local * 2 <= 1024)
        local *= 2;
    return local;
}

static glevo_status build(glevo_de *de, gpu_program *p, const char *name, const char *file,
                          const char *extra)
{
    char defines[512], base[256];
    const char *aliases[3];
    gpu_program_desc d;
    de_gpu_program_desc(de, &d, base, sizeof base, aliases);
    snprintf(defines, sizeof defines, "%s%s", base, extra);
    d.defines = defines;
    d.name = name;
    d.compute = file;
    d.images = evolve_images;
    return gpu_program_build(p, &d);
}

static glevo_status build_evolve(glevo_de *de)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    int span = c->dim < EVOLVE_MAX_LOCAL ? c->dim : EVOLVE_MAX_LOCAL;
    int local = round_up(span, 32);
    if (local < 64) local = 64; /* several small individuals a group: fewer, fuller warps */
    e->evolve_local = local;
    e->evolve_group = local / span;
    long long shared = 4LL * e->evolve_group * c->dim + 4LL * e->evolve_group;
    const gpu_limits *l = gpu_context_limits();
    if (shared > l->max_shared_bytes)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "glevo_de_params.dim %d: the compute "
                          "backend's trial genes need %lld bytes of shared memory, this device "
                          "offers %d", c->dim, shared, l->max_shared_bytes);
    char extra[160];
    snprintf(extra, sizeof extra, "#define DE_DIM %d\n#define DE_LOCAL %d\n#define DE_SPAN %d\n"
             "#define DE_GROUP %d\n", c->dim, local, span, e->evolve_group);
    return build(de, &e->evolve, "de.evolve", "de/evolve.glsl", extra);
}

static glevo_status build_resident(glevo_de *de)
{
    de_gpu *e = de->impl;
    const de_config *c = &de->c;
    e->resident_local = resident_local(c, gpu_context_limits());
    char extra[160];
    snprintf(extra, sizeof extra, "#define DE_NP %d\n#define DE_DIM %d\n#define DE_LOCAL %d\n",
             c->np, c->dim, e->resident_local);
    return build(de, &e->resident, "de.evolve_resident", "de/evolve_resident.glsl", extra);
}

/* One dispatch of a generation kernel: reads the current textures, writes the others (images),
 * then they swap. */
static glevo_status dispatch_swap(glevo_de *de, gpu_pass *p, const de_uniforms *u)
{
    de_gpu *e = de->impl;
    int nxt = 1 - e->cur;
    de_gpu_bind_current(de, p);
    gpu_pass_image(p, IMAGE_POPULATION, &e->pop[nxt], GPU_WRITE_ONLY);
    gpu_pass_image(p, IMAGE_FITNESS, &e->fit[nxt], GPU_WRITE_ONLY);
    gpu_pass_uniforms(p, u, sizeof *u);
    glevo_status st = gpu_pass_dispatch(p);
    if (st == GLEVO_OK) e->cur = nxt;
    return st;
}

static glevo_status evolve_generation(glevo_de *de, uint32_t g)
{
    de_gpu *e = de->impl;
    de_uniforms u;
    glevo_status st = de_gpu_generation_begin(de, g, &u);
    if (st != GLEVO_OK) return st;
    gpu_pass p = {.name = "de.evolve", .program = &e->evolve};
    /* Work-groups beyond the x limit GL guarantees (65535) wrap into y. */
    int groups = gpu_groups(de->c.np, e->evolve_group);
    p.groups[0] = groups < 65535 ? groups : 65535;
    p.groups[1] = gpu_groups(groups, 65535);
    return dispatch_swap(de, &p, &u);
}

/* The best index comes from the kernel's own tree over shared memory: no reduction. */
static glevo_status resident_generations(glevo_de *de, uint32_t g, uint32_t count)
{
    de_gpu *e = de->impl;
    de_uniforms u = de_gpu_uniforms(de, g);
    u.generations = count;
    gpu_pass p = {.name = "de.evolve_resident", .program = &e->resident, .groups = {1}};
    return dispatch_swap(de, &p, &u);
}

static glevo_status compute_generations(glevo_de *de, uint32_t g, uint32_t count)
{
    de_gpu *e = de->impl;
    glevo_status st = GLEVO_OK;
    for (uint32_t k = 0; k < count && st == GLEVO_OK;) {
        uint32_t n = 1;
        if (e->resident.id) {
            uint32_t batch = resident_batch(&de->c, e->resident_local, gpu_context_limits());
            n = count - k < batch ? count - k : batch;
            st = resident_generations(de, g + k, n);
        } else {
            st = evolve_generation(de, g + k);
        }
        k += n;
    }
    return st;
}

/* The padding texels of the last fitness row (beyond NP) must read as the worst value in
 * both ping-pong textures, since the reducer scans whole textures and the kernels write only
 * live individuals: evaluate into the spare texture too, once. */
static glevo_status compute_init(glevo_de *de, const float *y)
{
    de_gpu *e = de->impl;
    glevo_status st = de_gpu_init(de, y);
    if (st != GLEVO_OK) return st;
    gpu_pass p = {.name = "de.evaluate", .program = &e->evaluate};
    de_uniforms u = de_gpu_uniforms(de, 0);
    gpu_pass_input(&p, SLOT_POPULATION, &e->pop[e->cur]);
    gpu_pass_uniforms(&p, &u, sizeof u);
    gpu_pass_image(&p, 0, &e->fit[1 - e->cur], GPU_WRITE_ONLY);
    p.groups[0] = gpu_groups(e->per_row, 8);
    p.groups[1] = gpu_groups(e->rows, 8);
    return gpu_pass_dispatch(&p);
}

static const de_engine_ops compute_ops = {compute_init, compute_generations, de_gpu_best,
                                          de_gpu_population, de_gpu_restore, de_gpu_destroy,
                                          de_gpu_read_fitness, de_gpu_read_genes,
                                          de_gpu_write_genes};

glevo_status de_compute_create(glevo_de *de)
{
    const de_config *c = &de->c;
    const gpu_limits *l = gpu_context_limits();
    bool fits = resident_shared_bytes(c, resident_local(c, l)) <= l->max_shared_bytes;
    if (c->kernel == GLEVO_DE_KERNEL_RESIDENT && !fits)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.kernel resident: a population "
                          "of %d x %d needs %lld bytes of shared memory, this device offers %d",
                          c->np, c->dim, resident_shared_bytes(c, resident_local(c, l)),
                          l->max_shared_bytes);
    bool loops_fit = resident_batch(c, resident_local(c, l), l) > 0;
    if (c->kernel == GLEVO_DE_KERNEL_RESIDENT && !loops_fit)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_de_params.kernel resident: one generation of "
                          "%d x %d runs more loop iterations than this renderer allows a shader "
                          "invocation (%lld); use the generation kernel", c->np, c->dim,
                          l->max_loop_iterations);
    glevo_status st = de_gpu_create(de, true, &compute_ops);
    if (st != GLEVO_OK) return st;
    bool resident = c->kernel == GLEVO_DE_KERNEL_RESIDENT ||
                    (c->kernel == GLEVO_DE_KERNEL_AUTO && fits && loops_fit);
    if (resident) {
        st = build_resident(de);
        /* auto: a driver that reserves more shared memory than counted refuses to link;
         * the generation kernel still runs. */
        if (st != GLEVO_OK && c->kernel == GLEVO_DE_KERNEL_AUTO) {
            resident = false;
            st = GLEVO_OK;
        }
    }
    if (st == GLEVO_OK && !resident) st = build_evolve(de);
    if (st != GLEVO_OK) {
        de_gpu_destroy(de);
        de->ops = NULL;
        return st;
    }
    snprintf(de->engine, sizeof de->engine, "compute.%s", resident ? "resident" : "generation");
    return GLEVO_OK;
}
