/* glevo bench cga: Li, Chi & Wan (2008) Tables 1 and 2 reproduced.
 * Table 1: runs per function reaching the global optimum, standard GA (CPU) vs cellular GA.
 * Table 2: seconds for 1000 generations by population size: GPU cellular GA, CPU cellular GA
 * (the same passes' C twins) and the CPU standard GA, in one run on one machine. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../cli/cli.h"
#include "bench.h"
#include "bench_cga_peer.h"
#include "glevo/cga.h"

typedef struct paper_row { int pop; double sga, gpu; } paper_row;
static const char *const problems[3] = {"schwefel", "schaffer", "camel"};
/* Paper Table 1: runs (of 100) reaching the optimum; Table 2: seconds, GeForce 6800 LE. */
static const int paper_success[3][2] = {{61, 78}, {64, 97}, {79, 84}};
static const paper_row paper_times[3][5] = {
    {{200, 9.3, 5.8}, {400, 19.4, 6.1}, {800, 41.6, 8.1}, {3200, 229.1, 23.9}, {10000, 1303.1, 62.1}},
    {{200, 5.1, 3.3}, {400, 10.6, 3.5}, {800, 24.5, 4.5}, {3200, 160.8, 12.5}, {10000, 1086.7, 21.4}},
    {{200, 3.0, 2.2}, {400, 6.8, 2.5}, {800, 16.2, 3.3}, {3200, 128.8, 7.6}, {10000, 978.5, 13.3}},
};
/* Grids for the paper's populations and beyond (width even). */
static const int grids[][2] = {{20, 10}, {20, 20}, {40, 20}, {80, 40}, {100, 100},
                               {256, 256}, {512, 512}, {1024, 1024}};

typedef struct bench_opts {
    bool quick;
    const char *out, *table, *peer;
    int runs, generations_t1, pop_t1[2];
    double cpu_budget;
    common_opts common;
    glevo_backend gpu_backend; /* the GPU engine of the tables: fragment (default) or compute */
} bench_opts;

static double optimum_of(const glevo_problem *p, int dim) { return glevo_problem_optimum(p, dim); }

static int run_once(glevo_context *ctx, const glevo_problem *pr, int w, int h, int generations,
                    uint32_t seed, glevo_backend backend, glevo_cga_algorithm alg,
                    double *best, double *seconds)
{
    glevo_cga_params p = {.problem = pr, .width = w, .height = h, .seed = seed,
                          .backend = backend, .algorithm = alg, .report_every = 1000000};
    glevo_cga *cga;
    glevo_status st = glevo_cga_create(&p, &cga);
    if (st) return cli_fail("bench cga", st);
    if (backend != GLEVO_BACKEND_CPU) { /* warm-up: shader compile, first-use costs */
        glevo_cga_step(cga, 1);
        glevo_context_finish(ctx);
    }
    double t0 = cli_seconds_now();
    st = glevo_cga_step(cga, generations);
    glevo_context_finish(ctx);
    *seconds = cli_seconds_now() - t0;
    glevo_cga_best b;
    if (!st) st = glevo_cga_best_get(cga, &b);
    glevo_cga_destroy(cga);
    if (st) return cli_fail("bench cga", st);
    *best = b.fitness;
    return 0;
}

/* Rows of tables 1 and 2 whose runs all completed (a signal stops the suite). */
static int rows_done;

/* One Markdown file per table under --out (none without it). */
static FILE *open_out(const bench_opts *o, const char *table)
{
    FILE *f = NULL;
    bench_open_tables("bench cga", o->out, table, &f, NULL);
    return f;
}

static void emit(FILE *file, const char *fmt, ...)
{
    va_list a;
    va_start(a, fmt);
    vprintf(fmt, a);
    va_end(a);
    if (file) {
        va_start(a, fmt);
        vfprintf(file, fmt, a);
        va_end(a);
    }
}

