/* The resident GP population (resident.h) and the two drivers of the breeding pass
 * (shaders/gp/breed.glsl: a compute dispatch of a work-group per child, or a draw of a
 * fragment per slot word): slot s's [length, codes...] at slot_offset(s) of a 4096-wide R32UI
 * texture (the layout the evaluator's t_programs has, so the evaluator reads it in place
 * through an index texture written once), its constants and subtree sizes at the same words
 * of two more textures of that shape (one fragment writes all three). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/eval/gpu.h"
#include "gp/breed/resident.h"

#define BREED_LANES 32
#define STATS_WORDS 4

static const gpu_slot breed_samplers[] = {{"t_codes", 0}, {"t_consts", 0}, {"t_sizes", 0}, {0}};
static const gpu_slot breed_images[] = {{"i_codes", 0}, {"i_consts", 0}, {"i_sizes", 0}, {0}};
static const gpu_slot breed_buffers[] = {{"gp_breed_in", 0}, {"gp_breed_stats", 0}, {0}};
static const gpu_slot breed_frag_samplers[] = {{"t_codes", 0}, {"t_consts", 0}, {"t_sizes", 0},
                                               {"t_fit", 0}, {"t_plan", 4}, {0}};

/* The block of shaders/gp/breed.glsl (std140: the doubles first). */
typedef struct breed_uniforms {
    double cmin, cmax;
    uint32_t arity[4];
    uint32_t funcs[8];
    int32_t nfuncs, pop, tournament, elites;
    int32_t max_size, vars, cap, spr;
    uint32_t seed, generation;
    float pc, pm;
    float const_prob;
    int32_t pad;
    double parsimony;
    int32_t elite[GP_ELITE_MAX];
} breed_uniforms;

static size_t slot_offset(const gp_resident *r, int s)
{
    return (size_t)(s / r->spr) * GP_TEX_WIDTH + (size_t)(s % r->spr) * (size_t)(r->cap + 1);
}
static int code_rows(int pop, int spr) { return (pop + spr - 1) / spr; }
static int index_rows(int pop) { return (pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH; }

glevo_status gp_resident_check(int pop, int max_size, uint32_t mask)
{
    int max_tex = gpu_context_limits()->max_texture_size;
    if (max_size + 1 > GP_TEX_WIDTH)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.max_size %d is above %d, the most "
                          "codes a GPU program slot holds (one %d-word texture row; --backend "
                          "cpu has no such limit)", max_size, GP_TEX_WIDTH - 1, GP_TEX_WIDTH);
    if (gp_mask_max_arity(mask) > 3)
        return glevo_fail(GLEVO_ERR_INVALID, "the function set has an operator of arity %d, "
                          "above 3, the most the GPU breeding pass takes",
                          gp_mask_max_arity(mask));
    int spr = GP_TEX_WIDTH / (max_size + 1);
    long long words = (long long)code_rows(pop, spr) * GP_TEX_WIDTH;
    /* A constant's code holds its word's index in 24 bits. */
    if (words > (long long)GLEVO_GP_MAX_INDEX + 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pop %d at glevo_gp_params.max_size %d needs %lld "
                          "words of GPU program slots, above %lld (constants are addressed in 24 "
                          "bits; --backend cpu has no such limit)", pop, max_size, words,
                          (long long)GLEVO_GP_MAX_INDEX + 1);
    if (code_rows(pop, spr) > max_tex || index_rows(pop) > max_tex)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_params.pop %d at glevo_gp_params.max_size %d needs %d rows "
                          "of GPU program slots, above this GPU's maximum texture size %d", pop,
                          max_size, code_rows(pop, spr), max_tex);
    return GLEVO_OK;
}

