/* Options and failure paths shared by every algorithm command. */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli.h"

int cli_bad_input(const char *command, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "glevo %s: ", command);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    return 2;
}

int cli_fail(const char *command, glevo_status status)
{
    fprintf(stderr, "glevo %s: %s\n", command, glevo_last_error());
    return glevo_status_exit_code(status);
}

int cli_fail_fitness(const char *command, glevo_status status, const char *fitness)
{
    /* The program build's one-line error names the file and line first; an error in the
     * user's own --fitness file is bad input (exit 2), one in a library shader is ours. */
    if (status == GLEVO_ERR_GL && fitness) {
        char head[4200];
        snprintf(head, sizeof head, "compile: %s:", fitness);
        if (strstr(glevo_last_error(), head)) status = GLEVO_ERR_INVALID;
    }
    return cli_fail(command, status);
}

int common_check_backend(const char *command, const common_opts *c)
{
    if (strcmp(c->backend, "fragment") && strcmp(c->backend, "cpu"))
        return cli_bad_input(command, "--backend '%s' is unknown (fragment or cpu)", c->backend);
    /* The context takes device + 1: bound it well below INT_MAX (no machine has 65536). */
    if (c->device < -1 || c->device > 65535)
        return cli_bad_input(command, "--device %d is out of range (-1 for automatic, 0..65535)", c->device);
    return 0;
}

bool common_is_gpu(const common_opts *c) { return strcmp(c->backend, "cpu") != 0; }

int common_context_create(const char *command, const common_opts *c, glevo_context **out)
{
    glevo_context_params params = {.device_plus_one = c->device >= 0 ? c->device + 1 : 0,
                                   .profile = c->profile,
                                   .debug = c->gl_debug};
    glevo_status st = glevo_context_create(&params, out);
    if (st != GLEVO_OK) return cli_fail(command, st);
    return 0;
}

double cli_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