static int table1(const bench_opts *o, glevo_context *ctx, const char *renderer)
{
    FILE *f = open_out(o, "cga_table1");
    int w = o->pop_t1[0], h = o->pop_t1[1];
    emit(f, "\n### Table 1: runs reaching the global optimum (of %d), %dx%d = %d individuals, %d generations\n\n",
         o->runs, w, h, w * h, o->generations_t1);
    emit(f, "Success: |best - optimum| <= 1e-4 * max(1, |optimum|). Cellular GA on %s.\n\n", renderer);
    emit(f, "| function | SGA (ours) | cGA (ours) | SGA (paper) | cGA (paper) |\n|---|---|---|---|---|\n");
    for (int k = 0; k < 3 && !bench_stopped(); ++k) {
        const glevo_problem *pr = glevo_problem_find(problems[k]);
        double opt = optimum_of(pr, pr->fixed_dim ? pr->fixed_dim : pr->default_dim);
        double tol = 1e-4 * fmax(1.0, fabs(opt));
        int ok[2] = {0, 0};
        for (int r = 0; r < o->runs && !bench_stopped(); ++r)
            for (int e = 0; e < 2; ++e) {
                double best, secs;
                glevo_backend be = e == 0 || !common_is_gpu(&o->common) ? GLEVO_BACKEND_CPU : o->gpu_backend;
                int rc = run_once(be != GLEVO_BACKEND_CPU ? ctx : NULL, pr, w, h, o->generations_t1,
                                  o->common.seed + (uint32_t)r, be, e == 0 ? GLEVO_CGA_STANDARD : GLEVO_CGA_CELLULAR,
                                  &best, &secs);
                if (rc) return rc;
                ok[e] += fabs(best - opt) <= tol;
            }
        if (bench_stopped()) break; /* a row counts every run or none */
        rows_done++;
        emit(f, "| %s | %d | %d | %d | %d |\n", problems[k], ok[0], ok[1], paper_success[k][0], paper_success[k][1]);
        if (!o->common.quiet) fprintf(stderr, "glevo bench cga: table 1 %s done\n", problems[k]);
    }
    if (bench_close_table(f, true)) return cli_fail("bench cga", GLEVO_ERR_IO);
    return 0;
}

/* CPU engines at large sizes are timed over fewer generations and scaled to 1000, so the
 * table finishes; the column says how many generations were actually timed. */
static int timed(glevo_context *ctx, const glevo_problem *pr, int w, int h, glevo_backend be,
                 glevo_cga_algorithm alg, double budget, uint32_t seed, double *per1000, int *timed_gens)
{
    double best, secs;
    int gens = 1000;
    if (be == GLEVO_BACKEND_CPU) {
        int rc = run_once(NULL, pr, w, h, 2, seed, be, alg, &best, &secs);
        if (rc) return rc;
        double per_gen = secs / 2;
        if (per_gen * 1000 > budget) gens = (int)fmax(2, budget / per_gen);
    }
    int rc = run_once(be != GLEVO_BACKEND_CPU ? ctx : NULL, pr, w, h, gens, seed, be, alg, &best, &secs);
    if (rc) return rc;
    *per1000 = secs * 1000.0 / gens;
    *timed_gens = gens;
    return 0;
}

static int table2(const bench_opts *o, glevo_context *ctx, const char *renderer)
{
    FILE *f = open_out(o, "cga_table2");
    int sizes = o->quick ? 5 : (int)(sizeof grids / sizeof grids[0]);
    emit(f, "\n### Table 2: seconds for 1000 generations (GPU: %s)\n\n", renderer);
    emit(f, "CPU engines single-threaded; where 1000 generations would exceed %.0f s they are timed over the\n"
            "generations shown in brackets and scaled. Paper: Pentium IV 2.66 GHz vs GeForce 6800 LE.\n\n", o->cpu_budget);
    for (int k = 0; k < 3 && !bench_stopped(); ++k) {
        const glevo_problem *pr = glevo_problem_find(problems[k]);
        emit(f, "**%s**\n\n| population | grid | GPU cGA s | CPU cGA s | CPU SGA s | GPU vs CPU cGA | GPU vs SGA | paper SGA s | paper GPU s | paper speedup |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n", pr->name);
        for (int s = 0; s < sizes && !bench_stopped(); ++s) {
            int w = grids[s][0], h = grids[s][1];
            double gpu = NAN, ccga = NAN, sga = NAN;
            int g_gpu = 0, g_ccga = 0, g_sga = 0, rc;
            if (ctx && (rc = timed(ctx, pr, w, h, o->gpu_backend, 0, 0, o->common.seed, &gpu, &g_gpu))) return rc;
            if ((rc = timed(NULL, pr, w, h, GLEVO_BACKEND_CPU, GLEVO_CGA_CELLULAR, o->cpu_budget, o->common.seed, &ccga, &g_ccga))) return rc;
            if ((rc = timed(NULL, pr, w, h, GLEVO_BACKEND_CPU, GLEVO_CGA_STANDARD, o->cpu_budget, o->common.seed, &sga, &g_sga))) return rc;
            if (bench_stopped()) break;
            rows_done++;
            char paper[64] = "| | | ";
            for (int r = 0; r < 5; ++r)
                if (paper_times[k][r].pop == w * h)
                    snprintf(paper, sizeof paper, "| %.1f | %.1f | %.1f", paper_times[k][r].sga, paper_times[k][r].gpu,
                             paper_times[k][r].sga / paper_times[k][r].gpu);
            emit(f, "| %d | %dx%d | %.3f | %.3f | %.3f | %.1fx | %.1fx %s |\n", w * h, w, h, gpu, ccga, sga,
                 ccga / gpu, sga / gpu, paper);
            if (g_ccga < 1000 || g_sga < 1000)
                emit(f, "|  | (CPU timed over %d / %d generations) | | | | | | | | |\n", g_ccga, g_sga);
            if (!o->common.quiet) fprintf(stderr, "glevo bench cga: table 2 %s %d done\n", pr->name, w * h);
        }
        emit(f, "\n");
    }
    if (bench_close_table(f, true)) return cli_fail("bench cga", GLEVO_ERR_IO);
    return 0;
}

