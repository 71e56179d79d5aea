/* A portfolio of searches (issue 26, src/gp/portfolio.c): the defaults that turn it on, the
 * refusals, and that a portfolio run is exactly its searches run alone (the main one with the
 * rest of pop; the others over the variables, each with its family of operators and its
 * terms (linear scaling or the constant 1), no fitting, from its own seed), reporting the one
 * whose printed model
 * has the lowest training error; a checkpoint in the middle resumes every search bit for bit,
 * and one written by the two-search portfolio resumes as two; GPU backends give the CPU's
 * run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checkpoint.h"
#include "gp_engines.h"
#include "glevo/rng.h"
#include "gp/engine_internal.h"
#include "gp/sr/portfolio.h"
#include "testutil.h"

/* y = x1^3 + x1^2 + x1 (Nguyen-1) on 20 points in [-1, 1]. */
static glevo_gp_data *nguyen1(void)
{
    enum { CASES = 20 };
    float x[CASES], y[CASES];
    for (int c = 0; c < CASES; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, 26, 1);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        y[c] = x[c] * x[c] * x[c] + x[c] * x[c] + x[c];
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(1, CASES, x, y, &d), GLEVO_OK);
    return d;
}

/* Without the result's last steps, noise pruning and the linear layer, which take the picked
 * search's model after the pick (test_gp_prune, test_gp_linear_layer): here each search's own
 * model is compared. */
static glevo_gp_params portfolio_params(glevo_backend backend)
{
    return (glevo_gp_params){.pop = 200, .generations = 8, .metric = GLEVO_GP_MSE,
                             .seed = 11, .backend = backend, .linear_layer = GLEVO_ZERO,
                             .prune = GLEVO_ZERO};
}

START_TEST(test_defaults_and_refusals)
{
    glevo_gp_params P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_MSE,
                                                                     .pop = 2000});
    ck_assert(P.portfolio == 0.25);
    P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_RMSE});
    ck_assert(P.portfolio == 0.25);
    P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_SAE, .pop = 2000});
    ck_assert(P.portfolio == 0);
    P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_MSE,
                                                    .portfolio = GLEVO_ZERO});
    ck_assert(P.portfolio == 0);
    /* pop 12: a quarter is 3 programs, below the tournament of 4: one search. */
    P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_MSE, .pop = 12});
    ck_assert(P.portfolio == 0);
    P = glevo_gp_params_defaults(&(glevo_gp_params){.metric = GLEVO_GP_SAE, .portfolio = 0.5});
    ck_assert(P.portfolio == 0.5);

    glevo_gp_data *d = nguyen1();
    static const double bad[] = {1.0, -0.25, 1.5, NAN};
    for (int k = 0; k < 4; ++k) {
        glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
        p.portfolio = bad[k];
        glevo_gp *gp = NULL;
        ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_ERR_INVALID);
        ck_assert_msg(strstr(glevo_last_error(), "glevo_gp_params.portfolio"), "%s",
                      glevo_last_error());
        ck_assert_ptr_null(gp);
    }
    /* 1 % of 200 is 2 programs: too few for a tournament of 4. */
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    p.portfolio = 0.01;
    glevo_gp *gp = NULL;
    ck_assert_int_eq(glevo_gp_create(&p, d, &gp), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "198 and 2 programs"), "%s", glevo_last_error());
    glevo_gp_data_destroy(d);
}
END_TEST

static void assert_same_population(const glevo_gp *a, const glevo_gp *b, const char *what)
{
    int ba, bb;
    const glevo_gp_programs *pa = glevo_gp_population(a, &ba), *pb = glevo_gp_population(b, &bb);
    ck_assert_int_eq(glevo_gp_programs_count(pa), glevo_gp_programs_count(pb));
    ck_assert_msg(ba == bb, "%s: best %d vs %d", what, ba, bb);
    for (int i = 0; i < glevo_gp_programs_count(pa); ++i) {
        int la, lb;
        const uint32_t *ca = glevo_gp_programs_codes(pa, i, &la);
        const uint32_t *cb = glevo_gp_programs_codes(pb, i, &lb);
        ck_assert_msg(la == lb && !memcmp(ca, cb, sizeof *ca * (size_t)la), "%s: program %d", what, i);
    }
}

