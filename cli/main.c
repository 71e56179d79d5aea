/* glevo: evolutionary algorithms as GLSL render passes. Dispatches to one subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "glevo/output.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"info", cmd_info, "list EGL devices and the GL implementation glevo would use"},
    {"cga", cmd_cga, "fine-grained (cellular) GA, Li, Chi & Wan 2008"},
    {"de", cmd_de, "differential evolution, Qin et al. 2012 (cudaDE_i)"},
    {"gp", cmd_gp, "genetic programming with GPU tree evaluation (GPOCL 2012)"},
    {"gp-eval", cmd_gp_eval, "evaluate programs on a dataset"},
    {"dsmga", cmd_dsmga, "DSMGA-II with GPU model building, Li & Yu 2017"},
    {"dsm", cmd_dsm, "mutual-information matrix of a population file"},
    {"bench", cmd_bench, "reproduce a paper's tables: cga, de, gp, dsmga"},
};

/* `glevo __complete WORD... CURRENT`: the candidates for the word being typed, one a line, for
 * the bash completion (cli/glevo.bash-completion). Each command's own option table answers
 * (opt_complete_begin), so completion cannot drift from what the parser accepts. */
static int complete(int argc, char **argv)
{
    int words = argc - 1; /* typed after `glevo`, the word being completed last */
    if (words <= 1) {
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
            printf("%s\n", commands[i].name);
        printf("--help\n--version\n");
        return 0;
    }
    const char *command = argv[1];
    int first_option = 2; /* the index of the command's first option among argv */
    if (!strcmp(command, "bench")) {
        if (words == 2) {
            cmd_bench_list_suites(stdout);
            return 0;
        }
        first_option = 3;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        if (strcmp(command, commands[i].name)) continue;
        opt_complete_begin(argc - 1 > first_option ? argv[argc - 2] : NULL);
        char *help_argv[] = {argv[1], argv[2], "--help", NULL};
        if (first_option == 2) help_argv[1] = "--help", help_argv[2] = NULL;
        /* opt_print_help answers and exits; a command without a table prints nothing. */
        FILE *quiet = freopen("/dev/null", "w", stderr);
        (void)quiet;
        commands[i].run(first_option, help_argv);
        return 0;
    }
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: glevo COMMAND [OPTIONS]   (glevo COMMAND --help for its options)\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\ncommon options: --backend auto|fragment|compute|cpu, --seed S, --device N, --json, "
                 "--profile, --help\nenvironment: GLEVO_SHADER_DIR overrides embedded shaders; "
                 "GLEVO_PROGRAM_CACHE=DIR\nkeeps linked programs there (default "
                 "~/.cache/glevo/programs; 0: off)\n");
}

/* Output on stdout is part of the result: a write error there (a full disk, `> /dev/full`)
 * fails the command instead of passing for success. */
static int finish(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "glevo: cannot write the output: %s\n", strerror(errno ? errno : EIO));
        return rc ? rc : 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* Ctrl-C or a kill during a run removes the temporary files of outputs being written. */
    glevo_output_install_signal_cleanup();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(0);
    }
    if (!strcmp(argv[1], "__complete")) return finish(complete(argc - 1, argv + 1));
    if (!strcmp(argv[1], "--version")) {
        printf("glevo %s\n", glevo_version_string());
        return finish(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (!strcmp(argv[1], commands[i].name)) return finish(commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "glevo: unknown command '%s' (try glevo --help)\n", argv[1]);
    return 2;
}