int bench_cga(int argc, char **argv)
{
    bench_opts o = {.table = "all", .runs = 100, .generations_t1 = 200, .pop_t1 = {32, 32},
                    .cpu_budget = 60, .common = BENCH_OPTS_DEFAULT};
    opt_spec specs[] = {
        {"quick", OPT_FLAG, &o.quick, "small run: 10 runs for table 1, populations up to 10000"},
        {"out", OPT_STRING, &o.out, "also write the tables as Markdown files into this directory"},
        {"table", OPT_CHOICE, OPT_CHOICES(o.table, "1 2 all"), "1, 2 or all"},
        {"runs", OPT_INT, &o.runs, "runs per function for table 1"},
        {"generations", OPT_INT, &o.generations_t1, "generations per run for table 1"},
        {"grid", OPT_GRID, o.pop_t1, "population grid for table 1"},
        {"cpu-budget", OPT_DOUBLE, &o.cpu_budget, "seconds one CPU timing may take before it is scaled"},
        {"peer", OPT_STRING, &o.peer, "instead of the tables: the compute backend beside a peer's JSON lines "
         "(../shared/peers/cga_jax.py's output), best of --runs (default 3), grid by grid"},
        COMMON_OPT_SPECS(o.common),
        {0}};
    bool help;
    int rc = opt_parse("bench cga", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench cga [--quick] [--table 1|2|all] [--out DIR]",
                       "Reproduces Li, Chi & Wan (2008) Tables 1 and 2.", specs);
        return 0;
    }
    if ((rc = common_check_backend("bench cga", &o.common))) return rc;
    if (strcmp(o.table, "1") && strcmp(o.table, "2") && strcmp(o.table, "all"))
        return cli_bad_input("bench cga", "--table '%s' is not 1, 2 or all", o.table);
    if (o.runs < 1) return cli_bad_input("bench cga", "--runs %d is below 1", o.runs);
    if (o.generations_t1 < 1)
        return cli_bad_input("bench cga", "--generations %d is below 1", o.generations_t1);
    if (!(o.cpu_budget > 0)) return cli_bad_input("bench cga", "--cpu-budget %g is not positive", o.cpu_budget);
    if (o.peer && o.runs == 100) o.runs = 3;
    if (o.peer && !common_is_gpu(&o.common))
        return cli_bad_input("bench cga", "--peer times the compute backend: --backend cpu has none");
    if (o.quick && o.runs == 100) o.runs = 10;
    if (o.quick && o.cpu_budget == 60) o.cpu_budget = 5;
    if ((rc = bench_make_out_dir("bench cga", o.out))) return rc;
    glevo_context *ctx = NULL;
    char renderer[256] = "cpu only";
    if (common_is_gpu(&o.common)) {
        if ((rc = common_context_create("bench cga", &o.common, &ctx))) return rc;
        o.gpu_backend = common_backend(&o.common);
        snprintf(renderer, sizeof renderer, "%s, %s backend", glevo_context_renderer(ctx),
                 glevo_backend_name(o.gpu_backend));
    }
    printf("## glevo bench cga (Li, Chi & Wan 2008), renderer: %s\n", renderer);
    if (o.peer) {
        rc = bench_cga_peer(ctx, o.peer, o.out, o.runs, o.common.quiet);
        glevo_context_destroy(ctx);
        return rc;
    }
    bench_signals_start();
    if (!rc && strcmp(o.table, "2")) rc = table1(&o, ctx, renderer);
    if (!rc && strcmp(o.table, "1")) rc = table2(&o, ctx, renderer);
    glevo_context_destroy(ctx);
    return bench_stop_exit("bench cga", rows_done, "table rows", rc);
}
