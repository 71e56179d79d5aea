/* The island model over real MPI jobs: this program launches itself under `mpirun -np 3`
 * (argv[1] == "--island": one island per rank, cellular GA on llvmpipe or the CPU) and checks
 * what rank 0 prints: migration carries the best into an island given a bad start, runs are
 * reproducible, the summary adds up, and a failing rank stops every rank with its name and
 * device instead of a hang. Skipped, saying why, when glevo was built without MPI. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#ifndef GLEVO_HAVE_MPI
int main(void)
{
    printf("test_islands_mpi: skipped: glevo was built without MPI (GLEVO_MPI=OFF or "
           "libopenmpi-dev missing)\n");
    return 77;
}
#else
#include "glevo/islands.h"
#include "mpirun.h"

#define GENERATIONS 60
#define BAD_ISLAND 2

/* ---- the MPI side: one island of a scenario ---- */

typedef struct scenario {
    const char *topology, *backend;
    bool bad_start;    /* island 2 starts with every individual in the worst corner */
    int fail_at;       /* > 0: island 1's step fails once it reaches this generation */
    double timeout;
    int hang_at;       /* > 0: island 1 sleeps 30 s at this generation */
    bool stop;         /* with hang_at: island 1 stops itself (SIGSTOP) instead */
    const char *checkpoint, *resume; /* folders: checkpoints every 10 generations, resume */
} scenario;

typedef struct failing {
    glevo_island inner;
    glevo_island_ops ops;
    int fail_at, hang_at;
    bool stop;
} failing;

static failing failing_island;

/* Island 1's engine with a fault injected into step: an error (the GL error a lost device
 * gives) or a hang. */
static glevo_status failing_step(void *a, int generations)
{
    failing *f = a;
    long long gen = f->inner.ops->generation(f->inner.algo);
    if (f->fail_at > 0 && gen >= f->fail_at)
        return glevo_fail(GLEVO_ERR_GL, "injected GL error at generation %lld", gen);
    if (f->hang_at > 0 && gen >= f->hang_at) {
        if (f->stop) raise(SIGSTOP); /* as `kill -STOP`: the job's end kills it */
        sleep(30);
    }
    return f->inner.ops->step(f->inner.algo, generations);
}
#define FORWARD(name, type) \
    static type failing_##name(const void *a) { const failing *f = a; return f->inner.ops->name(f->inner.algo); }
FORWARD(generation, long long)
FORWARD(evaluations, long long)
FORWARD(size, int)
FORWARD(dim, int)
FORWARD(maximize, bool)
static bool failing_done(void *a) { failing *f = a; return f->inner.ops->done(f->inner.algo); }
static glevo_status failing_best(void *a, double *fit, double *x)
{
    failing *f = a;
    return f->inner.ops->best(f->inner.algo, fit, x);
}
static glevo_status failing_fitness(void *a, float *fit)
{
    failing *f = a;
    return f->inner.ops->fitness(f->inner.algo, fit);
}
static glevo_status failing_read(void *a, int n, const int *idx, double *g)
{
    failing *f = a;
    return f->inner.ops->read(f->inner.algo, n, idx, g);
}
static glevo_status failing_write(void *a, int n, const int *idx, const double *g, const double *fit)
{
    failing *f = a;
    return f->inner.ops->write(f->inner.algo, n, idx, g, fit);
}

static glevo_status failing_save(void *a, const char *path)
{
    failing *f = a;
    return f->inner.ops->save(f->inner.algo, path);
}

static glevo_island with_fault(glevo_island inner, int fail_at, int hang_at)
{
    failing *f = &failing_island;
    f->inner = inner;
    f->fail_at = fail_at;
    f->hang_at = hang_at;
    f->ops = (glevo_island_ops){.family = "cga", .step = failing_step, .done = failing_done,
                                .best = failing_best, .generation = failing_generation,
                                .evaluations = failing_evaluations, .size = failing_size,
                                .dim = failing_dim, .maximize = failing_maximize,
                                .fitness = failing_fitness, .read = failing_read,
                                .write = failing_write, .save = failing_save};
    return (glevo_island){&f->ops, f};
}

static bool every_ten(void *user, long long generation)
{
    (void)user;
    return generation % 10 == 0;
}

