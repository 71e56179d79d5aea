/* glevo bench de: Qin et al. 2012 Tables 1-3 (cudaDE_i, GTX 560): shifted sphere, Rosenbrock,
 * Griewank, Rastrigin (F1-F4) x D 10/50/100 x NP 50/100/500/1000, DE/rand/1/bin F 0.5 CR 0.3,
 * 10^4 D evaluations, 25 runs, success = EFV < 1e-8. Prints the paper's figures beside ours
 * (any of the fragment, compute and CPU engines) as a Markdown table; --out DIR also writes
 * de.md and de.csv there. --cells hands over to bench_de_cells.c. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "cli.h"
#include "bench_de.h"

static const char *const problem_names[4] = {"sphere", "rosenbrock", "griewank", "rastrigin"};
static const int dims[3] = {10, 50, 100};
static const int pops[4] = {50, 100, 500, 1000};

/* Paper: [D][F][NP] = {EFV mean, EFV std, time mean (s), SR}. Tables 1, 2, 3. */
static const double paper[3][4][4][4] = {
    {{{0, 0, 1.159, 1}, {0, 0, 0.633, 1}, {0, 0, 0.228, 1}, {0, 0, 0.192, 1}},
     {{0.388, 1.235, 1.159, 0.44}, {0.044, 0.068, 0.632, 0.32}, {1.306, 1.388, 0.229, 0},
      {2.597, 1.847, 0.196, 0}},
     {{0, 0, 1.261, 1}, {0, 0, 0.648, 1}, {0, 0, 0.222, 1}, {0, 0, 0.210, 1}},
     {{0, 0, 1.158, 1}, {0, 0, 0.635, 1}, {0, 0, 0.207, 1}, {0, 0, 0.192, 1}}},
    {{{0, 0, 6.881, 1}, {0, 0, 4.937, 1}, {0, 0, 3.453, 1}, {0, 0, 3.348, 1}},
     {{213.544, 625.959, 6.940, 0}, {12.244, 7.100, 5.055, 0.04}, {46.968, 19.274, 3.549, 0},
      {56.365, 24.123, 3.443, 0}},
     {{0.001, 0.002, 8.142, 0.92}, {0, 0, 5.902, 1}, {0, 0, 4.349, 1}, {0, 0, 4.282, 1}},
     {{18.286, 3.97, 7.006, 0}, {2.936, 1.472, 4.914, 0.04}, {28.345, 14.084, 3.851, 0.04},
      {65.628, 8.607, 3.692, 0}}},
    {{{0, 0, 18.624, 1}, {0, 0, 16.396, 1}, {0, 0, 12.289, 1}, {0, 0, 11.557, 1}},
     {{15.720, 24.466, 19.003, 0}, {42.293, 32.790, 16.919, 0}, {113.292, 22.349, 12.679, 0},
      {118.43, 33.239, 11.917, 0}},
     {{0.002, 0.006, 22.376, 0.84}, {0.005, 0.027, 20.929, 0.96}, {0, 0.002, 15.784, 0.96},
      {0, 0, 14.794, 1}},
     {{63.166, 8.984, 18.862, 0}, {48.329, 9.172, 17.417, 0}, {40.891, 8.539, 13.236, 0},
      {114.234, 47.738, 12.644, 0}}}};

typedef struct cell {
    double efv_mean, efv_std, t_mean, t_std, sr;
    bool ok;
} cell;

static double sd(double sum, double sq, int n)
{
    if (n < 2) return 0.0;
    double m = sum / n, v = (sq - n * m * m) / (n - 1);
    return v > 0 ? sqrt(v) : 0.0;
}

typedef struct de_job {
    glevo_de_params params;
    glevo_backend backend;
    uint32_t seed;
    int runs;
    atomic_int next;
    de_run_outcome *out;
} de_job;

