/* The resident GP population (resident.h) and the compute driver of the breeding pass
 * (shaders/gp/breed.glsl): slot s's [length, codes...] at slot_offset(s) of a 4096-wide R32UI
 * texture (the layout the evaluator's t_programs has, so the evaluator reads it in place
 * through an index texture written once), its constants and subtree sizes at s * cap + k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval_internal.h"
#include "gp/gpu.h"
#include "gp/resident.h"

#define BREED_LANES 32
#define STATS_WORDS 4

static const gpu_slot breed_samplers[] = {{"t_codes", 0}, {"t_consts", 0}, {"t_sizes", 0}, {0}};
static const gpu_slot breed_images[] = {{"i_codes", 0}, {"i_consts", 0}, {"i_sizes", 0}, {0}};
static const gpu_slot breed_buffers[] = {{"gp_breed_in", 0}, {"gp_breed_stats", 0}, {0}};

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
    int32_t pad[3];
} breed_uniforms;

static size_t slot_offset(const gp_resident *r, int s)
{
    return (size_t)(s / r->spr) * GP_TEX_WIDTH + (size_t)(s % r->spr) * (size_t)(r->cap + 1);
}
static int code_rows(int pop, int spr) { return (pop + spr - 1) / spr; }
static int node_rows(int pop, int cap)
{
    return (int)(((long long)pop * cap + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH);
}

int gp_resident_fits(int pop, int max_size, uint32_t mask)
{
    int max_tex = gpu_context_limits()->max_texture_size;
    if (max_size + 1 > GP_TEX_WIDTH || gp_mask_max_arity(mask) > 3) return 0;
    if ((long long)pop * max_size > (long long)GLEVO_GP_MAX_INDEX + 1) return 0;
    int spr = GP_TEX_WIDTH / (max_size + 1);
    return code_rows(pop, spr) <= max_tex && node_rows(pop, max_size) <= max_tex &&
           (pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH <= max_tex;
}

/* What the evaluator's plan and build read of the generation, known without waiting for the
 * GPU: the slots' capacity for the longest program (the codes' shared array), the stack of
 * footnote 7 for it, the function set's operators. The build is then the same every
 * generation and every seed, so a warm run compiles nothing. GLEVO_GP_RESIDENT_SHAPE=exact
 * reads the generation's own depth, length and operators back before evaluating (a wait per
 * generation; for measuring). */
static void shape_bound(gp_resident *r)
{
    r->shape.count = r->pop;
    r->shape.max_length = r->cap;
    r->shape.max_depth = glevo_gp_stack_size(r->cap, gp_mask_max_arity(r->mask));
    r->shape.ops_used = r->mask | 3u;
    r->shape.code_count = (long long)r->pop * r->cap;
    r->shape.const_count = r->shape.code_count;
}

static int shape_exact(void)
{
    const char *e = getenv("GLEVO_GP_RESIDENT_SHAPE");
    return e && !strcmp(e, "exact");
}

static void shape_from(gp_resident *r, uint32_t depth, uint32_t total, uint32_t longest,
                       uint32_t ops)
{
    shape_bound(r);
    if (!shape_exact()) return;
    r->shape.max_depth = (int)depth;
    r->shape.code_count = total;
    r->shape.const_count = total;
    r->shape.max_length = (int)longest;
    r->shape.ops_used = ops;
}

