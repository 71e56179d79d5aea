/* GP evaluation as fragment passes (Augusto & Barbosa 2012, §3.4; shaders/gp/eval.glsl and
 * rowsum.glsl): programs in an R32UI texture, constants in R32F, the dataset transposed in
 * RGBA32F (four cases per texel), targets in their own texture. The evaluator also fronts the
 * CPU interpreter so callers pick a strategy, not a code path.
 *
 * Targets: programs are laid out in a grid of prog_rows rows of tiles; program p owns the
 * tile_w x tile_h texels of tile (p / rows, p % rows) (tile_w * tile_h = group). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gpgpu.h"
#include "gp/gp_internal.h"

#define GP_TEX_WIDTH 4096
#define GP_BUILD_CACHE 8

typedef struct gp_build {
    uint32_t mask;
    int stack, lanes, long_programs;
    gpu_program program;
} gp_build;

struct glevo_gp_evaluator {
    glevo_gp_eval_params params;
    glevo_gp_strategy used;
    const glevo_gp_data *data;
    int gpu;
    int quads, data_width, data_rows, max_tex;
    gpu_texture data_tex, target_tex;
    gpu_texture programs_tex, index_tex, consts_tex;
    gpu_texture partial_tex, sums_tex;
    gpu_program rowsum;
    int rowsum_built;
    gp_build builds[GP_BUILD_CACHE];
    int build_count, build_next;
    uint32_t *host_codes, *host_index;
    size_t host_codes_cap, host_index_cap;
    float *host_consts, *host_sums;
    size_t host_consts_cap, host_sums_cap;
    glevo_gp_sums *cpu_sums;
    int cpu_sums_cap;
};

static const char *strategy_names[] = {"auto", "pppe", "fp", "ppcu", "cpu"};

const char *glevo_gp_strategy_name(glevo_gp_strategy s)
{
    return (unsigned)s < 5 ? strategy_names[s] : "?";
}

glevo_status glevo_gp_strategy_parse(const char *text, glevo_gp_strategy *out)
{
    for (int i = 0; i < 5; ++i)
        if (!strcmp(text, strategy_names[i])) {
            *out = (glevo_gp_strategy)i;
            return GLEVO_OK;
        }
    return glevo_fail(GLEVO_ERR_INVALID, "strategy '%s' is unknown (auto, pppe, fp, ppcu or cpu)",
                      text);
}

glevo_gp_strategy glevo_gp_evaluator_strategy(const glevo_gp_evaluator *e) { return e->used; }

static glevo_status upload_data(glevo_gp_evaluator *e)
{
    const glevo_gp_data *d = e->data;
    e->quads = (d->cases + 3) / 4;
    e->data_width = e->quads < GP_TEX_WIDTH ? e->quads : GP_TEX_WIDTH;
    e->data_rows = (e->quads + e->data_width - 1) / e->data_width;
    int vars = d->vars > 0 ? d->vars : 1;
    if ((long long)vars * e->data_rows > e->max_tex)
        return glevo_fail(GLEVO_ERR_INVALID,
                          "dataset of %d variables x %d cases does not fit a %d texture", d->vars,
                          d->cases, e->max_tex);
    size_t row_floats = (size_t)e->data_width * e->data_rows * 4;
    float *buf = calloc(row_floats * vars, sizeof *buf);
    if (!buf) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory uploading the dataset");
    for (int v = 0; v < d->vars; ++v)
        memcpy(buf + row_floats * v, d->x + (size_t)v * d->cases, (size_t)d->cases * sizeof *buf);
    glevo_status st = gpu_texture_create(&e->data_tex, e->data_width, e->data_rows * vars,
                                         GPU_RGBA32F, buf);
    if (!st) {
        memset(buf, 0, row_floats * sizeof *buf);
        memcpy(buf, d->y, (size_t)d->cases * sizeof *buf);
        st = gpu_texture_create(&e->target_tex, e->data_width, e->data_rows, GPU_RGBA32F, buf);
    }
    free(buf);
    return st;
}

glevo_status glevo_gp_evaluator_create(const glevo_gp_eval_params *params,
                                       const glevo_gp_data *data, glevo_gp_evaluator **out)
{
    *out = NULL;
    glevo_gp_evaluator *e = calloc(1, sizeof *e);
    if (!e) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the evaluator");
    if (params) e->params = *params;
    e->data = data;
    e->gpu = e->params.strategy != GLEVO_GP_CPU;
    e->used = e->params.strategy;
    if (e->params.lanes == 0) e->params.lanes = 1; /* more lanes measured slower (H100) */
    if (e->params.lanes < 1 || e->params.lanes > 8) {
        int lanes = e->params.lanes;
        free(e);
        return glevo_fail(GLEVO_ERR_INVALID, "lanes %d is outside 1..8", lanes);
    }
    if (e->params.group < 0) {
        int group = e->params.group;
        free(e);
        return glevo_fail(GLEVO_ERR_INVALID, "group %d is negative", group);
    }
    if (e->gpu) {
        GLint max_size = 0;
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
        if (max_size <= 0) {
            free(e);
            return glevo_fail(GLEVO_ERR_NO_DEVICE, "GP evaluation on the GPU needs a current GL context");
        }
        e->max_tex = max_size;
        glevo_status st = upload_data(e);
        if (st) {
            glevo_gp_evaluator_destroy(e);
            return st;
        }
    }
    *out = e;
    return GLEVO_OK;
}

