/* Long runs (docs/checkpoint.md): when checkpoints are due, what --resume names, and the
 * SIGINT/SIGTERM contract: the first signal lets the current generation finish, the run
 * writes its final checkpoint and outputs and exits 128 + signal; a second signal exits at
 * once, removing temporary files and leaving finished ones as they were. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "glevo/output.h"

#define CHECKPOINT_SECONDS 60.0
#define CUT_OFF_SECONDS 3 /* on_alarm's messages say it too */

static volatile sig_atomic_t stop_signal;
/* Set around one long library call without a step boundary (creating a population): a signal
 * then also asks the library to stop (glevo_interrupt, async-signal-safe), so the call returns
 * GLEVO_ERR_INTERRUPTED instead of running on for seconds. Outside it a signal only waits for
 * the loop's next check, so a generation in progress still finishes. */
static volatile sig_atomic_t in_library;

static volatile sig_atomic_t first_ms; /* CLOCK_MONOTONIC ms of the first signal, mod 2^31 */

static int monotonic_ms(void)
{
    struct timespec t; /* clock_gettime is async-signal-safe (POSIX.1-2008) */
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int)(((long long)t.tv_sec * 1000 + t.tv_nsec / 1000000) & 0x7fffffff);
}

static void on_signal(int sig)
{
    /* One request delivered twice within 0.2 s is still one request: timeout(1)
     * passes a signal to its command and then to its process group, and so do process-group
     * kills of schedulers; "exit at once" is for a deliberate second Ctrl-C. */
    if (stop_signal && ((monotonic_ms() - first_ms) & 0x7fffffff) < 200) return;
    if (stop_signal) { /* the second one: no more waiting */
        glevo_output_remove_temps();
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    first_ms = monotonic_ms();
    stop_signal = sig;
    if (in_library) {
        glevo_interrupt();
        alarm(CUT_OFF_SECONDS); /* a call that cannot look (a driver's compile): on_alarm */
    }
}

/* The library call did not return within CUT_OFF_SECONDS of the signal: it sits in a driver
 * call that no flag reaches (a shader compile; a hostile --fitness file's macros made one run
 * until memory ran out). Its output is not written yet, so the process ends, its temporary
 * files removed. Calls that look at glevo_interrupt return well inside it, with their own line
 * (a busy machine's slower answer is not cut short). */
static void on_alarm(int sig)
{
    (void)sig;
    if (!in_library) return;
    static const char term[] = "glevo: stopped by SIGTERM: a library call did not return "
                               "within 3 s of it (a driver's compile); nothing more was written\n";
    static const char other[] = "glevo: stopped by SIGINT: a library call did not return "
                                "within 3 s of it (a driver's compile); nothing more was written\n";
    const char *msg = stop_signal == SIGTERM ? term : other;
    size_t len = stop_signal == SIGTERM ? sizeof term - 1 : sizeof other - 1;
    ssize_t w = write(2, msg, len);
    (void)w;
    glevo_output_remove_temps();
    _exit(128 + stop_signal);
}

void run_control_library_begin(void)
{
    run_control_signals_install();
    signal(SIGALRM, on_alarm);
    in_library = 1;
    if (stop_signal) {
        glevo_interrupt(); /* one that came before */
        alarm(CUT_OFF_SECONDS);
    }
}

void run_control_library_end(void)
{
    in_library = 0;
    alarm(0);
    /* The call returned (interrupted or whole): the request must not stop later steps, which
     * see stop_signal at their own boundary instead. */
    glevo_interrupt_clear();
}

int run_control_check(const char *command, const char *algorithm, run_control *k)
{
    if (k->every < 0) return cli_bad_input(command, "--checkpoint-every %d is negative", k->every);
    if (k->checkpoint && glevo_output_check(k->checkpoint, "--checkpoint") != GLEVO_OK)
        return cli_fail(command, GLEVO_ERR_INVALID);
    /* A fresh run never replaces a saved one (perhaps days of another run) unasked. */
    struct stat sb;
    if (k->checkpoint && !k->resume && !k->overwrite && stat(k->checkpoint, &sb) == 0 &&
        S_ISREG(sb.st_mode) && sb.st_size > 0) {
        glevo_checkpoint_info old;
        char what[160] = "a file";
        if (glevo_checkpoint_info_read(k->checkpoint, &old) == GLEVO_OK)
            snprintf(what, sizeof what, "a checkpoint of %s at generation %lld", old.algorithm,
                     old.generation);
        return cli_bad_input(command, "--checkpoint '%s' exists (%s): continue it with --resume "
                             "%s, or pass --overwrite to replace it", k->checkpoint, what,
                             k->checkpoint);
    }
    if (!k->resume) return 0;
    glevo_status st = glevo_checkpoint_info_read(k->resume, &k->from);
    if (st) return cli_fail(command, st);
    if (strcmp(k->from.algorithm, algorithm) != 0)
        return cli_bad_input(command, "--resume '%s' is a checkpoint of %s, not of %s", k->resume,
                             k->from.algorithm, algorithm);
    return 0;
}

void run_control_signals_install(void)
{
    static const int signals[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; ++i) {
        /* A signal ignored at start stays ignored (background jobs of a shell). */
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART; /* writes in progress go on */
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

void run_control_start(run_control *k, long long generation)
{
    run_control_signals_install();
    k->last_generation = generation;
    k->last_time = cli_seconds_now();
}

int run_control_signal(void) { return stop_signal; }

const char *run_control_signal_name(void)
{
    return stop_signal == SIGINT ? "SIGINT" : stop_signal == SIGTERM ? "SIGTERM" : "a signal";
}

long long run_control_chunk(const run_control *k, long long generation, long long chunk)
{
    if (k->checkpoint && k->every > 0) {
        long long to_next = k->every - generation % k->every;
        if (chunk > to_next) chunk = to_next;
    }
    return chunk;
}

glevo_status run_control_step(run_control *k, run_step_fn step, void *engine, long long chunk,
                              long long *done)
{
    *done = 0;
    glevo_status st = GLEVO_OK;
    while (!st && *done < chunk && !(*done > 0 && stop_signal)) {
        long long piece = chunk - *done;
        if (k->generation_seconds == 0) piece = 1; /* the first generation measures */
        else if (piece * k->generation_seconds > 1.0)
            piece = k->generation_seconds >= 1.0 ? 1 : (long long)(1.0 / k->generation_seconds);
        double t0 = cli_seconds_now();
        st = step(engine, piece);
        k->generation_seconds = (cli_seconds_now() - t0) / (double)piece;
        if (!st) *done += piece;
    }
    return st;
}

bool run_control_due(const run_control *k, long long generation)
{
    if (!k->checkpoint || generation == k->last_generation) return false;
    if (k->every > 0) return generation % k->every == 0;
    return cli_seconds_now() - k->last_time >= CHECKPOINT_SECONDS;
}

bool run_control_final_due(const run_control *k, long long generation)
{
    return k->checkpoint && (k->writes == 0 || generation != k->last_generation);
}

void run_control_wrote(run_control *k, long long generation, double seconds)
{
    k->last_generation = generation;
    k->last_time = cli_seconds_now();
    k->writes++;
    k->write_seconds += seconds;
}

int run_control_exit(int rc) { return stop_signal && rc == 0 ? 128 + stop_signal : rc; }

void run_control_report(const char *command, const run_control *k, long long generation)
{
    if (!stop_signal) return;
    const char *name = run_control_signal_name();
    if (k->checkpoint)
        fprintf(stderr, "glevo %s: stopped by %s after generation %lld; resume with --resume %s\n",
                command, name, generation, k->checkpoint);
    else
        fprintf(stderr, "glevo %s: stopped by %s after generation %lld (no --checkpoint: the run "
                        "cannot be resumed)\n", command, name, generation);
}

const char *run_control_param(const run_control *k, int argc, char **argv, const char *option,
                              const char *name, char *buf, size_t size)
{
    if (!k->resume || (option && opt_given(argc, argv, 1, option))) return NULL;
    return glevo_checkpoint_param(k->resume, name, buf, size) == GLEVO_OK ? buf : NULL;
}

int run_control_fitness(const char *command, const run_control *k, int argc, char **argv,
                        const char **fitness, double *lower, double *upper, bool *maximize,
                        int *dim)
{
    if (!k->resume) return 0;
    static char text[5][4200];
    char crc[64];
    /* Only a user GLSL problem has a source CRC; a built-in one is found by its name. */
    if (glevo_checkpoint_param(k->resume, "param.problem_source_crc32", crc, sizeof crc) != GLEVO_OK)
        return 0;
    const char *v;
    if (!*fitness) {
        v = run_control_param(k, argc, argv, NULL, "param.problem_source_path", text[0], sizeof text[0]);
        if (!v) {
            char name[4200] = "?";
            glevo_checkpoint_param(k->resume, "param.problem", name, sizeof name);
            return cli_bad_input(command, "--resume '%s' ran the --fitness file '%s' and is older "
                                 "than checkpoints that record where it lies: give it again with "
                                 "--fitness FILE", k->resume, name);
        }
        FILE *f = fopen(v, "r");
        if (!f)
            return cli_bad_input(command, "--resume '%s' ran the --fitness file '%s', which cannot be "
                                 "read now (%s): put it back, or give it with --fitness FILE",
                                 k->resume, v, strerror(errno));
        fclose(f);
        *fitness = v;
    }
    if ((v = run_control_param(k, argc, argv, "lower", "param.problem_lower", text[1], sizeof text[1])))
        *lower = strtod(v, NULL);
    if ((v = run_control_param(k, argc, argv, "upper", "param.problem_upper", text[2], sizeof text[2])))
        *upper = strtod(v, NULL);
    if ((v = run_control_param(k, argc, argv, "maximize", "param.problem_direction", text[3], sizeof text[3])))
        *maximize = !strcmp(v, "maximise");
    if ((v = run_control_param(k, argc, argv, "dim", "param.dim", text[4], sizeof text[4])))
        *dim = atoi(v);
    return 0;
}

void run_control_json(const run_control *k, json_writer *w)
{
    if (k->checkpoint) {
        json_string(w, "checkpoint_file", k->checkpoint);
        json_int(w, "checkpoint_writes", k->writes);
        json_number(w, "checkpoint_seconds", k->write_seconds);
    }
    if (k->resume) json_int(w, "resumed_from", k->from.generation);
    json_bool(w, "interrupted", stop_signal != 0);
}
