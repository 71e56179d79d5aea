/* The driver of shaders/gp/const_fit.glsl: the dataset in a storage buffer (uploaded once),
 * one build specialised to the slots' capacity and the function set, and per generation a
 * dispatch of it: where the driver lets an invocation loop on, up to GP_FIT_CLAIM_GROUPS
 * work-groups whose subgroups claim the programs one after another, else a work-group a
 * program (the chosen ones fit, the others return at once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/sr/const_fit_gpu.h"
#include "gp/sr/const_opt.h"
#include "gp/eval/eval_internal.h"

/* The block of gp/const_fit.glsl (std140). */
typedef struct fit_uniforms {
    double fraction, one;
    int32_t pop, cap, spr, cases;
    int32_t iters, scaling, generation;
    uint32_t seed;
    float onef;
    int32_t theta_from; /* the least constant count this dispatch fits */
    uint32_t claim_base;
    int32_t pad;
} fit_uniforms;

/* Work-groups of a claiming dispatch: more than an H100 holds at once (132 multiprocessors),
 * few enough that the ones past the programs cost nothing (one claim a subgroup). */
#define GP_FIT_CLAIM_GROUPS 1024

_Static_assert(GLEVO_GP_OP_COUNT <= 32, "gp/const_fit.glsl reads two words of arities");

static const gpu_slot fit_samplers[] = {{"t_codes", 0}, {0}};
static const gpu_slot fit_images[] = {{"i_consts", 0}, {0}};
static const gpu_slot fit_buffers[] = {{"gp_fit_data", 0}, {"gp_fit_claims", 0}, {0}};

/* Whether the walks are reordered (gp/const_fit_order.glsl): in the build for many fits
 * (derivatives by 3), where a fit's bytes decide how many share a multiprocessor (at 10^4 x
 * 1000, gp.const_fit 68 -> 58-64 ms a run); not in the one for few (by 7), whose fits all run
 * at once, so that a fit's latency is the dispatch's time: there the reordering's own work
 * and the operands' exchange made it ~13 % slower (1000 x 100: 19.7 -> 22.8 ms, H200,
 * 2026-11-29). Not with a ternary operator, and only where the working arrays (3 (cap + 1)
 * floats) fit in the stack's. */
static bool walk_reordered(int derivs, int cap, uint32_t mask)
{
    return derivs <= 3 && gp_mask_max_arity(mask) <= 2 &&
           3 * (cap + 1) <= 4 * GP_FIT_LANES * gp_const_fit_walk_slots(cap);
}

/* The stack slots a build's walks have: a reordered walk's most for programs of `cap` codes,
 * else GP_FIT_STACK. */
static int walk_stack(int derivs, int cap, uint32_t mask)
{
    return walk_reordered(derivs, cap, mask) ? gp_const_fit_walk_slots(cap) : GP_FIT_STACK;
}

/* The shared bytes of a program's fit_state in the build whose walks carry `derivs`
 * derivatives (sizes as gp/const_fit.glsl declares them: the stack (a vec4 a slot, two with 7
 * derivatives), the rows' doubles (which the reduction's share), the sums, solve's step and L,
 * the codes and values, the first walk's values, the scalars and thetas). */
static long long build_shared(int derivs, int cap, uint32_t mask)
{
    long long theta = GP_FIT_THETA, np = theta + 2, ne = np * (np + 1) / 2 + np;
    return walk_stack(derivs, cap, mask) * GP_FIT_LANES * (derivs > 3 ? 32LL : 16LL) +
           (np + 2) * GP_FIT_LANES * 8 + (ne + 2) * 8 + np * 8 + np * (np + 1) / 2 * 8 +
           (cap + 1LL) * 8 + GP_FIT_CASES * 4LL + 64 + theta * 12LL;
}

bool gp_const_fitter_fits(const glevo_gp_params *P, const glevo_gp_data *d)
{
    uint32_t mask = P->ops ? P->ops : glevo_gp_function_set_ops(P->function_set);
    if (P->max_size > GP_FIT_MAX_CAP ||
        build_shared(3, P->max_size, mask) > gpu_context_limits()->max_shared_bytes)
        return false;
    long long limit = gpu_context_limits()->max_loop_iterations;
    if (limit <= 0) return true;
    /* Loop iterations of one invocation, generously: its walks (two to start, a Jacobian
     * walk and GP_FIT_TRIES scored steps an iteration) of every code over its cases, a
     * batch's sums (each of the batch's rows into its ~3 owned sums), the reductions and
     * invocation 0's solves. */
    long long per_lane = (d->cases + GP_FIT_LANES - 1) / GP_FIT_LANES;
    long long iters = P->const_opt_iters;
    long long walks = (2 + iters * (1 + GP_FIT_TRIES)) * per_lane * (P->max_size + 1);
    long long rest = iters * (per_lane * (GP_FIT_LANES * 4 + 20) +
                              GP_FIT_TRIES * (400 + 2 * GP_FIT_LANES) + 100);
    return 2 * (walks + rest + P->max_size) < limit;
}