void glevo_gp_evaluator_destroy(glevo_gp_evaluator *e)
{
    if (!e) return;
    if (e->gpu) {
        gpu_texture_destroy(&e->data_tex);
        gpu_texture_destroy(&e->target_tex);
        gpu_texture_destroy(&e->programs_tex);
        gpu_texture_destroy(&e->index_tex);
        gpu_texture_destroy(&e->consts_tex);
        gpu_texture_destroy(&e->partial_tex);
        gpu_texture_destroy(&e->sums_tex);
        if (e->rowsum_built) gpu_program_destroy(&e->rowsum);
        for (int i = 0; i < e->build_count; ++i) gpu_program_destroy(&e->builds[i].program);
    }
    free(e->host_codes);
    free(e->host_index);
    free(e->host_consts);
    free(e->host_sums);
    free(e->cpu_sums);
    free(e);
}

static int grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    void *n = realloc(*ptr, c * elem);
    if (!n) return 0;
    *ptr = n;
    *cap = c;
    return 1;
}

/* (Re)creates t with at least w x h texels of format f; returns whether it is usable. */
static glevo_status ensure_texture(gpu_texture *t, int w, int h, gpu_format f)
{
    if (t->id && t->width == w && t->height == h) return GLEVO_OK;
    if (t->id) gpu_texture_destroy(t);
    return gpu_texture_create(t, w, h, f, NULL);
}

/* Programs up to this many codes (plus the length word) never cross a row of t_programs. */
#define GP_ROW_PROGRAM (GP_TEX_WIDTH - 1)

/* The interpreter specialised to the operators in use (§5.4) and to a stack as deep as the
 * population's deepest walk, rounded up to a multiple of 4 (so that a GP run does not rebuild
 * every generation) and at most footnote 7's size for its longest program. The smaller stack
 * is the local-memory array every push and pop goes through: a size-50 random population
 * needs about 10 slots where footnote 7 gives 25 (32 for the rounded length), so the
 * per-fragment footprint drops three-fold. */
