/* The glevo command: one file per subcommand, sharing the option parser (args.c), the JSON
 * writer (json.c) and the common options (common.c). */
#ifndef GLEVO_CLI_H
#define GLEVO_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "glevo/backend.h"
#include "glevo/checkpoint.h"
#include "glevo/context.h"
#include "glevo/gp.h"
#include "glevo/status.h"

/* ---- option tables ---- */
/* OPT_COUNT: a whole number of things (evaluations), written as 250000 or 2.5e5, into a
 * long long; at most 2^53 so that it converts to and from double exactly. */
/* OPT_CHOICE: one word of a fixed list; target is an opt_choice (OPT_CHOICES below), whose list
 * the parser checks values against and the shell completion and man pages offer. */
typedef enum opt_kind {
    OPT_FLAG, OPT_INT, OPT_UINT, OPT_DOUBLE, OPT_STRING, OPT_GRID, OPT_COUNT, OPT_CHOICE,
    OPT_RANGE /* LO,HI into double[2], finite, LO < HI */
} opt_kind;

typedef struct opt_choice {
    const char **value;
    const char *names; /* the accepted words, separated by spaces */
} opt_choice;
/* The target of an OPT_CHOICE entry: OPT_CHOICES(o.rng, "philox texture"). */
#define OPT_CHOICES(var, list) (&(opt_choice){&(var), (list)})

typedef struct opt_spec {
    const char *name;   /* without the leading "--" */
    opt_kind kind;
    void *target;       /* bool*, int*, uint32_t*, double*, const char**, int[2], long long*,
                           opt_choice* */
    const char *help;   /* one line; the default is printed from the target's value, unless
                           the help says "(default: ...)" itself: where the target holds a
                           "not given" mark rather than a value */
} opt_spec;

#define OPT_COUNT_MAX 9007199254740992LL /* 2^53 */

/* Parses argv[first..argc) into the targets. Returns 0, or 2 after printing a one-line
 * error naming the bad option or value; sets *help when --help was given anywhere (it wins
 * over every other argument, bad ones included). Arguments that are not options are
 * collected into positional[] (at most max_positional). */
int opt_parse(const char *command, const opt_spec *specs, int argc, char **argv, int first,
              bool *help, const char **positional, int max_positional, int *positional_count);
/* Prints the usage, the summary and a line per option with its default (in completion mode:
 * the candidates for the word being completed, then exits; see opt_complete_begin). */
void opt_print_help(FILE *out, const char *usage, const char *summary, const opt_spec *specs);
/* Completion mode for `glevo __complete` (main.c): the next opt_print_help prints, one a line,
 * the candidates after the word `previous` (NULL: at a command's first option): an option's
 * choices, "__file__" where a file name or other text goes, nothing where a number goes,
 * else every option of the table. The bash completion (cli/glevo.bash-completion) reads them. */
void opt_complete_begin(const char *previous);
/* Whether argv[first..argc) gives --name (as "--name", "--name=value"): a resumed run takes
 * every parameter from its checkpoint except those the user typed. */
bool opt_given(int argc, char **argv, int first, const char *name);

/* ---- options every algorithm command takes (docs/architecture.md, "Contracts") ---- */
typedef struct common_opts {
    const char *backend; /* "fragment", "compute", "cpu" or "auto" */
    uint32_t seed;
    int device;          /* EGL device, -1 = auto */
    bool json;
    bool profile;
    bool quiet;
    bool gl_debug;
} common_opts;

/* The run commands start from the fast engine (common_check_backend resolves "auto"); the
 * benches from the 2008 way, whose tables they reproduce. */
#define COMMON_OPTS_DEFAULT {.backend = "auto", .seed = 1, .device = -1}
#define BENCH_OPTS_DEFAULT {.backend = "fragment", .seed = 1, .device = -1}
/* The common options as specs, to append to a command's table (which then ends with {0}). */
#define COMMON_OPT_SPECS(c)                                                                   \
    {"backend", OPT_CHOICE, OPT_CHOICES((c).backend, "auto fragment compute cpu"),             \
     "engine: auto (compute dispatches on a GPU that has them, render passes on one that "     \
     "does not, the CPU on a software rasterizer or without GL), fragment (GPU render "        \
     "passes, the 2008 way), compute or cpu"},                                                 \
        {"seed", OPT_UINT, &(c).seed, "random seed"},                                         \
        {"device", OPT_INT, &(c).device, "EGL device index (-1: prefer hardware)"},           \
        {"json", OPT_FLAG, &(c).json, "print one JSON object on stdout"},                     \
        {"profile", OPT_FLAG, &(c).profile, "per-pass GPU time table on stderr"},             \
        {"quiet", OPT_FLAG, &(c).quiet, "no progress on stderr"},                             \
        {"gl-debug", OPT_FLAG, &(c).gl_debug, "debug GL context: report every driver message"}

