/* Long runs on the command line (issue 14): for each family and backend, N generations in
 * one process against N/2, a checkpoint, and a new process resuming to N, compared entry by
 * entry in the final checkpoints (population, fitness, best, counters, random state) and in
 * the JSON; SIGTERM finishes the generation, writes the checkpoint and exits 143, and the run
 * resumes to where a straight one ends; a second signal exits at once without touching the
 * checkpoint; --trace resumes where the checkpoint left it; bad checkpoints and changed
 * parameters are one line, exit 2, nothing overwritten. */
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/checkpoint.h"
#include "glevo/checkpoint.h"
#include "testutil.h"

static char dir[64];
static char out[1 << 16];

static const char *path_of(const char *name)
{
    static char paths[8][128];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static int glevo(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int glevo(const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    /* cd in this shell (not in a background job's), every output of the line captured. */
    snprintf(cmd, sizeof cmd, "cd %s || exit 99; { %s %s; } 2>&1", dir, testutil_cli(), args);
    return testutil_run(cmd, out, sizeof out);
}

/* Entries that are timings or about the file itself, not the run. */
static bool timing(const char *name)
{
    return !strcmp(name, "meta.created") || strstr(name, "seconds") || strstr(name, "_ms") ||
           !strcmp(name, "front.goal") || !strcmp(name, "front.trace_bytes");
}

/* Two checkpoints hold the same run: every entry but timings, byte for byte. */
static void assert_same_state(const char *a, const char *b, const char *what)
{
    ckpt_reader *ra, *rb;
    ck_assert_msg(ckpt_read_file(path_of(a), NULL, &ra) == GLEVO_OK, "%s: %s", what, glevo_last_error());
    ck_assert_msg(ckpt_read_file(path_of(b), NULL, &rb) == GLEVO_OK, "%s: %s", what, glevo_last_error());
    int compared = 0;
    for (int i = 0; i < ckpt_reader_count(ra); ++i) {
        ckpt_type t;
        size_t n;
        const char *name = ckpt_entry_name(ra, i, &t, &n);
        if (timing(name)) continue;
        size_t bytes = n * (ckpt_type_size(t) ? ckpt_type_size(t) : 1) + 1;
        uint8_t *x = calloc(1, bytes), *y = calloc(1, bytes);
        if (t == CKPT_STR) {
            const char *sa, *sb;
            ck_assert(ckpt_get_str(ra, name, &sa) == GLEVO_OK);
            ck_assert_msg(ckpt_get_str(rb, name, &sb) == GLEVO_OK, "%s: %s", what, glevo_last_error());
            ck_assert_msg(!strcmp(sa, sb), "%s: %s '%s' vs '%s'", what, name, sa, sb);
        } else if (t == CKPT_I64 || t == CKPT_F64) {
            long long va = 0, vb = 0;
            if (t == CKPT_I64) {
                ck_assert(ckpt_get_i64(ra, name, &va) == GLEVO_OK && ckpt_get_i64(rb, name, &vb) == GLEVO_OK);
            } else {
                ck_assert(ckpt_get_f64(ra, name, (double *)&va) == GLEVO_OK &&
                          ckpt_get_f64(rb, name, (double *)&vb) == GLEVO_OK);
            }
            ck_assert_msg(va == vb, "%s: %s differs", what, name);
        } else {
            ck_assert(ckpt_get_array(ra, name, t, x, n) == GLEVO_OK);
            ck_assert_msg(ckpt_get_array(rb, name, t, y, n) == GLEVO_OK, "%s: %s", what, glevo_last_error());
            ck_assert_msg(!memcmp(x, y, bytes), "%s: %s differs", what, name);
        }
        free(x), free(y);
        compared++;
    }
    ck_assert_int_eq(ckpt_reader_count(ra), ckpt_reader_count(rb));
    ck_assert_int_gt(compared, 10);
    ckpt_reader_destroy(ra), ckpt_reader_destroy(rb);
}

/* A JSON field's text ("best_fitness":...), for comparing two runs' reports. */
static void json_field(const char *json, const char *key, char *value, size_t size)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(json, k);
    ck_assert_msg(p, "no %s in %s", key, json);
    p += strlen(k);
    size_t n = strcspn(p, ",}");
    snprintf(value, size, "%.*s", (int)n, p);
}

static void assert_same_json(const char *a, const char *b, const char *what)
{
    static const char *const keys[] = {"best_fitness", "evaluations", "generations"};
    for (int i = 0; i < 3; ++i) {
        char va[128], vb[128];
        json_field(a, keys[i], va, sizeof va);
        json_field(b, keys[i], vb, sizeof vb);
        ck_assert_msg(!strcmp(va, vb), "%s: %s %s vs %s", what, keys[i], va, vb);
    }
}

typedef struct family_case {
    const char *name;
    const char *args;   /* the run's options */
    const char *length; /* the option that sets how far it runs, %d for the value */
    int n;
} family_case;

static const family_case families[] = {
    {"cga fragment", "cga --grid 16x6 --problem camel --pm 0.03 --report-every 3 --backend fragment", "--generations %d", 12},
    {"cga compute", "cga --grid 16x6 --problem rastrigin --dim 5 --backend compute --report-every 3", "--generations %d", 12},
    {"cga cpu", "cga --grid 16x6 --problem schwefel --dim 3 --backend cpu --rng texture", "--generations %d", 12},
    {"de fragment", "de --dim 6 --pop 13 --problem rastrigin --backend fragment", "--max-evals %d", 13 * 21},
    {"de compute", "de --dim 6 --pop 13 --strategy best1bin --backend compute", "--max-evals %d", 13 * 21},
    {"de cpu", "de --dim 6 --pop 13 --backend cpu --strategy rand1exp", "--max-evals %d", 13 * 21},
    {"gp fragment", "gp --data gp.csv --pop 40 --max-size 20 --backend fragment", "--generations %d", 8},
    {"gp cpu", "gp --data gp.csv --pop 40 --max-size 20 --backend cpu --threads 1", "--generations %d", 8},
    {"dsmga fragment", "dsmga --problem trap --ell 40 --pop 30 --stall 4 --backend fragment", "--max-gens %d", 6},
    {"dsmga compute", "dsmga --problem spin --ell 36 --pop 30 --model lossy --stall 4 --backend compute", "--max-gens %d", 6},
    {"dsmga cpu", "dsmga --problem ftrap --ell 42 --pop 30 --stall 4 --backend cpu", "--max-gens %d", 6},
};

static void write_gp_data(void)
{
    FILE *f = fopen(path_of("gp.csv"), "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "a,b,y\n");
    for (int i = 0; i < 29; ++i) {
        double a = (i * 7 % 29) / 14.5 - 1.0, b = (i * 11 % 29) / 14.5 - 1.0;
        fprintf(f, "%.6f,%.6f,%.6f\n", a, b, a * a - b + 0.25);
    }
    fclose(f);
}

START_TEST(half_checkpoint_resume_ends_where_straight_run_ends)
{
    const family_case *k = &families[_i];
    write_gp_data();
    char len_all[64], len_half[64];
    /* DE runs by evaluations: half its generations (the first evaluation counts one). */
    int half = !strncmp(k->name, "de", 2) ? k->n / 13 / 2 * 13 + 13 : k->n / 2;
    snprintf(len_all, sizeof len_all, k->length, k->n);
    snprintf(len_half, sizeof len_half, k->length, half);
    static char straight[sizeof out], resumed[sizeof out];
    int rc = glevo("%s %s --json --quiet --checkpoint all.ckpt", k->args, len_all);
    ck_assert_msg(rc == 0, "%s: straight run exit %d: %s", k->name, rc, out);
    snprintf(straight, sizeof straight, "%s", out);
    rc = glevo("%s %s --json --quiet --checkpoint half.ckpt", k->args, len_half);
    ck_assert_msg(rc == 0, "%s: half run exit %d: %s", k->name, rc, out);
    /* A new process: parameters from the checkpoint, only the length typed again. */
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%.*s", (int)strcspn(k->args, " "), k->args);
    rc = glevo("%s %s--resume half.ckpt %s --json --quiet --checkpoint end.ckpt", cmd,
               strcmp(cmd, "gp") ? "" : "--data gp.csv ", len_all);
    ck_assert_msg(rc == 0, "%s: resumed run exit %d: %s", k->name, rc, out);
    snprintf(resumed, sizeof resumed, "%s", out);
    ck_assert_msg(strstr(resumed, "\"resumed_from\":"), "%s", resumed);
    assert_same_json(straight, resumed, k->name);
    assert_same_state("all.ckpt", "end.ckpt", k->name);
}
END_TEST

/* The fragment and CPU engines agree exactly on camel: a fragment checkpoint goes on on the
 * CPU, and the reverse, ending where a straight run on the other backend does. */
START_TEST(checkpoint_moves_between_backends)
{
    const char *args = "cga --grid 12x4 --problem camel --pm 0.04 --report-every 2";
    ck_assert_int_eq(glevo("%s --generations 8 --backend cpu --quiet --checkpoint cpu_all.ckpt", args), 0);
    ck_assert_int_eq(glevo("%s --generations 4 --backend fragment --quiet --checkpoint frag_half.ckpt", args), 0);
    ck_assert_msg(glevo("cga --resume frag_half.ckpt --backend cpu --generations 8 --quiet "
                        "--checkpoint moved.ckpt") == 0, "%s", out);
    assert_same_state("cpu_all.ckpt", "moved.ckpt", "fragment -> cpu");
    ck_assert_int_eq(glevo("%s --generations 8 --backend fragment --quiet --checkpoint frag_all.ckpt", args), 0);
    ck_assert_int_eq(glevo("%s --generations 4 --backend cpu --quiet --checkpoint cpu_half.ckpt", args), 0);
    ck_assert_int_eq(glevo("cga --resume cpu_half.ckpt --backend fragment --generations 8 --quiet "
                           "--checkpoint moved2.ckpt"), 0);
    assert_same_state("frag_all.ckpt", "moved2.ckpt", "cpu -> fragment");
}
END_TEST

static long long file_size(const char *name)
{
    struct stat st;
    return stat(path_of(name), &st) == 0 ? (long long)st.st_size : -1;
}

/* SIGTERM: the generation finishes, the checkpoint and the trace are written, exit 143; the
 * run resumes and ends where a straight one does, its trace continuing the first one's. */
START_TEST(sigterm_checkpoints_and_the_run_resumes)
{
    const char *args = "cga --grid 64x32 --problem sphere --dim 4 --backend cpu --report-every 5";
    int rc = glevo("%s --generations 100000000 --checkpoint-every 5 --checkpoint sig.ckpt --trace sig.csv "
                   "--quiet & pid=$!; for i in $(seq 100); do [ -e sig.ckpt ] && break; sleep 0.1; done; "
                   "sleep 0.3; kill -TERM $pid; wait $pid", args);
    ck_assert_msg(rc == 143, "exit %d: %s", rc, out);
    ck_assert_msg(strstr(out, "stopped by SIGTERM") && strstr(out, "--resume sig.ckpt"), "%s", out);
    glevo_checkpoint_info info;
    ck_assert(glevo_checkpoint_info_read(path_of("sig.ckpt"), &info) == GLEVO_OK);
    ck_assert(info.generation >= 5 && info.extra.trace_bytes == file_size("sig.csv"));
    long long end = info.generation + 7;
    ck_assert_int_eq(glevo("%s --generations %lld --checkpoint-every 5 --checkpoint straight.ckpt "
                           "--trace straight.csv --quiet", args, end), 0);
    ck_assert_int_eq(glevo("cga --resume sig.ckpt --generations %lld --checkpoint resumed.ckpt "
                           "--trace sig.csv --quiet", end), 0);
    assert_same_state("straight.ckpt", "resumed.ckpt", "after SIGTERM");
    /* The traces agree in every column but the time. */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && cut -d, -f1-6 straight.csv | cmp - <(cut -d, -f1-6 sig.csv) "
             "&& echo same", dir);
    char bash[600];
    snprintf(bash, sizeof bash, "bash -c '%s'", cmd);
    ck_assert_int_eq(testutil_run(bash, out, sizeof out), 0);
    ck_assert_msg(!strcmp(out, "same\n"), "traces differ: %s", out);
}
END_TEST

/* A second signal does not wait for the generation: the process exits at once, no temporary
 * file left, and the checkpoint on disk is whole: the last one untouched, or, where the first
 * signal's save at a step boundary finished before the second signal came (since issue 23 the
 * CLI steps in pieces of about a second, so the first signal is answered within one), that
 * complete newer checkpoint. */
START_TEST(second_signal_exits_at_once)
{
    const char *args = "cga --grid 512x512 --problem sphere --dim 8 --backend cpu";
    ck_assert_int_eq(glevo("%s --generations 1 --checkpoint twice.ckpt --quiet", args), 0);
    long long before = file_size("twice.ckpt");
    char *first = NULL;
    size_t n = 0;
    FILE *f = fopen(path_of("twice.ckpt"), "rb");
    ck_assert_ptr_nonnull(f);
    first = malloc((size_t)before);
    n = fread(first, 1, (size_t)before, f);
    fclose(f);
    /* Chunks of 100000 generations: the first signal alone would wait for a long time. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = glevo("%s --generations 100000000 --report-every 100000 --checkpoint twice.ckpt --overwrite --quiet & "
                   "pid=$!; sleep 1; kill -TERM $pid; sleep 0.5; kill -TERM $pid; wait $pid", args);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ck_assert_msg(rc == 143, "exit %d: %s", rc, out);
    ck_assert_msg(took < 20, "took %.1f s", took);
    f = fopen(path_of("twice.ckpt"), "rb");
    char *after = malloc((size_t)before);
    ck_assert(f && fread(after, 1, (size_t)before, f) == n && n == (size_t)before);
    fclose(f);
    bool untouched = !memcmp(first, after, n) && file_size("twice.ckpt") == before;
    /* A newer one may be of generation 1 too: on a loaded machine the run's first piece can
     * end after one generation (CI saw it with two other processes busy); its bytes differ
     * from the first run's (its --generations), and reading it checks that it is whole. */
    glevo_checkpoint_info info;
    ck_assert_msg(untouched || (glevo_checkpoint_info_read(path_of("twice.ckpt"), &info) == GLEVO_OK &&
                                info.generation >= 1),
                  "the checkpoint is neither the last one nor a whole newer one: %s", glevo_last_error());
    free(first), free(after);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c tmp", dir);
    testutil_run(cmd, out, sizeof out);
    ck_assert_msg(atoi(out) == 0, "temporary files left: %s", out);
}
END_TEST

static void flip_byte(const char *from, const char *to, long at, int value)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && cp %s %s", dir, from, to);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
    FILE *f = fopen(path_of(to), "r+b");
    ck_assert_ptr_nonnull(f);
    if (at < 0) fseek(f, at, SEEK_END);
    else fseek(f, at, SEEK_SET);
    if (value < 0) {
        int c = fgetc(f);
        fseek(f, -1, SEEK_CUR);
        fputc(c ^ 0x10, f);
    } else {
        fputc(value, f);
    }
    fclose(f);
}