static void run_one(de_job *job, int k)
{
    glevo_de_params p = job->params;
    p.seed = job->seed + (uint32_t)k;
    p.backend = job->backend;
    glevo_de_result r;
    de_run_outcome *o = &job->out[k];
    o->status = glevo_de_run(&p, &r);
    if (o->status != GLEVO_OK) return;
    o->efv = r.efv;
    o->seconds = r.seconds;
    o->generations = r.generations;
    snprintf(o->engine, sizeof o->engine, "%s", r.engine);
    glevo_de_result_free(&r);
}

static void *de_worker(void *arg)
{
    de_job *job = arg;
    /* a signal: the runs in progress finish, no new one starts (the caller drops the cell) */
    for (int k; !bench_stopped() && (k = atomic_fetch_add(&job->next, 1)) < job->runs;)
        run_one(job, k);
    return NULL;
}

glevo_status bench_de_runs(const glevo_de_params *params, glevo_backend backend, uint32_t seed,
                           int runs, int jobs, de_run_outcome *out)
{
    de_job job = {.params = *params, .backend = backend, .seed = seed, .runs = runs, .out = out};
    atomic_init(&job.next, 0);
    if (backend != GLEVO_BACKEND_CPU) jobs = 1;
    if (jobs > runs) jobs = runs;
    pthread_t tid[63];
    int started = 0;
    for (; started < jobs - 1 && started < 63; ++started)
        if (pthread_create(&tid[started], NULL, de_worker, &job) != 0) break;
    de_worker(&job); /* this thread works too, and alone when no thread could start */
    for (int t = 0; t < started; ++t) pthread_join(tid[t], NULL);
    for (int k = 0; k < runs; ++k)
        if (out[k].status != GLEVO_OK) return out[k].status;
    return GLEVO_OK;
}

int bench_de_backends(const char *list, glevo_backend *out, int *count)
{
    *count = 0;
    if (!strcmp(list, "both")) list = "fragment,cpu";
    bool seen[4] = {false};
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), p);
        int b = glevo_backend_parse(name);
        if (b < 0 || b == GLEVO_BACKEND_AUTO || n > 31)
            return cli_bad_input("bench de", "--backend '%s': '%s' is not fragment, compute "
                                 "or cpu (or both, or a comma list)", list, name);
        if (!seen[b] && *count < DE_BENCH_MAX_ENGINES) out[(*count)++] = (glevo_backend)b;
        seen[b] = true;
        p += n;
        if (*p == ',') ++p;
    }
    if (!*count) return cli_bad_input("bench de", "--backend '%s' names no engine", list);
    return 0;
}

void bench_de_csv_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* One cell of the tables: mean/std of EFV and time, success rate, and the engine that ran. */
static glevo_status run_cell(const char *problem, int dim, int pop, int runs, uint32_t seed,
                             glevo_backend backend, glevo_de_kernel kernel, int jobs, cell *out,
                             char *engine, size_t engine_size)
{
    glevo_de_params params = {.problem = glevo_problem_find(problem), .dim = dim, .pop = pop,
                              .kernel = kernel};
    de_run_outcome *o = calloc((size_t)runs, sizeof *o);
    if (!o) return glevo_fail(GLEVO_ERR_NOMEM, "no memory for %d run results", runs);
    glevo_status st = bench_de_runs(&params, backend, seed, runs, jobs, o);
    double es = 0, eq = 0, ts = 0, tq = 0;
    int success = 0;
    for (int k = 0; k < runs && st == GLEVO_OK; ++k) {
        es += o[k].efv;
        eq += o[k].efv * o[k].efv;
        ts += o[k].seconds;
        tq += o[k].seconds * o[k].seconds;
        success += o[k].efv < 1e-8;
    }
    if (st == GLEVO_OK) {
        *out = (cell){es / runs, sd(es, eq, runs), ts / runs, sd(ts, tq, runs),
                      (double)success / runs, true};
        snprintf(engine, engine_size, "%s", o[0].engine);
    }
    free(o);
    return st;
}

static void fmt_cell(char *buf, size_t n, const cell *c)
{
    if (!c->ok) snprintf(buf, n, "| - | - | - ");
    else
        snprintf(buf, n, "| %.3g (%.3g) | %.2f | %.3f (%.3f) ", c->efv_mean, c->efv_std, c->sr,
                 c->t_mean, c->t_std);
}

