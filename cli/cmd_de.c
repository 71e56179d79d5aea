/* glevo de: placeholder until its issue lands. */
#include "cli.h"

int cmd_de(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("de", "this command is not implemented yet");
}