/* 0 when backend names a backend, else prints an error and returns 2; "auto" becomes the
 * backend it picks on the device asked for (a context opened for it is kept for
 * common_context_create). */
int common_check_backend(const char *command, common_opts *c);
/* Closes the context "auto" opened, for a command that opens its own elsewhere (an island
 * on its rank's device). */
void common_forget_probe(void);
/* The same for GP, whose "auto" is glevo_gp_backend_resolve's, and fragment where strategy
 * (--strategy) names a fragment layout. */
int common_check_gp_backend(const char *command, common_opts *c, const char *strategy);
bool common_is_gpu(const common_opts *c);
/* The backend the options name (AUTO resolved once a context is current). */
glevo_backend common_backend(const common_opts *c);
/* Creates the headless context the options ask for; prints the error and returns the exit
 * code on failure. */
int common_context_create(const char *command, const common_opts *c, glevo_context **out);
/* The library's log sink for the CLI: every message on stderr, prefixed "glevo:". */
void cli_log(void *user, glevo_log_level level, const char *message);
/* Rewrites the library's params fields in a message as the flags a user typed
 * ("glevo_cga_params.report_every 0" -> "--report-every 0"). */
void cli_flagify(const char *message, char *out, size_t size);
/* Prints "glevo CMD: <last error>" (fields as flags) and returns the exit code for status. */
int cli_fail(const char *command, glevo_status status);
/* cli_fail, except that a shader compile error in the user's --fitness file exits 2. */
int cli_fail_fitness(const char *command, glevo_status status, const char *fitness);
/* Silences cli_bad_input and cli_fail (the exit codes stay): the ranks other than 0 of an
 * islands job (cli/islands.c). */