static glevo_status get_build(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                              gpu_program **out)
{
    uint32_t mask = p->ops_used;
    int tau = (p->max_length + 15) / 16 * 16;
    int bound = glevo_gp_stack_size(tau, gp_mask_max_arity(mask));
    int stack = (p->max_depth + 3) / 4 * 4;
    if (stack > bound) stack = bound;
    if (stack < 1) stack = 1;
    int long_programs = p->max_length > GP_ROW_PROGRAM - 1;
    for (int i = 0; i < e->build_count; ++i)
        if (e->builds[i].mask == mask && e->builds[i].stack == stack &&
            e->builds[i].lanes == e->params.lanes && e->builds[i].long_programs == long_programs) {
            *out = &e->builds[i].program;
            return GLEVO_OK;
        }
    char defines[512];
    int n = snprintf(defines, sizeof defines, "#define GP_STACK %d\n#define GP_LANES %d\n%s", stack,
                     e->params.lanes, long_programs ? "#define GP_LONG_PROGRAMS\n" : "");
    static const char *names[GLEVO_GP_OP_COUNT] = {
        NULL, NULL, "ADD", "SUB", "MUL", "DIV", "NEG", "SIN", "COS",
        "IF", "LT", "GT", "EQ", "AND", "OR", "NOT"};
    for (int op = GLEVO_GP_ADD; op < GLEVO_GP_OP_COUNT; ++op)
        if (mask >> op & 1u)
            n += snprintf(defines + n, sizeof defines - (size_t)n, "#define GP_USE_%s\n", names[op]);
    gp_build *slot;
    if (e->build_count < GP_BUILD_CACHE) {
        slot = &e->builds[e->build_count++];
    } else {
        slot = &e->builds[e->build_next];
        e->build_next = (e->build_next + 1) % GP_BUILD_CACHE;
        gpu_program_destroy(&slot->program);
    }
    glevo_status st = gpu_program_build(&slot->program, "gp/eval.glsl", defines, NULL);
    if (st) {
        /* Forget the slot: it holds no program. */
        *slot = e->builds[--e->build_count];
        return st;
    }
    /* GLEVO_GP_DUMP_BINARY=FILE: the driver's program binary of each interpreter built, for
     * counting instructions per node (NVIDIA's embeds its assembly as text). */
    const char *dump = getenv("GLEVO_GP_DUMP_BINARY");
    if (dump && *dump) gpu_program_dump_binary(&slot->program, dump);
    slot->mask = mask;
    slot->stack = stack;
    slot->lanes = e->params.lanes;
    slot->long_programs = long_programs;
    *out = &slot->program;
    return GLEVO_OK;
}

/* The paper picks by shape; here: few cases and many programs -> PPPE (each fragment has
 * enough work alone), a handful of programs -> FP (only the cases give parallelism), else
 * PPCU, the paper's best strategy. */
static glevo_gp_strategy pick_strategy(int pop, int quads)
{
    if (quads <= 8 && pop >= 2048) return GLEVO_GP_PPPE;
    if (pop <= 4) return GLEVO_GP_FP;
    return GLEVO_GP_PPCU;
}

