/* GP evaluation as compute dispatches (the compute driver; EvoGP's hybrid layout, a
 * work-group per program over blocks of cases; shaders/gp/eval_compute.glsl and
 * combine.glsl): one work-group per tile = (program, case segment) whose invocations are the
 * segment's 64 lanes, then one invocation per program adding its segments. The textures and
 * builds are gpu.c's (the fragment driver's own), the layout plan.c's. Dispatches are split
 * into tile ranges (GL's 65535 work-groups per dispatch, time) and, where the driver limits
 * loop iterations, into walk ranges continued from a state buffer. */
#include <stdlib.h>
#include <string.h>

#include "gp/eval/gpu.h"
#include "core/clock.h"

/* Codes kept in shared memory up to this many (16 KiB); longer programs are read from the
 * texture in the walk. */
#define GP_SHARED_CODES_MAX 4096

static const gpu_slot combine_samplers[] = {{0}};
static const gpu_slot combine_buffers[] = {{"gp_seg_sums", 0}, {"gp_results", 0}, {0}};

typedef struct gp_compute {
    gp_gpu gpu;
    gpu_program combine;
    gpu_buffer seg_sums, state, results;
    gpu_buffer affine; /* linear scaling's second look: a, b a program (e->affine), or as
                        * gp/fitness.glsl left them (resident_affine) */
    bool resident_affine;
    int stack_shared; /* GLEVO_GP_STACK=shared: the stack below the top in shared memory */
    int stamp;        /* the last evaluation's (results carry it: no clear between them) */
    void *host;
    size_t host_cap;
    gp_plan submitted; /* the layout of the evaluation compute_submit issued */
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
    gpu_buffer_destroy(&c->affine);
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

/* The small kernel's L_t slots a tile (none with one invocation a tile). */
static int small_lane_slots(const gp_plan *plan)
{
    if (plan->prog_lanes == 1) return 0;
    int used = plan->seg_quads < GP_SUM_LANES ? plan->seg_quads : GP_SUM_LANES, slots = 1;
    while (slots < used) slots *= 2;
    return slots;
}

/* Shared memory of the small kernel besides the codes: the L_t and the marks. */
static long long small_shared_bytes(const gp_plan *plan)
{
    int slots = small_lane_slots(plan);
    return slots ? (long long)(GP_SUM_LANES / plan->prog_lanes) * (slots + 1) * 16 + GP_SUM_LANES * 4
                 : 0;
}

/* The interpreter for this population and layout: codes in shared memory when they fit
 * (rounded up to a power of two so a run rebuilds rarely), the stack where GLEVO_GP_STACK says,
 * if it fits (64-lane kernel). */
static glevo_status get_build(gp_compute *c, glevo_gp_evaluator *e,
                              const glevo_gp_programs *p, const gp_plan *plan, gpu_program **out)
{
    gp_build_key key = {.compute = 1, .mask = gp_build_ops(e, p), .stack = gp_build_stack(e, p),
                        .lanes = e->params.lanes, .fused = plan->nseg == 1};
    int cap = 64;
    while (cap < gp_build_max_length(e, p) + 1) cap *= 2;
    if (plan->prog_lanes < GP_SUM_LANES) {
        /* Small-data kernel: each of a work-group's tiles keeps its codes (where they fit
         * beside the rest, up to 32 KiB) and, with several invocations a tile, its lanes'
         * sums. */
        key.prog_lanes = plan->prog_lanes;
        key.lanes = plan->walk_quads;
        key.lane_slots = small_lane_slots(plan);
        int tiles = GP_SUM_LANES / plan->prog_lanes;
        long long rest = small_shared_bytes(plan);
        long long codes = (long long)tiles * (cap + 1) * 4;
        if (codes <= 32768 && rest + codes <= gpu_context_limits()->max_shared_bytes)
            key.codes_shared = cap;
        return gp_gpu_build(&c->gpu, &key, out);
    }
    int shared = GP_SUM_LANES * 16;
    if (p->max_length + 1 <= GP_SHARED_CODES_MAX) {
        key.codes_shared = cap;
        shared += key.codes_shared * 4;
    }
    int stack_bytes = (key.stack + 1) * key.lanes * GP_SUM_LANES * 16;
    key.stack_shared = c->stack_shared && shared + stack_bytes <= gpu_context_limits()->max_shared_bytes;
    return gp_gpu_build(&c->gpu, &key, out);
}

/* Plans the layout for p, builds its interpreter and sizes the buffers; the programs must be
 * on the GPU already (gp_gpu_upload_programs). */
static glevo_status plan_and_build(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                   gp_plan *plan, gpu_program **prog)
{
    gp_compute *c = e->impl;
    glevo_status st = gp_plan_compute(plan, &e->params, p->count, c->gpu.quads, p->code_count,
                                      p->max_length, gp_loop_budget());
    if (st) return st;
    /* The tiles' lane sums must fit this driver's shared memory: the rule's layout takes more
     * invocations a tile (whole work-groups still fill the tile ranges); one asked for fails. */
    long long limit = gpu_context_limits()->max_shared_bytes;
    while (plan->prog_lanes < GP_SUM_LANES && small_shared_bytes(plan) > limit) {
        if (e->params.prog_lanes)
            return glevo_fail(GLEVO_ERR_UNSUPPORTED, "glevo_gp_eval_params.prog_lanes %d needs "
                              "%lld bytes of shared memory, above this driver's %lld",
                              plan->prog_lanes, small_shared_bytes(plan), limit);
        plan->prog_lanes *= 2;
    }
    e->last_prog_lanes = plan->prog_lanes;
    return get_build(c, e, p, plan, prog);
}

static glevo_status prepare(glevo_gp_evaluator *e, const glevo_gp_programs *p, gp_plan *plan,
                            gpu_program **prog)
{
    gp_compute *c = e->impl;
    glevo_status st = plan_and_build(e, p, plan, prog);
    if (st) return st;
    size_t result_bytes = (size_t)p->count * 32;
    if ((st = ensure_buffer(&c->seg_sums, (size_t)plan->tiles * 16)) ||
        (st = ensure_buffer(&c->results, result_bytes)) ||
        (plan->walk_chunks > 1 &&
         (st = ensure_buffer(&c->state, (size_t)plan->tiles * GP_SUM_LANES * 16))) ||
        (plan->walk_chunks == 1 && (st = ensure_buffer(&c->state, 16))) ||
        (st = ensure_buffer(&c->affine, e->affine ? (size_t)p->count * 8 : 8)))
        return st;
    if (e->affine && (st = gpu_buffer_upload(&c->affine, 0, (size_t)p->count * 8, e->affine)))
        return st;
    if (c->resident_affine && c->affine.size < (size_t)p->count * 8)
        return glevo_fail(GLEVO_ERR_INVALID, "GP second look: a and b for %d programs where "
                          "the buffer holds %zu", p->count, c->affine.size / 8);
    if (result_bytes > c->host_cap) {
        void *h = realloc(c->host, result_bytes);
        if (!h) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading errors back");
        c->host = h;
        c->host_cap = result_bytes;
    }
    return GLEVO_OK;
}

/* The evaluation's dispatches on the resident programs: the interpreter over every tile (in
 * tile and walk ranges), then the combine step into the results buffer. */
static glevo_status dispatch(glevo_gp_evaluator *e, int pop, const gp_plan *plan,
                             gpu_program *prog)
{
    gp_compute *c = e->impl;
    glevo_status st = GLEVO_OK;
    /* No stale result passes: every result carries this evaluation's stamp (and every
     * program's run marks must come back). */
    c->stamp = c->stamp % (1 << 20) + 1;
    gp_uniforms u = gp_gpu_uniforms(&c->gpu, plan, pop, e->data->cases);
    u.moments = e->affine || c->resident_affine ? 2 : e->params.moments;
    u.stamp = c->stamp;
    bool fused = plan->nseg == 1;
    bool wait = plan->tile_chunks > 1 || plan->walk_chunks > 1;
    int per_group = GP_SUM_LANES / plan->prog_lanes;
    for (int k = 0; k < plan->walk_chunks && !st; ++k) {
        u.walk_range[0] = k * plan->walks_per_chunk;
        u.walk_range[1] = u.walk_range[0] + plan->walks_per_chunk < GP_SEG_WALKS
                              ? u.walk_range[0] + plan->walks_per_chunk
                              : GP_SEG_WALKS;
        u.continue_ = k > 0;
        for (int t0 = 0; t0 < plan->tiles && !st; t0 += plan->tiles_per_chunk) {
            gpu_pass pass = {.name = per_group > 1 ? "gp.eval_small" : "gp.eval.compute",
                             .program = prog};
            gp_gpu_bind_eval(&c->gpu, &pass);
            gpu_pass_buffer(&pass, 0, fused ? &c->results : &c->seg_sums);
            if (per_group == 1) gpu_pass_buffer(&pass, 1, &c->state);
            gpu_pass_buffer(&pass, per_group == 1 ? 2 : 1, &c->affine);
            u.tile_base = t0;
            int n = plan->tiles - t0 < plan->tiles_per_chunk ? plan->tiles - t0
                                                             : plan->tiles_per_chunk;
            pass.groups[0] = (n + per_group - 1) / per_group;
            gpu_pass_uniforms(&pass, &u, sizeof u);
            st = gpu_pass_dispatch(&pass);
            if (!st && wait) gpu_finish();
        }
    }
    if (st || fused) return st;
    gpu_pass cb = {.name = "gp.combine", .program = &c->combine};
    gpu_pass_buffer(&cb, 0, &c->seg_sums);
    gpu_pass_buffer(&cb, 1, &c->results);
    u.tile_base = 0;
    cb.groups[0] = gpu_groups(pop, GP_SUM_LANES);
    gpu_pass_uniforms(&cb, &u, sizeof u);
    return gpu_pass_dispatch(&cb);
}

/* The errors read back and checked (the buffer holds {uvec4 bits; vec4 counts;} a program). */
static glevo_status read_back(glevo_gp_evaluator *e, int pop, const gp_plan *plan,
                              glevo_gp_sums *sums)
{
    gp_compute *c = e->impl;
    glevo_status st = gpu_buffer_read(&c->results, 0, (size_t)pop * 32, c->host);
    if (st) return st;
    const uint32_t *words = c->host;
    double marks = (double)plan->nseg * GP_SUM_LANES * plan->walk_chunks;
    return gp_gpu_take_sums(words, words + 4, 8, pop, plan, marks, c->stamp, "compute dispatches",
                            sums);
}

/* An evaluation left in the results buffer: the programs uploaded (unless resident), the
 * plan and build, the dispatches. */
static glevo_status evaluate_into_results(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                          gp_plan *plan)
{
    gp_compute *c = e->impl;
    gpu_program *prog;
    glevo_status st = gp_gpu_upload_programs(&c->gpu, p);
    if (!st) st = prepare(e, p, plan, &prog);
    return st ? st : dispatch(e, p->count, plan, prog);
}

static glevo_status compute_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                     glevo_gp_sums *sums)
{
    gp_plan plan;
    glevo_status st = evaluate_into_results(e, p, &plan);
    return st ? st : read_back(e, p->count, &plan, sums);
}

