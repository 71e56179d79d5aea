/* Cellular GA checkpoints (src/cga/checkpoint.c): N generations straight against N/2, save,
 * a new engine loaded from the file, N/2 more: population, fitness, best-so-far and counts
 * equal bit for bit on every backend; a fragment checkpoint resumed on the CPU (and the
 * reverse) where the engines agree exactly; changed parameters refused naming the field;
 * a writer killed mid-write leaves the previous checkpoint loadable. */
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "glevo/cga.h"
#include "testutil.h"

typedef struct state {
    float *genes, *fitness;
    glevo_cga_best best;
    long long generation, evaluations;
    size_t n, cells;
} state;

static void capture(glevo_cga *cga, state *s)
{
    const glevo_cga_params *p = glevo_cga_params_of(cga);
    s->n = glevo_cga_gene_floats(cga);
    s->cells = (size_t)p->width * p->height;
    s->genes = malloc(s->n * sizeof(float));
    s->fitness = malloc(s->cells * sizeof(float));
    ck_assert(glevo_cga_read_population(cga, s->genes, s->fitness) == GLEVO_OK);
    ck_assert(glevo_cga_best_get(cga, &s->best) == GLEVO_OK);
    s->generation = glevo_cga_generation(cga);
    s->evaluations = glevo_cga_evaluations(cga);
}

static void release(state *s) { free(s->genes), free(s->fitness); }

static void assert_same(const state *a, const state *b, const char *what)
{
    ck_assert_msg(a->generation == b->generation && a->evaluations == b->evaluations,
                  "%s: generation %lld/%lld, evaluations %lld/%lld", what, a->generation,
                  b->generation, a->evaluations, b->evaluations);
    ck_assert_int_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; ++i)
        ck_assert_msg(a->genes[i] == b->genes[i], "%s: gene float %zu %.9g vs %.9g", what, i,
                      a->genes[i], b->genes[i]);
    for (size_t i = 0; i < a->cells; ++i)
        ck_assert_msg(a->fitness[i] == b->fitness[i], "%s: fitness %zu %.9g vs %.9g", what, i,
                      a->fitness[i], b->fitness[i]);
    ck_assert_msg(!memcmp(&a->best, &b->best, sizeof a->best), "%s: best %.9g (gen %lld) vs %.9g "
                  "(gen %lld)", what, a->best.fitness, a->best.generation, b->best.fitness,
                  b->best.generation);
}

static char *tmp_path(const char *name)
{
    static char path[8][256];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "/tmp/glevo-cga-ckpt-%ld-%s", (long)getpid(), name);
    return p;
}

typedef struct run_case {
    const char *problem;
    int dim, width, height;
    glevo_backend backend;
    glevo_rng_mode rng;
    glevo_cga_mutation mutation;
    glevo_cga_algorithm algorithm;
} run_case;

static const run_case cases[] = {
    {"camel", 2, 14, 5, GLEVO_BACKEND_FRAGMENT, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT, 0},
    {"rastrigin", 6, 10, 7, GLEVO_BACKEND_FRAGMENT, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_SKIP, 0},
    {"camel", 2, 14, 5, GLEVO_BACKEND_COMPUTE, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT, 0},
    {"ackley", 7, 18, 9, GLEVO_BACKEND_COMPUTE, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_SKIP, 0},
    {"schwefel", 5, 12, 3, GLEVO_BACKEND_CPU, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT, 0},
    {"sphere", 9, 8, 7, GLEVO_BACKEND_CPU, GLEVO_RNG_TEXTURE, GLEVO_MUTATION_SKIP, 0},
    {"camel", 2, 16, 4, GLEVO_BACKEND_CPU, GLEVO_RNG_PHILOX, GLEVO_MUTATION_PER_BIT, GLEVO_CGA_STANDARD},
};

static glevo_cga_params params_of(const run_case *k, uint32_t seed)
{
    return (glevo_cga_params){.problem = glevo_problem_find(k->problem), .dim = k->dim,
                              .width = k->width, .height = k->height, .pc = 0.7, .pm = 0.02,
                              .rng = k->rng, .mutation = k->mutation, .algorithm = k->algorithm,
                              .backend = k->backend, .seed = seed, .report_every = 3};
}

