/* The command line's promises (issue 12): numbers out of range are bad input (defect 6), a
 * zero report interval is refused (defect 8), outputs never replace devices or FIFOs and leave
 * no temporary file behind (defect 5), write errors on stdout fail the command, --help wins,
 * zero never silently means "default", --json prints shortest round-trip numbers and arrays,
 * output paths are checked before any work. CPU backend and tiny sizes: cheap on CI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16];

/* Runs `glevo ARGS` (printf-style) with stderr joined to stdout, under a time limit: a hang
 * shows as exit status 124. */
#define glevo(...) testutil_glevo(NULL, out, sizeof out, __VA_ARGS__)

#define lines testutil_lines

static char dir[64];
static const char *tmp_path(const char *name)
{
    static char path[4][256];
    static int next;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/glevo-cli-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

START_TEST(huge_numbers_are_out_of_range)
{
    /* 1e300 evaluations used to overflow into one generation (cga) or "-9223372036854775808
     * is negative" (de, dsmga). */
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --max-evals 1e300"), 2);
    ck_assert_msg(strstr(out, "1e300") && strstr(out, "out of range") && lines(out) == 1, "%s", out);
    ck_assert_int_eq(glevo("de --backend cpu --max-evals 1e300"), 2);
    ck_assert_msg(strstr(out, "1e300") && !strstr(out, "-9223372036854775808"), "%s", out);
    ck_assert_int_eq(glevo("dsmga --backend cpu --max-nfe 1e300"), 2);
    ck_assert_msg(!strstr(out, "-9223372036854775808"), "%s", out);
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 99999999999"), 2);
    ck_assert_msg(strstr(out, "out of range"), "%s", out);
    /* device + 1 and pop * ell overflowed int; --selection had no bound (a 171 GB table). */
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 1 --device 2147483647"), 2);
    ck_assert_int_eq(glevo("dsmga --backend cpu --pop 2147483647"), 2);
    ck_assert_msg(strstr(out, "2147483647") && strstr(out, "out of range"), "%s", out);
    ck_assert_int_eq(glevo("dsmga --backend cpu --pop 100 --selection 2000000000"), 2);
    ck_assert_msg(strstr(out, "--selection"), "%s", out);
    /* A population that cannot fit is bad input, not a failure halfway (exit 1). */
    ck_assert_int_eq(glevo("de --backend cpu --pop 100000000"), 2);
    ck_assert_msg(strstr(out, "--pop"), "%s", out);
}
END_TEST

START_TEST(report_every_zero_is_refused)
{
    /* It used to loop forever printing "generation 0/200, best nan". */
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 3 --report-every 0"), 2);
    ck_assert_msg(strstr(out, "--report-every") && lines(out) == 1, "%s", out);
}
END_TEST

START_TEST(outputs_do_not_replace_fifos)
{
    /* A FIFO given as --trace is written through, not replaced by a regular file (as root,
     * --trace /dev/full replaced /dev/full). */
    const char *fifo = tmp_path("trace.fifo"), *copy = tmp_path("trace.copy");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "(timeout 30 cat %s > %s &) ; timeout 30 %s cga --backend cpu --grid 6x4 "
             "--generations 2 --report-every 1 --trace %s --quiet >/dev/null 2>&1", fifo, copy,
             testutil_cli(), fifo);
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 0);
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert_msg(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    sleep(1); /* let cat finish */
    FILE *f = fopen(copy, "r");
    ck_assert_ptr_nonnull(f);
    char head[64] = "";
    ck_assert_ptr_nonnull(fgets(head, sizeof head, f));
    fclose(f);
    ck_assert_msg(!strncmp(head, "generation,", 11), "%s", head);
    /* Write errors are reported: a trace or stdout on /dev/full fails with exit 1. */
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 2 --trace /dev/full --quiet"), 1);
    ck_assert_int_eq(lstat("/dev/full", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    snprintf(cmd, sizeof cmd, "%s cga --backend cpu --grid 6x4 --generations 2 --quiet > /dev/full 2>/dev/null",
             testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 1);
    snprintf(cmd, sizeof cmd, "%s --version > /dev/full 2>/dev/null", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, NULL, 0), 1);
}
END_TEST

START_TEST(interrupt_leaves_no_temporary_file)
{
    char sub[300], cmd[2048];
    snprintf(sub, sizeof sub, "%s", tmp_path("interrupted"));
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    /* A long run writing a trace; SIGTERM after half a second (SIGINT would be ignored: a
     * background job of a script starts with SIGINT ignored), then look at what is left. The
     * run is bounded by timeout in case the signal is lost. Issue 14: the run finishes its
     * generation, puts its outputs in place and exits 143, so the trace is there, whole (or,
     * when the signal came before the run began, absent), and no temporary file is. */
    snprintf(cmd, sizeof cmd, "timeout -s KILL 30 %s cga --backend cpu --grid 6x4 --generations 100000000 "
             "--report-every 1 --trace %s/t.csv --quiet >/dev/null 2>&1 & pid=$!; sleep 0.5; kill -TERM $pid; "
             "wait $pid; echo $? $(ls -A %s | grep -c tmp) $(tail -c 1 %s/t.csv | od -An -tx1)", testutil_cli(),
             sub, sub, sub);
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(!strcmp(out, "143 0 0a\n") || !strcmp(out, "143 0\n"),
                  "exit status, temporary files, last byte: %s", out);
}
END_TEST

START_TEST(help_wins)
{
    ck_assert_int_eq(glevo("cga --bogus --help"), 0);
    ck_assert_msg(strstr(out, "usage: glevo cga"), "%s", out);
    ck_assert_int_eq(glevo("de --pop x --help"), 0);
    ck_assert_int_eq(glevo("gp --data --help"), 0);
    ck_assert_msg(strstr(out, "usage: glevo gp"), "%s", out);
}
END_TEST

START_TEST(zero_is_never_a_silent_default)
{
    const char *csv = testutil_write_tmp("x,y\n1,2\n2,4\n3,6\n");
    /* gp --generations 0 ran 50 generations; now it is the initial population alone. */
    ck_assert_int_eq(glevo("gp --backend cpu --data %s --pop 8 --generations 0 --pm 0 --json --quiet", csv), 0);
    ck_assert_msg(strstr(out, "\"generations\":0,"), "%s", out);
    ck_assert_int_eq(glevo("gp --backend cpu --data %s --tournament 0", csv), 2);
    remove(csv);
    /* cga's help said "--target (default 0)", but the default is no target at all. */
    ck_assert_int_eq(glevo("cga --help"), 0);
    const char *t = strstr(out, "--target N");
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(strstr(t, "(default: none)") && strstr(t, "(default: none)") < strchr(t, '\n'), "%s", t);
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --dim 0"), 2);
    /* de --fitness without --dim named a "--dim -1" nobody typed. */
    const char *fit = testutil_write_tmp("vec4 problem_init() { return vec4(0.0); }\n");
    ck_assert_int_eq(glevo("de --fitness %s", fit), 2);
    /* Not a bare "-1": the temporary file's random name may hold one (glevo-test-1...). */
    ck_assert_msg(strstr(out, "needs --dim D") && !strstr(out, "--dim -1") && !strstr(out, "= -1"),
                  "%s", out);
    remove(fit);
}
END_TEST

START_TEST(json_numbers_and_arrays)
{
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 2 --json --quiet"), 0);
    ck_assert_msg(strstr(out, "\"pc\":0.8,") && strstr(out, "\"pm\":0.005,"), "%s", out);
    ck_assert_msg(strstr(out, "\"best_x\":[") && lines(out) == 1, "%s", out);
    ck_assert_int_eq(glevo("dsmga --backend cpu --problem onemax --ell 10 --pop 20 --json --quiet"), 0);
    ck_assert_msg(strstr(out, "\"best_x\":[1,") || strstr(out, "\"best_x\":[0,"), "%s", out);
    /* de --runs keeps the seed it was given (and names the best run's seed apart). */
    ck_assert_int_eq(glevo("de --backend cpu --runs 3 --seed 5 --max-evals 400 --json --quiet"), 0);
    ck_assert_msg(strstr(out, "\"seed\":5,") && strstr(out, "\"first_seed\":5"), "%s", out);
    const char *csv = testutil_write_tmp("x,y\n1,2\n2,4\n");
    const char *prog = testutil_write_tmp("(* 2 x1)\n(+ x1 1)\n");
    ck_assert_int_eq(glevo("gp-eval --backend cpu --data %s --programs %s --json", csv, prog), 0);
    ck_assert_msg(strstr(out, "\"errors\":[0,1]") && lines(out) == 1, "%s", out);
    ck_assert_int_eq(glevo("gp --backend cpu --data %s --generations 1 --pop 8 --json --quiet", csv), 0);
    ck_assert_msg(strstr(out, "\"best_program\":") && lines(out) == 1, "%s", out);
    remove(csv);
    remove(prog);
}
END_TEST

START_TEST(output_paths_checked_before_work)
{
    /* 10^8 generations would take hours: only an up-front check can answer at once. */
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 100000000 --snapshot-final "
                           "/nonexistent/final.png"), 2);
    ck_assert_msg(strstr(out, "--snapshot-final") && lines(out) == 1, "%s", out);
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 100000000 --snapshot %s --sheet "
                           "/nonexistent/sheet.png", dir[0] ? dir : "/tmp"), 2);
    ck_assert_msg(strstr(out, "--sheet"), "%s", out);
    ck_assert_int_eq(glevo("cga --backend cpu --grid 6x4 --generations 100000000 --trace /proc/t.csv"), 2);
}
END_TEST