/* What the evaluator's plan and build read of the generation. Two ways, measured on the H100
 * (docs/performance-history.md, 2026-11-25):
 *  - bounds, known without waiting for the GPU: the slots' capacity for the longest program,
 *    footnote 7's stack for it, the set's operators, pop x capacity codes. Breeding and
 *    evaluation then queue back to back, which counts where generations are short (1000
 *    programs x 100 cases: ~0.5 ms a generation), but the larger private stack slows the
 *    interpreter (10 000 x 10 000: 0.20-0.28 s of evaluation against 0.15 s; 100 000 x 1000:
 *    0.36-0.41 s against 0.22 s);
 *  - the generation's own deepest walk and code count, read back before evaluating, the stack
 *    rounded up to a multiple of 8 from 16 so that a warm run meets builds it has compiled.
 * The compute driver uses bounds below GP_EXACT_FROM programs, the fragment driver always
 * reads back (with bounds its evaluation at 100 000 x 1000 took 17.5 s against 6.5 s). GLEVO_GP_RESIDENT_SHAPE=
 * bound or exact forces one (for measuring). */
#define GP_EXACT_FROM 4096

static void shape_bound(gp_resident *r)
{
    r->shape.count = r->pop;
    r->shape.max_length = r->cap;
    r->shape.max_depth = glevo_gp_stack_size(r->cap, gp_mask_max_arity(r->mask));
    r->shape.ops_used = r->mask | 3u;
    r->shape.code_count = (long long)r->pop * r->cap;
    r->shape.const_count = r->shape.code_count;
}

static int shape_exact(const gp_resident *r)
{
    const char *e = getenv("GLEVO_GP_RESIDENT_SHAPE");
    if (e && !strcmp(e, "exact")) return 1;
    if (e && !strcmp(e, "bound")) return 0;
    return !r->compute || r->pop >= GP_EXACT_FROM;
}

/* The stack a generation of this walk depth is evaluated with (multiples of 8, at least 16,
 * at most the bound). */
static int stack_for(const gp_resident *r, uint32_t depth)
{
    int bound = glevo_gp_stack_size(r->cap, gp_mask_max_arity(r->mask));
    int stack = ((int)depth + 7) / 8 * 8;
    if (stack < 16) stack = 16;
    return stack < bound ? stack : bound;
}

static void shape_from(gp_resident *r, uint32_t depth, uint32_t total)
{
    shape_bound(r);
    if (!shape_exact(r)) return;
    r->shape.max_depth = stack_for(r, depth);
    r->shape.code_count = total;
    r->shape.const_count = total;
}

void gp_resident_grown_shape(const gp_resident *r, int depth, glevo_gp_programs *out)
{
    *out = r->shape;
    if (shape_exact(r)) out->max_depth = stack_for(r, (uint32_t)depth);
}

