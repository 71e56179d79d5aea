/* GP breeding (src/gp/breed.c and its GPU pass shaders/gp/breed.glsl on the resident
 * population, src/gp/resident.c): the GPU generation equals the host twin's code for code and
 * constant for constant on the same parents and fitness, every child is one prefix tree
 * within the size limit whose subtree sizes are those recomputed from its codes, planted
 * fitness makes the tournaments pick the expected parents, and a resident run resumed from a
 * checkpoint ends where the uninterrupted one does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checkpoint.h"
#include "glevo/rng.h"
#include "gp/breed/breed.h"
#include "gp/engine_internal.h"
#include "gp/breed/resident.h"
#include "gp/breed/tree.h"
#include "gp_engines.h"

typedef struct host_pop {
    int pop, cap;
    uint32_t *codes;
    float *consts;
    int32_t *sizes, *len;
} host_pop;

static host_pop pop_new(int pop, int cap)
{
    host_pop h = {pop, cap, calloc((size_t)pop * cap, 4), calloc((size_t)pop * cap, 4),
                  calloc((size_t)pop * cap, 4), calloc((size_t)pop, 4)};
    ck_assert(h.codes && h.consts && h.sizes && h.len);
    return h;
}
static void pop_free(host_pop *h) { free(h->codes), free(h->consts), free(h->sizes), free(h->len); }

/* Random trees of depth 0..6 (full and grown) within cap, sizes computed. */
static void pop_random(host_pop *h, uint32_t mask, int vars, uint32_t seed)
{
    gp_rng rng;
    tree_rng_init(&rng, seed, 7);
    tree_gen g;
    tree_gen_init(&g, &rng, mask, vars, 0.3, -2.0, 2.0);
    uint32_t codes[4096];
    float consts[4096];
    for (int i = 0; i < h->pop; ++i) {
        for (int depth = i % 7;; depth = depth > 0 ? depth - 1 : 0) {
            int n = 0;
            tree_random(&g, depth, i % 2, codes, consts, &n);
            if (n <= h->cap) {
                memcpy(h->codes + (size_t)i * h->cap, codes, (size_t)n * 4);
                memcpy(h->consts + (size_t)i * h->cap, consts, (size_t)n * 4);
                h->len[i] = n;
                break;
            }
        }
        gp_subtree_sizes(h->codes + (size_t)i * h->cap, h->len[i], h->sizes + (size_t)i * h->cap);
    }
}

/* Fitness from a seed: values in [0, 1) with ties (one in four shares a value) and one
 * infinity. */
static void fit_random(double *fit, int pop, uint32_t seed)
{
    for (int i = 0; i < pop; ++i) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)i, seed, 3, 0, 11, 12);
        fit[i] = r.v[0] % 4 == 0 ? (double)(r.v[1] % 8) / 8.0 : glevo_rng_u01(r.v[2]) * 0.999;
    }
    fit[seed % (uint32_t)pop] = INFINITY;
}

/* The host twin's generation; counts the mutations its plans made. */
static void host_breed(const gp_breed_params *bp, const host_pop *in, const double *fit,
                       const int32_t *elite, host_pop *out, int *subtree, int *point)
{
    gp_parents par = {in->codes, in->consts, in->sizes, in->len, fit, in->cap};
    static gp_child_plan plan;
    for (int c = 0; c < in->pop; ++c) {
        gp_breed_plan(bp, &par, elite, c, &plan);
        *subtree += plan.t > 0;
        *point += plan.pk >= 0;
        size_t at = (size_t)c * in->cap;
        for (int k = 0; k < plan.len; ++k)
            gp_breed_node(bp, &par, &plan, k, 0, &out->codes[at + k], &out->consts[at + k],
                          &out->sizes[at + k]);
        out->len[c] = plan.len;
    }
}