static int island_main(const scenario *sc)
{
    if (glevo_islands_init(NULL, NULL)) return 3;
    glevo_islands_params ip = {.topology = (glevo_topology)glevo_topology_parse(sc->topology),
                               .migrants = 2, .migrate_every = 10,
                               .sync_timeout = sc->timeout};
    glevo_islands *is;
    if (glevo_islands_create(&ip, &is)) {
        printf("create failed: %s\n", glevo_last_error());
        glevo_islands_finalize();
        return 1;
    }
    int rank = glevo_islands_rank(is);
    glevo_backend backend = (glevo_backend)glevo_backend_parse(sc->backend);
    glevo_context *ctx = NULL;
    glevo_status st = GLEVO_OK;
    if (backend != GLEVO_BACKEND_CPU) {
        int device = glevo_islands_device(is, NULL, glevo_egl_device_count());
        st = glevo_context_create(&(glevo_context_params){.device_plus_one = device + 1}, &ctx);
    }
    /* No mutation: an island whose individuals are all alike cannot move by itself. */
    glevo_cga_params p = {.problem = glevo_problem_find("rastrigin"), .dim = 4, .width = 8,
                          .height = 6, .pm = GLEVO_ZERO, .backend = backend,
                          .report_every = 10, .seed = glevo_islands_seed(is, 7)};
    glevo_cga *cga = NULL;
    char path[4096];
    if (sc->resume) {
        glevo_status read = glevo_islands_resume(is, sc->resume, path, sizeof path, NULL);
        if (!st) st = read;
        if (!st) st = glevo_cga_load(path, NULL, &cga);
    } else if (!st) {
        st = glevo_cga_create(&p, &cga);
    }
    if (!st && sc->bad_start && rank == BAD_ISLAND && !sc->resume) {
        /* Every gene 0: x = -5.12 everywhere, the same individual 48 times, which crossover
         * cannot move. */
        float *genes = calloc(glevo_cga_gene_floats(cga), sizeof(float));
        st = glevo_cga_write_population(cga, genes);
        free(genes);
    }
    glevo_island island = cga ? glevo_island_cga(cga) : (glevo_island){0};
    failing_island.stop = sc->stop;
    if (cga && rank == 1 && (sc->fail_at || sc->hang_at))
        island = with_fault(island, sc->fail_at, sc->hang_at);
    if (!st) st = glevo_islands_attach(is, island);
    glevo_islands_state state;
    glevo_status all = glevo_islands_sync(is, st, false, NAN, &state);
    glevo_islands_summary sum = {0};
    glevo_islands_run run = {.generations = GENERATIONS, .report_every = 5,
                             .checkpoint_dir = sc->checkpoint, .checkpoint_every = 10,
                             .checkpoint_due = every_ten, .final_checkpoint = true};
    if (!all) all = glevo_islands_evolve(is, &run, &sum);
    int code = 0;
    if (all) {
        /* Every rank says what it knows: all must name the same failing island. */
        printf("rank %d stopped: %s\n", rank, glevo_last_error());
        code = 1;
    } else if (rank == 0) {
        for (int i = 0; i < sum.count; ++i)
            printf("island %d best %.9g immigrants %lld evaluations %lld generations %lld\n", i,
                   sum.islands[i].best_fitness, sum.islands[i].immigrants,
                   sum.islands[i].evaluations, sum.islands[i].generations);
        printf("global best %.9g island %d migrations %lld x %.9g %.9g %.9g %.9g\n",
               sum.best_fitness, sum.best_island, sum.migrations, sum.best_x[0], sum.best_x[1],
               sum.best_x[2], sum.best_x[3]);
    }
    fflush(stdout);
    if (glevo_islands_broken(is)) glevo_islands_abort(2);
    glevo_islands_summary_free(&sum);
    glevo_cga_destroy(cga);
    glevo_context_destroy(ctx);
    glevo_islands_destroy(is);
    glevo_islands_finalize();
    return code;
}

/* ---- the test side: launch and read rank 0's lines ---- */

static double cli_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct outcome {
    int code;
    char text[16384];
    double best[3], global;
    long long immigrants[3], evaluations[3], migrations;
} outcome;

static void launch(const char *args, outcome *o)
{
    char self[4096], cmd[8192];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    ck_assert(n > 0);
    self[n] = '\0';
    snprintf(cmd, sizeof cmd, "%s %s --island %s 2>&1", mpirun_prefix(3, 120), self, args);
    memset(o, 0, sizeof *o);
    o->code = testutil_run(cmd, o->text, sizeof o->text);
    for (int i = 0; i < 3; ++i) o->best[i] = NAN;
    o->global = NAN;
    for (const char *line = o->text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int i;
        double b;
        long long imm, ev, gens;
        int island;
        if (sscanf(line, "island %d best %lf immigrants %lld evaluations %lld generations %lld", &i,
                   &b, &imm, &ev, &gens) == 5 && i >= 0 && i < 3) {
            o->best[i] = b;
            o->immigrants[i] = imm;
            o->evaluations[i] = ev;
            ck_assert_msg(gens == GENERATIONS, "island %d ran %lld generations:\n%s", i, gens, o->text);
        }
        sscanf(line, "global best %lf island %d migrations %lld", &o->global, &island, &o->migrations);
    }
}