START_TEST(all_nan_fitness_warns)
{
    const char *fit = tmp_path("nan.glsl");
    FILE *f = fopen(fit, "w");
    ck_assert_ptr_nonnull(f);
    fputs("vec4 problem_init() { return vec4(0.0); }\n"
          "vec4 problem_step(vec4 a, int j, float x) { return a; }\n"
          "float problem_finish(vec4 a, int d) { return uintBitsToFloat(0x7FC00000u); }\n", f);
    /* a quiet NaN from its bits: NVIDIA's compiler folds 0.0 / 0.0 (to 0 on the H100) */
    fclose(f);
    ck_assert_int_eq(glevo("cga --fitness %s --grid 6x4 --generations 2 --quiet", fit), 0);
    ck_assert_msg(strstr(out, "warning") && strstr(out, "NaN"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_contracts");
    TCase *tc = tcase_create("cli_contracts");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, huge_numbers_are_out_of_range);
    tcase_add_test(tc, report_every_zero_is_refused);
    tcase_add_test(tc, outputs_do_not_replace_fifos);
    tcase_add_test(tc, interrupt_leaves_no_temporary_file);
    tcase_add_test(tc, help_wins);
    tcase_add_test(tc, zero_is_never_a_silent_default);
    tcase_add_test(tc, json_numbers_and_arrays);
    tcase_add_test(tc, output_paths_checked_before_work);
    tcase_add_test(tc, all_nan_fitness_warns);
    suite_add_tcase(s, tc);
    int rc = testutil_run_suite(s);
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0) rc = 1;
    }
    return rc;
}