static glevo_gp_params breed_params(int pop, int max_size, uint32_t seed)
{
    glevo_gp_params P = {.pop = pop, .max_size = max_size, .seed = seed, .tournament = 4,
                         .elitism = 3, .pc = 0.9, .pm = 0.4};
    return glevo_gp_params_defaults(&P);
}

/* GPU and host breed `generations` generations from the same parents and fitness. */
static void check_generations_with(glevo_gp_function_set set, int pop, int cap, int vars,
                                   int generations, uint32_t seed, int exact, int compute,
                                   double parsimony)
{
    setenv("GLEVO_GP_RESIDENT_SHAPE", exact ? "exact" : "bound", 1);
    testutil_context();
    if (compute && !gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE}))
        return;
    uint32_t mask = glevo_gp_function_set_ops(set);
    glevo_gp_params P = breed_params(pop, cap, seed);
    P.parsimony = parsimony;
    host_pop h = pop_new(pop, cap), next = pop_new(pop, cap), gpu = pop_new(pop, cap);
    pop_random(&h, mask, vars, seed);
    gp_resident r;
    glevo_status st = gp_resident_create(&r, pop, cap, mask, compute);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(gp_resident_upload(&r, h.codes, h.consts, h.len), GLEVO_OK);
    double *fit = malloc(sizeof(double) * (size_t)pop);
    int32_t *gpu_sizes = malloc(4 * (size_t)r.sizes[0].width * r.sizes[0].height);
    int32_t *recomputed = malloc(4 * (size_t)cap);
    int subtree = 0, point = 0, crossed = 0;
    for (int gen = 0; gen < generations; ++gen) {
        fit_random(fit, pop, seed * 100 + (uint32_t)gen);
        gp_breed_params bp;
        gp_breed_params_init(&bp, &P, mask, vars, gen);
        int32_t elite[GP_ELITE_MAX];
        gp_breed_elites(&bp, fit, elite);
        host_breed(&bp, &h, fit, elite, &next, &subtree, &point);
        st = gp_resident_breed(&r, &bp, fit, elite);
        if (!st) st = gp_resident_read_stats(&r);
        ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
        ck_assert_int_eq(gp_resident_download(&r, gpu.codes, gpu.consts, gpu.len), GLEVO_OK);
        ck_assert_int_eq(gpu_texture_read(&r.sizes[r.cur], gpu_sizes), GLEVO_OK);
        uint32_t depth = 0, total = 0;
        for (int c = 0; c < pop; ++c) {
            size_t at = (size_t)c * cap;
            ck_assert_msg(gpu.len[c] == next.len[c] && r.lens[c] == next.len[c],
                          "%s seed %u generation %d child %d: GPU length %d, host %d",
                          compute ? "compute" : "fragment", seed, gen, c, gpu.len[c], next.len[c]);
            ck_assert_int_le(next.len[c], cap);
            ck_assert_msg(glevo_gp_program_check(next.codes + at, next.len[c]) == GLEVO_OK,
                          "seed %u generation %d child %d is not one tree", seed, gen, c);
            gp_subtree_sizes(next.codes + at, next.len[c], recomputed);
            int d = 0;
            for (int k = 0; k < next.len[c]; ++k) {
                ck_assert_msg(gpu.codes[at + k] == next.codes[at + k],
                              "seed %u generation %d child %d code %d: GPU 0x%x, host 0x%x", seed,
                              gen, c, k, gpu.codes[at + k], next.codes[at + k]);
                if (GLEVO_GP_CODE_OP(next.codes[at + k]) == GLEVO_GP_CONST)
                    ck_assert_msg(memcmp(&gpu.consts[at + k], &next.consts[at + k], 4) == 0,
                                  "seed %u generation %d child %d constant %d: GPU %.9g, host "
                                  "%.9g", seed, gen, c, k, (double)gpu.consts[at + k],
                                  (double)next.consts[at + k]);
                ck_assert_int_eq(next.sizes[at + k], recomputed[k]);
                ck_assert_int_eq(gpu_sizes[gp_resident_slot_offset(&r, c) + 1 + (size_t)k],
                                 recomputed[k]);
            }
            for (int k = next.len[c] - 1; k >= 0; --k) {
                d += 1 - glevo_gp_op_arity(GLEVO_GP_CODE_OP(next.codes[at + k]));
                if ((uint32_t)d > depth) depth = (uint32_t)d;
            }
            total += (uint32_t)next.len[c];
            if (c >= P.elitism)
                crossed += memcmp(next.codes + at, h.codes + at, 4 * (size_t)next.len[c]) != 0;
        }
        /* The evaluator's build reads these instead of the programs: the generation's own
         * (exact) or bounds that hold for any generation. */
        ck_assert_int_eq(r.total, total);
        if (exact) { /* the stack rounded up to 8 from 16, within footnote 7's bound */
            int want = ((int)depth + 7) / 8 * 8 < 16 ? 16 : ((int)depth + 7) / 8 * 8;
            int bound = glevo_gp_stack_size(cap, glevo_gp_function_set_ops(set) >> GLEVO_GP_IF & 1 ? 3 : 2);
            ck_assert_int_eq(r.shape.max_depth, want < bound ? want : bound);
            ck_assert_int_ge(r.shape.max_depth, (int)depth);
            ck_assert_int_eq(r.shape.code_count, total);
        } else {
            ck_assert_int_ge(r.shape.max_depth, (int)depth);
            ck_assert_int_ge(r.shape.code_count, total);
            ck_assert_int_eq(r.shape.max_length, cap);
        }
        host_pop t = h;
        h = next;
        next = t;
    }
    /* The run did mutate and cross (a generation of copies would pass the rest). */
    ck_assert_int_gt(subtree, generations);
    ck_assert_int_gt(point, generations);
    ck_assert_int_gt(crossed, pop);
    gp_resident_destroy(&r);
    free(fit), free(gpu_sizes), free(recomputed);
    pop_free(&h), pop_free(&next), pop_free(&gpu);
}

