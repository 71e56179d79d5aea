/* glevo bench SUITE: dispatch to the paper reproductions in bench/. */
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "cli.h"

int cmd_bench(int argc, char **argv)
{
    static const struct { const char *name; int (*run)(int, char **); } suites[] = {
        {"cga", bench_cga}, {"de", bench_de}, {"gp", bench_gp}, {"dsmga", bench_dsmga},
        {"plot", bench_plot}};
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out, "usage: glevo bench SUITE [--quick] [--out DIR] [--backend ...]\n"
                     "suites: cga (Li, Chi, Wan 2008 tables 1-2), de (Qin et al. 2012 tables "
                     "1-3), gp (GPOCL GPop/s surface), dsmga (Li & Yu 2017 speedups); plot (a line\n"
                     "chart from a CSV of series,x,y)\n");
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i)
        if (!strcmp(argv[1], suites[i].name)) return suites[i].run(argc - 1, argv + 1);
    return cli_bad_input("bench", "unknown suite '%s' (known: cga, de, gp, dsmga)", argv[1]);
}