glevo_status gp_resident_create(gp_resident *r, int pop, int cap, uint32_t mask)
{
    memset(r, 0, sizeof *r);
    r->pop = pop;
    r->cap = cap;
    r->spr = GP_TEX_WIDTH / (cap + 1);
    int crow = code_rows(pop, r->spr), nrow = node_rows(pop, cap);
    int irow = (pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    size_t stage_words = (size_t)(crow > nrow ? crow : nrow) * GP_TEX_WIDTH;
    if ((size_t)irow * GP_TEX_WIDTH > stage_words) stage_words = (size_t)irow * GP_TEX_WIDTH;
    r->stage = calloc(stage_words, sizeof *r->stage);
    r->lens = calloc((size_t)pop, sizeof *r->lens);
    if (!r->stage || !r->lens)
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", pop);
    for (int s = 0; s < pop; ++s) r->stage[s] = (uint32_t)slot_offset(r, s);
    glevo_status st = gpu_texture_create(&r->index, GP_TEX_WIDTH, irow, GPU_R32UI, r->stage);
    for (int b = 0; b < 2 && !st; ++b) {
        st = gpu_texture_create(&r->codes[b], GP_TEX_WIDTH, crow, GPU_R32UI, NULL);
        if (!st) st = gpu_texture_create(&r->consts[b], GP_TEX_WIDTH, nrow, GPU_R32F, NULL);
        if (!st) st = gpu_texture_create(&r->sizes[b], GP_TEX_WIDTH, nrow, GPU_R32UI, NULL);
    }
    if (!st) st = gpu_buffer_create(&r->in, GP_ELITE_MAX * 4 + (size_t)pop * 8, NULL);
    if (!st) st = gpu_buffer_create(&r->stats, (STATS_WORDS + (size_t)pop) * 4, NULL);
    char defines[512];
    snprintf(defines, sizeof defines,
             "#define GP_FRESH_MAX %d\n#define GP_MUTATE_DEPTH %d\n#define GP_ELITE_MAX %d\n"
             "#define GP_BREED_TAG %uu\n#define GP_DRAW_SELECT %uu\n#define GP_DRAW_CROSS %uu\n"
             "#define GP_DRAW_MUTATE %uu\n#define GP_DRAW_GROW %uu\n#define GP_CODE_VAR %uu\n"
             "#define GP_CODE_CONST %uu\n#define BREED_LANES %d\n#define GP_CAP %d\n",
             GP_FRESH_MAX, GP_MUTATE_DEPTH, GP_ELITE_MAX, GP_BREED_TAG, GP_DRAW_SELECT,
             GP_DRAW_CROSS, GP_DRAW_MUTATE, GP_DRAW_GROW, GLEVO_GP_VAR, GLEVO_GP_CONST,
             BREED_LANES, cap);
    if (!st)
        st = gpu_program_build(&r->breed, &(gpu_program_desc){
                                   .name = "gp.breed", .compute = "gp/breed.glsl",
                                   .defines = defines, .samplers = breed_samplers,
                                   .images = breed_images, .buffers = breed_buffers,
                                   .uniform_size = sizeof(breed_uniforms)});
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
    gpu_buffer_destroy(&r->in);
    gpu_buffer_destroy(&r->stats);
    gpu_program_destroy(&r->breed);
    free(r->lens);
    free(r->stage);
    memset(r, 0, sizeof *r);
}

glevo_status gp_resident_upload(gp_resident *r, const uint32_t *codes, const float *consts,
                                const int32_t *len)
{
    int crow = code_rows(r->pop, r->spr), nrow = node_rows(r->pop, r->cap);
    uint32_t depth = 0, total = 0, longest = 0, ops = 0;
    memset(r->stage, 0, (size_t)crow * GP_TEX_WIDTH * sizeof *r->stage);
    for (int s = 0; s < r->pop; ++s) {
        const uint32_t *c = codes + (size_t)s * r->cap;
        uint32_t *dst = r->stage + slot_offset(r, s);
        dst[0] = (uint32_t)len[s];
        int d = 0;
        for (int k = len[s] - 1; k >= 0; --k) {
            d += 1 - gp_code_arity(c[k]);
            if ((uint32_t)d > depth) depth = (uint32_t)d;
        }
        for (int k = 0; k < len[s]; ++k) {
            uint32_t code = c[k];
            ops |= 1u << GLEVO_GP_CODE_OP(code);
            if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST)
                code = GLEVO_GP_CODE(GLEVO_GP_CONST, (uint32_t)s * (uint32_t)r->cap + (uint32_t)k);
            dst[1 + k] = code;
        }
        total += (uint32_t)len[s];
        if ((uint32_t)len[s] > longest) longest = (uint32_t)len[s];
        r->lens[s] = len[s];
    }
    glevo_status st = gpu_texture_upload(&r->codes[r->cur], r->stage);
    memset(r->stage, 0, (size_t)nrow * GP_TEX_WIDTH * sizeof *r->stage);
    float *f = (float *)r->stage;
    for (int s = 0; s < r->pop && !st; ++s)
        for (int k = 0; k < len[s]; ++k)
            if (GLEVO_GP_CODE_OP(codes[(size_t)s * r->cap + k]) == GLEVO_GP_CONST)
                f[(size_t)s * r->cap + k] = consts[(size_t)s * r->cap + k];
    if (!st) st = gpu_texture_upload(&r->consts[r->cur], r->stage);
    memset(r->stage, 0, (size_t)nrow * GP_TEX_WIDTH * sizeof *r->stage);
    for (int s = 0; s < r->pop && !st; ++s)
        gp_subtree_sizes(codes + (size_t)s * r->cap, len[s],
                         (int32_t *)r->stage + (size_t)s * r->cap);
    if (!st) st = gpu_texture_upload(&r->sizes[r->cur], r->stage);
    shape_from(r, depth, total, longest, ops);
    r->total = total;
    r->stats_pending = 0;
    return st;
}