static void check_generations(glevo_gp_function_set set, int pop, int cap, int vars,
                              int generations, uint32_t seed, int exact, int compute)
{
    check_generations_with(set, pop, cap, vars, generations, seed, exact, compute, 0.0);
}

/* Both drivers of the pass: compute (a work-group per child) and fragment (a fragment per
 * word). */
START_TEST(test_gpu_equals_host_regression)
{
    check_generations(GLEVO_GP_REGRESSION, 203, 64, 3, 20, 5, 0, 1);
    check_generations(GLEVO_GP_REGRESSION, 203, 64, 3, 20, 6, 1, 0);
    unsetenv("GLEVO_GP_RESIDENT_SHAPE");
}
END_TEST

/* Lexicographic parsimony in the tournaments (issue 26): fitnesses within 5 % tie and the
 * shorter program wins, on the GPU as in the host twin (planted fitness: one in four from
 * eight values, so exact ties too, and an infinity). */
START_TEST(test_gpu_equals_host_parsimony)
{
    check_generations_with(GLEVO_GP_REGRESSION, 157, 48, 3, 8, 13, 0, 1, 0.05);
    check_generations_with(GLEVO_GP_REGRESSION, 157, 48, 3, 8, 14, 1, 0, 0.05);
    unsetenv("GLEVO_GP_RESIDENT_SHAPE");
}
END_TEST

START_TEST(test_gpu_equals_host_classification)
{
    check_generations(GLEVO_GP_CLASSIFICATION, 61, 37, 2, 6, 9, 1, 1);
    check_generations(GLEVO_GP_CLASSIFICATION, 61, 37, 2, 6, 10, 0, 0);
    unsetenv("GLEVO_GP_RESIDENT_SHAPE");
}
END_TEST

/* Without crossover or mutation a child is its tournament's winner: planted distinct
 * fitness decides which, elites are the planted best. */