/* Bad checkpoints and changed parameters: one line naming the problem, exit 2, and neither
 * the --checkpoint file nor the --trace written. */
START_TEST(bad_checkpoints_are_one_line_exit_2_nothing_written)
{
    ck_assert_int_eq(glevo("cga --grid 8x4 --backend cpu --generations 3 --quiet --checkpoint good.ckpt"), 0);
    ck_assert_int_eq(glevo("de --dim 3 --pop 8 --max-evals 80 --backend cpu --quiet --checkpoint de.ckpt"), 0);
    ck_assert_int_eq(glevo("cga --grid 8x4 --backend cpu --generations 2 --quiet --checkpoint keep.ckpt"), 0);
    long long keep = file_size("keep.ckpt");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cd %s && head -c 700 good.ckpt > cut.ckpt && "
             "printf 'generation,best\\n1,2\\n' > text.ckpt", dir);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
    flip_byte("good.ckpt", "flipped.ckpt", 400, -1);
    /* A newer format, sealed as a newer glevo would: version 2 and both CRCs right. */
    snprintf(cmd, sizeof cmd, "cd %s && python3 -c \"import zlib,struct; b=bytearray(open('good.ckpt','rb')"
             ".read()); b[8]=2; b[20:24]=struct.pack('<I',zlib.crc32(bytes(b[:20]))); "
             "b[-4:]=struct.pack('<I',zlib.crc32(bytes(b[:-4]))); open('future.ckpt','wb').write(b)\"", dir);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
    static const struct { const char *args, *words; } bad[] = {
        {"cga --resume cut.ckpt", "is truncated"},
        {"cga --resume flipped.ckpt", "is damaged"},
        {"cga --resume text.ckpt", "is not a glevo checkpoint"},
        {"cga --resume future.ckpt", "format version 2, newer than the 1"},
        {"cga --resume de.ckpt", "is a checkpoint of de, not of cga"},
        {"cga --resume no-such.ckpt", "no-such.ckpt"},
        {"cga --resume good.ckpt --grid 10x4", "--grid 10x4 differs from the checkpoint's 8x4"},
        {"cga --resume good.ckpt --dim 3 --problem sphere", "--problem sphere differs from the checkpoint's camel"},
        {"cga --resume good.ckpt --seed 2", "--seed 2 differs from the checkpoint's 1"},
        {"cga --resume good.ckpt --pm 0.1", "--pm 0.1 differs from the checkpoint's 0.005"},
        {"de --resume de.ckpt --pop 9", "--pop 9 differs from the checkpoint's 8"},
        {"de --resume de.ckpt --strategy best1bin", "--strategy best1bin differs"},
        {"cga --resume good.ckpt --checkpoint-every -1", "--checkpoint-every -1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int rc = glevo("%s --checkpoint keep.ckpt %s--quiet", bad[i].args,
                       strncmp(bad[i].args, "cga", 3) ? "" : "--trace new.csv ");
        ck_assert_msg(rc == 2, "'%s': exit %d: %s", bad[i].args, rc, out);
        ck_assert_msg(strstr(out, bad[i].words), "'%s': '%s' lacks '%s'", bad[i].args, out, bad[i].words);
        ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "'%s': not one line: %s", bad[i].args, out);
        ck_assert_msg(file_size("keep.ckpt") == keep, "'%s' touched --checkpoint", bad[i].args);
        ck_assert_msg(file_size("new.csv") < 0, "'%s' wrote --trace", bad[i].args);
    }
    /* Safe changes are taken: another backend, report interval, more generations. */
    ck_assert_msg(glevo("cga --resume good.ckpt --backend fragment --report-every 2 --generations 6 "
                        "--json --quiet") == 0, "%s", out);
    ck_assert_msg(strstr(out, "\"generations\":6") && strstr(out, "\"backend\":\"fragment\""), "%s", out);
}
END_TEST

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/glevo-cli-ckpt-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    testutil_run(cmd, NULL, 0);
}

int main(void)
{
    Suite *s = suite_create("cli_checkpoint");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, half_checkpoint_resume_ends_where_straight_run_ends, 0,
                        (int)(sizeof families / sizeof families[0]));
    tcase_add_test(tc, checkpoint_moves_between_backends);
    tcase_add_test(tc, sigterm_checkpoints_and_the_run_resumes);
    tcase_add_test(tc, second_signal_exits_at_once);
    tcase_add_test(tc, bad_checkpoints_are_one_line_exit_2_nothing_written);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