glevo_status gp_resident_download(gp_resident *r, uint32_t *codes, float *consts, int32_t *len)
{
    int nrow = node_rows(r->pop, r->cap);
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
    if (!st) memcpy(consts, r->stage, (size_t)r->pop * r->cap * sizeof *consts);
    (void)nrow;
    return st;
}

glevo_status gp_resident_read_slot(gp_resident *r, int s, uint32_t *codes, float *consts, int *len)
{
    size_t at = slot_offset(r, s);
    uint32_t buf[GP_TEX_WIDTH];
    glevo_status st = gpu_texture_read_rect(&r->codes[r->cur], (int)(at % GP_TEX_WIDTH),
                                            (int)(at / GP_TEX_WIDTH), r->cap + 1, 1, buf);
    if (st) return st;
    *len = (int)buf[0];
    for (int k = 0; k < *len; ++k) {
        uint32_t code = buf[1 + k];
        if (GLEVO_GP_CODE_OP(code) == GLEVO_GP_CONST) code = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
        codes[k] = code;
    }
    /* The constants may cross a row: read them a row piece at a time. */
    size_t c0 = (size_t)s * r->cap, c1 = c0 + (size_t)*len;
    for (size_t c = c0; c < c1 && !st;) {
        size_t row_end = (c / GP_TEX_WIDTH + 1) * GP_TEX_WIDTH, end = row_end < c1 ? row_end : c1;
        st = gpu_texture_read_rect(&r->consts[r->cur], (int)(c % GP_TEX_WIDTH),
                                   (int)(c / GP_TEX_WIDTH), (int)(end - c), 1, consts + (c - c0));
        c = end;
    }
    return st;
}

glevo_status gp_resident_breed(gp_resident *r, const gp_breed_params *bp, const double *fit,
                               const int32_t *elite)
{
    int32_t el[GP_ELITE_MAX] = {0};
    memcpy(el, elite, sizeof(int32_t) * (size_t)bp->elites);
    static const uint32_t zero[STATS_WORDS] = {0};
    glevo_status st = gpu_buffer_upload(&r->in, 0, sizeof el, el);
    if (!st) st = gpu_buffer_upload(&r->in, sizeof el, (size_t)r->pop * sizeof *fit, fit);
    if (!st) st = gpu_buffer_upload(&r->stats, 0, sizeof zero, zero);
    if (st) return st;
    breed_uniforms u = {.cmin = bp->const_min, .cmax = bp->const_max, .nfuncs = bp->nfuncs,
                        .pop = bp->pop, .tournament = bp->tournament, .elites = bp->elites,
                        .max_size = bp->max_size, .vars = bp->vars, .cap = r->cap,
                        .spr = r->spr, .seed = bp->seed, .generation = (uint32_t)bp->generation,
                        .pc = (float)bp->pc, .pm = (float)bp->pm,
                        .const_prob = (float)bp->const_prob};
    memcpy(u.arity, bp->arity, sizeof u.arity);
    for (int f = 0; f < bp->nfuncs; ++f) u.funcs[f / 4] |= (uint32_t)bp->funcs[f] << (8 * (f % 4));
    int next = 1 - r->cur;
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
    return shape_exact() ? gp_resident_read_stats(r) : GLEVO_OK;
}

glevo_status gp_resident_read_stats(gp_resident *r)
{
    if (!r->stats_pending) return GLEVO_OK;
    uint32_t *head = r->stage;
    glevo_status st = gpu_buffer_read(&r->stats, 0, (STATS_WORDS + (size_t)r->pop) * 4, head);
    if (st) return st;
    memcpy(r->lens, head + STATS_WORDS, (size_t)r->pop * 4);
    r->total = head[1];
    shape_from(r, head[0], head[1], head[2], head[3]);
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