START_TEST(test_planted_tournaments)
{
    testutil_context();
    enum { POP = 41, CAP = 23 };
    uint32_t mask = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION);
    glevo_gp_params P = breed_params(POP, CAP, 77);
    P.pc = 0.0, P.pm = 0.0, P.tournament = 5, P.elitism = 2;
    host_pop h = pop_new(POP, CAP), gpu = pop_new(POP, CAP);
    pop_random(&h, mask, 2, 77);
    /* Program i is (+ i x1): a child's constant names the parent it copies. */
    for (int i = 0; i < POP; ++i) {
        uint32_t *c = h.codes + (size_t)i * CAP;
        c[0] = GLEVO_GP_CODE(GLEVO_GP_ADD, 0), c[1] = GLEVO_GP_CODE(GLEVO_GP_CONST, 1);
        c[2] = GLEVO_GP_CODE(GLEVO_GP_VAR, 0);
        h.consts[(size_t)i * CAP + 1] = (float)i;
        h.len[i] = 3;
    }
    double fit[POP];
    for (int i = 0; i < POP; ++i) fit[i] = (double)((i * 7) % POP); /* 0 at 0, 1 at 6 */
    gp_resident r;
    ck_assert_int_eq(gp_resident_create(&r, POP, CAP, mask, 0), GLEVO_OK); /* fragment */
    ck_assert_int_eq(gp_resident_upload(&r, h.codes, h.consts, h.len), GLEVO_OK);
    gp_breed_params bp;
    gp_breed_params_init(&bp, &P, mask, 2, 4);
    int32_t elite[GP_ELITE_MAX];
    gp_breed_elites(&bp, fit, elite);
    ck_assert_int_eq(elite[0], 0);
    ck_assert_int_eq(elite[1], 6);
    ck_assert_int_eq(gp_resident_breed(&r, &bp, fit, elite), GLEVO_OK);
    ck_assert_int_eq(gp_resident_read_stats(&r), GLEVO_OK);
    ck_assert_int_eq(gp_resident_download(&r, gpu.codes, gpu.consts, gpu.len), GLEVO_OK);
    long long rank_sum = 0;
    for (int c = 0; c < POP; ++c) {
        int want;
        if (c < 2) {
            want = c == 0 ? 0 : 6;
        } else { /* the tournament of pair (c - 2) / 2, parent (c - 2) % 2 */
            gp_stream s;
            gp_stream_init(&s, 77, (uint32_t)((c - 2) / 2), 4, GP_DRAW_SELECT);
            int parent[2];
            for (int k = 0; k < 2; ++k) {
                int best = -1;
                for (int t = 0; t < 5; ++t) {
                    int x = gp_stream_below(&s, POP);
                    if (best < 0 || fit[x] < fit[best]) best = x;
                }
                parent[k] = best;
            }
            want = parent[(c - 2) % 2];
        }
        ck_assert_int_eq(gpu.len[c], 3);
        ck_assert_msg(gpu.consts[(size_t)c * CAP + 1] == (float)want,
                      "child %d is a copy of %g, the tournament's winner is %d", c,
                      (double)gpu.consts[(size_t)c * CAP + 1], want);
        rank_sum += (long long)fit[want];
    }
    /* Tournaments of 5 favour the fit: the winners' mean rank is far below the middle. */
    ck_assert_int_lt(rank_sum, (long long)POP * POP / 4);
    gp_resident_destroy(&r);
    pop_free(&h), pop_free(&gpu);
}
END_TEST

static glevo_gp_data *small_data(void)
{
    enum { CASES = 37 };
    float x[2 * CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 5, 0, 0, 1, 2);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        x[CASES + c] = 2.0f * glevo_rng_u01(r.v[1]) - 1.0f;
        y[c] = x[c] * x[c] - 0.5f * x[CASES + c];
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, CASES, x, y, &d), GLEVO_OK);
    return d;
}