glevo_status gp_resident_create(gp_resident *r, int pop, int cap, uint32_t mask, int compute)
{
    memset(r, 0, sizeof *r);
    r->pop = pop;
    r->cap = cap;
    r->compute = compute;
    r->spr = GP_TEX_WIDTH / (cap + 1);
    int crow = code_rows(pop, r->spr), irow = index_rows(pop);
    size_t stage_words = (size_t)(crow > irow ? crow : irow) * GP_TEX_WIDTH * (compute ? 1 : 4);
    r->stage = calloc(stage_words, sizeof *r->stage);
    r->lens = calloc((size_t)pop, sizeof *r->lens);
    if (!r->stage || !r->lens)
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", pop);
    for (int s = 0; s < pop; ++s) r->stage[s] = (uint32_t)slot_offset(r, s);
    glevo_status st = gpu_texture_create(&r->index, GP_TEX_WIDTH, irow, GPU_R32UI, r->stage);
    for (int b = 0; b < 2 && !st; ++b) {
        st = gpu_texture_create(&r->codes[b], GP_TEX_WIDTH, crow, GPU_R32UI, NULL);
        if (!st) st = gpu_texture_create(&r->consts[b], GP_TEX_WIDTH, crow, GPU_R32F, NULL);
        if (!st) st = gpu_texture_create(&r->sizes[b], GP_TEX_WIDTH, crow, GPU_R32UI, NULL);
    }
    /* gp_breed_in: the elites, the best and the codes count (gp_fit_head), then the fitness;
     * zeros, since gp/fitness.glsl adds to the count. */
    if (!st && compute) st = gpu_buffer_create(&r->in, sizeof(gp_fit_head) + (size_t)pop * 8, NULL);
    static const int32_t no_bad = -1;
    if (!st && compute)
        st = gpu_buffer_upload(&r->in, offsetof(gp_fit_head, bad), sizeof no_bad, &no_bad);
    if (!st && compute) st = gpu_buffer_create(&r->stats, (STATS_WORDS + (size_t)pop) * 4, NULL);
    if (!st && !compute) st = gpu_texture_create(&r->fit, GP_TEX_WIDTH, irow, GPU_RGBA32UI, NULL);
    if (!st && !compute) st = gpu_texture_create(&r->lens_tex, GP_TEX_WIDTH, irow, GPU_R32UI, NULL);
    char defines[512];
    snprintf(defines, sizeof defines,
             "#define GP_FRESH_MAX %d\n#define GP_MUTATE_DEPTH %d\n#define GP_ELITE_MAX %d\n"
             "#define GP_BREED_TAG %uu\n#define GP_DRAW_SELECT %uu\n#define GP_DRAW_CROSS %uu\n"
             "#define GP_DRAW_MUTATE %uu\n#define GP_DRAW_GROW %uu\n#define GP_CODE_VAR %uu\n"
             "#define GP_CODE_CONST %uu\n#define BREED_LANES %d\n#define GP_CAP %d\n"
             "#define GP_BEST_HISTORY %d\n",
             GP_FRESH_MAX, GP_MUTATE_DEPTH, GP_ELITE_MAX, GP_BREED_TAG,
             (unsigned)GP_DRAW_SELECT, (unsigned)GP_DRAW_CROSS, (unsigned)GP_DRAW_MUTATE,
             (unsigned)GP_DRAW_GROW, (unsigned)GLEVO_GP_VAR, (unsigned)GLEVO_GP_CONST,
             BREED_LANES, cap, GP_BEST_HISTORY);
    if (!st && compute)
        st = gpu_program_build(&r->breed, &(gpu_program_desc){
                                   .name = "gp.breed", .compute = "gp/breed.glsl",
                                   .defines = defines, .samplers = breed_samplers,
                                   .images = breed_images, .buffers = breed_buffers,
                                   .uniform_size = sizeof(breed_uniforms)});
    if (!st && !compute)
        st = gpu_program_build(&r->breed, &(gpu_program_desc){
                                   .name = "gp.breed", .fragment = "gp/breed.glsl",
                                   .defines = defines, .samplers = breed_frag_samplers,
                                   .uniform_size = sizeof(breed_uniforms)});
    size_t n = strlen(defines);
    snprintf(defines + n, sizeof defines - n, "#define BREED_LENS 1\n");
    if (!st && !compute)
        st = gpu_program_build(&r->lens_prog, &(gpu_program_desc){
                                   .name = "gp.breed_lens", .fragment = "gp/breed.glsl",
                                   .defines = defines, .samplers = breed_frag_samplers,
                                   .uniform_size = sizeof(breed_uniforms)});
    snprintf(defines + n, sizeof defines - n, "#define BREED_PLAN 1\n");
    if (!st && !compute)
        st = gpu_program_build(&r->plan_prog, &(gpu_program_desc){
                                   .name = "gp.breed_plan", .fragment = "gp/breed.glsl",
                                   .defines = defines, .samplers = breed_frag_samplers,
                                   .uniform_size = sizeof(breed_uniforms)});
    for (int k = 0; k < 4 && !st && !compute; ++k)
        st = gpu_texture_create(&r->plan[k], GP_TEX_WIDTH, irow, GPU_RGBA32UI, NULL);
    r->mask = mask;
    shape_bound(r);
    return st;
}

void gp_resident_destroy(gp_resident *r)
{
    for (int b = 0; b < 2; ++b) {
        gpu_texture_destroy(&r->codes[b]);
        gpu_texture_destroy(&r->consts[b]);
        gpu_texture_destroy(&r->sizes[b]);
    }
    gpu_texture_destroy(&r->index);
    gpu_texture_destroy(&r->fit);
    gpu_texture_destroy(&r->lens_tex);
    gpu_program_destroy(&r->lens_prog);
    gpu_program_destroy(&r->plan_prog);
    for (int k = 0; k < 4; ++k) gpu_texture_destroy(&r->plan[k]);
    gpu_buffer_destroy(&r->in);
    gpu_buffer_destroy(&r->stats);
    gpu_program_destroy(&r->breed);
    gpu_program_destroy(&r->fit_prog);
    gpu_buffer_destroy(&r->errs);
    free(r->lens);
    free(r->stage);
    memset(r, 0, sizeof *r);
}

