/* GP evaluation as compute dispatches (the compute driver; EvoGP's hybrid layout, a
 * work-group per program over blocks of cases; shaders/gp/eval_compute.glsl and
 * combine.glsl): one work-group per tile = (program, case segment) whose invocations are the
 * segment's 64 lanes, then one invocation per program adding its segments. The textures and
 * builds are gpu.c's (the fragment driver's own), the layout plan.c's. Dispatches are split
 * into tile ranges (GL's 65535 work-groups per dispatch, time) and, where the driver limits
 * loop iterations, into walk ranges continued from a state buffer. */
#include <stdlib.h>
#include <string.h>

#include "gp/gpu.h"

/* Codes kept in shared memory up to this many (16 KiB); longer programs are read from the
 * texture in the walk. */
#define GP_SHARED_CODES_MAX 4096

static const gpu_slot combine_samplers[] = {{0}};
static const gpu_slot combine_buffers[] = {{"gp_seg_sums", 0}, {"gp_results", 0}, {0}};

typedef struct gp_compute {
    gp_gpu gpu;
    gpu_program combine;
    gpu_buffer seg_sums, state, results;
    int stack_shared; /* GLEVO_GP_STACK=shared: the stack below the top in shared memory */
    void *host;
    size_t host_cap;
} gp_compute;

static glevo_status compute_create(glevo_gp_evaluator *e)
{
    gp_compute *c = calloc(1, sizeof *c);
    if (!c) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the evaluator");
    e->impl = c;
    const char *stack = getenv("GLEVO_GP_STACK");
    c->stack_shared = stack && !strcmp(stack, "shared");
    glevo_status st = gp_gpu_create(&c->gpu, e->data);
    if (!st)
        st = gpu_program_build(&c->combine, &(gpu_program_desc){
                                   .name = "gp.combine_compute", .compute = "gp/combine.glsl",
                                   .samplers = combine_samplers, .buffers = combine_buffers,
                                   .uniform_size = sizeof(gp_uniforms)});
    return st;
}

static void compute_destroy(glevo_gp_evaluator *e)
{
    gp_compute *c = e->impl;
    if (!c) return;
    gpu_program_destroy(&c->combine);
    gpu_buffer_destroy(&c->seg_sums);
    gpu_buffer_destroy(&c->state);
    gpu_buffer_destroy(&c->results);
    gp_gpu_destroy(&c->gpu);
    free(c->host);
    free(c);
    e->impl = NULL;
}

/* A buffer of at least size bytes (buffers only grow). */
static glevo_status ensure_buffer(gpu_buffer *b, size_t size)
{
    if (b->id && b->size >= size) return GLEVO_OK;
    if (b->id) gpu_buffer_destroy(b);
    return gpu_buffer_create(b, size, NULL);
}

/* The interpreter for this population: codes in shared memory when they fit (rounded up to a
 * power of two so a run rebuilds rarely), the stack where GLEVO_GP_STACK says, if it fits. */
static glevo_status get_build(gp_compute *c, const glevo_gp_evaluator *e,
                              const glevo_gp_programs *p, gpu_program **out)
{
    gp_build_key key = {.compute = 1, .mask = p->ops_used | (e->params.moments ? GP_MASK_MOMENTS : 0), .stack = gp_stack_slots(p),
                        .lanes = e->params.lanes};
    int shared = GP_SUM_LANES * 16;
    if (p->max_length + 1 <= GP_SHARED_CODES_MAX) {
        key.codes_shared = 64;
        while (key.codes_shared < p->max_length + 1) key.codes_shared *= 2;
        shared += key.codes_shared * 4;
    }
    int stack_bytes = (key.stack + 1) * key.lanes * GP_SUM_LANES * 16;
    key.stack_shared = c->stack_shared && shared + stack_bytes <= gpu_context_limits()->max_shared_bytes;
    return gp_gpu_build(&c->gpu, &key, out);
}

static glevo_status compute_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                     glevo_gp_sums *sums)
{
    gp_compute *c = e->impl;
    int pop = p->count;
    gp_plan plan;
    glevo_status st = gp_plan_compute(&plan, &e->params, pop, c->gpu.quads, p->code_count,
                                      p->max_length, gp_loop_budget());
    if (st) return st;
    if ((st = gp_gpu_upload_programs(&c->gpu, p))) return st;
    gpu_program *prog;
    if ((st = get_build(c, e, p, &prog))) return st;
    size_t result_bytes = (size_t)pop * 32;
    if ((st = ensure_buffer(&c->seg_sums, (size_t)plan.tiles * 16)) ||
        (st = ensure_buffer(&c->results, result_bytes)) ||
        (plan.walk_chunks > 1 &&
         (st = ensure_buffer(&c->state, (size_t)plan.tiles * GP_SUM_LANES * 16))) ||
        (plan.walk_chunks == 1 && (st = ensure_buffer(&c->state, 16))))
        return st;
    /* No stale result survives: every program's run marks must come back. */
    if ((st = gpu_buffer_clear(&c->results))) return st;
    gp_uniforms u = gp_gpu_uniforms(&c->gpu, &plan, pop, e->data->cases);
    bool wait = plan.tile_chunks > 1 || plan.walk_chunks > 1;
    for (int k = 0; k < plan.walk_chunks && !st; ++k) {
        u.walk_range[0] = k * plan.walks_per_chunk;
        u.walk_range[1] = u.walk_range[0] + plan.walks_per_chunk < GP_SEG_WALKS
                              ? u.walk_range[0] + plan.walks_per_chunk
                              : GP_SEG_WALKS;
        u.continue_ = k > 0;
        for (int t0 = 0; t0 < plan.tiles && !st; t0 += plan.tiles_per_chunk) {
            gpu_pass pass = {.name = "gp.eval.compute", .program = prog};
            gp_gpu_bind_eval(&c->gpu, &pass);
            gpu_pass_buffer(&pass, 0, &c->seg_sums);
            gpu_pass_buffer(&pass, 1, &c->state);
            u.tile_base = t0;
            pass.groups[0] = plan.tiles - t0 < plan.tiles_per_chunk ? plan.tiles - t0
                                                                     : plan.tiles_per_chunk;
            gpu_pass_uniforms(&pass, &u, sizeof u);
            st = gpu_pass_dispatch(&pass);
            if (!st && wait) gpu_finish();
        }
    }
    if (st) return st;
    gpu_pass cb = {.name = "gp.combine", .program = &c->combine};
    gpu_pass_buffer(&cb, 0, &c->seg_sums);
    gpu_pass_buffer(&cb, 1, &c->results);
    u.tile_base = 0;
    cb.groups[0] = gpu_groups(pop, GP_SUM_LANES);
    gpu_pass_uniforms(&cb, &u, sizeof u);
    if ((st = gpu_pass_dispatch(&cb))) return st;
    if (result_bytes > c->host_cap) {
        void *h = realloc(c->host, result_bytes);
        if (!h) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading errors back");
        c->host = h;
        c->host_cap = result_bytes;
    }
    if ((st = gpu_buffer_read(&c->results, 0, result_bytes, c->host))) return st;
    /* The buffer holds {uvec4 bits; vec4 counts;} per program. */
    const uint32_t *words = c->host;
    double marks = (double)plan.nseg * GP_SUM_LANES * plan.walk_chunks;
    return gp_gpu_take_sums(words, words + 4, 8, pop, &plan, marks, "compute dispatches", sums);
}

const gp_eval_ops gp_compute_ops = {compute_create, compute_evaluate, compute_destroy};