glevo_status gp_const_fitter_create(gp_const_fitter *f, const glevo_gp_data *d, int cap,
                                    uint32_t mask, int fits)
{
    memset(f, 0, sizeof *f);
    f->cases = d->cases;
    f->cap = cap;
    f->mask = mask;
    f->fits = fits;
    /* GLEVO_GP_FIT_GROUPS caps the claiming work-groups lower, for measuring (fewer fits a
     * multiprocessor). */
    const char *groups = getenv("GLEVO_GP_FIT_GROUPS");
    f->max_groups = groups && atoi(groups) > 0 ? atoi(groups) : GP_FIT_CLAIM_GROUPS;
    /* Claims where a driver does not cut an invocation's loops short (a subgroup fits program
     * after program, and its loops add up); GLEVO_GP_FIT_CLAIM=0 keeps a work-group a program,
     * =1 claims anyway (for measuring, and for a test whose programs stay within llvmpipe's
     * limit together). */
    const char *claim = getenv("GLEVO_GP_FIT_CLAIM");
    f->claim = claim && *claim ? strcmp(claim, "0") != 0
                               : gpu_context_limits()->max_loop_iterations <= 0;
    uint32_t zero = 0;
    glevo_status cst = gpu_buffer_create(&f->claims, sizeof zero, &zero);
    if (cst) return cst;
    size_t n = (size_t)d->cases * (size_t)(d->vars + 1);
    float *xy = malloc(n * sizeof *xy);
    if (!xy) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the constant fitting's data");
    memcpy(xy, d->y, (size_t)d->cases * sizeof *xy);
    memcpy(xy + d->cases, d->x, (size_t)d->cases * (size_t)d->vars * sizeof *xy);
    glevo_status st = gpu_buffer_create(&f->data, n * sizeof *xy, xy);
    free(xy);
    return st;
}

/* Programs a work-group of the build with derivatives by `theta`: as many subgroups of
 * GP_FIT_LANES as its shared memory allows, at most GP_FIT_WARPS_MAX (GLEVO_GP_FIT_WARPS
 * overrides it, for measuring), where subgroups of GP_FIT_LANES wait for each other on their
 * own (subgroupBarrier) and programs are claimed; else one, by the work-group's barrier. One:
 * three work-groups of one fit on an H200 multiprocessor fitted the 10^4 x 1000 defaults in 68
 * ms a run, one work-group of three in 76 (2026-11-29, docs/performance.md). */
#define GP_FIT_WARPS_MAX 1
static int warps_for(const gp_const_fitter *f, int derivs)
{
    const gpu_limits *l = gpu_context_limits();
    if (!f->claim || l->subgroup_size != GP_FIT_LANES) return 1;
    const char *env = getenv("GLEVO_GP_FIT_WARPS");
    int want = env && *env ? atoi(env) : GP_FIT_WARPS_MAX;
    long long room = l->max_shared_bytes / build_shared(derivs, f->cap, f->mask);
    int w = want < room ? want : (int)room;
    return w < 1 ? 1 : w;
}

/* The derivatives a Jacobian walk carries: 7 (one walk for nearly every program, two fits an
 * H200 multiprocessor) where a generation fits at most GP_FIT_FEW programs, so that they all run
 * at once anyway and a fit's walks are the dispatch's time; else 3 (a walk per three
 * constants, three fits a multiprocessor). At 1000 x 100 (~105 fits) the 3 build cost 19 -> 25
 * ms of fitting a run, at 10^4 x 1000 (1024) it saved 119 -> 68 (2026-11-29, docs/performance.md).
 * GLEVO_GP_FIT_DERIVS=3 or 7 chooses (for measuring and the tests). */
#define GP_FIT_FEW 256
static int derivs_for(const gp_const_fitter *f)
{
    const char *env = getenv("GLEVO_GP_FIT_DERIVS");
    if (env && (!strcmp(env, "3") || !strcmp(env, "7"))) return atoi(env);
    return f->fits <= GP_FIT_FEW &&
                   build_shared(7, f->cap, f->mask) <= gpu_context_limits()->max_shared_bytes
               ? 7 : 3;
}

