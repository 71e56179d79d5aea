/* glevo bench gp: placeholder until its issue lands. */
#include <stdio.h>

#include "bench.h"

int bench_gp(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "glevo bench gp: not implemented yet\n");
    return 2;
}
