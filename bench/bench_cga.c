/* glevo bench cga: placeholder until its issue lands. */
#include <stdio.h>

#include "bench.h"

int bench_cga(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "glevo bench cga: not implemented yet\n");
    return 2;
}