static glevo_status compute_submit(glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    gp_compute *c = e->impl;
    return evaluate_into_results(e, p, &c->submitted);
}

static glevo_status compute_collect(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                    glevo_gp_sums *sums)
{
    gp_compute *c = e->impl;
    return read_back(e, p->count, &c->submitted, sums);
}

glevo_status gp_compute_evaluate_on_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                        gp_gpu_results *out)
{
    gp_compute *c = e->impl;
    gp_plan plan;
    glevo_status st = evaluate_into_results(e, p, &plan);
    if (st) return st;
    out->results = &c->results;
    out->marks = (float)((double)plan.nseg * GP_SUM_LANES * plan.walk_chunks);
    out->nseg = plan.nseg;
    out->stamp = c->stamp;
    return GLEVO_OK;
}

gpu_buffer *gp_compute_affine(glevo_gp_evaluator *e, int pop, glevo_status *st)
{
    gp_compute *c = e->impl;
    *st = ensure_buffer(&c->affine, (size_t)pop * 8);
    return &c->affine;
}

glevo_status gp_compute_second_look_on_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                           gp_gpu_results *out)
{
    gp_compute *c = e->impl;
    c->resident_affine = true;
    glevo_status st = gp_compute_evaluate_on_gpu(e, p, out);
    c->resident_affine = false;
    return st;
}

