/* glevo bench gp --whole: whole GP runs beside the evaluation cells (issue 24), the cells of
 * .peers/evogp_fullrun.py: 50 generations, max size 64, the regression set, MSE, target
 * y = x1 x2 + sin x3 + x4^2 - 0.5 x5 over x uniform in [-1, 1]^10 (or evogp_fullrun.py's own
 * CSVs, --whole-data DIR/sr_<cases>.csv, for the very same data). One untimed run per cell
 * and engine first (it builds the shaders: the figures are warm), then seeds 1..N, each
 * timed from glevo_gp_create to the last generation's errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_gp_runs.h"
#include "cli.h"
#include "glevo/chart.h"
#include "glevo/rng.h"

/* The evogp_fullrun.py target over Philox-uniform inputs (the same distribution, not the same
 * draws: give --whole-data for those). */
static glevo_gp_data *fullrun_data(int cases, uint32_t seed)
{
    enum { VARS = 10 };
    float *x = malloc((size_t)VARS * cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    glevo_gp_data *d = NULL;
    if (x && y) {
        for (int c = 0; c < cases; ++c) {
            float v[VARS];
            for (int k = 0; k < VARS; k += 4) {
                glevo_u32x4 r = glevo_philox4x32((uint32_t)c, (uint32_t)k, 0, 0, seed, 0xF0115);
                for (int m = 0; m < 4 && k + m < VARS; ++m)
                    v[k + m] = 2.0f * glevo_rng_u01(r.v[m]) - 1.0f;
            }
            for (int k = 0; k < VARS; ++k) x[(size_t)k * cases + c] = v[k];
            y[c] = v[0] * v[1] + sinf(v[2]) + v[3] * v[3] - 0.5f * v[4];
        }
        if (glevo_gp_data_create(VARS, cases, x, y, &d)) d = NULL;
    }
    free(x);
    free(y);
    return d;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define EVOGP_FUNCTION_SET "+,-,*,/,neg,sin,cos"

const char *const gp_whole_algorithm_names[GP_WHOLE_ALGORITHMS] = {"evogp", "defaults"};
static const char *const algorithm_titles[GP_WHOLE_ALGORITHMS] = {"EvoGP's algorithm", "defaults"};

/* One whole run: seconds (create to done), of which evaluation, and the best MSE. */
static glevo_status one_run(const glevo_gp_data *d, glevo_backend backend, int algorithm, int pop,
                            uint32_t seed, double *seconds, double *eval_seconds, double *best)
{
    glevo_gp_params p = {.pop = pop, .generations = 50, .max_size = 64, .metric = GLEVO_GP_MSE,
                         .backend = backend, .seed = seed};
    if (algorithm == GP_WHOLE_EVOGP) {
        /* EvoGP's pipeline (evogp_fullrun.py): + - * / sin cos (and glevo's neg, the set these
         * cells were first measured with), no linear scaling, no constant fitting, one search
         * (no portfolio), no enumerated programs: the same algorithm, so the times compare
         * machinery, not methods. */
        p.linear_scaling = p.const_opt_iters = p.portfolio = p.enumeration = GLEVO_ZERO;
        glevo_status pst = glevo_gp_function_set_parse(EVOGP_FUNCTION_SET, &p.ops);
        if (pst) return pst;
    } /* else what `glevo gp --data FILE` runs: mse, scaling, fitting, portfolio, enumeration */
    p = glevo_gp_params_defaults(&p);
    glevo_gp *gp = NULL;
    double t0 = cli_seconds_now();
    glevo_status st = glevo_gp_create(&p, d, &gp);
    while (!st && !glevo_gp_done(gp)) st = glevo_gp_step(gp, p.generations);
    *seconds = cli_seconds_now() - t0;
    glevo_gp_result r = {0};
    if (!st && !(st = glevo_gp_result_get(gp, &r))) {
        *eval_seconds = r.eval_seconds;
        *best = r.best_error;
        glevo_gp_result_free(&r);
    }
    glevo_gp_destroy(gp);
    return st;
}

static const char *const engine_names[] = {"fragment", "compute", "cpu"};
static const glevo_backend engine_backends[] = {GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_COMPUTE,
                                                GLEVO_BACKEND_CPU};

/* What the table shows: a median a cell (0: not run), the first run of each engine and
 * algorithm in this process (it builds the programs). */
typedef struct whole_table {
    double med[GP_WHOLE_MAX_CELLS][3][GP_WHOLE_ALGORITHMS];
    double first[3][GP_WHOLE_ALGORITHMS];
} whole_table;

static void write_table(FILE *f, const gp_whole_opts *o, const whole_table *t, const char *renderer)
{
    fprintf(f, "## Whole runs, seconds (median of seeds 1-%d after a first run; 50 generations, "
               "max size 64, regression set, MSE; %s)\n\n| programs x cases |", o->seeds, renderer);
    for (int e = 0; e < 3; ++e)
        for (int a = 0; a < GP_WHOLE_ALGORITHMS; ++a)
            if ((o->engines & (1u << e)) && (o->algorithms & (1u << a)))
                fprintf(f, " %s, %s |", engine_names[e], algorithm_titles[a]);
    if (o->evogp_runs) fprintf(f, " EvoGP pipeline |");
    fprintf(f, "\n|---|");
    for (int e = 0; e < 3; ++e)
        for (int a = 0; a < GP_WHOLE_ALGORITHMS; ++a)
            if ((o->engines & (1u << e)) && (o->algorithms & (1u << a))) fprintf(f, "---|");
    fprintf(f, o->evogp_runs ? "---|\n" : "\n");
    for (int k = 0; k < o->ncells; ++k) {
        fprintf(f, "| %d x %d |", o->pops[k], o->cases[k]);
        for (int e = 0; e < 3; ++e)
            for (int a = 0; a < GP_WHOLE_ALGORITHMS; ++a)
                if ((o->engines & (1u << e)) && (o->algorithms & (1u << a))) {
                    if (t->med[k][e][a] > 0) fprintf(f, " %.3f |", t->med[k][e][a]);
                    else fprintf(f, " – |");
                }
        if (o->evogp_runs) {
            double v = o->evogp_runs[k];
            if (v > 0) fprintf(f, " %.3f |", v);
            else fprintf(f, " – |");
        }
        fprintf(f, "\n");
    }
    /* The first run pays for building the programs: loaded from glevo's program cache (or the
     * driver's) when warm, compiled when the caches are off (__GL_SHADER_DISK_CACHE=0,
     * MESA_SHADER_CACHE_DISABLE=true turn both off). */
    fprintf(f, "\nFirst run at %d x %d (it builds the programs), seconds", o->pops[0], o->cases[0]);
    const char *sep = ": ";
    for (int e = 0; e < 3; ++e)
        for (int a = 0; a < GP_WHOLE_ALGORITHMS; ++a)
            if (t->first[e][a] > 0) {
                fprintf(f, "%s%s, %s %.3f (the median after it %.3f)", sep, engine_names[e],
                        algorithm_titles[a], t->first[e][a], t->med[0][e][a]);
                sep = "; ";
            }
    fprintf(f, ".\n\n");
}

/* Seeds 1..o->seeds of one cell, engine and algorithm after a first run: their median into
 * *median, the first's seconds into *first. */
static glevo_status run_cell(const gp_whole_opts *o, const glevo_gp_data *d, int k, int e, int a,
                             const char *renderer, FILE *csv, bool quiet, double *median,
                             double *first)
{
    double secs[GP_WHOLE_MAX_SEEDS], eval = 0, best = 0;
    int pop = o->pops[k], cases = o->cases[k];
    for (int r = 0; r <= o->seeds; ++r) { /* r = 0: the first run, seed 1 */
        double *s = r ? &secs[r - 1] : first;
        glevo_status st = one_run(d, engine_backends[e], a, pop, r ? (uint32_t)r : 1, s, &eval, &best);
        if (st) return st;
        if (!quiet)
            fprintf(stderr, "whole run %-8s %-8s pop %6d cases %6d %s %d: %.4f s (evaluation "
                    "%.4f s), best MSE %.4g\n", engine_names[e], gp_whole_algorithm_names[a], pop,
                    cases, r ? "seed" : "first, seed", r ? r : 1, *s, eval, best);
        if (csv)
            fprintf(csv, "%s,%s,%d,%d,%d,%.6g,%.6g,%.9g,\"%s\"\n", engine_names[e],
                    gp_whole_algorithm_names[a], pop, cases, r, *s, eval, best, renderer);
    }
    qsort(secs, (size_t)o->seeds, sizeof *secs, cmp_double);
    *median = o->seeds % 2 ? secs[o->seeds / 2] : 0.5 * (secs[o->seeds / 2 - 1] + secs[o->seeds / 2]);
    return GLEVO_OK;
}

int gp_whole_runs(const char *cmd, const gp_whole_opts *o, const char *renderer, FILE *csv,
                  FILE *md, bool quiet)
{
    static whole_table t;
    memset(&t, 0, sizeof t);
    if (csv) fprintf(csv, "engine,algorithm,pop,cases,seed,seconds,eval_seconds,best_mse,renderer\n");
    /* A signal ends the runs at the next cell (bench_signals_start, bench.h). */
    for (int k = 0; k < o->ncells && !bench_stopped(); ++k) {
        int pop = o->pops[k], cases = o->cases[k];
        glevo_gp_data *d = NULL;
        if (o->data_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/sr_%d.csv", o->data_dir, cases);
            glevo_status st = glevo_gp_data_load_csv(path, NULL, &d);
            if (st) return cli_fail(cmd, st);
        } else if (!(d = fullrun_data(cases, 1))) {
            return cli_fail(cmd, glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d cases", cases));
        }
        for (int e = 0; e < 3; ++e) {
            /* The CPU's runs only where they take seconds, not minutes. */
            if (!(o->engines & (1u << e)) ||
                (engine_backends[e] == GLEVO_BACKEND_CPU && (double)pop * cases * 50 * 30 > o->cpu_limit))
                continue;
            for (int a = 0; a < GP_WHOLE_ALGORITHMS; ++a) {
                if (!(o->algorithms & (1u << a))) continue;
                double first = 0;
                glevo_status st = run_cell(o, d, k, e, a, renderer, csv, quiet, &t.med[k][e][a], &first);
                if (st) {
                    glevo_gp_data_destroy(d);
                    return cli_fail(cmd, st);
                }
                if (k == 0) t.first[e][a] = first;
            }
        }
        glevo_gp_data_destroy(d);
    }
    write_table(stdout, o, &t, renderer);
    if (md) write_table(md, o, &t, renderer);
    return 0;
}

int gp_whole_parse_algorithms(const char *cmd, const char *text, gp_whole_opts *o)
{
    o->algorithms = 0;
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, ",");
        int a = 0;
        while (a < GP_WHOLE_ALGORITHMS && !(strlen(gp_whole_algorithm_names[a]) == n &&
                                            !strncmp(s, gp_whole_algorithm_names[a], n)))
            ++a;
        if (a == GP_WHOLE_ALGORITHMS)
            return cli_bad_input(cmd, "--whole-algorithms '%s': '%.*s' is neither evogp nor "
                                 "defaults", text, (int)n, s);
        o->algorithms |= 1u << a;
        s += n + (s[n] == ',');
    }
    return o->algorithms ? 0 : cli_bad_input(cmd, "--whole-algorithms '%s' names none", text);
}

int gp_whole_parse_cells(const char *cmd, const char *text, gp_whole_opts *o)
{
    o->ncells = 0;
    const char *s = text;
    while (*s) {
        char *end;
        long pop = strtol(s, &end, 10), cases = 0;
        if (end != s && *end == 'x') cases = strtol(s = end + 1, &end, 10);
        if (end == s || pop < 1 || pop > 10000000 || cases < 1 || cases > 10000000 ||
            (*end && *end != ',') || o->ncells == GP_WHOLE_MAX_CELLS)
            return cli_bad_input(cmd, "--whole-cells '%s' is not a list of up to %d POPxCASES",
                                 text, GP_WHOLE_MAX_CELLS);
        o->pops[o->ncells] = (int)pop;
        o->cases[o->ncells++] = (int)cases;
        s = *end ? end + 1 : end;
    }
    return o->ncells ? 0 : cli_bad_input(cmd, "--whole-cells '%s' names no cell", text);
}

int gp_evogp_read(const char *cmd, const char *path, gp_evogp *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) return cli_bad_input(cmd, "--evogp %s: cannot be read", path);
    char line[512];
    int n = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        if (++n == 1) {
            if (strncmp(line, "kind,pop,cases,value", 20))
                rc = cli_bad_input(cmd, "%s line 1: not kind,pop,cases,value", path);
            continue;
        }
        char kind[32];
        int pop, cases;
        double v;
        if (sscanf(line, "%31[^,],%d,%d,%lf", kind, &pop, &cases, &v) != 4 || pop < 1 ||
            cases < 1 || !(v > 0) || (strcmp(kind, "gpops") && strcmp(kind, "run_seconds"))) {
            rc = cli_bad_input(cmd, "%s line %d: not gpops|run_seconds,POP,CASES,VALUE > 0", path, n);
            break;
        }
        char k = kind[0] == 'g' ? 'g' : 'r';
        int i = 0;
        while (i < out->n && !(out->kind[i] == k && out->pop[i] == pop && out->cases[i] == cases)) ++i;
        if (i == out->n) {
            if (out->n == GP_EVOGP_MAX) {
                rc = cli_bad_input(cmd, "%s: more than %d points", path, GP_EVOGP_MAX);
                break;
            }
            out->kind[i] = k, out->pop[i] = pop, out->cases[i] = cases, out->value[i] = v;
            out->n++;
        } else if (k == 'g' ? v > out->value[i] : v < out->value[i]) {
            out->value[i] = v;
        }
    }
    fclose(f);
    return rc;
}