/* Program i of two runs' populations are the same codes and constants. */
static void same_population(glevo_gp *a, glevo_gp *b, const char *what)
{
    const glevo_gp_programs *pa = glevo_gp_population(a, NULL), *pb = glevo_gp_population(b, NULL);
    ck_assert_int_eq(glevo_gp_programs_count(pa), glevo_gp_programs_count(pb));
    for (int i = 0; i < glevo_gp_programs_count(pa); ++i) {
        char sa[4096], sb[4096];
        glevo_gp_program_sexpr(pa, i, sa, sizeof sa);
        glevo_gp_program_sexpr(pb, i, sb, sizeof sb);
        ck_assert_msg(!strcmp(sa, sb), "%s: program %d: %s vs %s", what, i, sa, sb);
    }
}

/* Progress lines: generation, best error and program, as the callback saw them. */
typedef struct progress_log {
    char text[16384];
    size_t n;
} progress_log;

static void log_progress(void *user, int generation, double best_error, const char *best)
{
    progress_log *l = user;
    int w = snprintf(l->text + l->n, sizeof l->text - l->n, "%d %.17g %s\n", generation,
                     best_error, best);
    if (w > 0 && l->n + (size_t)w < sizeof l->text) l->n += (size_t)w;
}

/* The resident run (compute) and the host twin (cpu) are one run, reported alike; a resident
 * run resumed from a checkpoint ends where the uninterrupted one does. */