static glevo_status upload_programs(glevo_gp_evaluator *e, const glevo_gp_programs *p)
{
    int pop = p->count;
    /* Each program [length, codes...] stays inside one row (the shader then steps along x)
     * unless some program is too long for a row: then they are packed back to back. */
    int pad = p->max_length <= GP_ROW_PROGRAM - 1;
    size_t total = (size_t)p->code_count + (size_t)pop;
    if (pad) {
        size_t at = 0;
        for (int i = 0; i < pop; ++i) {
            size_t need = (size_t)p->lengths[i] + 1;
            if (at % GP_TEX_WIDTH + need > GP_TEX_WIDTH) at = (at / GP_TEX_WIDTH + 1) * GP_TEX_WIDTH;
            at += need;
        }
        total = at;
    }
    size_t rows = (total + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    size_t index_rows = ((size_t)pop + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    size_t const_rows = ((size_t)p->const_count + GP_TEX_WIDTH - 1) / GP_TEX_WIDTH;
    if (const_rows < 1) const_rows = 1;
    if (rows > (size_t)e->max_tex || const_rows > (size_t)e->max_tex)
        return glevo_fail(GLEVO_ERR_INVALID, "population of %lld nodes does not fit a texture",
                          p->code_count);
    if (!grow((void **)&e->host_codes, &e->host_codes_cap, rows * GP_TEX_WIDTH, sizeof(uint32_t)) ||
        !grow((void **)&e->host_index, &e->host_index_cap, index_rows * GP_TEX_WIDTH,
              sizeof(uint32_t)) ||
        !grow((void **)&e->host_consts, &e->host_consts_cap, const_rows * GP_TEX_WIDTH,
              sizeof(float)))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory uploading programs");
    size_t at = 0;
    for (int i = 0; i < pop; ++i) {
        size_t need = (size_t)p->lengths[i] + 1;
        if (pad && at % GP_TEX_WIDTH + need > GP_TEX_WIDTH) {
            size_t next = (at / GP_TEX_WIDTH + 1) * GP_TEX_WIDTH;
            memset(e->host_codes + at, 0, (next - at) * sizeof(uint32_t));
            at = next;
        }
        e->host_index[i] = (uint32_t)at;
        e->host_codes[at++] = (uint32_t)p->lengths[i];
        memcpy(e->host_codes + at, p->codes + p->offsets[i], (size_t)p->lengths[i] * sizeof(uint32_t));
        at += (size_t)p->lengths[i];
    }
    memset(e->host_codes + at, 0, (rows * GP_TEX_WIDTH - at) * sizeof(uint32_t));
    memset(e->host_index + pop, 0, (index_rows * GP_TEX_WIDTH - (size_t)pop) * sizeof(uint32_t));
    memcpy(e->host_consts, p->consts, (size_t)p->const_count * sizeof(float));
    memset(e->host_consts + p->const_count, 0,
           (const_rows * GP_TEX_WIDTH - (size_t)p->const_count) * sizeof(float));
    /* Textures only grow (in rows), so steady-state generations upload into existing ones. */
    glevo_status st = GLEVO_OK;
    if (!e->programs_tex.id || e->programs_tex.height < (int)rows)
        st = ensure_texture(&e->programs_tex, GP_TEX_WIDTH, (int)rows, GPU_R32UI);
    if (!st) st = gpu_texture_upload_rect(&e->programs_tex, 0, 0, GP_TEX_WIDTH, (int)rows, e->host_codes);
    if (!st && (!e->index_tex.id || e->index_tex.height < (int)index_rows))
        st = ensure_texture(&e->index_tex, GP_TEX_WIDTH, (int)index_rows, GPU_R32UI);
    if (!st) st = gpu_texture_upload_rect(&e->index_tex, 0, 0, GP_TEX_WIDTH, (int)index_rows, e->host_index);
    if (!st && (!e->consts_tex.id || e->consts_tex.height < (int)const_rows))
        st = ensure_texture(&e->consts_tex, GP_TEX_WIDTH, (int)const_rows, GPU_R32F);
    if (!st) st = gpu_texture_upload_rect(&e->consts_tex, 0, 0, GP_TEX_WIDTH, (int)const_rows, e->host_consts);
    return st;
}

static void eval_uniforms(glevo_gp_evaluator *e, gpu_pass *pass, int pop, int tile_w,
                          int tile_h, int rows)
{
    gpu_uniform_1i(pass, "u_pop", pop);
    gpu_uniform_1i(pass, "u_group", tile_w * tile_h);
    gpu_uniform_2i(pass, "u_tile", tile_w, tile_h);
    gpu_uniform_1i(pass, "u_prog_rows", rows);
    gpu_uniform_1i(pass, "u_cases", e->data->cases);
    gpu_uniform_1i(pass, "u_quads", e->quads);
    gpu_uniform_1i(pass, "u_data_width", e->data_width);
    gpu_uniform_1i(pass, "u_data_rows", e->data_rows);
}

/* A program's tile: tile_w across, group / tile_w up. By default square-ish for a power of
 * two (64 -> 8 x 8, 32 -> 8 x 4, 1024 -> 32 x 32), one row otherwise. */
static void tile_shape(int group, int tile_width, int *w, int *h)
{
    if (tile_width > 0 && tile_width <= group && group % tile_width == 0) {
        *w = tile_width;
    } else if ((group & (group - 1)) == 0) {
        int hh = 1;
        while (hh * hh * 4 <= group) hh *= 2;
        *w = group / hh;
    } else {
        *w = group;
    }
    *h = group / *w;
}

static glevo_status evaluate_gpu(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                                 glevo_gp_sums *sums)
{
    int pop = p->count;
    glevo_gp_strategy s = e->params.strategy == GLEVO_GP_AUTO ? pick_strategy(pop, e->quads)
                                                               : e->params.strategy;
    e->used = s;
    glevo_status st = upload_programs(e, p);
    if (st) return st;
    gpu_program *prog;
    if ((st = get_build(e, p, &prog))) return st;

    int group = 1;
    if (s != GLEVO_GP_PPPE) {
        if (e->params.group > 0)
            group = e->params.group;
        else if (s == GLEVO_GP_FP)
            group = 1024;
        else /* PPCU: an 8 x 8 tile per program at every population. Smaller groups for
              * large populations (the former rule: about 2^20 fragments in all) gave 8 x 4 and
              * 4 x 4 tiles, which split NVIDIA's warps between programs: regression at pop
              * 25000 and 50000 ran at 27 GPop/s, against 42 with 8 x 8 tiles, on the H100. Long draws
              * are split into chunks below, so more fragments cost nothing. */
            group = 64;
        if (group > e->quads) {
            /* fewer quads than fragments: the largest power of two (or the count) that fits */
            int g = 1;
            while (g * 2 <= e->quads) g *= 2;
            group = (group & (group - 1)) == 0 ? g : e->quads;
        }
        if (group < 1) group = 1;
    }
    int tile_w, tile_h;
    tile_shape(group, e->params.tile_width, &tile_w, &tile_h);
    /* Program grid: rows of tiles up to 8192 fragments high, so 50000 programs of 8 x 8 tiles
     * take 49 columns of 1024. */
    int rows = 8192 / tile_h;
    if (rows > pop) rows = pop;
    if (rows < 1) rows = 1;
    int cols = (pop + rows - 1) / rows;
    /* Keep the partial-sum texture under 2^24 texels (256 MiB of RGBA32F) and the max size. */
    while (group > 1 && ((long long)group * cols * rows > (1 << 24) || cols * tile_w > e->max_tex ||
                         rows * tile_h > e->max_tex)) {
        group = tile_w * tile_h / 2;
        tile_shape(group, 0, &tile_w, &tile_h);
        rows = 8192 / tile_h;
        if (rows > pop) rows = pop;
        cols = (pop + rows - 1) / rows;
    }
    if (cols > e->max_tex) return glevo_fail(GLEVO_ERR_INVALID, "population of %d does not fit", pop);
    if ((st = ensure_texture(&e->sums_tex, cols, rows, GPU_RGBA32F))) return st;
    gpu_texture *eval_target = &e->sums_tex;
    if (group > 1) {
        if ((st = ensure_texture(&e->partial_tex, cols * tile_w, rows * tile_h, GPU_RGBA32F)))
            return st;
        eval_target = &e->partial_tex;
    }
    /* No stale result survives: every sum's run marker (.w) must come back. */
    if ((st = gpu_texture_clear(&e->sums_tex))) return st;
    gpu_pass pass = {.name = s == GLEVO_GP_FP ? "gp.eval.fp" : s == GLEVO_GP_PPCU ? "gp.eval.ppcu"
                                                                                 : "gp.eval.pppe",
                     .program = prog};
    gpu_pass_input(&pass, "t_programs", &e->programs_tex);
    gpu_pass_input(&pass, "t_index", &e->index_tex);
    gpu_pass_input(&pass, "t_consts", &e->consts_tex);
    gpu_pass_input(&pass, "t_data", &e->data_tex);
    gpu_pass_input(&pass, "t_target", &e->target_tex);
    gpu_pass_target(&pass, eval_target);
    int chunks = 1;
    if (s == GLEVO_GP_FP) {
        /* One draw per program over its tile of case fragments (Algorithm 3). */
        if ((st = gpu_pass_begin(&pass))) return st;
        eval_uniforms(e, &pass, pop, tile_w, tile_h, rows);
        gpu_uniform_2i(&pass, "u_quad_range", 0, e->quads);
        for (int i = 0; i < pop && !st; ++i) {
            pass.x = (i / rows) * tile_w;
            pass.y = (i % rows) * tile_h;
            pass.w = tile_w;
            pass.h = tile_h;
            glViewport(pass.x, pass.y, pass.w, pass.h);
            st = gpu_pass_draw(&pass);
        }
    } else {
        /* PPPE and PPCU in one draw unless that draw would be long: then in case-range
         * chunks of about 2^26 quad-steps, summed by additive blending, each waited for, so
         * no draw and no queue of draws runs for seconds: on the H100, PPPE at 50000 x 50000
         * cases in 2^28-step chunks came back without having run (see the run marks below). */
        if ((st = gpu_pass_begin(&pass))) return st;
        eval_uniforms(e, &pass, pop, tile_w, tile_h, rows);
        double steps = (double)p->code_count * ((double)e->quads / group);
        double limit = e->params.max_draw_steps > 0 ? e->params.max_draw_steps : 67108864.0;
        int strides = (e->quads + group - 1) / group;
        chunks = steps > limit ? (int)ceil(steps / limit) : 1;
        if (chunks > strides) chunks = strides;
        int per = (strides + chunks - 1) / chunks * group; /* whole strides: lanes stay in step */
        chunks = (e->quads + per - 1) / per;
        glBlendFunc(GL_ONE, GL_ONE);
        glBlendEquation(GL_FUNC_ADD);
        for (int q = 0; q < e->quads && !st; q += per) {
            if (q > 0) glEnable(GL_BLEND);
            gpu_uniform_2i(&pass, "u_quad_range", q, q + per < e->quads ? q + per : e->quads);
            st = gpu_pass_draw(&pass);
            if (chunks > 1) glFinish();
        }
        glDisable(GL_BLEND);
    }
    if (st) return st;
    if (group > 1) {
        if (!e->rowsum_built) {
            if ((st = gpu_program_build(&e->rowsum, "gp/rowsum.glsl", NULL, NULL))) return st;
            e->rowsum_built = 1;
        }
        gpu_pass rs = {.name = "gp.rowsum", .program = &e->rowsum};
        gpu_pass_input(&rs, "t_partial", &e->partial_tex);
        gpu_pass_target(&rs, &e->sums_tex);
        if ((st = gpu_pass_begin(&rs))) return st;
        gpu_uniform_2i(&rs, "u_tile", tile_w, tile_h);
        if ((st = gpu_pass_draw(&rs))) return st;
    }
    if (!grow((void **)&e->host_sums, &e->host_sums_cap, (size_t)cols * rows * 4, sizeof(float)))
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory reading errors back");
    if ((st = gpu_texture_read(&e->sums_tex, e->host_sums))) return st;
    /* Every fragment of every chunk wrote 1 to .w: a program's sum of marks is group x chunks
     * (exact in float). Anything else means draws did not run. */
    float marks = (float)group * (float)chunks;
    for (int i = 0; i < pop; ++i) {
        const float *t = e->host_sums + ((size_t)(i % rows) * cols + (size_t)(i / rows)) * 4;
        if (t[3] != marks)
            return glevo_fail(GLEVO_ERR_GL, "GP evaluation: program %d's result came back "
                              "without its %g run marks (%g): the GPU did not run the %s draws "
                              "(lost context or driver timeout?)", i + 1, (double)marks,
                              (double)t[3], glevo_gp_strategy_name(s));
        sums[i].abs_sum = t[0];
        sums[i].sq_sum = t[1];
        sums[i].hits = t[2];
    }
    return GLEVO_OK;
}

glevo_status glevo_gp_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                               glevo_gp_metric metric, double *errors)
{
    int pop = p->count;
    if (pop == 0) return GLEVO_OK;
    if (e->cpu_sums_cap < pop) {
        glevo_gp_sums *n = realloc(e->cpu_sums, (size_t)pop * sizeof *n);
        if (!n) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d errors", pop);
        e->cpu_sums = n;
        e->cpu_sums_cap = pop;
    }
    for (int i = 0; i < pop; ++i) {
        int len;
        const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
        for (int k = 0; k < len; ++k)
            if (GLEVO_GP_CODE_OP(c[k]) == GLEVO_GP_VAR &&
                (int)GLEVO_GP_CODE_INDEX(c[k]) >= e->data->vars)
                return glevo_fail(GLEVO_ERR_INVALID,
                                  "program %d uses x%u but the data has %d input variable(s)",
                                  i + 1, GLEVO_GP_CODE_INDEX(c[k]) + 1, e->data->vars);
    }
    glevo_status st;
    if (e->gpu) {
        st = evaluate_gpu(e, p, e->cpu_sums);
    } else {
        e->used = GLEVO_GP_CPU;
        st = glevo_gp_evaluate_cpu(p, e->data, e->params.threads, e->cpu_sums);
    }
    if (st) return st;
    for (int i = 0; i < pop; ++i)
        errors[i] = glevo_gp_metric_value(metric, &e->cpu_sums[i], e->data->cases);
    return GLEVO_OK;
}