/* The run's one build (its derivatives a walk chosen at its first use), made once. */
static glevo_status build_once(gp_const_fitter *f, gpu_program **out)
{
    gpu_program *prog = &f->build;
    *out = prog;
    if (prog->id) return GLEVO_OK;
    const int theta = GP_FIT_THETA, derivs = derivs_for(f);
    f->warps = warps_for(f, derivs);
    char defines[1024];
    int k = snprintf(defines, sizeof defines,
                     "#define GP_FIT_LANES %d\n#define GP_FIT_THETA %d\n#define GP_FIT_DERIVS %d\n"
                     "#define GP_FIT_TRIES %d\n"
                     "#define GP_CAP %d\n#define GP_FIT_STACK %d\n#define GP_FIT_WALK_STACK %d\n"
                     "#define GP_FIT_REORDER %d\n#define GP_FIT_CASES %d\n"
                     "#define GP_SCALING_MIN_VAR %.17glf\n#define GP_FIT_WARPS %d\n"
                     "#define GP_FIT_CLAIM %d\n",
                     GP_FIT_LANES, theta, derivs, GP_FIT_TRIES, f->cap, GP_FIT_STACK,
                     walk_stack(derivs, f->cap, f->mask),
                     walk_reordered(derivs, f->cap, f->mask) ? 1 : 0,
                     GP_FIT_CASES,
                     GP_SCALING_MIN_VAR, f->warps, f->claim ? 1 : 0);
    /* The operators' arities (gp_op_arity_words: ops 0-31 are all there are), for the walk's
     * depth. */
    uint32_t arity[4];
    gp_op_arity_words(arity);
    k += snprintf(defines + k, sizeof defines - (size_t)k, "#define GP_ARITY0 %uu\n#define GP_ARITY1 %uu\n",
                  arity[0], arity[1]);
    gp_op_defines(f->mask, defines + k, sizeof defines - (size_t)k);
    return gpu_program_build(prog, &(gpu_program_desc){
                                 .name = "gp.const_fit", .compute = "gp/const_fit.glsl",
                                 .defines = defines, .samplers = fit_samplers,
                                 .images = fit_images, .buffers = fit_buffers,
                                 .uniform_size = sizeof(fit_uniforms)});
}

glevo_status gp_const_fitter_prebuild(gp_const_fitter *f)
{
    gpu_program *prog;
    return build_once(f, &prog);
}

glevo_status gp_const_fitter_run(gp_const_fitter *f, gp_resident *r, const glevo_gp_params *P,
                                 int generation)
{
    fit_uniforms u = {.fraction = gp_const_fit_share(P), .one = 1.0, .onef = 1.0f,
                      .pop = r->pop, .cap = r->cap, .spr = r->spr, .cases = f->cases,
                      .iters = P->const_opt_iters, .scaling = P->linear_scaling == 1,
                      .generation = generation, .seed = P->seed};
    gpu_program *prog;
    glevo_status st = build_once(f, &prog);
    if (st) return st;
    gpu_pass pass = {.name = "gp.const_fit", .program = prog};
    gpu_pass_input(&pass, 0, &r->codes[r->cur]);
    gpu_pass_image(&pass, 0, &r->consts[r->cur], GPU_READ_WRITE);
    gpu_pass_buffer(&pass, 0, &f->data);
    gpu_pass_buffer(&pass, 1, &f->claims);
    int warps = f->warps, groups = r->pop;
    if (f->claim) {
        /* Enough work-groups to fill a GPU, or a subgroup a program where that is fewer:
         * each subgroup makes one claim past the programs, so claims grow by pop and one
         * a subgroup (the base of the next dispatch). */
        groups = (r->pop + warps - 1) / warps;
        if (groups > f->max_groups) groups = f->max_groups;
    }
    /* In rows of at most 65535 work-groups (GL's least limit a dimension). */
    pass.groups[0] = groups < 65535 ? groups : 65535;
    pass.groups[1] = (groups + pass.groups[0] - 1) / pass.groups[0];
    pass.groups[2] = 1;
    u.theta_from = 1; /* every program with a constant */
    u.claim_base = f->claimed;
    gpu_pass_uniforms(&pass, &u, sizeof u);
    st = gpu_pass_dispatch(&pass);
    if (f->claim)
        f->claimed += (uint32_t)r->pop + (uint32_t)(pass.groups[0] * pass.groups[1]) * (uint32_t)warps;
    return st;
}

void gp_const_fitter_destroy(gp_const_fitter *f)
{
    gpu_program_destroy(&f->build);
    gpu_buffer_destroy(&f->data);
    gpu_buffer_destroy(&f->claims);
    memset(f, 0, sizeof *f);
}