/* What the scenario names on the command line of the island processes. */
static int parse_scenario(int argc, char **argv, scenario *sc)
{
    *sc = (scenario){.topology = "ring", .backend = "fragment"};
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "topology")) sc->topology = argv[i + 1];
        else if (!strcmp(argv[i], "backend")) sc->backend = argv[i + 1];
        else if (!strcmp(argv[i], "bad-start")) sc->bad_start = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "fail-at")) sc->fail_at = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "hang-at")) sc->hang_at = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "stop-at")) sc->hang_at = atoi(argv[i + 1]), sc->stop = true;
        else if (!strcmp(argv[i], "timeout")) sc->timeout = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "checkpoint")) sc->checkpoint = argv[i + 1];
        else if (!strcmp(argv[i], "resume")) sc->resume = argv[i + 1];
        else return 2;
    }
    return 0;
}

/* Every island gives the same numbers alone: the bad island's start is all one individual at
 * x = -5.12 (f = 115.7 in four dimensions), which it cannot leave without mutation. */
#define BAD_START_BEST 115.6989

START_TEST(migration_rescues_an_island_with_a_bad_start)
{
    outcome alone, ring;
    launch("backend cpu topology unconnected bad-start 1", &alone);
    ck_assert_msg(alone.code == 0, "unconnected run failed:\n%s", alone.text);
    launch("backend cpu topology ring bad-start 1", &ring);
    ck_assert_msg(ring.code == 0, "ring run failed:\n%s", ring.text);
    /* Alone, the bad island stays where it started; in the ring it accepts its neighbours'
     * best and ends among them. */
    ck_assert_msg(alone.immigrants[BAD_ISLAND] == 0 && alone.migrations == 0,
                  "unconnected islands migrated:\n%s", alone.text);
    ck_assert_msg(fabs(alone.best[BAD_ISLAND] - BAD_START_BEST) < 1e-3,
                  "the bad island moved alone:\n%s", alone.text);
    ck_assert_msg(alone.best[0] < BAD_START_BEST / 4 && alone.best[1] < BAD_START_BEST / 4,
                  "the good islands are not better than the bad start:\n%s", alone.text);
    ck_assert_msg(ring.immigrants[BAD_ISLAND] > 0, "island 2 accepted no immigrant:\n%s",
                  ring.text);
    ck_assert_msg(ring.best[BAD_ISLAND] < BAD_START_BEST / 4,
                  "island 2 best %.6g in the ring:\n%s", ring.best[BAD_ISLAND], ring.text);
    ck_assert_msg(ring.migrations == GENERATIONS / 10 - 1, "%lld migrations:\n%s",
                  ring.migrations, ring.text);
    /* The migration's extra fitness pass is counted: 48 cells x (60 generations + 5
     * migrations); unconnected islands run none. */
    ck_assert_msg(ring.evaluations[0] == 48LL * (GENERATIONS + 5), "%lld evaluations",
                  ring.evaluations[0]);
    ck_assert_msg(alone.evaluations[0] == 48LL * GENERATIONS, "%lld evaluations unconnected",
                  alone.evaluations[0]);
    double lowest = fmin(ring.best[0], fmin(ring.best[1], ring.best[2]));
    ck_assert_msg(ring.global == lowest, "global best %.9g, lowest island %.9g", ring.global,
                  lowest);
}
END_TEST

/* On the GPU: the same rescue, the same result twice, and both drivers migrating the same
 * individuals (their populations are equal bit for bit). */
START_TEST(gpu_islands_rescue_repeat_and_agree)
{
    outcome fragment, again, compute;
    launch("backend fragment topology ring bad-start 1", &fragment);
    launch("backend fragment topology ring bad-start 1", &again);
    launch("backend compute topology ring bad-start 1", &compute);
    ck_assert_msg(fragment.code == 0 && again.code == 0 && compute.code == 0,
                  "runs failed:\n%s\n%s\n%s", fragment.text, again.text, compute.text);
    ck_assert_msg(fragment.immigrants[BAD_ISLAND] > 0 &&
                      fragment.best[BAD_ISLAND] < BAD_START_BEST / 4,
                  "island 2 was not rescued:\n%s", fragment.text);
    ck_assert_msg(!strcmp(fragment.text, again.text), "two runs differ:\n%s\n---\n%s",
                  fragment.text, again.text);
    ck_assert_msg(!strcmp(fragment.text, compute.text),
                  "fragment and compute differ:\n%s\n---\n%s", fragment.text, compute.text);
}
END_TEST

