/* glevo dsm: placeholder until its issue lands. */
#include "cli.h"

int cmd_dsm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("dsm", "this command is not implemented yet");
}