double gp_evogp_value(const gp_evogp *e, char kind, int pop, int cases)
{
    for (int i = 0; e && i < e->n; ++i)
        if (e->kind[i] == kind && e->pop[i] == pop && e->cases[i] == cases) return e->value[i];
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

glevo_status gp_scaling_write(const char *path, const char *set, const int *pops, int npop,
                              const int *cases, int ncases, const double *values,
                              const char *const *engines, int nengines, const gp_evogp *evogp,
                              const char *caption)
{
    enum { MAX_SERIES = 64, MAX_PTS = 32 };
    static double xs[MAX_SERIES][MAX_PTS], ys[MAX_SERIES][MAX_PTS];
    static char names[MAX_SERIES][64];
    glevo_chart_series series[MAX_SERIES];
    int ns = 0;
    for (int e = 0; e < nengines; ++e)
        for (int i = 0; i < npop && ns < MAX_SERIES; ++i) {
            int n = 0;
            for (int j = 0; j < ncases && n < MAX_PTS; ++j) {
                double v = values[(e * ncases + j) * npop + i];
                if (v > 0) xs[ns][n] = cases[j], ys[ns][n++] = v;
            }
            if (n == 0) continue;
            snprintf(names[ns], sizeof names[ns], "%s, %d programs", engines[e], pops[i]);
            series[ns] = (glevo_chart_series){.name = names[ns], .x = xs[ns], .y = ys[ns], .n = n,
                                              .colour = e, .dash = i % 3};
            ns++;
        }
    /* EvoGP: a line per population it was measured at, through every case count it was. */
    int epops[GP_EVOGP_MAX], nep = 0;
    for (int k = 0; evogp && k < evogp->n; ++k) {
        if (evogp->kind[k] != 'g') continue;
        int seen = 0;
        for (int m = 0; m < nep; ++m) seen |= epops[m] == evogp->pop[k];
        if (!seen) epops[nep++] = evogp->pop[k];
    }
    qsort(epops, (size_t)nep, sizeof *epops, cmp_int);
    for (int m = 0; m < nep && ns < MAX_SERIES; ++m) {
        int ec[MAX_PTS], n = 0;
        for (int k = 0; k < evogp->n && n < MAX_PTS; ++k)
            if (evogp->kind[k] == 'g' && evogp->pop[k] == epops[m]) ec[n++] = evogp->cases[k];
        qsort(ec, (size_t)n, sizeof *ec, cmp_int);
        for (int j = 0; j < n; ++j)
            xs[ns][j] = ec[j], ys[ns][j] = gp_evogp_value(evogp, 'g', epops[m], ec[j]);
        snprintf(names[ns], sizeof names[ns], "EvoGP, %d programs", epops[m]);
        series[ns] = (glevo_chart_series){.name = names[ns], .x = xs[ns], .y = ys[ns], .n = n,
                                          .colour = nengines, .dash = m % 3};
        ns++;
    }
    char title[160];
    snprintf(title, sizeof title, "GP evaluation throughput against dataset size, %s set", set);
    glevo_chart_lines chart = {
        .title = title,
        .subtitle = "GPop/s = program nodes x cases / s; a line per engine and population",
        .caption = caption,
        .x = {.label = "fitness cases", .scale = GLEVO_CHART_LOG},
        .y = {.label = "GPop/s", .scale = GLEVO_CHART_LOG},
        .series = series,
        .nseries = ns};
    return glevo_chart_lines_write(&chart, path);
}
