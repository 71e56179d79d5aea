/* A signal stops the whole command (issue 23): a multi-run command (de --runs, the bench
 * suites) stops after the run in progress, reports the runs it completed and how many, and
 * exits 128 + signal. de --runs 1500 used to print a "stopped" line for every remaining run
 * (each stopped at generation 0), average those empty runs in and exit 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char out[1 << 16];

#define lines testutil_lines

/* Runs `PREFIX glevo ARGS` in the background with $pid set, then the shell text `after` (which
 * signals it and waits), and returns the exit status; stdout goes to out, stderr to err. */
static int run_job(const char *prefix, const char *args, const char *after, char *err,
                   size_t err_size)
{
    char errfile[] = "/tmp/glevo-sig-XXXXXX";
    int fd = mkstemp(errfile);
    ck_assert_int_ge(fd, 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s%s %s 2>%s & pid=$!; %s", prefix, testutil_cli(), args, errfile,
             after);
    int rc = testutil_run(cmd, out, sizeof out);
    FILE *f = fdopen(fd, "r");
    size_t n = fread(err, 1, err_size - 1, f);
    err[n] = '\0';
    fclose(f);
    remove(errfile);
    return rc;
}

/* Starts `glevo ARGS` in the background, sends SIGTERM after `delay` seconds and returns its
 * exit status; stdout goes to out, stderr to err. SIGTERM: a background job of a script
 * starts with SIGINT ignored. timeout --foreground: without it timeout passes a signal on
 * twice (to the command, then to its own process group), and a second signal means "exit at
 * once", so the command sometimes died without its line (the tests failed now and then). */
static int interrupted(const char *args, const char *delay, char *err, size_t err_size)
{
    char after[128];
    snprintf(after, sizeof after, "sleep %s; kill -TERM $pid; wait $pid", delay);
    return run_job("timeout --foreground -s KILL 60 ", args, after, err, err_size);
}

