/* glevo bench gp: the GPOCL throughput surface (Augusto & Barbosa 2012, §4): GPop/s = program
 * nodes x fitness cases / evaluation time, over population x dataset size, tree size 50,
 * 10 inputs, data uniform in [-1, 1], median of runs, for each fragment strategy (PPPE, FP,
 * PPCU), the compute kernel (with --backend compute) and the CPU interpreter (1 thread and all
 * cores) in the same run. The evaluation time
 * includes the program upload and the error readback, as the paper's does. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_gp_plot.h"
#include "bench_gp_runs.h"
#include "cli.h"
#include "glevo/gp.h"
#include "glevo/rng.h"

#define MAX_AXIS 16

/* A markdown table of GPop/s: rows the case counts, columns the populations, "–" where a
 * cell was not measured. */
static void print_table(FILE *f, double (*v)[MAX_AXIS], const int *pops, int npop,
                        const int *cases, int ncases)
{
    fprintf(f, "| cases \\ pop |");
    for (int i = 0; i < npop; ++i) fprintf(f, " %d |", pops[i]);
    fprintf(f, "\n|---|");
    for (int i = 0; i < npop; ++i) fprintf(f, "---|");
    fprintf(f, "\n");
    for (int j = 0; j < ncases; ++j) {
        fprintf(f, "| %d |", cases[j]);
        for (int i = 0; i < npop; ++i)
            if (v[i][j] > 0) fprintf(f, " %.4g |", v[i][j]);
            else fprintf(f, " – |");
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}
enum { S_PPPE, S_FP, S_PPCU, S_COMPUTE, S_RESIDENT, S_CPU1, S_CPUN, S_COUNT };
/* compute-resident: the compute kernel timed as EvoGP times its own (programs on the GPU, 5
 * evaluations then one synchronisation; glevo_gp_evaluate_timed), the others as GPOCL does. */
static const char *engine_names[S_COUNT] = {"pppe", "fp", "ppcu", "compute", "compute-resident",
                                            "cpu-1", "cpu-all"};

/* Whether the comma list names engine `name` (whole items only). */
static bool lists_engine(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *s = list; s && *s;) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n == len && !strncmp(s, name, len)) return true;
        s = end ? end + 1 : NULL;
    }
    return false;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_ints(const char *s, int *v, int max)
{
    int n = 0;
    while (s && *s && n < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x <= 0 || x > 10000000) return -1;
        v[n++] = (int)x;
        if (*end && *end != ',') return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static glevo_gp_data *random_data(int vars, int cases, uint32_t seed)
{
    float *x = malloc((size_t)vars * cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    glevo_gp_data *d = NULL;
    if (x && y) {
        for (size_t i = 0; i < (size_t)vars * cases; i += 4) {
            glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 0, 0, 0, seed, 0xDA7A);
            for (size_t k = 0; k < 4 && i + k < (size_t)vars * cases; ++k)
                x[i + k] = 2.0f * glevo_rng_u01(r.v[k]) - 1.0f;
        }
        for (int c = 0; c < cases; ++c) {
            glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 1, 0, 0, seed, 0xDA7A);
            y[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        }
        if (glevo_gp_data_create(vars, cases, x, y, &d)) d = NULL;
    }
    free(x);
    free(y);
    return d;
}

/* Median GPop/s of one engine on one cell; runs stop early once the cell has used `budget`
 * seconds (at least one timed run after an untimed warm-up that builds the shader). */
static int bench_lanes, bench_group, bench_tile_w;

static glevo_status measure(int engine, const glevo_gp_data *d, const glevo_gp_programs *p,
                            int runs, double budget, double *gpops, int *runs_done)
{
    static const glevo_gp_strategy strategies[S_COUNT] = {
        GLEVO_GP_PPPE, GLEVO_GP_FP, GLEVO_GP_PPCU, GLEVO_GP_AUTO, GLEVO_GP_AUTO, GLEVO_GP_AUTO,
        GLEVO_GP_AUTO};
    glevo_gp_eval_params ep = {.backend = engine >= S_CPU1 ? GLEVO_BACKEND_CPU
                                          : engine == S_COMPUTE || engine == S_RESIDENT
                                              ? GLEVO_BACKEND_COMPUTE
                                              : GLEVO_BACKEND_FRAGMENT,
                               .strategy = strategies[engine], .threads = engine == S_CPU1 ? 1 : 0,
                               .lanes = bench_lanes, .group = bench_group,
                               .tile_width = bench_tile_w};
    glevo_gp_evaluator *ev = NULL;
    int pop = glevo_gp_programs_count(p);
    double *errors = malloc((size_t)pop * sizeof *errors), times[64];
    glevo_status st = errors ? glevo_gp_evaluator_create(&ep, d, &ev)
                             : glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!st && engine < S_CPU1) st = glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, errors);
    int n = 0;
    double spent = 0;
    /* a signal ends the timing after at least one run: the median of those done */
    while (!st && n < runs && n < 64 && (n == 0 || (spent < budget && !bench_stopped()))) {
        double t0 = now();
        if (engine == S_RESIDENT) {
            glevo_gp_eval_timing t;
            st = glevo_gp_evaluate_timed(ev, p, 5, GLEVO_GP_SAE, errors, &t);
            times[n] = t.evaluate;
        } else {
            st = glevo_gp_evaluate(ev, p, GLEVO_GP_SAE, errors);
            times[n] = now() - t0;
        }
        spent += now() - t0;
        n++;
    }
    glevo_gp_evaluator_destroy(ev);
    free(errors);
    if (st) return st;
    qsort(times, (size_t)n, sizeof *times, cmp_double);
    double t = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
    *gpops = (double)glevo_gp_programs_nodes(p) * glevo_gp_data_cases(d) / t / 1e9;
    *runs_done = n;
    return GLEVO_OK;
}