START_TEST(a_failing_rank_stops_every_rank_with_its_name)
{
    outcome o;
    launch("backend cpu topology ring fail-at 20", &o);
    ck_assert_msg(o.code != 0, "the job succeeded:\n%s", o.text);
    for (int r = 0; r < 3; ++r) {
        char want[128];
        snprintf(want, sizeof want, "rank %d stopped: island 1 (rank 1, no GL device) failed: "
                 "injected GL error at generation 20", r);
        ck_assert_msg(strstr(o.text, want), "missing '%s':\n%s", want, o.text);
    }
}
END_TEST

/* Checkpoints every 10 generations; island 1 fails at 25: the job stops, the checkpoint of
 * generation 20 is whole (every island's file and the manifest), and resuming from it ends
 * where the run without a failure ends, migrations and immigrants included. */
START_TEST(the_last_checkpoint_of_a_failed_job_resumes_exactly)
{
    char dir[64] = "/tmp/glevo-islands-ckpt-XXXXXX", args[256], file[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    outcome whole, failed, resumed;
    launch("backend cpu topology ring bad-start 1", &whole);
    ck_assert_msg(whole.code == 0, "%s", whole.text);
    snprintf(args, sizeof args, "backend cpu topology ring bad-start 1 fail-at 25 checkpoint %s", dir);
    launch(args, &failed);
    ck_assert_msg(failed.code != 0 && strstr(failed.text, "island 1 (rank 1, no GL device) failed"),
                  "%s", failed.text);
    snprintf(file, sizeof file, "%s/manifest.txt", dir);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    char manifest[1024] = "";
    ck_assert(fread(manifest, 1, sizeof manifest - 1, f) > 0);
    fclose(f);
    ck_assert_msg(strstr(manifest, "\ngeneration 20\n") && strstr(manifest, "\nmigrations 1\n"),
                  "%s", manifest);
    for (int i = 0; i < 3; ++i) {
        snprintf(file, sizeof file, "%s/island-%04d-g20.ckpt", dir, i);
        ck_assert_msg(access(file, R_OK) == 0, "%s is missing", file);
        snprintf(file, sizeof file, "%s/island-%04d-g10.ckpt", dir, i);
        ck_assert_msg(access(file, F_OK) != 0, "%s was left behind", file);
    }
    snprintf(args, sizeof args, "backend cpu topology ring resume %s", dir);
    launch(args, &resumed);
    ck_assert_msg(resumed.code == 0, "%s", resumed.text);
    ck_assert_msg(!strcmp(whole.text, resumed.text), "resumed run differs:\n%s\n---\n%s",
                  whole.text, resumed.text);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(a_hung_rank_times_out_instead_of_hanging)
{
    outcome o;
    double start = cli_now();
    launch("backend cpu topology ring hang-at 20 timeout 2", &o);
    double took = cli_now() - start;
    ck_assert_msg(o.code != 0, "the job succeeded:\n%s", o.text);
    /* The others name the island that did not come. */
    ck_assert_msg(strstr(o.text, "island 1 (rank 1) did not reach the status check within 2 s"),
                  "%s", o.text);
    ck_assert_msg(took < 25, "the job took %.1f s: the hung rank was waited for", took);
}
END_TEST

/* A stopped rank (kill -STOP) never answers: the job ends with an error naming it. */
START_TEST(a_stopped_rank_ends_the_job)
{
    outcome o;
    /* A hang instead would end at mpirun's `timeout`, without the message. */
    launch("backend cpu topology ring stop-at 20 timeout 2", &o);
    ck_assert_msg(o.code != 0, "the job succeeded:\n%s", o.text);
    ck_assert_msg(strstr(o.text, "island 1 (rank 1) did not reach the status check within 2 s"),
                  "%s", o.text);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--island")) {
        scenario sc;
        if (parse_scenario(argc, argv, &sc)) return 2;
        return island_main(&sc);
    }
    Suite *s = suite_create("islands_mpi");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, migration_rescues_an_island_with_a_bad_start);
    tcase_add_test(tc, gpu_islands_rescue_repeat_and_agree);
    tcase_add_test(tc, a_failing_rank_stops_every_rank_with_its_name);
    tcase_add_test(tc, the_last_checkpoint_of_a_failed_job_resumes_exactly);
    tcase_add_test(tc, a_hung_rank_times_out_instead_of_hanging);
    tcase_add_test(tc, a_stopped_rank_ends_the_job);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
#endif