/* The last progress line a run printed. */
typedef struct last_line {
    int generation, calls;
    double error;
    char model[4096];
} last_line;

static void remember(void *user, int generation, double error, const char *model)
{
    last_line *l = user;
    l->generation = generation, l->error = error, l->calls++;
    snprintf(l->model, sizeof l->model, "%s", model);
}

#define OP(name) (1u << GLEVO_GP_##name)

/* The searches of the default portfolio at pop 200 run alone: the main one on 150 programs,
 * then 15, 15, 10 and 10 over the variables with their families' operators, no random
 * constants, no fitting, tournaments of two, from their own seeds: the second with linear
 * scaling, the fourth and fifth with the constant 1. */
enum { SEARCHES = 5 };
static glevo_gp_params search_alone(const glevo_gp_params *run, int k)
{
    static const int pops[SEARCHES] = {150, 15, 15, 10, 10};
    static const uint32_t families[SEARCHES] = {
        0, OP(ADD) | OP(SUB) | OP(MUL) | OP(DIV) | OP(NEG) | OP(SIN) | OP(COS) | OP(LOG),
        OP(ADD) | OP(SUB) | OP(MUL) | OP(SIN) | OP(COS),
        OP(ADD) | OP(SUB) | OP(MUL) | OP(DIV) | OP(LOG), OP(ADD) | OP(SUB) | OP(MUL)};
    glevo_gp_params s = *run;
    s.pop = pops[k], s.portfolio = GLEVO_ZERO, s.progress = NULL;
    if (k == 0) return s; /* the main search enumerates short programs as the run does */
    s.enumeration = GLEVO_ZERO;
    s.ops = OP(VAR) | OP(CONST) | families[k];
    s.const_opt_iters = GLEVO_ZERO;
    /* Their terms: the second scales as the run does, the third has the variables alone, the
     * fourth and fifth draw the constant 1 for a quarter of their terminals. */
    s.const_prob = GLEVO_ZERO;
    if (k > 1) s.linear_scaling = GLEVO_ZERO;
    if (k > 2) s.const_prob = 0.25, s.const_min = s.const_max = 1.0;
    s.tournament = 2; /* the run's is the default 4 */
    s.seed = (run->seed * 0x9E3779B9u + 0x6A09E667u) ^ (uint32_t)(k - 1) * 0xBB67AE85u;
    return s;
}

/* The portfolio against its five searches run alone, for several seeds: the same main
 * population, the best model reported (another search's exact Nguyen-1 in some), the counts
 * summed, progress on the reported model. */
START_TEST(test_portfolio_is_its_searches)
{
    glevo_gp_data *d = nguyen1();
    int won[SEARCHES] = {0};
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
        p.seed = seed;
        last_line line = {0};
        p.progress = remember, p.progress_user = &line, p.report_every = 1;
        glevo_gp *run = NULL;
        ck_assert_int_eq(glevo_gp_create(&p, d, &run), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_params_of(run)->pop, 200);
        ck_assert(glevo_gp_params_of(run)->portfolio == 0.25);
        while (!glevo_gp_done(run)) ck_assert_int_eq(glevo_gp_step(run, 1), GLEVO_OK);
        glevo_gp_result r;
        ck_assert_int_eq(glevo_gp_result_get(run, &r), GLEVO_OK);

        glevo_gp_result alone[SEARCHES];
        long long evaluations = 0, nodes = 0;
        int best = 0;
        for (int k = 0; k < SEARCHES; ++k) {
            glevo_gp_params s = search_alone(&p, k);
            glevo_gp *a = NULL;
            ck_assert_int_eq(glevo_gp_create(&s, d, &a), GLEVO_OK);
            while (!glevo_gp_done(a)) ck_assert_int_eq(glevo_gp_step(a, 1), GLEVO_OK);
            if (k == 0) assert_same_population(run, a, "main search");
            ck_assert_int_eq(glevo_gp_result_get(a, &alone[k]), GLEVO_OK);
            glevo_gp_destroy(a);
            evaluations += alone[k].evaluations, nodes += alone[k].nodes_evaluated;
            if (alone[k].best_error < alone[best].best_error) best = k; /* ties: the earlier */
        }
        const glevo_gp_result *want = &alone[best];
        won[best]++;
        ck_assert_int_eq(r.best_search, best);
        ck_assert_msg(!strcmp(r.best_sexpr, want->best_sexpr), "seed %u: %s, want %s", seed,
                      r.best_sexpr, want->best_sexpr);
        ck_assert(r.best_error == want->best_error && r.train_r2 == want->train_r2);
        ck_assert(r.best_error == glevo_gp_best_error(run));
        ck_assert_int_eq(r.evaluations, evaluations);
        ck_assert_int_eq(r.evaluations, glevo_gp_evaluations(run));
        ck_assert_int_eq(r.nodes_evaluated, nodes);
        ck_assert_int_eq(r.generations, 8);
        ck_assert_int_eq(line.calls, 9);
        ck_assert_int_eq(line.generation, 8);
        ck_assert_msg(line.error == r.best_error && !strcmp(line.model, r.best_sexpr),
                      "progress %.17g %s, result %.17g %s", line.error, line.model,
                      r.best_error, r.best_sexpr);
        /* Migration moves programs of one search. */
        int index = 0;
        double block[1 + 2 * 100];
        ck_assert_int_eq(glevo_gp_read_programs(run, 1, &index, block), GLEVO_ERR_INVALID);
        ck_assert_msg(strstr(glevo_last_error(), "portfolio"), "%s", glevo_last_error());
        for (int k = 0; k < SEARCHES; ++k) glevo_gp_result_free(&alone[k]);
        glevo_gp_result_free(&r);
        glevo_gp_destroy(run);
    }
    /* The seeds show both sides: a test that could not tell the searches apart proves less. */
    ck_assert_msg(won[0] > 0 && won[0] < 6, "the main search won %d of 6 (others %d %d %d %d)",
                  won[0], won[1], won[2], won[3], won[4]);
    glevo_gp_data_destroy(d);
}
END_TEST