static const char *backend_title(glevo_backend b)
{
    return b == GLEVO_BACKEND_CPU ? "CPU" : b == GLEVO_BACKEND_COMPUTE ? "compute" : "fragment";
}

int bench_de(int argc, char **argv)
{
    common_opts c = BENCH_OPTS_DEFAULT;
    c.backend = "both";
    bool quick = false, help = false;
    int runs = 0, only_dim = 0, jobs = 1;
    const char *out_dir = NULL, *cells = NULL, *kernel_name = "auto";
    opt_spec specs[] = {
        {"quick", OPT_FLAG, &quick, "D = 10 only, 3 runs a cell (CI-sized)"},
        {"runs", OPT_INT, &runs, "runs a cell (0: 25, or 3 with --quick; --cells: 5)"},
        {"dim", OPT_INT, &only_dim, "only this table's D (10, 50 or 100; 0: all)"},
        {"out", OPT_STRING, &out_dir, "also write de.md and de.csv (de_cells.*) into this folder"},
        {"backend", OPT_STRING, &c.backend,
         "fragment, compute, cpu, both (fragment and cpu) or a comma list, e.g. compute,fragment"},
        {"kernel", OPT_CHOICE, OPT_CHOICES(kernel_name, "auto generation resident"), "compute backend: auto, generation or resident"},
        {"cells", OPT_STRING, &cells,
         "timing cells D:NP,... on shifted sphere at 10^4 D evaluations (median of --runs) "
         "instead of the tables"},
        {"jobs", OPT_INT, &jobs, "CPU-engine runs of a cell at once, one thread each (1..64)"},
        {"seed", OPT_UINT, &c.seed, "first seed (run k uses seed + k)"},
        {"device", OPT_INT, &c.device, "EGL device index (-1: prefer hardware)"},
        {"profile", OPT_FLAG, &c.profile, "per-pass GPU time table on stderr at the end"},
        {"quiet", OPT_FLAG, &c.quiet, "no progress on stderr"},
        {0}};
    int rc = opt_parse("bench de", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench de [--quick] [--runs N] [--dim D] [--backend LIST] "
                               "[--cells D:NP,...] [--out DIR]",
                       "Qin et al. 2012 Tables 1-3 with the paper's cudaDE_i figures beside ours.",
                       specs);
        return 0;
    }
    glevo_backend engines[DE_BENCH_MAX_ENGINES];
    int n_engines = 0;
    if ((rc = bench_de_backends(c.backend, engines, &n_engines))) return rc;
    int kernel = glevo_de_kernel_parse(kernel_name);
    if (kernel < 0)
        return cli_bad_input("bench de", "--kernel '%s' is unknown (auto, generation, resident)",
                             kernel_name);
    if (only_dim && only_dim != 10 && only_dim != 50 && only_dim != 100)
        return cli_bad_input("bench de", "--dim %d is not a table of the paper (10, 50, 100)",
                             only_dim);
    if (runs < 0) return cli_bad_input("bench de", "--runs %d is negative", runs);
    if (jobs < 1 || jobs > 64) return cli_bad_input("bench de", "--jobs %d is outside 1..64", jobs);
    int cell_list[DE_BENCH_MAX_CELLS][2], n_cells = 0;
    if (cells && (rc = bench_de_cells_parse(cells, cell_list, &n_cells))) return rc;
    bool use_gpu = false;
    for (int k = 0; k < n_engines; ++k) use_gpu |= engines[k] != GLEVO_BACKEND_CPU;

    glevo_context *ctx = NULL;
    const char *renderer = "cpu";
    if (use_gpu) {
        common_opts gl = c;
        gl.backend = "fragment";
        if ((rc = common_context_create("bench de", &gl, &ctx))) return rc;
        renderer = glevo_context_renderer(ctx);
        for (int k = 0; k < n_engines; ++k) {
            glevo_status st = glevo_backend_check(engines[k], "--backend");
            if (st != GLEVO_OK) {
                glevo_context_destroy(ctx);
                return cli_fail("bench de", st);
            }
        }
    }
    if (cells) {
        rc = bench_de_cells(cell_list, n_cells, engines, n_engines, runs ? runs : 5,
                            (glevo_de_kernel)kernel, c.seed, renderer, out_dir, c.quiet);
        if (ctx && c.profile) glevo_context_print_profile(ctx, stderr);
        glevo_context_destroy(ctx);
        return rc;
    }
    if (!runs) runs = quick ? 3 : 25;
    if (quick && !only_dim) only_dim = 10;
    FILE *md = NULL, *csv = NULL;
    if ((rc = bench_open_tables("bench de", out_dir, "de", &md, &csv))) {
        glevo_context_destroy(ctx);
        return rc;
    }
    if (csv) {
        fprintf(csv, "dim,problem,pop,source,efv_mean,efv_std,success_rate,seconds_mean,"
                     "seconds_std,us_per_generation,engine,renderer\n");
    }
    FILE *outs[2] = {stdout, md};
    for (int o = 0; o < 2; ++o) {
        if (!outs[o]) continue;
        fprintf(outs[o],
                "# DE: Qin et al. 2012 Tables 1-3 (DE/rand/1/bin, F 0.5, CR 0.3, 10^4 D "
                "evaluations, %d runs a cell)\n\nRenderer: %s. Paper: cudaDE_i on a GTX 560. "
                "Cells: mean EFV (std) | success rate | mean time s (std). Each time is one "
                "run's wall time; CPU-engine runs (single-threaded) ran %d at a time. Compute "
                "kernel: %s.\n\n",
                runs, renderer, jobs, kernel_name);
    }
    glevo_status st = GLEVO_OK;
    int cells_done = 0;
    bench_signals_start();
    for (int di = 0; di < 3 && st == GLEVO_OK && !bench_stopped(); ++di) {
        if (only_dim && dims[di] != only_dim) continue;
        for (int o = 0; o < 2; ++o) {
            if (!outs[o]) continue;
            fprintf(outs[o], "## D = %d\n\n| F | NP | paper EFV | SR | time s ", dims[di]);
            for (int k = 0; k < n_engines; ++k)
                fprintf(outs[o], "| %s EFV | SR | time s ", backend_title(engines[k]));
            for (int k = 0; k < n_engines; ++k)
                if (engines[k] != GLEVO_BACKEND_CPU)
                    fprintf(outs[o], "| %s/paper time | %s us/gen ", backend_title(engines[k]),
                            backend_title(engines[k]));
            fprintf(outs[o], "|\n|---|---|---|---|---");
            for (int k = 0; k < n_engines; ++k) fprintf(outs[o], "|---|---|---");
            for (int k = 0; k < n_engines; ++k)
                if (engines[k] != GLEVO_BACKEND_CPU) fprintf(outs[o], "|---|---");
            fprintf(outs[o], "|\n");
        }
        for (int f = 0; f < 4 && st == GLEVO_OK && !bench_stopped(); ++f) {
            for (int pi = 0; pi < 4 && st == GLEVO_OK && !bench_stopped(); ++pi) {
                const double *pp = paper[di][f][pi];
                cell pc = {pp[0], pp[1], pp[2], 0, pp[3], true}, got[DE_BENCH_MAX_ENGINES] = {{0}};
                char engine[DE_BENCH_MAX_ENGINES][32] = {""};
                for (int k = 0; k < n_engines && st == GLEVO_OK && !bench_stopped(); ++k)
                    st = run_cell(problem_names[f], dims[di], pops[pi], runs, c.seed, engines[k],
                                  (glevo_de_kernel)kernel, jobs, &got[k], engine[k],
                                  sizeof engine[k]);
                if (st != GLEVO_OK || bench_stopped()) break;
                cells_done++;
                /* Generations a run: (budget - NP initial evaluations) / NP. Small NP: the
                 * launch cost of a generation; large NP: its arithmetic. */
                long long gens = (10000LL * dims[di] - pops[pi]) / pops[pi];
                char a[128], b[DE_BENCH_MAX_ENGINES][128], ratio[DE_BENCH_MAX_ENGINES][64];
                snprintf(a, sizeof a, "| %.3f (%.3f) | %.2f | %.3f ", pc.efv_mean, pc.efv_std,
                         pc.sr, pc.t_mean);
                for (int k = 0; k < n_engines; ++k) {
                    fmt_cell(b[k], sizeof b[k], &got[k]);
                    /* the compute kernel that ran, auto picks per cell */
                    const char *kind = strncmp(engine[k], "compute.", 8) ? "" : engine[k] + 7;
                    snprintf(ratio[k], sizeof ratio[k], "| %.3g | %.1f%s%s ",
                             got[k].t_mean / pc.t_mean, 1e6 * got[k].t_mean / (double)gens,
                             *kind ? " " : "", *kind ? kind + 1 : "");
                }
                for (int o = 0; o < 2; ++o) {
                    if (!outs[o]) continue;
                    fprintf(outs[o], "| F%d %s | %d %s", f + 1, problem_names[f], pops[pi], a);
                    for (int k = 0; k < n_engines; ++k) fputs(b[k], outs[o]);
                    for (int k = 0; k < n_engines; ++k)
                        if (engines[k] != GLEVO_BACKEND_CPU) fputs(ratio[k], outs[o]);
                    fprintf(outs[o], "|\n");
                    fflush(outs[o]);
                }
                if (csv) {
                    fprintf(csv, "%d,%s,%d,paper,%.6g,%.6g,%.4f,%.6g,%.6g,,cudaDE_i,",
                            dims[di], problem_names[f], pops[pi], pc.efv_mean, pc.efv_std, pc.sr,
                            pc.t_mean, pc.t_std);
                    bench_de_csv_string(csv, "NVIDIA GeForce GTX 560");
                    fputc('\n', csv);
                    for (int k = 0; k < n_engines; ++k) {
                        const cell *x = &got[k];
                        fprintf(csv, "%d,%s,%d,%s,%.6g,%.6g,%.4f,%.6g,%.6g,%.4g,%s,", dims[di],
                                problem_names[f], pops[pi], glevo_backend_name(engines[k]),
                                x->efv_mean, x->efv_std, x->sr, x->t_mean, x->t_std,
                                1e6 * x->t_mean / (double)gens, engine[k]);
                        bench_de_csv_string(csv, engines[k] == GLEVO_BACKEND_CPU ? "cpu" : renderer);
                        fputc('\n', csv);
                    }
                }
                if (!c.quiet)
                    fprintf(stderr, "glevo bench de: D %d F%d NP %d done\n", dims[di], f + 1,
                            pops[pi]);
            }
        }
        for (int o = 0; o < 2; ++o)
            if (outs[o]) fputc('\n', outs[o]);
    }
    for (int o = 0; o < 2; ++o) {
        if (!outs[o]) continue;
        fprintf(outs[o],
                "Success rates that differ from the paper's: NP 500/1000 leave 20 D - 1 and\n"
                "10 D - 1 generations, too few to reach 1e-8 at CR 0.3 at the per-generation rate\n"
                "the NP 50/100 runs show; an independent double-precision DE/rand/1/bin agrees with\n"
                "ours on 10-D Rosenbrock and 50-D Rastrigin. README.md (Performance) goes cell by\n"
                "cell.\n");
    }
    int bad = bench_close_table(md, st == GLEVO_OK);
    bad |= bench_close_table(csv, st == GLEVO_OK);
    if (st == GLEVO_OK && bad) st = GLEVO_ERR_IO;
    if (ctx && c.profile) glevo_context_print_profile(ctx, stderr);
    glevo_context_destroy(ctx);
    if (st != GLEVO_OK) return cli_fail("bench de", st);
    return bench_stop_exit("bench de", cells_done, "cells", 0);
}
