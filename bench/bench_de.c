/* glevo bench de: placeholder until its issue lands. */
#include <stdio.h>

#include "bench.h"

int bench_de(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "glevo bench de: not implemented yet\n");
    return 2;
}
