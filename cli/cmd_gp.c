/* glevo gp: placeholder until its issue lands. */
#include "cli.h"

int cmd_gp(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("gp", "this command is not implemented yet");
}