START_TEST(de_runs_stop_on_sigterm)
{
    char err[1 << 16];
    int rc = interrupted("de --backend cpu --dim 2 --pop 4 --max-evals 8 --runs 100000000 --quiet "
                         "--json", "1", err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143; stderr: %.500s", rc, err);
    ck_assert_msg(lines(err) == 1 && strstr(err, "stopped by SIGTERM") && strstr(err, "runs completed"),
                  "one line saying how many runs completed, got %d lines: %.500s", lines(err), err);
    ck_assert_msg(lines(out) == 1 && strstr(out, "\"runs\":100000000,"), "%s", out);
    const char *done = strstr(out, "\"runs_completed\":");
    ck_assert_msg(done, "%s", out);
    long long n = atoll(done + 17);
    ck_assert_msg(n > 0 && n < 100000000, "runs_completed %lld", n);
    ck_assert_msg(strstr(out, "\"interrupted\":true"), "%s", out);
    char count[64];
    snprintf(count, sizeof count, " %lld of 100000000 runs completed", n);
    ck_assert_msg(strstr(err, count), "stderr names %lld completed runs: %s", n, err);

    /* The text report says it too, and its statistics are over the completed runs. */
    rc = interrupted("de --backend cpu --dim 2 --pop 4 --max-evals 8 --runs 100000000 --quiet", "1",
                     err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d: %.500s", rc, err);
    ck_assert_msg(strstr(out, "of 100000000 runs completed"), "%s", out);
}
END_TEST

/* One step of 10^5 generations (--report-every 100000) of a 512x512 grid on the CPU is
 * hours: the first signal used to wait for all of it (here: until the 60 s timeout's KILL,
 * 137). The step is taken in pieces of about a second now, so the run stops, reports and
 * exits 143 long before. */
START_TEST(long_steps_answer_a_signal)
{
    char err[1 << 16];
    int rc = interrupted("cga --backend cpu --grid 512x512 --problem sphere --dim 2 --generations "
                         "100000 --report-every 100000 --quiet", "2", err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143: %.500s", rc, err);
    ck_assert_msg(strstr(err, "stopped by SIGTERM after generation"), "%.500s", err);
}
END_TEST

START_TEST(bench_stops_on_sigterm)
{
    char err[1 << 16];
    /* 10^5 runs a cell: never finishes the first cell, so the table holds no row. */
    int rc = interrupted("bench de --backend cpu --quick --runs 100000 --quiet", "1", err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d: %.500s", rc, err);
    ck_assert_msg(strstr(err, "stopped by SIGTERM: 0 cells completed") && lines(err) == 1, "%s", err);
    ck_assert_msg(!strstr(out, "| F1 sphere"), "a cell of unfinished runs was reported: %s", out);
    rc = interrupted("bench de --backend cpu --quick --runs 100000 --quiet --json", "1", err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d: %.500s", rc, err);
    ck_assert_msg(strstr(out, "\"interrupted\":true") && lines(out) == 1, "%s", out);
}
END_TEST

/* A signal during one long library call without a step boundary: creating a population of
 * 2000x2000 cells of 32 genes on the CPU takes seconds. The default action used to end the
 * process at once by the signal, with no line said; the CLI now passes it on with
 * glevo_interrupt(), the creation returns GLEVO_ERR_INTERRUPTED, and the command says so in
 * one line and exits 143 with nothing written. The signal is sent once the process holds over
 * 100 MB, i.e. while it fills the population (not by a delay, which may fall before or after). */
START_TEST(creation_answers_a_signal)
{
    char err[4096];
    int rc = run_job("", "cga --backend cpu --grid 2000x2000 --problem sphere --dim 32 "
                     "--generations 1 --quiet",
                     "i=0; while [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do "
                     "rss=$(awk '/^VmRSS/{print $2}' /proc/$pid/status 2>/dev/null); "
                     "[ \"${rss:-0}\" -gt 100000 ] && break; sleep 0.02; i=$((i+1)); done; "
                     "kill -TERM $pid; wait $pid", err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143: %.500s", rc, err);
    ck_assert_msg(lines(err) == 1 && strstr(err, "stopped by SIGTERM before the first generation"),
                  "%.500s", err);
    ck_assert_msg(out[0] == '\0', "nothing on stdout, got: %.500s", out);
}
END_TEST

/* bench dsmga's population sweep is one library call of many runs (tens of seconds here): a
 * signal during it used to end the process by the default action, with no line. It now stops
 * the sweep (GLEVO_ERR_INTERRUPTED) and the command as at a row's end: one line, exit 143. */
START_TEST(bench_sweep_answers_a_signal)
{
    char dir[] = "/tmp/glevo-sweep-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[512], err[1 << 14];
    snprintf(args, sizeof args, "bench dsmga --backend cpu --problems trap --ells 200 --sweep "
             "--runs 10 --out %s", dir);
    /* Signalled once the sweep's tables exist (an event, not a delay: a busy machine took
     * longer than a fixed second to get there). */
    char after[512];
    snprintf(after, sizeof after, "i=0; while [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null && "
             "! ls %s/.dsmga.csv.tmp* >/dev/null 2>&1; do sleep 0.02; i=$((i+1)); done; "
             "kill -TERM $pid; wait $pid", dir);
    int rc = run_job("timeout --foreground -s KILL 120 ", args, after, err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143: %.500s", rc, err);
    ck_assert_msg(lines(err) == 1 && strstr(err, "stopped by SIGTERM: 0 table rows completed"),
                  "%.500s", err);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* DSMGA-II's creation hill-climbs every individual: 20000 of 3000 bits are about a minute on
 * llvmpipe's host. It did not look at glevo_interrupt, so a signal waited for all of it and
 * the run then reported generation 0 on stdout; now the creation stops. */
START_TEST(dsmga_creation_answers_a_signal)
{
    char err[1 << 14];
    int rc = interrupted("dsmga --problem trap --ell 3000 --pop 20000 --backend cpu --quiet", "1",
                         err, sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143: %.500s", rc, err);
    ck_assert_msg(lines(err) == 1 && strstr(err, "stopped by SIGTERM before the first generation"),
                  "%.500s", err);
    ck_assert_msg(out[0] == '\0', "nothing on stdout, got: %.500s", out);
}
END_TEST

/* One request delivered twice (timeout(1) passes a signal to its command and then to its
 * process group; so do group kills) is one request: the run stops after its generation with
 * its line. The second copy used to count as the impatient second Ctrl-C and killed the run
 * at once, without its line or final checkpoint. A generation of 1024x1024 cells on the CPU
 * lasts long enough for the second copy to find the first one handled. */
START_TEST(a_signal_delivered_twice_is_one)
{
    /* Straight to glevo: timeout(1) in between would swallow the second copy. */
    char err[4096];
    int rc = run_job("", "cga --backend cpu --grid 1024x1024 --problem sphere --dim 2 "
                     "--generations 100000000 --quiet",
                     "sleep 1; kill -TERM $pid; sleep 0.1; kill -TERM $pid; wait $pid", err,
                     sizeof err);
    ck_assert_msg(rc == 143, "exit %d, want 143: %.500s", rc, err);
    /* (A loaded machine may still be creating the population at the first signal.) */
    ck_assert_msg(lines(err) == 1 && strstr(err, "stopped by SIGTERM"), "%.500s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_signals");
    TCase *tc = tcase_create("cli_signals");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, de_runs_stop_on_sigterm);
    tcase_add_test(tc, bench_stops_on_sigterm);
    tcase_add_test(tc, long_steps_answer_a_signal);
    tcase_add_test(tc, creation_answers_a_signal);
    tcase_add_test(tc, bench_sweep_answers_a_signal);
    tcase_add_test(tc, dsmga_creation_answers_a_signal);
    tcase_add_test(tc, a_signal_delivered_twice_is_one);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
