/* Options and failure paths shared by every algorithm command. */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "glevo/gp.h"
#include "glevo/problem.h"

/* Under mpirun with --islands, every rank parses the same command line: only rank 0 says what
 * is wrong with it (cli_errors_from_rank_zero). */
static bool errors_silenced;

void cli_silence_errors(bool silent) { errors_silenced = silent; }

int cli_bad_input(const char *command, const char *fmt, ...)
{
    if (errors_silenced) return 2;
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "glevo %s: ", command);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    return 2;
}

void cli_log(void *user, glevo_log_level level, const char *message)
{
    (void)user;
    static const char *const prefix[] = {"", "warning: ", "error: "};
    fprintf(stderr, "glevo: %s%s\n", prefix[level <= GLEVO_LOG_ERROR ? level : 0], message);
}

/* Library errors name params fields ("glevo_cga_params.dim 40 is outside 1..32"); the user
 * typed flags. Fields map to flags by rule (report_every -> --report-every), except these. */
static const struct { const char *field, *flag; } field_flags[] = {
    {"width x height", "--grid"},
    {"selection_pressure", "--selection"},
    {"max_generations", "--max-gens"},
    {"stall_generations", "--stall"},
    {"device_plus_one", "--device (plus one)"},
    {"ops", "--function-set"},
    {"const_opt_iters", "--const-opt"},
    {"linear_scaling", "--no-linear-scaling"},
    {"const_min", "--const-range (low)"},
    {"const_max", "--const-range (high)"},
};

static void field_to_flag(const char *field, size_t n, char *out, size_t size)
{
    for (size_t i = 0; i < sizeof field_flags / sizeof field_flags[0]; ++i)
        if (strlen(field_flags[i].field) == n && !strncmp(field, field_flags[i].field, n)) {
            snprintf(out, size, "%s", field_flags[i].flag);
            return;
        }
    size_t k = 0;
    if (size > 2) out[k++] = '-', out[k++] = '-';
    for (size_t i = 0; i < n && k + 1 < size; ++i) out[k++] = field[i] == '_' ? '-' : field[i];
    out[k] = '\0';
}

void cli_flagify(const char *message, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = message; *p && used + 1 < size;) {
        const char *params = strstr(p, "_params.");
        const char *start = params;
        while (start && start > p && start[-1] != ' ' && start[-1] != '(') --start;
        if (!params || strncmp(start, "glevo_", 6) != 0) {
            snprintf(out + used, size - used, "%s", p);
            return;
        }
        const char *field = params + 8;
        size_t n = strcspn(field, " :,)");
        /* "width x height" is one field name of the cellular GA's grid */
        if (!strncmp(field, "width x height", 14)) n = 14;
        char flag[64];
        field_to_flag(field, n, flag, sizeof flag);
        used += (size_t)snprintf(out + used, size - used, "%.*s%s", (int)(start - p), p, flag);
        if (used >= size) used = size - 1;
        p = field + n;
    }
}

int cli_fail(const char *command, glevo_status status)
{
    /* A long library call stopped by a signal (run_control_library_begin): not an error. */
    if (status == GLEVO_ERR_INTERRUPTED && run_control_signal()) {
        if (!errors_silenced)
            fprintf(stderr, "glevo %s: stopped by %s before the first generation; nothing was "
                            "written\n", command, run_control_signal_name());
        return 128 + run_control_signal();
    }
    char message[1200];
    cli_flagify(glevo_last_error(), message, sizeof message);
    if (!errors_silenced) fprintf(stderr, "glevo %s: %s\n", command, message);
    return glevo_status_exit_code(status);
}

int cli_fail_fitness(const char *command, glevo_status status, const char *fitness)
{
    /* The program build's one-line error names the file and line first; an error in the
     * user's own --fitness file is bad input (exit 2), one in a library shader is ours. */
    if (status == GLEVO_ERR_GL && fitness) {
        char head[4200], from[4200];
        snprintf(head, sizeof head, "compile: %s:", fitness);
        snprintf(from, sizeof from, "(included from %s:", fitness);
        if (strstr(glevo_last_error(), head) || strstr(glevo_last_error(), from))
            status = GLEVO_ERR_INVALID;
    }
    return cli_fail(command, status);
}

/* The context "auto" opened to look at the device, handed to the command's
 * common_context_create rather than opened twice. */
static glevo_context *probed;

static glevo_context_params context_params(const common_opts *c)
{
    return (glevo_context_params){.device_plus_one = c->device >= 0 ? c->device + 1 : 0,
                                  .profile = c->profile,
                                  .debug = c->gl_debug,
                                  .log = cli_log};
}