void cli_silence_errors(bool silent);
/* One-line error for bad input: prints and returns 2. */
int cli_bad_input(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
double cli_seconds_now(void);
/* The built-in problems' names, space-separated: the --problem choices of cga and de. */
const char *cli_problem_choices(void);
/* Loads a GP data file (target NULL: the last column) and the programs file over its
 * variables into *data, *progs and their count (gp-eval, bench gp-layouts); 0, or the exit
 * code after one line (a file that holds no programs is bad input). The caller destroys what
 * was made either way. */
int cli_gp_programs_load(const char *command, const char *data_path, const char *target,
                         const char *programs_path, glevo_gp_data **data,
                         glevo_gp_programs **progs, int *count);

/* ---- the files a command names (paths.c) ---- */
typedef struct cli_path {
    const char *flag; /* "--trace" */
    const char *path; /* NULL: not given */
    bool output;      /* written by the command (else read) */
} cli_path;
/* 0, or 2 after one line naming the path and both flags, when an output shares its file with
 * another path of the list (--resume and --checkpoint may name one file: a run continued in
 * place). Paths compare by the file they name: "x", "./x" and a link to x are one file. */
int cli_paths_distinct(const char *command, const cli_path *paths, int n);
/* 0 when path (NULL: not given) ends in .png or .svg, else 2 after one line naming flag. */
int cli_picture_check(const char *command, const char *flag, const char *path);

/* ---- long runs: --checkpoint, --checkpoint-every, --resume, signals (run_control.c) ---- */
typedef struct run_control {
    const char *checkpoint; /* --checkpoint FILE */
    int every;              /* --checkpoint-every K generations; 0: every 60 s of wall time */
    const char *resume;     /* --resume FILE */
    bool overwrite;         /* --overwrite: a fresh run may replace an existing --checkpoint */
    glevo_checkpoint_info from; /* what --resume names (checked) */
    long long last_generation;
    double last_time, write_seconds;
    int writes;
    double generation_seconds; /* the last pieces' wall time a generation (run_control_step) */
} run_control;

#define RUN_CONTROL_OPT_SPECS(k)                                                              \
    {"checkpoint", OPT_STRING, &(k).checkpoint,                                              \
     "save the run to FILE (atomically) every --checkpoint-every, at the end and when "      \
     "interrupted"},                                                                          \
        {"checkpoint-every", OPT_INT, &(k).every,                                            \
         "generations between checkpoints (0: every 60 s of wall time)"},                     \
        {"resume", OPT_STRING, &(k).resume,                                                  \
         "continue the run saved in FILE with its parameters (changing one that alters the " \
         "run is refused)"},                                                                  \
        {"overwrite", OPT_FLAG, &(k).overwrite,                                              \
         "a fresh run (no --resume) may replace the file --checkpoint names"}

/* Checks the options before any work: --checkpoint-every >= 0, --checkpoint writable and,
 * for a fresh run without --overwrite, not an existing file, and --resume a readable
 * checkpoint of `command`'s algorithm (into k->from). 0, or 2 after a one-line error. */
int run_control_check(const char *command, const char *algorithm, run_control *k);
/* Installs the SIGINT/SIGTERM handlers (the first signal asks the run to stop after the
 * current generation; a second one exits at once, leaving finished files as they were and
 * removing temporary ones) and starts the checkpoint clock at `generation`. */
void run_control_start(run_control *k, long long generation);
/* The handlers alone, for commands without a run of their own (bench suites). */
void run_control_signals_install(void);
/* Around one long library call without step boundaries (engine creation): a signal during it
 * makes the call return GLEVO_ERR_INTERRUPTED, which cli_fail reports as "stopped by SIGTERM"
 * with exit 128 + signal. end clears the library's request so later steps run whole. */
void run_control_library_begin(void);
void run_control_library_end(void);
/* The signal that asked the run to stop, 0 while none did. */
int run_control_signal(void);
/* "SIGINT", "SIGTERM" (or "a signal") for messages. */
const char *run_control_signal_name(void);
/* Generations the next step may run from `generation`: at most `chunk`, never past the next
 * multiple of --checkpoint-every. */
long long run_control_chunk(const run_control *k, long long generation, long long chunk);
/* Steps `chunk` generations through step(engine, n) in pieces of about a second of wall
 * time, so that a signal is answered within about a second even where one generation takes
 * long (a huge grid on the CPU); fast engines step the chunk whole. Counter-based randomness
 * makes the pieces the same run as one step. *done: generations stepped (fewer than chunk when
 * a signal came). */
typedef glevo_status (*run_step_fn)(void *engine, long long generations);
glevo_status run_control_step(run_control *k, run_step_fn step, void *engine, long long chunk,
                              long long *done);
/* Whether a checkpoint is due at `generation` (a multiple of --checkpoint-every, or 60 s
 * since the last one). */
bool run_control_due(const run_control *k, long long generation);
/* Whether the run's last checkpoint is still to write at `generation` (at the end, or when
 * stopped): --checkpoint given and no checkpoint of this process holds it yet. */
bool run_control_final_due(const run_control *k, long long generation);
/* Records a checkpoint written at `generation` that took `seconds`. */
void run_control_wrote(run_control *k, long long generation, double seconds);
/* The exit status: 128 + the signal when one stopped the run (130 SIGINT, 143 SIGTERM). */
int run_control_exit(int rc);
/* On resume: the checkpoint's parameter `name` ("param.pop") as text in buf, or NULL when
 * there is no --resume or the option was typed (argv holds --option). The front end reads
 * what it prints and the inputs it rebuilds from here. */
const char *run_control_param(const run_control *k, int argc, char **argv, const char *option,
                              const char *name, char *buf, size_t size);
/* On resume of a --fitness run (the checkpoint holds a user GLSL problem): the file (unless
 * --fitness was typed: the checkpoint records its absolute path), its domain and direction
 * and the dimension, from the checkpoint unless typed. The library then checks the file's
 * CRC-32 against the checkpoint's. 0, or 2 after a one-line error (an old checkpoint without
 * the path, and no --fitness). */
int run_control_fitness(const char *command, const run_control *k, int argc, char **argv,
                        const char **fitness, double *lower, double *upper, bool *maximize,
                        int *dim);
/* One stderr line saying where an interrupted run stopped and how to resume it. */
void run_control_report(const char *command, const run_control *k, long long generation);

/* ---- JSON on stdout ---- */
typedef struct json_writer {
    FILE *out;
    int depth;
    bool need_comma[16];
} json_writer;

void json_begin_object(json_writer *w, const char *key);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w, const char *key);
void json_end_array(json_writer *w);
void json_string(json_writer *w, const char *key, const char *value);
void json_number(json_writer *w, const char *key, double value);
void json_int(json_writer *w, const char *key, long long value);
void json_bool(json_writer *w, const char *key, bool value);
void json_null(json_writer *w, const char *key);
/* programs_built and compile_seconds: the GL programs this run compiled and linked on ctx
 * (none written without a context). */
void common_json_builds(json_writer *w, const glevo_context *ctx);
/* checkpoint_file, checkpoint_writes, checkpoint_seconds, resumed_from, interrupted. */
void run_control_json(const run_control *k, json_writer *w);

/* ---- subcommands ---- */
int cmd_info(int argc, char **argv);
int cmd_cga(int argc, char **argv);
int cmd_de(int argc, char **argv);
int cmd_gp(int argc, char **argv);
int cmd_gp_eval(int argc, char **argv);
int cmd_dsmga(int argc, char **argv);
int cmd_dsm(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* The bench suites' names, one a line (glevo __complete). */
void cmd_bench_list_suites(FILE *out);

#endif