glevo_status gp_resident_upload(gp_resident *r, const uint32_t *codes, const float *consts,
                                const int32_t *len)
{
    size_t words = (size_t)code_rows(r->pop, r->spr) * GP_TEX_WIDTH;
    uint32_t depth = 0, total = 0, longest = 0, ops = 0;
    uint32_t *cw = r->stage;
    memset(cw, 0, words * sizeof *cw);
    for (int s = 0; s < r->pop; ++s) {
        const uint32_t *c = codes + (size_t)s * r->cap;
        uint32_t at = (uint32_t)slot_offset(r, s);
        cw[at] = (uint32_t)len[s];
        int d = 0;
        for (int k = len[s] - 1; k >= 0; --k) {
            d += 1 - gp_code_arity(c[k]);
            if ((uint32_t)d > depth) depth = (uint32_t)d;
        }
        for (int k = 0; k < len[s]; ++k) {
            uint32_t code = c[k];
            ops |= 1u << GLEVO_GP_CODE_OP(code);
            if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST)
                code = GLEVO_GP_CODE(GLEVO_GP_CONST, at + 1 + (uint32_t)k);
            cw[at + 1 + k] = code;
        }
        total += (uint32_t)len[s];
        if ((uint32_t)len[s] > longest) longest = (uint32_t)len[s];
        r->lens[s] = len[s];
    }
    glevo_status st = gpu_texture_upload(&r->codes[r->cur], cw);
    memset(cw, 0, words * sizeof *cw);
    float *f = (float *)r->stage;
    for (int s = 0; s < r->pop && !st; ++s)
        for (int k = 0; k < len[s]; ++k)
            if (GLEVO_GP_CODE_OP(codes[(size_t)s * r->cap + k]) == GLEVO_GP_CONST)
                f[slot_offset(r, s) + 1 + k] = consts[(size_t)s * r->cap + k];
    if (!st) st = gpu_texture_upload(&r->consts[r->cur], r->stage);
    memset(cw, 0, words * sizeof *cw);
    for (int s = 0; s < r->pop && !st; ++s)
        gp_subtree_sizes(codes + (size_t)s * r->cap, len[s], (int32_t *)cw + slot_offset(r, s) + 1);
    if (!st) st = gpu_texture_upload(&r->sizes[r->cur], cw);
    if (!st && r->compute) { /* the lengths and count gp/fitness.glsl reads, as a breed's */
        uint32_t *head = r->stage;
        head[0] = depth, head[1] = total, head[2] = longest, head[3] = ops;
        memcpy(head + STATS_WORDS, len, (size_t)r->pop * sizeof *len);
        st = gpu_buffer_upload(&r->stats, 0, (STATS_WORDS + (size_t)r->pop) * 4, head);
    }
    shape_from(r, depth, total);
    r->total = total;
    r->stats_pending = 0;
    return st;
}

size_t gp_resident_slot_offset(const gp_resident *r, int s) { return slot_offset(r, s); }

glevo_status gp_resident_download(gp_resident *r, uint32_t *codes, float *consts, int32_t *len)
{
    glevo_status st = gpu_texture_read(&r->codes[r->cur], r->stage);
    for (int s = 0; s < r->pop && !st; ++s) {
        const uint32_t *src = r->stage + slot_offset(r, s);
        len[s] = (int32_t)src[0];
        for (int k = 0; k < len[s]; ++k) {
            uint32_t code = src[1 + k];
            if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) code = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
            codes[(size_t)s * r->cap + k] = code;
        }
    }
    if (!st) st = gpu_texture_read(&r->consts[r->cur], r->stage);
    for (int s = 0; s < r->pop && !st; ++s)
        memcpy(consts + (size_t)s * r->cap, (const float *)r->stage + slot_offset(r, s) + 1,
               (size_t)len[s] * sizeof *consts);
    return st;
}

