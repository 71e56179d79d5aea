/* glevo bench dsmga: placeholder until its issue lands. */
#include <stdio.h>

#include "bench.h"

int bench_dsmga(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "glevo bench dsmga: not implemented yet\n");
    return 2;
}