int bench_gp(int argc, char **argv)
{
    const char *cmd = "bench gp";
    common_opts c = BENCH_OPTS_DEFAULT;
    bool quick = false, no_cpu = false, whole = false, no_eval = false;
    const char *whole_cells = "1000x100,10000x1000,10000x10000,100000x1000";
    const char *whole_data = NULL, *evogp_path = NULL, *whole_algorithms = "evogp,defaults";
    int whole_seeds = 3;
    const char *redraw = NULL, *caption = NULL;
    const char *out_dir = NULL, *pops_arg = NULL, *cases_arg = NULL, *sets_arg = "regression";
    const char *engines_arg = NULL;
    int runs = 5, size = 50, vars = 10;
    double budget = 2.0, cpu_limit = 6e9;
    bool help = false;
    opt_spec specs[] = {
        {"quick", OPT_FLAG, &quick, "small grid (pop and dataset 100, 1000, 5000), 3 runs"},
        {"redraw", OPT_STRING, &redraw, "gp.csv of an earlier run: draw its pictures under --out; runs nothing"},
        {"caption", OPT_STRING, &caption, "with --redraw: the pictures' caption (default: the CSV's renderer)"},
        {"out", OPT_STRING, &out_dir, "write gp.csv, gp.md and gp_<set>.svg/.png here"},
        {"pops", OPT_STRING, &pops_arg, "population sizes (default 100,1000,5000,10000,25000,50000)"},
        {"cases", OPT_STRING, &cases_arg, "dataset sizes (default as --pops)"},
        {"sets", OPT_CHOICE, OPT_CHOICES(sets_arg, "regression classification both"), "regression, classification or both"},
        {"engines", OPT_STRING, &engines_arg, "subset of pppe,fp,ppcu,compute,compute-resident,"
                                              "cpu-1,cpu-all (default: the fragment strategies, "
                                              "compute and compute-resident with --backend "
                                              "compute, and the CPU)"},
        {"runs", OPT_INT, &runs, "timed runs per cell (median), cut short by --budget"},
        {"budget", OPT_DOUBLE, &budget, "seconds per cell after which no further run starts"},
        {"cpu-limit", OPT_DOUBLE, &cpu_limit, "skip CPU cells above this many node evaluations"},
        {"no-cpu", OPT_FLAG, &no_cpu, "GPU strategies only"},
        {"whole", OPT_FLAG, &whole, "also whole runs (50 generations, max size 64) of --whole-cells"},
        {"whole-cells", OPT_STRING, &whole_cells, "POPxCASES list (default: evogp_fullrun.py's four)"},
        {"whole-seeds", OPT_INT, &whole_seeds, "timed whole runs a cell (seeds 1..N, after a first run)"},
        {"whole-data", OPT_STRING, &whole_data, "DIR of evogp_fullrun.py's sr_<cases>.csv (default: "
                                                "the same target on generated inputs)"},
        {"whole-algorithms", OPT_STRING, &whole_algorithms, "evogp (EvoGP's algorithm: the "
                                                             "machinery), defaults (what glevo gp "
                                                             "runs), or both"},
        {"no-eval", OPT_FLAG, &no_eval, "whole runs only, no evaluation surface"},
        {"evogp", OPT_STRING, &evogp_path, "CSV kind,pop,cases,value of EvoGP's GPop/s and run "
                                           "seconds from the same GPU machine: in the tables and "
                                           "the scaling pictures"},
        {"size", OPT_INT, &size, "program tree size (paper: 50)"},
        {"vars", OPT_INT, &vars, "input variables (paper: 10)"},
        {"lanes", OPT_INT, &bench_lanes, "GPU case-quads per program walk, 1..8 (0: 1)"},
        {"group", OPT_INT, &bench_group, "fp/ppcu fragments per program tile (0 or 64)"},
        {"tile-w", OPT_INT, &bench_tile_w, "fp/ppcu tile width in fragments, dividing 64 (0: 8)"},
        COMMON_OPT_SPECS(c),
        {0}};
    int rc = opt_parse(cmd, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench gp [--quick] [--out DIR] [--pops LIST] [--cases LIST]\n"
                               "       glevo bench gp --redraw gp.csv --out DIR [--caption TEXT]",
                       "GPOCL's GPop/s surface for PPPE, FP, PPCU, the compute kernel and the "
                       "CPU interpreter.", specs);
        return 0;
    }
    static gp_evogp evogp;
    if (evogp_path && (rc = gp_evogp_read(cmd, evogp_path, &evogp))) return rc;
    if (redraw) {
        if (!out_dir) return cli_bad_input(cmd, "--redraw needs --out DIR for the pictures");
        return gp_plot_redraw(redraw, out_dir, size, vars, caption, evogp_path ? &evogp : NULL);
    }
    if ((rc = common_check_gp_backend(cmd, &c, "auto"))) return rc;
    glevo_backend backend = (glevo_backend)glevo_backend_parse(c.backend);
    if (!engines_arg)
        engines_arg = backend == GLEVO_BACKEND_CPU       ? "cpu-1,cpu-all"
                      : backend == GLEVO_BACKEND_COMPUTE ? "pppe,fp,ppcu,compute,compute-resident,cpu-1,cpu-all"
                                                         : "pppe,fp,ppcu,cpu-1,cpu-all";
    int pops[MAX_AXIS] = {100, 1000, 5000, 10000, 25000, 50000}, npop = 6;
    int cases[MAX_AXIS] = {100, 1000, 5000, 10000, 25000, 50000}, ncases = 6;
    if (quick) {
        npop = ncases = 3;
        if (runs > 3) runs = 3;
    }
    if (pops_arg && (npop = parse_ints(pops_arg, pops, MAX_AXIS)) < 1)
        return cli_bad_input(cmd, "--pops '%s' is not a list of positive integers", pops_arg);
    if (cases_arg && (ncases = parse_ints(cases_arg, cases, MAX_AXIS)) < 1)
        return cli_bad_input(cmd, "--cases '%s' is not a list of positive integers", cases_arg);
    if (runs < 1 || runs > 64) return cli_bad_input(cmd, "--runs %d is outside 1..64", runs);
    if (size < 1 || size > 10000) return cli_bad_input(cmd, "--size %d is outside 1..10000", size);
    if (vars < 1 || vars > 1000) return cli_bad_input(cmd, "--vars %d is outside 1..1000", vars);
    /* 0 is the library's "default" for these: a negative must not pass as one. */
    if (budget < 0) return cli_bad_input(cmd, "--budget %g is negative", budget);
    if (cpu_limit < 0) return cli_bad_input(cmd, "--cpu-limit %g is negative", cpu_limit);
    if (bench_lanes < 0 || bench_lanes > 8) return cli_bad_input(cmd, "--lanes %d is outside 0..8", bench_lanes);
    if (bench_group != 0 && bench_group != 64) return cli_bad_input(cmd, "--group %d is not 0 or 64", bench_group);
    if (bench_tile_w < 0 || (bench_tile_w > 0 && 64 % bench_tile_w))
        return cli_bad_input(cmd, "--tile-w %d does not divide 64 (0: the default)", bench_tile_w);
    int engines[S_COUNT], nengines = 0;
    for (int e = 0; e < S_COUNT; ++e) {
        if (lists_engine(engines_arg, engine_names[e]) && !(no_cpu && e >= S_CPU1))
            engines[nengines++] = e;
    }
    if (nengines == 0) return cli_bad_input(cmd, "--engines '%s' names no engine", engines_arg);
    gp_whole_opts wo = {.seeds = whole_seeds, .data_dir = whole_data, .cpu_limit = cpu_limit * 20};
    if (whole_seeds < 1 || whole_seeds > GP_WHOLE_MAX_SEEDS)
        return cli_bad_input(cmd, "--whole-seeds %d is outside 1..%d", whole_seeds, GP_WHOLE_MAX_SEEDS);
    if (no_eval && !whole) return cli_bad_input(cmd, "--no-eval needs --whole (nothing would run)");
    if (whole && (rc = gp_whole_parse_cells(cmd, whole_cells, &wo))) return rc;
    if (whole && (rc = gp_whole_parse_algorithms(cmd, whole_algorithms, &wo))) return rc;
    for (int e = 0; e < nengines; ++e)
        wo.engines |= engines[e] <= S_PPCU                                  ? 1u
                      : engines[e] == S_COMPUTE || engines[e] == S_RESIDENT ? 2u
                      : engines[e] == S_CPUN                                ? 4u
                                                                            : 0u;
    double evogp_runs[GP_WHOLE_MAX_CELLS];
    if (evogp_path) {
        for (int k = 0; k < wo.ncells; ++k)
            evogp_runs[k] = gp_evogp_value(&evogp, 'r', wo.pops[k], wo.cases[k]);
        wo.evogp_runs = evogp_runs;
    }
    int nsets = 0;
    glevo_gp_function_set sets[2];
    if (!strcmp(sets_arg, "regression") || !strcmp(sets_arg, "both")) sets[nsets++] = GLEVO_GP_REGRESSION;
    if (!strcmp(sets_arg, "classification") || !strcmp(sets_arg, "both"))
        sets[nsets++] = GLEVO_GP_CLASSIFICATION;
    if (nsets == 0) return cli_bad_input(cmd, "--sets '%s' is unknown", sets_arg);

    glevo_context *ctx = NULL;
    if ((rc = common_context_create(cmd, &c, &ctx))) return rc;
    const char *renderer = glevo_context_renderer(ctx);
    FILE *csv = NULL, *md = NULL;
    char path[1024];
    if ((rc = bench_open_tables(cmd, out_dir, "gp", &md, &csv))) {
        glevo_context_destroy(ctx);
        return rc;
    }
    if (csv) fprintf(csv, "set,engine,pop,cases,gpops,runs,renderer\n");
    time_t t = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    static double g[S_COUNT][MAX_AXIS][MAX_AXIS];
    int cells_done = 0;
    bench_signals_start();
    for (int si = 0; si < nsets && !rc && !no_eval && !bench_stopped(); ++si) {
        const char *set = sets[si] == GLEVO_GP_REGRESSION ? "regression" : "classification";
        memset(g, 0, sizeof g);
        for (int j = 0; j < ncases && !rc && !bench_stopped(); ++j) {
            glevo_gp_data *d = random_data(vars, cases[j], c.seed + (uint32_t)j);
            if (!d) {
                rc = cli_fail(cmd, GLEVO_ERR_NOMEM);
                break;
            }
            for (int i = 0; i < npop && !rc && !bench_stopped(); ++i) {
                glevo_gp_programs *p = NULL;
                glevo_status st = glevo_gp_programs_create(&p);
                if (!st)
                    st = glevo_gp_programs_random(p, pops[i], glevo_gp_function_set_ops(sets[si]),
                                                  vars, size, c.seed * 7919u + (uint32_t)i);
                for (int e = 0; e < nengines && !st && !bench_stopped(); ++e) {
                    int eng = engines[e], done = 0;
                    double work = (double)pops[i] * size * cases[j];
                    if (eng >= S_CPU1 && work > cpu_limit) continue;
                    st = measure(eng, d, p, runs, budget, &g[eng][i][j], &done);
                    if (!st) {
                        cells_done++;
                        if (!c.quiet)
                            fprintf(stderr, "%s %-8s pop %6d cases %6d: %10.4f GPop/s (%d runs)\n",
                                    set, engine_names[eng], pops[i], cases[j], g[eng][i][j], done);
                        if (csv)
                            fprintf(csv, "%s,%s,%d,%d,%.6g,%d,\"%s\"\n", set, engine_names[eng],
                                    pops[i], cases[j], g[eng][i][j], done, renderer);
                        if (csv) fflush(csv);
                    }
                }
                glevo_gp_programs_destroy(p);
                if (st) rc = cli_fail(cmd, st);
            }
            glevo_gp_data_destroy(d);
        }
        if (rc) break;
        /* Tables: one per engine, rows = dataset size, columns = population. */
        for (int k = 0; k < 2; ++k) {
            FILE *f = k == 0 ? stdout : md;
            if (!f) continue;
            fprintf(f, "## GPop/s, %s set, tree size %d, %d inputs (%s, %s, %ld CPU cores; "
                       "median of up to %d runs)\n\n", set, size, vars, renderer, date, cores, runs);
            for (int e = 0; e < nengines; ++e) {
                fprintf(f, "%s\n\n", engine_names[engines[e]]);
                print_table(f, g[engines[e]], pops, npop, cases, ncases);
            }
            if (evogp_path) {
                static double ev[MAX_AXIS][MAX_AXIS];
                for (int i = 0; i < npop; ++i)
                    for (int j = 0; j < ncases; ++j)
                        ev[i][j] = gp_evogp_value(&evogp, 'g', pops[i], cases[j]);
                fprintf(f, "EvoGP (from %s; its own random trees, not these)\n\n", evogp_path);
                print_table(f, ev, pops, npop, cases, ncases);
            }
        }
        if (out_dir) {
            char caption[512];
            snprintf(caption, sizeof caption, "%s, %s", renderer, date);
            static double chart_values[S_COUNT * MAX_AXIS * MAX_AXIS];
            const char *chart_engines[S_COUNT];
            for (int e = 0; e < nengines; ++e) {
                chart_engines[e] = engine_names[engines[e]];
                for (int j = 0; j < ncases; ++j)
                    for (int i = 0; i < npop; ++i) chart_values[(e * ncases + j) * npop + i] = g[engines[e]][i][j];
            }
            for (int k = 0; k < 2; ++k) {
                snprintf(path, sizeof path, "%s/gp_%s.%s", out_dir, set, k ? "png" : "svg");
                if (gp_plot_write(path, set, size, vars, pops, npop, cases, ncases, chart_values, chart_engines,
                                  nengines, caption))
                    fprintf(stderr, "bench gp: %s\n", glevo_last_error());
                snprintf(path, sizeof path, "%s/gp_scaling_%s.%s", out_dir, set, k ? "png" : "svg");
                if (gp_scaling_write(path, set, pops, npop, cases, ncases, chart_values, chart_engines,
                                     nengines, evogp_path ? &evogp : NULL, caption))
                    fprintf(stderr, "bench gp: %s\n", glevo_last_error());
            }
        }
    }
    if (!rc && whole && !bench_stopped()) {
        FILE *runs_csv = NULL;
        if (out_dir) {
            snprintf(path, sizeof path, "%s/gp_runs.csv", out_dir);
            if (!(runs_csv = fopen(path, "w"))) rc = cli_bad_input(cmd, "cannot write %s", path);
        }
        if (!rc) rc = gp_whole_runs(cmd, &wo, renderer, runs_csv, md, c.quiet);
        if (runs_csv && fclose(runs_csv) && !rc) rc = cli_fail(cmd, GLEVO_ERR_IO);
    }
    int bad = bench_close_table(csv, rc == 0);
    bad |= bench_close_table(md, rc == 0);
    if (!rc && bad) rc = cli_fail(cmd, GLEVO_ERR_IO);
    glevo_context_destroy(ctx);
    return bench_stop_exit(cmd, cells_done, "measurements", rc);
}