glevo_status gp_resident_read_slot(gp_resident *r, int s, uint32_t *codes, float *consts, int *len)
{
    size_t at = slot_offset(r, s);
    uint32_t buf[GP_TEX_WIDTH];
    float cbuf[GP_TEX_WIDTH];
    int x = (int)(at % GP_TEX_WIDTH), y = (int)(at / GP_TEX_WIDTH);
    glevo_status st = gpu_texture_read_rect(&r->codes[r->cur], x, y, r->cap + 1, 1, buf);
    if (!st) st = gpu_texture_read_rect(&r->consts[r->cur], x, y, r->cap + 1, 1, cbuf);
    if (st) return st;
    *len = (int)buf[0];
    for (int k = 0; k < *len; ++k) {
        uint32_t code = buf[1 + k];
        if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) code = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
        codes[k] = code;
        consts[k] = cbuf[1 + k];
    }
    return GLEVO_OK;
}

/* The fragment passes read the parents, the fitness and the plans. */
static void bind_fragment_inputs(gp_resident *r, gpu_pass *pass)
{
    gpu_pass_input(pass, 0, &r->codes[r->cur]);
    gpu_pass_input(pass, 1, &r->consts[r->cur]);
    gpu_pass_input(pass, 2, &r->sizes[r->cur]);
    gpu_pass_input(pass, 3, &r->fit);
    gpu_pass_inputs(pass, 4, r->plan, 4);
}

/* The fragment driver: each child's plan (a fragment per child), the children's words drawn
 * into the next textures (a fragment per word), then their lengths for the host. */
static glevo_status breed_draw(gp_resident *r, const breed_uniforms *u)
{
    int next = 1 - r->cur;
    gpu_pass plan = {.name = "gp.breed_plan", .program = &r->plan_prog};
    gpu_pass_input(&plan, 0, &r->codes[r->cur]);
    gpu_pass_input(&plan, 1, &r->consts[r->cur]);
    gpu_pass_input(&plan, 2, &r->sizes[r->cur]);
    gpu_pass_input(&plan, 3, &r->fit);
    gpu_pass_targets(&plan, r->plan, 4);
    gpu_pass_uniforms(&plan, u, sizeof *u);
    glevo_status st = gpu_pass_draw(&plan);
    if (st) return st;
    gpu_pass pass = {.name = "gp.breed", .program = &r->breed};
    bind_fragment_inputs(r, &pass);
    gpu_pass_target(&pass, &r->codes[next]);
    gpu_pass_target(&pass, &r->consts[next]);
    gpu_pass_target(&pass, &r->sizes[next]);
    gpu_pass_uniforms(&pass, u, sizeof *u);
    if ((st = gpu_pass_draw(&pass))) return st;
    r->cur = next;
    gpu_pass lens = {.name = "gp.breed_lens", .program = &r->lens_prog};
    bind_fragment_inputs(r, &lens);
    gpu_pass_target(&lens, &r->lens_tex);
    gpu_pass_uniforms(&lens, u, sizeof *u);
    if ((st = gpu_pass_draw(&lens))) return st;
    r->stats_pending = 1;
    return shape_exact(r) ? gp_resident_read_stats(r) : GLEVO_OK;
}

