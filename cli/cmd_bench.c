/* glevo bench SUITE: dispatch to the paper reproductions in bench/. */
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "cli.h"

static const struct { const char *name; int (*run)(int, char **); } suites[] = {
    {"cga", bench_cga}, {"de", bench_de}, {"gp", bench_gp}, {"dsmga", bench_dsmga},
    {"plot", bench_plot}, {"islands", bench_islands}, {"gp-layouts", bench_gp_layouts},
    {"compile", bench_compile}};

void cmd_bench_list_suites(FILE *out)
{
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i) fprintf(out, "%s\n", suites[i].name);
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        FILE *out = argc < 2 ? stderr : stdout;
        fprintf(out, "usage: glevo bench SUITE [--quick] [--out DIR] [--json] [--backend ...]\n"
                     "suites: cga (Li, Chi, Wan 2008 tables 1-2), de (Qin et al. 2012 tables "
                     "1-3), gp (GPOCL GPop/s surface), dsmga (Li & Yu 2017 speedups); plot (a line\n"
                     "chart from a CSV of series,x,y); islands (--redraw: the islands' speed-up\n"
                     "picture from scripts/device/islands-multigpu.sh's tables); gp-layouts (the\n"
                     "compute GP evaluator's layouts on given programs); compile (each GL\n"
                     "program's cold compile time)\n"
                     "--json: one JSON object on stdout, {suite, tables: [{title, columns, rows}], text}\n");
        return argc < 2 ? 2 : 0;
    }
    /* --json is the dispatcher's: the suite runs as always and its tables become JSON (a
     * --help anywhere wins and prints the suite's help instead). */
    bool json = false, help = false;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) help = true;
        if (i > 1 && !strcmp(argv[i], "--json")) json = true;
        else argv[kept++] = argv[i];
    }
    if (help) json = false;
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; ++i)
        if (!strcmp(argv[1], suites[i].name))
            return json ? bench_run_json(suites[i].name, suites[i].run, kept - 1, argv + 1)
                        : suites[i].run(kept - 1, argv + 1);
    return cli_bad_input("bench", "unknown suite '%s' (known: cga, de, gp, dsmga, plot, islands, gp-layouts, compile)", argv[1]);
}