/* The run of p to its end (p->generations), and the same run saved to path half way. */
static glevo_gp *run_and_save_half_way(const glevo_gp_params *p, const glevo_gp_data *d,
                                       const char *path)
{
    glevo_gp *straight = NULL, *half = NULL;
    ck_assert_int_eq(glevo_gp_create(p, d, &straight), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(straight, p->generations), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_create(p, d, &half), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(half, p->generations / 2), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_save(half, path, NULL), GLEVO_OK);
    glevo_gp_destroy(half);
    return straight;
}

/* N generations straight against N/2, save, load, N/2 more: every search resumes. */
START_TEST(test_checkpoint_resumes_every_search)
{
    glevo_gp_data *d = nguyen1();
    char path[128];
    snprintf(path, sizeof path, "/tmp/glevo-gp-portfolio-%ld.ckpt", (long)getpid());
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    glevo_gp *straight = run_and_save_half_way(&p, d, path), *resumed = NULL;
    /* The split is the run's: another share is refused by name. */
    ck_assert_int_eq(glevo_gp_load(path, &(glevo_gp_params){.portfolio = 0.5}, d, &resumed),
                     GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "portfolio"), "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_load(path, NULL, d, &resumed), GLEVO_OK);
    ck_assert(glevo_gp_params_of(resumed)->portfolio == 0.25);
    ck_assert_int_eq(glevo_gp_step(resumed, 8), GLEVO_OK);
    assert_same_population(straight, resumed, "resumed");
    glevo_gp_result a, b;
    ck_assert_int_eq(glevo_gp_result_get(straight, &a), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_result_get(resumed, &b), GLEVO_OK);
    ck_assert_str_eq(a.best_sexpr, b.best_sexpr);
    ck_assert(a.best_error == b.best_error && a.best_search == b.best_search);
    ck_assert_int_eq(a.evaluations, b.evaluations);
    ck_assert_int_eq(a.nodes_evaluated, b.nodes_evaluated);
    glevo_gp_result_free(&a), glevo_gp_result_free(&b);
    glevo_gp_destroy(straight), glevo_gp_destroy(resumed);
    unlink(path);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Renames checkpoint entry `name` (to the same length, last letter X) and seals the file
 * again (its CRC-32, docs/checkpoint.md): the file a glevo without that entry would write. */
static void drop_entry(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(n);
    ck_assert(fread(b, 1, n, f) == n);
    fclose(f);
    size_t len = strlen(name);
    unsigned char *at = NULL;
    for (size_t i = 0; i + len <= n && !at; ++i)
        if (!memcmp(b + i, name, len)) at = b + i;
    ck_assert_msg(at != NULL, "no entry %s", name);
    at[len - 1] = 'X';
    uint32_t crc = ckpt_crc32(0, b, n - 4);
    for (int i = 0; i < 4; ++i) b[n - 4 + i] = (unsigned char)(crc >> (8 * i));
    f = fopen(path, "wb");
    ck_assert(fwrite(b, 1, n, f) == n);
    fclose(f);
    free(b);
}

/* A checkpoint written before the portfolio (no param.portfolio) resumes as the one search it
 * ran; asking it for a portfolio is refused by name, not ignored. */
START_TEST(files_before_the_portfolio_resume_as_one_search)
{
    glevo_gp_data *d = nguyen1();
    char path[128];
    snprintf(path, sizeof path, "/tmp/glevo-gp-portfolio-old-%ld.ckpt", (long)getpid());
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    p.portfolio = GLEVO_ZERO;
    glevo_gp *straight = run_and_save_half_way(&p, d, path), *resumed = NULL;
    drop_entry(path, "param.portfolio");
    ck_assert_int_eq(glevo_gp_load(path, &(glevo_gp_params){.portfolio = 0.25}, d, &resumed),
                     GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "glevo_gp_params.portfolio 0.25") &&
                      strstr(glevo_last_error(), "before the portfolio"), "%s", glevo_last_error());
    ck_assert_ptr_null(resumed);
    ck_assert_int_eq(glevo_gp_load(path, NULL, d, &resumed), GLEVO_OK);
    ck_assert(glevo_gp_params_of(resumed)->portfolio == 0);
    ck_assert_int_eq(glevo_gp_step(resumed, 8), GLEVO_OK); /* to generation 8, the end */
    ck_assert_int_eq(glevo_gp_generation(resumed), 8);
    assert_same_population(straight, resumed, "an old file resumed");
    glevo_gp_destroy(straight), glevo_gp_destroy(resumed);
    unlink(path);
    glevo_gp_data_destroy(d);
}
END_TEST

