/* glevo gp-eval: placeholder until its issue lands. */
#include "cli.h"

int cmd_gp_eval(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("gp-eval", "this command is not implemented yet");
}
