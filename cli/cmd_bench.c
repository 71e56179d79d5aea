/* glevo bench: placeholder until its issue lands. */
#include "cli.h"

int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_bad_input("bench", "this command is not implemented yet");
}
