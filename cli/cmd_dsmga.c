/* glevo dsmga: placeholder until its issue lands. */
#include "cli.h"

int cmd_dsmga(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("dsmga", "this command is not implemented yet");
}