START_TEST(test_resident_run_resume)
{
    testutil_context();
    glevo_gp_params p = {.pop = 211, .generations = 8, .seed = 4, .max_size = 64,
                         .backend = GLEVO_BACKEND_COMPUTE, .pm = 0.3, .report_every = 1};
    if (!gp_engine_available(&(glevo_gp_eval_params){.backend = GLEVO_BACKEND_COMPUTE})) return;
    glevo_gp_data *d = small_data();
    glevo_gp *whole, *host, *part, *resumed;
    static progress_log log_gpu, log_host;
    glevo_gp_params pp = p;
    pp.progress = log_progress, pp.progress_user = &log_gpu;
    ck_assert_int_eq(glevo_gp_create(&pp, d, &whole), GLEVO_OK);
    glevo_gp_params ph = p;
    ph.backend = GLEVO_BACKEND_CPU;
    ph.eval.threads = 1;
    ph.progress = log_progress, ph.progress_user = &log_host;
    ck_assert_int_eq(glevo_gp_create(&ph, d, &host), GLEVO_OK);
    ph.progress = NULL;
    ck_assert_int_eq(glevo_gp_step(whole, 8), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(host, 8), GLEVO_OK);
    same_population(whole, host, "compute vs cpu");
    ck_assert(glevo_gp_best_error(whole) == glevo_gp_best_error(host));
    ck_assert_int_gt(log_gpu.n, 9 * 4);
    ck_assert_str_eq(log_gpu.text, log_host.text);
    glevo_gp_result rg, rh;
    ck_assert_int_eq(glevo_gp_result_get(whole, &rg), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_result_get(host, &rh), GLEVO_OK);
    ck_assert_str_eq(rg.best_sexpr, rh.best_sexpr);
    ck_assert_int_eq(rg.best_nodes, rh.best_nodes);
    ck_assert_int_eq(rg.nodes_evaluated, rh.nodes_evaluated);
    glevo_gp_result_free(&rg), glevo_gp_result_free(&rh);

    ck_assert_int_eq(glevo_gp_create(&p, d, &part), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(part, 3), GLEVO_OK);
    const char *path = testutil_write_tmp("");
    glevo_status st = glevo_gp_save(part, path, NULL);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    glevo_gp_destroy(part);
    st = glevo_gp_load(path, NULL, d, &resumed);
    ck_assert_msg(st == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_generation(resumed), 3);
    ck_assert_int_eq(glevo_gp_step(resumed, 8), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_generation(resumed), 8);
    same_population(whole, resumed, "resumed vs whole");
    double ea[211], eb[211];
    ck_assert_int_eq(glevo_gp_read_errors(whole, ea), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_read_errors(resumed, eb), GLEVO_OK);
    ck_assert(memcmp(ea, eb, sizeof ea) == 0);

    /* Migration both ways: a resident run's program into a host run and back into another
     * slot of the resident run (whose GPU copy is then what it evolves). */
    int from = 5, to = 17, back = 23;
    double block[1 + 2 * 64];
    ck_assert_int_eq(glevo_gp_read_programs(resumed, 1, &from, block), GLEVO_OK);
    double err = ea[from];
    ck_assert_int_eq(glevo_gp_write_programs(host, 1, &to, block, &err), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_read_programs(host, 1, &to, block), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_write_programs(whole, 1, &back, block, &err), GLEVO_OK);
    char sa[4096], sb[4096], sc[4096];
    glevo_gp_program_sexpr(glevo_gp_population(resumed, NULL), from, sa, sizeof sa);
    glevo_gp_program_sexpr(glevo_gp_population(host, NULL), to, sb, sizeof sb);
    glevo_gp_program_sexpr(glevo_gp_population(whole, NULL), back, sc, sizeof sc);
    ck_assert_str_eq(sa, sb);
    ck_assert_str_eq(sa, sc);
    /* The GPU slot holds it too (that copy is what the run breeds from). */
    ck_assert_ptr_nonnull(whole->res);
    uint32_t codes[64], want[64];
    float consts[64], want_consts[64];
    int len = 0, want_len = 0;
    ck_assert_int_eq(gp_resident_read_slot(whole->res, back, codes, consts, &len), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_program_decode(block, 64, 2, 0, want, want_consts, &want_len),
                     GLEVO_OK);
    ck_assert_int_eq(len, want_len);
    ck_assert(memcmp(codes, want, sizeof(uint32_t) * (size_t)len) == 0);
    ck_assert_int_eq(glevo_gp_step(whole, 1), GLEVO_OK); /* generations is 8: done already */
    glevo_gp_destroy(whole), glevo_gp_destroy(resumed);

    /* The fragment backend's resident run (its breeding draws) is the same run too. */
    glevo_gp_params pf = p;
    pf.backend = GLEVO_BACKEND_FRAGMENT;
    pf.generations = ph.generations = 3;
    glevo_gp *frag, *host3;
    ck_assert_int_eq(glevo_gp_create(&pf, d, &frag), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_create(&ph, d, &host3), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(frag, 3), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(host3, 3), GLEVO_OK);
    same_population(frag, host3, "fragment vs cpu");
    glevo_gp_destroy(frag), glevo_gp_destroy(host3), glevo_gp_destroy(host);
    glevo_gp_data_destroy(d);
}
END_TEST

/* A checkpoint without the breeding mark was bred the old way: refused, saying so. */
START_TEST(test_old_checkpoint_refused)
{
    glevo_gp_data *d = small_data();
    ckpt_writer *w = ckpt_writer_create("gp");
    ckpt_put_i64(w, "param.pop", 10);
    ckpt_put_i64(w, "state.rng_counter", 3);
    const char *path = testutil_write_tmp("");
    ck_assert_int_eq(ckpt_writer_save(w, path), GLEVO_OK);
    ckpt_writer_destroy(w);
    glevo_gp *gp = NULL;
    ck_assert_int_eq(glevo_gp_load(path, NULL, d, &gp), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "older version") != NULL, "%s", glevo_last_error());
    ck_assert_ptr_null(gp);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_breed");
    TCase *tc = tcase_create("breed");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gpu_equals_host_regression);
    tcase_add_test(tc, test_gpu_equals_host_classification);
    tcase_add_test(tc, test_gpu_equals_host_parsimony);
    tcase_add_test(tc, test_planted_tournaments);
    tcase_add_test(tc, test_resident_run_resume);
    tcase_add_test(tc, test_old_checkpoint_refused);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