glevo_status gp_resident_breed(gp_resident *r, const gp_breed_params *bp, const double *fit,
                               const int32_t *elite)
{
    static const uint32_t zero[STATS_WORDS] = {0};
    glevo_status st = GLEVO_OK;
    if (r->compute) { /* fit NULL: gp/fitness.glsl left the fitness and elites in place */
        if (fit) st = gp_resident_put_fitness(r, fit, elite, bp->elites);
        if (!st) st = gpu_buffer_upload(&r->stats, 0, sizeof zero, zero);
    } else { /* a double's bits in x (low) and y (high) of a texel */
        uint32_t *t = r->stage;
        memset(t, 0, (size_t)r->fit.width * r->fit.height * 16);
        for (int i = 0; i < r->pop; ++i) memcpy(t + 4 * (size_t)i, &fit[i], 8);
        st = gpu_texture_upload(&r->fit, t);
    }
    if (st) return st;
    breed_uniforms u = {.cmin = bp->const_min, .cmax = bp->const_max, .nfuncs = bp->nfuncs,
                        .pop = bp->pop, .tournament = bp->tournament, .elites = bp->elites,
                        .max_size = bp->max_size, .vars = bp->vars, .cap = r->cap,
                        .spr = r->spr, .seed = bp->seed, .generation = (uint32_t)bp->generation,
                        .pc = (float)bp->pc, .pm = (float)bp->pm,
                        .const_prob = (float)bp->const_prob, .parsimony = bp->parsimony};
    memcpy(u.arity, bp->arity, sizeof u.arity);
    if (elite) memcpy(u.elite, elite, sizeof(int32_t) * (size_t)bp->elites);
    for (int f = 0; f < bp->nfuncs; ++f) u.funcs[f / 4] |= (uint32_t)bp->funcs[f] << (8 * (f % 4));
    int next = 1 - r->cur;
    if (!r->compute) return breed_draw(r, &u);
    gpu_pass pass = {.name = "gp.breed", .program = &r->breed};
    gpu_pass_input(&pass, 0, &r->codes[r->cur]);
    gpu_pass_input(&pass, 1, &r->consts[r->cur]);
    gpu_pass_input(&pass, 2, &r->sizes[r->cur]);
    gpu_pass_image(&pass, 0, &r->codes[next], GPU_WRITE_ONLY);
    gpu_pass_image(&pass, 1, &r->consts[next], GPU_WRITE_ONLY);
    gpu_pass_image(&pass, 2, &r->sizes[next], GPU_WRITE_ONLY);
    gpu_pass_buffer(&pass, 0, &r->in);
    gpu_pass_buffer(&pass, 1, &r->stats);
    /* A work-group per child, in rows of at most 65535 (GL's least limit per dimension). */
    pass.groups[0] = r->pop < 65535 ? r->pop : 65535;
    pass.groups[1] = (r->pop + pass.groups[0] - 1) / pass.groups[0];
    pass.groups[2] = 1;
    gpu_pass_uniforms(&pass, &u, sizeof u);
    if ((st = gpu_pass_dispatch(&pass))) return st;
    r->cur = next;
    r->stats_pending = 1;
    return shape_exact(r) ? gp_resident_read_stats(r) : GLEVO_OK;
}

glevo_status gp_resident_read_stats(gp_resident *r)
{
    if (!r->stats_pending) return GLEVO_OK;
    if (!r->compute) { /* length | walk depth << 16 a child */
        glevo_status st = gpu_texture_read(&r->lens_tex, r->stage);
        if (st) return st;
        uint32_t depth = 0;
        r->total = 0;
        for (int s = 0; s < r->pop; ++s) {
            r->lens[s] = (int32_t)(r->stage[s] & 0xFFFFu);
            if (r->stage[s] >> 16 > depth) depth = r->stage[s] >> 16;
            r->total += r->lens[s];
        }
        shape_from(r, depth, (uint32_t)r->total);
        r->stats_pending = 0;
        return GLEVO_OK;
    }
    uint32_t *head = r->stage;
    glevo_status st = gpu_buffer_read(&r->stats, 0, (STATS_WORDS + (size_t)r->pop) * 4, head);
    if (st) return st;
    memcpy(r->lens, head + STATS_WORDS, (size_t)r->pop * 4);
    r->total = head[1];
    shape_from(r, head[0], head[1]);
    r->stats_pending = 0;
    return GLEVO_OK;
}

void gp_resident_lend(gp_resident *r, glevo_gp_evaluator *ev)
{
    gp_gpu *g = gp_evaluator_gpu(ev);
    if (!g) return;
    if (!g->resident) {
        gpu_texture_destroy(&g->programs_tex);
        gpu_texture_destroy(&g->index_tex);
        gpu_texture_destroy(&g->consts_tex);
        g->resident = 1;
    }
    g->programs_tex = r->codes[r->cur];
    g->index_tex = r->index;
    g->consts_tex = r->consts[r->cur];
}
