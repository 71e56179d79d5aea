/* glevo cga: placeholder until its issue lands. */
#include "cli.h"

int cmd_cga(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("cga", "this command is not implemented yet");
}