/* A checkpoint of the two-search portfolio (written by glevo c5e85ef, before portfolios of
 * more searches: data/gp/make_portfolio2_checkpoints.c) resumes as its two searches and ends
 * where that run did: the file it saved at generation 8 and the result it printed. */
START_TEST(files_of_two_searches_resume_as_two)
{
    glevo_gp_data *d = nguyen1();
    glevo_gp *resumed = NULL, *end = NULL;
    ck_assert_msg(glevo_gp_load(testutil_data_path("gp/portfolio2_gen4.ckpt"), NULL, d, &resumed) ==
                      GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_generation(resumed), 4);
    /* Its searches never restarted (the file has no param.helper_restart): nor do they now. */
    ck_assert_int_eq(resumed->next_search->restart_after, 0);
    ck_assert_int_eq(glevo_gp_step(resumed, 4), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_load(testutil_data_path("gp/portfolio2_gen8.ckpt"), NULL, d, &end),
                     GLEVO_OK);
    assert_same_population(end, resumed, "a two-search file resumed");
    glevo_gp_result r;
    ck_assert_int_eq(glevo_gp_result_get(resumed, &r), GLEVO_OK);
    /* That run printed (- (+ (* x1 x1) x1) (* x1 (neg (* x1 x1)))); the readable model
     * (gp_readable, 2026-11-29) takes the negation out of the product: the same program. */
    ck_assert_str_eq(r.best_sexpr, "(+ (+ (* x1 x1) x1) (* x1 (* x1 x1)))");
    ck_assert(r.best_error == 1.8873791418627661e-16);
    ck_assert_int_eq(r.best_search, 1);
    ck_assert_int_eq(r.evaluations, 1800);
    glevo_gp_result_free(&r);
    glevo_gp_destroy(resumed), glevo_gp_destroy(end);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Restarts (portfolio.c): a search beside the main one that went GP_PORTFOLIO_RESTART
 * generations without a better best (or since its last restart), with as many left, starts
 * again in place of breeding, keeping its best program in slot 0. The rule's twin here
 * watches every helper's best generation by generation. Nguyen-1 at pop 200 x 40: its
 * helpers settle early. */
enum { RESTART_GENERATIONS = 40 };
START_TEST(helpers_restart_when_they_stop_improving)
{
    glevo_gp_data *d = nguyen1();
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    p.generations = RESTART_GENERATIONS;
    glevo_gp *run = NULL;
    ck_assert_int_eq(glevo_gp_create(&p, d, &run), GLEVO_OK);
    ck_assert_int_eq(run->restart_after, 0); /* the main search never restarts */
    double best[SEARCHES];
    int since[SEARCHES] = {0}, restarts = 0;
    for (int k = 0; k < SEARCHES; ++k) best[k] = INFINITY;
    while (!glevo_gp_done(run)) {
        int k = 1, due[SEARCHES] = {0}, before[SEARCHES] = {0};
        uint32_t kept[SEARCHES][100]; /* mse's max_size */
        int kept_len[SEARCHES] = {0};
        for (glevo_gp *s = run->next_search; s; s = s->next_search, ++k) {
            ck_assert_int_eq(s->restart_after, GP_PORTFOLIO_RESTART);
            double f = s->fit[s->best];
            if (f < best[k]) best[k] = f, since[k] = s->generation;
            due[k] = s->generation - since[k] >= GP_PORTFOLIO_RESTART &&
                     s->generation + GP_PORTFOLIO_RESTART < RESTART_GENERATIONS;
            before[k] = s->restarts;
            kept_len[k] = s->pops[s->cur][s->best].len;
            ck_assert_int_le(kept_len[k], 100);
            memcpy(kept[k], s->pops[s->cur][s->best].codes, sizeof(uint32_t) * (size_t)kept_len[k]);
        }
        ck_assert_int_eq(glevo_gp_step(run, 1), GLEVO_OK);
        k = 1;
        for (glevo_gp *s = run->next_search; s; s = s->next_search, ++k) {
            ck_assert_msg(s->restarts == before[k] + due[k], "search %d at generation %d: %d "
                          "restarts, want %d", k, s->generation, s->restarts, before[k] + due[k]);
            ck_assert(s->fit[s->best] <= best[k]); /* the best is never lost */
            if (!due[k]) continue;
            restarts++;
            since[k] = s->generation; /* a restart starts the count again */
            const indiv *first = &s->pops[s->cur][0];
            ck_assert(first->len == kept_len[k] &&
                      !memcmp(first->codes, kept[k], sizeof(uint32_t) * (size_t)kept_len[k]));
            /* The others: the search's generation 0 as its restart seed (seed ^ golden ratio
             * x restarts) grows it. */
            glevo_gp_params fresh_p = search_alone(&p, k);
            fresh_p.seed ^= 0x9E3779B9u * (uint32_t)s->restarts;
            glevo_gp *fresh = NULL;
            ck_assert_int_eq(glevo_gp_create(&fresh_p, d, &fresh), GLEVO_OK);
            for (int i = 1; i < s->P.pop; ++i) {
                const indiv *a = &s->pops[s->cur][i], *b = &fresh->pops[fresh->cur][i];
                ck_assert_msg(a->len == b->len &&
                                  !memcmp(a->codes, b->codes, sizeof *a->codes * (size_t)a->len),
                              "search %d, restart %d: program %d", k, s->restarts, i);
            }
            glevo_gp_destroy(fresh);
        }
    }
    ck_assert_msg(restarts >= 2, "only %d restarts: the test shows nothing", restarts);
    glevo_gp_destroy(run);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Every search of two runs: the same programs, fitness and restarts. */
static void assert_same_searches(const glevo_gp *a, const glevo_gp *b, const char *what)
{
    for (int k = 0; a && b; a = a->next_search, b = b->next_search, ++k) {
        char name[96];
        snprintf(name, sizeof name, "%s, search %d", what, k);
        assert_same_population(a, b, name);
        ck_assert_msg(a->restarts == b->restarts && a->restart_since == b->restart_since &&
                          a->restart_best == b->restart_best,
                      "%s: restarts %d vs %d", name, a->restarts, b->restarts);
        ck_assert(!memcmp(a->fit, b->fit, sizeof *a->fit * (size_t)a->P.pop));
    }
    ck_assert(!a && !b);
}

/* A run saved between restarts resumes them: straight against saved at half way, loaded. */
START_TEST(checkpoints_resume_restarts)
{
    glevo_gp_data *d = nguyen1();
    char path[128];
    snprintf(path, sizeof path, "/tmp/glevo-gp-restarts-%ld.ckpt", (long)getpid());
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    p.generations = RESTART_GENERATIONS;
    glevo_gp *straight = run_and_save_half_way(&p, d, path), *resumed = NULL;
    ck_assert_int_eq(glevo_gp_load(path, NULL, d, &resumed), GLEVO_OK);
    int early = 0, late = 0;
    for (const glevo_gp *s = resumed->next_search; s; s = s->next_search) early += s->restarts;
    ck_assert_int_eq(glevo_gp_step(resumed, RESTART_GENERATIONS), GLEVO_OK);
    for (const glevo_gp *s = resumed->next_search; s; s = s->next_search) late += s->restarts;
    ck_assert_msg(early > 0 && late > early, "restarts %d before the save, %d in all", early, late);
    assert_same_searches(straight, resumed, "resumed");
    glevo_gp_destroy(straight), glevo_gp_destroy(resumed);
    unlink(path);
    glevo_gp_data_destroy(d);
}
END_TEST

/* Every GPU engine runs every search as the CPU does, restarts included (no fitting: bit for
 * bit everywhere; pop 100 x 24, so that restarts are due from generation 10). */
START_TEST(test_gpu_backends_give_the_cpu_run)
{
    glevo_gp_data *d = nguyen1();
    glevo_gp_params p = portfolio_params(GLEVO_BACKEND_CPU);
    p.pop = 100, p.generations = 24, p.const_opt_iters = GLEVO_ZERO;
    glevo_gp *want = NULL;
    ck_assert_int_eq(glevo_gp_create(&p, d, &want), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(want, p.generations), GLEVO_OK);
    int restarts = 0;
    for (const glevo_gp *s = want->next_search; s; s = s->next_search) restarts += s->restarts;
    ck_assert_msg(restarts > 0, "no restart: the test shows nothing");
    glevo_gp_result wr;
    ck_assert_int_eq(glevo_gp_result_get(want, &wr), GLEVO_OK);
    for (int e = 0; e < GP_ENGINE_COUNT; ++e) {
        if (gp_engines[e].params.backend == GLEVO_BACKEND_CPU) continue;
        testutil_context();
        if (!gp_engine_available(&gp_engines[e].params)) continue;
        glevo_gp_params g = p;
        g.backend = gp_engines[e].params.backend, g.eval = gp_engines[e].params;
        glevo_gp *got = NULL;
        ck_assert_int_eq(glevo_gp_create(&g, d, &got), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_step(got, p.generations), GLEVO_OK);
        glevo_gp_result gr;
        ck_assert_int_eq(glevo_gp_result_get(got, &gr), GLEVO_OK);
        ck_assert_msg(!strcmp(gr.best_sexpr, wr.best_sexpr) && gr.best_error == wr.best_error &&
                          gr.best_search == wr.best_search,
                      "%s: %s (%.17g) vs %s (%.17g)", gp_engines[e].name, gr.best_sexpr,
                      gr.best_error, wr.best_sexpr, wr.best_error);
        /* The GPU's fitness, and the record of each search's best as the CPU's (which takes
         * in every generation's; the GPU's waits until a restart may be due). */
        for (glevo_gp *s = got; s; s = s->next_search) {
            ck_assert_int_eq(gp_fitness_sync(s), GLEVO_OK);
            ck_assert_int_eq(gp_restart_take(s, s->generation - 1), GLEVO_OK);
        }
        assert_same_searches(want, got, gp_engines[e].name);
        glevo_gp_result_free(&gr);
        glevo_gp_destroy(got);
    }
    glevo_gp_result_free(&wr);
    glevo_gp_destroy(want);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_portfolio");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_defaults_and_refusals);
    tcase_add_test(tc, test_portfolio_is_its_searches);
    tcase_add_test(tc, test_checkpoint_resumes_every_search);
    tcase_add_test(tc, files_before_the_portfolio_resume_as_one_search);
    tcase_add_test(tc, files_of_two_searches_resume_as_two);
    tcase_add_test(tc, helpers_restart_when_they_stop_improving);
    tcase_add_test(tc, checkpoints_resume_restarts);
    tcase_add_test(tc, test_gpu_backends_give_the_cpu_run);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