glevo_status gp_compute_prebuild(glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    gp_plan plan;
    gpu_program *prog;
    return plan_and_build(e, p, &plan, &prog);
}

/* EvoGP's timing (scripts/device/gp_evogp_trees.py): the programs uploaded (timed to a finish,
 * with the build and buffers made beforehand), then reps evaluations of the resident programs
 * back to back and one finish, then the errors read back (timed). */
static glevo_status compute_timed(glevo_gp_evaluator *e, const glevo_gp_programs *p, int reps,
                                  glevo_gp_sums *sums, glevo_gp_eval_timing *t)
{
    gp_compute *c = e->impl;
    gp_plan plan;
    gpu_program *prog;
    glevo_status st = prepare(e, p, &plan, &prog);
    if (st) return st;
    gpu_finish();
    double t0 = core_seconds_now();
    if ((st = gp_gpu_upload_programs(&c->gpu, p))) return st;
    gpu_finish();
    double t1 = core_seconds_now();
    for (int r = 0; r < reps && !st; ++r) st = dispatch(e, p->count, &plan, prog);
    gpu_finish();
    double t2 = core_seconds_now();
    if (!st) st = read_back(e, p->count, &plan, sums);
    double t3 = core_seconds_now();
    t->upload = t1 - t0;
    t->evaluate = (t2 - t1) / reps;
    t->readback = t3 - t2;
    t->prog_lanes = plan.prog_lanes;
    t->walk_quads = plan.prog_lanes < GP_SUM_LANES ? plan.walk_quads : e->params.lanes;
    return st;
}

const gp_eval_ops gp_compute_ops = {compute_create, compute_evaluate, compute_destroy,
                                    compute_timed, compute_submit, compute_collect};