/* "auto": the engine glevo_backend_resolve picks on the device asked for; the CPU where no
 * context can be had at all (said once on stderr, as the run is then not on a GPU), unless a
 * --device was named: that one failing is the user's to hear about. */
static int pick_backend(const char *command, common_opts *c,
                        glevo_backend (*resolve)(glevo_backend))
{
    glevo_context_params params = context_params(c);
    glevo_context *ctx = NULL;
    glevo_status st = glevo_context_create(&params, &ctx);
    if (st && c->device >= 0) return cli_fail(command, st);
    if (st) {
        if (!c->quiet)
            fprintf(stderr, "glevo: no GL context (%s): running on the CPU engine\n",
                    glevo_last_error());
        c->backend = "cpu";
        return 0;
    }
    c->backend = glevo_backend_name(resolve(GLEVO_BACKEND_AUTO));
    if (!strcmp(c->backend, "cpu")) glevo_context_destroy(ctx);
    else probed = ctx;
    return 0;
}

static int check_backend(const char *command, common_opts *c,
                         glevo_backend (*resolve)(glevo_backend))
{
    if (glevo_backend_parse(c->backend) < 0)
        return cli_bad_input(command, "--backend '%s' is unknown (fragment, compute, cpu or auto)",
                             c->backend);
    /* The context takes device + 1: bound it well below INT_MAX (no machine has 65536). */
    if (c->device < -1 || c->device > 65535)
        return cli_bad_input(command, "--device %d is out of range (-1 for automatic, 0..65535)", c->device);
    return strcmp(c->backend, "auto") ? 0 : pick_backend(command, c, resolve);
}

int common_check_backend(const char *command, common_opts *c)
{
    return check_backend(command, c, glevo_backend_resolve);
}

void common_forget_probe(void)
{
    glevo_context_destroy(probed);
    probed = NULL;
}

int common_check_gp_backend(const char *command, common_opts *c, const char *strategy)
{
    /* A fragment layout asked for (--strategy pppe, fp or ppcu) is a fragment run. */
    if (!strcmp(c->backend, "auto") && strcmp(strategy, "auto") && strcmp(strategy, "cpu"))
        c->backend = "fragment";
    return check_backend(command, c, glevo_gp_backend_resolve);
}

bool common_is_gpu(const common_opts *c) { return strcmp(c->backend, "cpu") != 0; }

glevo_backend common_backend(const common_opts *c)
{
    int b = glevo_backend_parse(c->backend);
    return glevo_backend_resolve(b < 0 ? GLEVO_BACKEND_FRAGMENT : (glevo_backend)b);
}

int common_context_create(const char *command, const common_opts *c, glevo_context **out)
{
    glevo_context_params params = context_params(c);
    glevo_status st = GLEVO_OK;
    if (probed) {
        *out = probed;
        probed = NULL;
    } else if ((st = glevo_context_create(&params, out)) != GLEVO_OK) {
        return cli_fail(command, st);
    }
    /* --backend compute on a context without compute shaders is the user's choice, not a
     * runtime failure: one line naming the GL version, exit 2. */
    int b = glevo_backend_parse(c->backend);
    if (b >= 0 && (st = glevo_backend_check((glevo_backend)b, "--backend")) != GLEVO_OK) {
        glevo_context_destroy(*out);
        *out = NULL;
        return cli_fail(command, st);
    }
    return 0;
}

double cli_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *cli_problem_choices(void)
{
    static char names[512];
    if (names[0]) return names;
    size_t used = 0;
    for (const glevo_problem *p = glevo_problems(); p->name; ++p) {
        int k = snprintf(names + used, sizeof names - used, "%s%s", used ? " " : "", p->name);
        if (k < 0 || (size_t)k >= sizeof names - used) break;
        used += (size_t)k;
    }
    return names;
}

int cli_gp_programs_load(const char *command, const char *data_path, const char *target,
                         const char *programs_path, glevo_gp_data **data,
                         glevo_gp_programs **progs, int *count)
{
    glevo_status st = glevo_gp_data_load_csv(data_path, target, data);
    if (!st && !(st = glevo_gp_programs_create(progs)))
        st = glevo_gp_programs_load(*progs, programs_path, glevo_gp_data_vars(*data));
    if (st) return cli_fail(command, st);
    if ((*count = glevo_gp_programs_count(*progs)) == 0)
        return cli_bad_input(command, "'%s' holds no programs", programs_path);
    return 0;
}
