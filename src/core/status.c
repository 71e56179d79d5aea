/* Thread-local last-error sentence behind glevo_fail / glevo_last_error. */
#include "glevo/status.h"
#include "core/args.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[1024];

const char *glevo_last_error(void) { return last_error; }

void glevo_clear_error(void) { last_error[0] = '\0'; }

glevo_status glevo_fail(glevo_status status, const char *fmt, ...)
{
    /* Formatted aside first: callers may pass glevo_last_error() itself as an argument
     * ("...: %s", glevo_last_error()), which vsnprintf must not read while writing it. */
    char message[sizeof last_error];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt ? fmt : "(no message)", args);
    va_end(args);
    memcpy(last_error, message, sizeof last_error);
    return status;
}

static volatile sig_atomic_t interrupt_pending;

void glevo_interrupt(void) { interrupt_pending = 1; }
int glevo_interrupt_pending(void) { return interrupt_pending != 0; }
void glevo_interrupt_clear(void) { interrupt_pending = 0; }

static struct sigaction host_sigint;
static volatile sig_atomic_t sigint_hooked;

static void on_sigint(int sig)
{
    interrupt_pending = 1;
    if (host_sigint.sa_flags & SA_SIGINFO) {
        if (host_sigint.sa_sigaction) host_sigint.sa_sigaction(sig, NULL, NULL);
    } else if (host_sigint.sa_handler != SIG_DFL && host_sigint.sa_handler != SIG_IGN) {
        host_sigint.sa_handler(sig);
    }
}

glevo_status glevo_interrupt_on_sigint(int on)
{
    if (on) {
        /* Already on: the host's handler saved the first time stays the one to chain to (a
         * host whose own exception came between "on" and "off" turns it on again). */
        if (sigint_hooked) return GLEVO_OK;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGINT, &sa, &host_sigint) != 0)
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_interrupt_on_sigint: sigaction failed");
        sigint_hooked = 1;
        return GLEVO_OK;
    }
    if (sigint_hooked) {
        sigaction(SIGINT, &host_sigint, NULL);
        sigint_hooked = 0;
    }
    return GLEVO_OK;
}

int glevo_status_exit_code(glevo_status status)
{
    if (status == GLEVO_OK) return 0;
    return status == GLEVO_ERR_INVALID ? 2 : 1;
}

#ifndef GLEVO_VERSION
#define GLEVO_VERSION "0.0.0"
#endif
const char *glevo_version_string(void) { return GLEVO_VERSION; }

glevo_status args_null(const char *function, const char *argument)
{
    return glevo_fail(GLEVO_ERR_INVALID, "%s: %s is NULL", function, argument);
}