/* N straight against N/2 + save + load into a new engine + N/2. */
START_TEST(resumed_run_ends_where_the_straight_one_does)
{
    const run_case *k = &cases[_i];
    if (k->backend != GLEVO_BACKEND_CPU) testutil_context();
    uint32_t seed = 4100u + (uint32_t)_i;
    glevo_cga_params p = params_of(k, seed);
    const int N = 12;
    glevo_cga *straight, *first, *resumed;
    ck_assert_msg(glevo_cga_create(&p, &straight) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_cga_step(straight, N) == GLEVO_OK);
    state want;
    capture(straight, &want);
    glevo_cga_destroy(straight);

    ck_assert(glevo_cga_create(&p, &first) == GLEVO_OK);
    ck_assert(glevo_cga_step(first, N / 2) == GLEVO_OK);
    const char *path = tmp_path("resume.ckpt");
    glevo_checkpoint_extra extra = {.trace_bytes = 1234, .goal = N};
    ck_assert_msg(glevo_cga_save(first, path, &extra) == GLEVO_OK, "%s", glevo_last_error());
    state half;
    capture(first, &half);
    glevo_cga_destroy(first);

    ck_assert_msg(glevo_cga_load(path, NULL, &resumed) == GLEVO_OK, "%s", glevo_last_error());
    state loaded;
    capture(resumed, &loaded);
    assert_same(&half, &loaded, "just loaded");
    ck_assert(glevo_cga_params_of(resumed)->backend == k->backend);
    ck_assert(glevo_cga_step(resumed, N - N / 2) == GLEVO_OK);
    state got;
    capture(resumed, &got);
    char what[96];
    snprintf(what, sizeof what, "case %d (%s, %s, seed %u)", _i, k->problem,
             glevo_backend_name(k->backend), seed);
    assert_same(&want, &got, what);
    glevo_cga_destroy(resumed);

    glevo_checkpoint_info info;
    ck_assert_msg(glevo_checkpoint_info_read(path, &info) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_str_eq(info.algorithm, "cga");
    ck_assert_str_eq(info.backend, glevo_backend_name(k->backend));
    ck_assert(info.generation == N / 2 && info.evaluations == half.evaluations);
    ck_assert(info.extra.trace_bytes == 1234 && info.extra.goal == N && info.format_version == 1);
    ck_assert(k->backend == GLEVO_BACKEND_CPU ? !strcmp(info.renderer, "cpu")
                                              : strcmp(info.renderer, "cpu") != 0);
    release(&want), release(&half), release(&loaded), release(&got);
    unlink(path);
}
END_TEST

/* The engines agree exactly on camel and sphere (test_cga_compute.c), so a checkpoint moves
 * between them: fragment -> cpu, cpu -> fragment, compute -> cpu. */
START_TEST(checkpoint_moves_between_backends)
{
    testutil_context();
    static const struct { const char *problem; int dim; glevo_backend from, to; } moves[] = {
        {"camel", 2, GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_CPU},
        {"sphere", 5, GLEVO_BACKEND_CPU, GLEVO_BACKEND_FRAGMENT},
        {"sphere", 5, GLEVO_BACKEND_COMPUTE, GLEVO_BACKEND_CPU},
    };
    for (size_t m = 0; m < sizeof moves / sizeof moves[0]; ++m) {
        glevo_cga_params p = {.problem = glevo_problem_find(moves[m].problem), .dim = moves[m].dim,
                              .width = 10, .height = 6, .pm = 0.03, .seed = 77 + (uint32_t)m,
                              .backend = moves[m].to};
        glevo_cga *straight, *first, *resumed;
        ck_assert(glevo_cga_create(&p, &straight) == GLEVO_OK);
        ck_assert(glevo_cga_step(straight, 10) == GLEVO_OK);
        state want;
        capture(straight, &want);
        glevo_cga_destroy(straight);
        p.backend = moves[m].from;
        ck_assert(glevo_cga_create(&p, &first) == GLEVO_OK);
        ck_assert(glevo_cga_step(first, 4) == GLEVO_OK);
        const char *path = tmp_path("move.ckpt");
        ck_assert(glevo_cga_save(first, path, NULL) == GLEVO_OK);
        glevo_cga_destroy(first);
        glevo_cga_params change = {.backend = (glevo_backend)GLEVO_LITERAL((int)moves[m].to)};
        ck_assert_msg(glevo_cga_load(path, &change, &resumed) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(glevo_cga_params_of(resumed)->backend == moves[m].to);
        ck_assert(glevo_cga_step(resumed, 6) == GLEVO_OK);
        state got;
        capture(resumed, &got);
        char what[96];
        snprintf(what, sizeof what, "%s %s -> %s", moves[m].problem,
                 glevo_backend_name(moves[m].from), glevo_backend_name(moves[m].to));
        assert_same(&want, &got, what);
        glevo_cga_destroy(resumed);
        release(&want), release(&got);
        unlink(path);
    }
}
END_TEST

/* Run-changing parameters are refused naming the field; safe ones are taken. */
START_TEST(changed_parameters_are_refused_by_name)
{
    glevo_cga_params p = {.problem = glevo_problem_find("schwefel"), .dim = 3, .width = 8,
                          .height = 4, .seed = 5, .backend = GLEVO_BACKEND_CPU};
    glevo_cga *cga;
    ck_assert(glevo_cga_create(&p, &cga) == GLEVO_OK);
    ck_assert(glevo_cga_step(cga, 2) == GLEVO_OK);
    const char *path = tmp_path("params.ckpt");
    ck_assert(glevo_cga_save(cga, path, NULL) == GLEVO_OK);
    glevo_cga_destroy(cga);
    static const struct { glevo_cga_params change; const char *words; } bad[] = {
        {{.dim = 4}, "glevo_cga_params.dim 4 differs from the checkpoint's 3"},
        {{.width = 10}, "glevo_cga_params.width x height 10x4 differs from the checkpoint's 8x4"},
        {{.height = 6}, "glevo_cga_params.width x height 8x6"},
        {{.seed = 6}, "glevo_cga_params.seed 6 differs from the checkpoint's 5"},
        {{.pc = 0.5}, "glevo_cga_params.pc 0.5"},
        {{.pm = GLEVO_ZERO}, "glevo_cga_params.pm 0 differs"},
        {{.bits = 20}, "glevo_cga_params.bits 20"},
        {{.neighbourhood = GLEVO_NEIGHBOURHOOD_MOORE5}, "glevo_cga_params.neighbourhood moore5 "
                                                        "differs from the checkpoint's moore"},
        {{.mutation = GLEVO_MUTATION_SKIP}, "glevo_cga_params.mutation skip"},
        {{.rng = GLEVO_RNG_TEXTURE}, "glevo_cga_params.rng texture"},
        {{.algorithm = GLEVO_CGA_STANDARD}, "glevo_cga_params.algorithm sga"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        glevo_cga_params c = bad[i].change;
        cga = (glevo_cga *)1;
        ck_assert_int_eq(glevo_cga_load(path, &c, &cga), GLEVO_ERR_INVALID);
        ck_assert_ptr_null(cga);
        ck_assert_msg(strstr(glevo_last_error(), bad[i].words), "case %zu: '%s' lacks '%s'", i,
                      glevo_last_error(), bad[i].words);
    }
    glevo_cga_params other = {.problem = glevo_problem_find("sphere")};
    ck_assert_int_eq(glevo_cga_load(path, &other, &cga), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "glevo_cga_params.problem sphere differs"));
    /* The same values as the file's, and the safe ones, are fine. */
    glevo_cga_params same = {.problem = glevo_problem_find("schwefel"), .dim = 3, .width = 8,
                             .height = 4, .seed = 5, .pc = 0.8, .report_every = 7,
                             .neighbourhood = GLEVO_ZERO};
    ck_assert_msg(glevo_cga_load(path, &same, &cga) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert_int_eq(glevo_cga_params_of(cga)->report_every, 7);
    ck_assert(glevo_cga_params_of(cga)->backend == GLEVO_BACKEND_CPU);
    ck_assert_int_eq(glevo_cga_generation(cga), 2);
    glevo_cga_destroy(cga);
    /* Not a cGA checkpoint. */
    const char *text = testutil_write_tmp("generation,best\n");
    ck_assert_int_eq(glevo_cga_load(text, NULL, &cga), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "is not a glevo checkpoint"));
    unlink(path);
}
END_TEST

static void pause_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A child saves over one path again and again and is killed at random moments: the path
 * always holds a complete checkpoint (the previous one until a new one is renamed in). */
START_TEST(killed_writer_leaves_previous_checkpoint)
{
    glevo_cga_params p = {.problem = glevo_problem_find("sphere"), .dim = 8, .width = 512,
                          .height = 256, .seed = 9, .backend = GLEVO_BACKEND_CPU};
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/glevo-kill-%ld", (long)getpid());
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    char target[256];
    snprintf(target, sizeof target, "%s/run.ckpt", dir);
    int mid_write = 0;
    for (int attempt = 0; attempt < 6; ++attempt) {
        int ready[2];
        ck_assert_int_eq(pipe(ready), 0);
        pid_t child = fork();
        ck_assert(child >= 0);
        if (child == 0) {
            close(ready[0]);
            glevo_cga *cga;
            if (glevo_cga_create(&p, &cga) != GLEVO_OK) _exit(3);
            if (glevo_cga_step(cga, 1) != GLEVO_OK) _exit(4);
            if (glevo_cga_save(cga, target, NULL) != GLEVO_OK) _exit(5);
            /* The first checkpoint is complete: say so (an event, not a guess at how long a
             * busy machine takes to get here), then save on until killed. */
            if (write(ready[1], "1", 1) != 1) _exit(6);
            for (;;)
                if (glevo_cga_save(cga, target, NULL) != GLEVO_OK) _exit(5);
        }
        close(ready[1]);
        /* Wait for the child's word (or its end, which reads 0 bytes), up to two minutes;
         * on a failure the child is killed first, so that no writer outlives the test. */
        struct pollfd pfd = {ready[0], POLLIN, 0};
        char byte = 0;
        bool said = poll(&pfd, 1, 120000) == 1 && read(ready[0], &byte, 1) == 1;
        close(ready[0]);
        if (!said) {
            kill(child, SIGKILL);
            waitpid(child, NULL, 0);
        }
        ck_assert_msg(said, "the child wrote no checkpoint within two minutes");
        pause_ms(3 + 7 * attempt);
        kill(child, SIGKILL);
        int status;
        waitpid(child, &status, 0);
        ck_assert(WIFSIGNALED(status));
        char cmd[300], out[1024];
        snprintf(cmd, sizeof cmd, "ls -A %s | grep -c tmp", dir);
        testutil_run(cmd, out, sizeof out);
        mid_write += atoi(out) > 0;
        glevo_cga *cga;
        ck_assert_msg(glevo_cga_load(target, NULL, &cga) == GLEVO_OK, "attempt %d: %s", attempt,
                      glevo_last_error());
        ck_assert(glevo_cga_generation(cga) >= 1);
        glevo_cga_destroy(cga);
        snprintf(cmd, sizeof cmd, "rm -f %s/* %s/.[!.]*", dir, dir);
        testutil_run(cmd, NULL, 0);
    }
    /* The test means something only if some kill landed inside a write. */
    ck_assert_msg(mid_write > 0, "no kill landed during a write");
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_checkpoint");
    TCase *tc = tcase_create("checkpoint");
    tcase_set_timeout(tc, 300);
    /* First, while the process has no GL context (and no driver threads) to fork with. */
    tcase_add_test(tc, killed_writer_leaves_previous_checkpoint);
    tcase_add_loop_test(tc, resumed_run_ends_where_the_straight_one_does, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, checkpoint_moves_between_backends);
    tcase_add_test(tc, changed_parameters_are_refused_by_name);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
