/* glevo bench dsmga: Li & Yu (2017) §6 — speedup of BuildDSM and FindClique (lossless,
 * lossy) on the GPU (--backend: fragment passes, compute dispatches, or several, a row each)
 * over the single-thread CPU engine as ell grows, and the NFE of the original (CPU), lossless
 * (GPU) and lossy (GPU) schemes side by side (their Figure 10).
 * Populations come from the sweep (smallest n solving 10 runs in a row, by bisection): the
 * table below when it holds the cell, else a sweep now (--sweep forces one); --pop fixes n.
 *
 * Timing: host wall ms per generation, summed over all generations of all runs and divided
 * by the generations. BuildDSM = FastCounting pack of the selected population + (GPU) one
 * glTexSubImage2D of the packed rows + the pass or dispatch + glFinish, so every GPU command of
 * BuildDSM has completed inside the timed region. FindClique = its passes or dispatch + the
 * read of the ILS (a glReadPixels or glGetBufferSubData, which waits for the GPU). Selection
 * is outside both (the paper counts it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench_dsmga_plot.h"
#include "cli.h"
#include "glevo/dsmga.h"

/* Populations found by the sweep (glevo dsmga --sweep --runs 10 --seed 1001, lossless model
 * building on the GPU, which evaluates exactly as the CPU engine), reused so that the timed
 * bench need not sweep again. sweep_nfe: mean NFE of the 10 runs at that population. */
typedef struct sweep_entry {
    const char *problem;
    int ell, pop;
    double sweep_nfe;
} sweep_entry;
/* SWEEP_TABLE_BEGIN: H100 device calls of 2026-11-23, docs/results/h100-2026-11-23/dsmga/run_sweeps.sh
 * (one sweep per cell in parallel, 190 s limit each). ftrap 600 did not finish in 190 s; it
 * and the l = 1000 cells come from the grid of run_grid_sweeps.sh (every population of a ~10%
 * grid at once, 260 s): the smallest grid population solving 10 in a row. ftrap 600: 224
 * solved, 144-208 did not finish; trap 1000: 192 (160 failed); cyctrap 1000: 320 (288 failed). */
static const char *const SWEEP_SOURCE =
    "sweep table (H100 2026-11-23: smallest n with 10 consecutive solved runs, seeds 1001-1010, GPU lossless)";
static const sweep_entry SWEEP_TABLE[] = {
    {"trap", 120, 104, 15066.7},    {"trap", 300, 120, 43128.9},     {"trap", 600, 120, 86258.2},
    {"ftrap", 120, 80, 49467.4},    {"ftrap", 300, 136, 205410.7},   {"cyctrap", 100, 176, 22552.6},
    {"cyctrap", 400, 288, 148558.8}, {"cyctrap", 600, 256, 197994.2}, {"spin", 100, 24, 16275.9},
    {"ftrap", 600, 224, 487491.0},  {"trap", 1000, 192, 229222.0},   {"cyctrap", 1000, 320, 415452.0},
    {NULL, 0, 0, 0}};
/* SWEEP_TABLE_END */

static const sweep_entry *sweep_lookup(const char *problem, int ell)
{
    for (const sweep_entry *e = SWEEP_TABLE; e->problem; ++e)
        if (!strcmp(e->problem, problem) && e->ell == ell) return e;
    return NULL;
}

#define MAX_RUNS 64
typedef struct scheme_stats {
    double nfe, dsm_ms_gen, ils_ms_gen, gens;
    long long run_nfe[MAX_RUNS];
    int solved, runs;
} scheme_stats;

static glevo_status run_scheme(const glevo_dsmga_problem *p, int pop, glevo_backend backend, glevo_dsmga_model model,
                               int runs, uint32_t seed, scheme_stats *out)
{
    memset(out, 0, sizeof *out);
    double dsm = 0.0, ils = 0.0, gens = 0.0;
    for (int r = 0; r < runs && !bench_stopped(); ++r) {
        glevo_dsmga_params params = {.pop = pop, .backend = backend, .model = model, .seed = seed + (uint32_t)r};
        glevo_dsmga_result res;
        glevo_status st = glevo_dsmga_solve(p, &params, &res);
        if (st != GLEVO_OK) return st;
        out->nfe += (double)res.nfe / runs;
        out->gens += (double)res.generations / runs;
        dsm += res.dsm_ms;
        ils += res.ils_ms;
        gens += res.generations;
        out->run_nfe[r] = res.nfe;
        out->solved += res.solved;
        out->runs++;
    }
    out->dsm_ms_gen = gens > 0 ? dsm / gens : 0.0;
    out->ils_ms_gen = gens > 0 ? ils / gens : 0.0;
    return GLEVO_OK;
}

/* Comma-separated list of ints. */
static int parse_ints(const char *s, int *v, int max)
{
    int n = 0;
    while (s && *s && n < max) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s || x <= 0) return -1;
        v[n++] = (int)x;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

/* --backend: a comma list of model backends for the GPU columns, each once. */
#define MAX_BACKENDS 4
static int parse_backends(const char *s, glevo_backend *v)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    int n = 0;
    char *save = NULL;
    for (char *name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int b = glevo_backend_parse(name);
        if (b < 0 || n == MAX_BACKENDS) return -1;
        for (int k = 0; k < n; ++k)
            if (v[k] == (glevo_backend)b) return -1;
        v[n++] = (glevo_backend)b;
    }
    return n;
}

static int fit_ell(const char *problem, int ell)
{
    if (!strcmp(problem, "spin")) {
        int L = (int)lround(sqrt((double)ell));
        if (L < 2) L = 2;
        if (L > 10) L = 10; /* exact ground states by transfer matrix stay under a second */
        return L * L;
    }
    int k = !strcmp(problem, "trap") ? 5 : !strcmp(problem, "ftrap") ? 6 : !strcmp(problem, "cyctrap") ? 4 : 1;
    int e = ell / k * k;
    return e < 2 * k ? 2 * k : e;
}

int bench_dsmga(int argc, char **argv)
{
    bool quick = false, help = false, force_sweep = false, table_only = false;
    const char *out_dir = NULL, *problems_arg = NULL, *ells_arg = NULL, *name = "dsmga";
    const char *redraw = NULL, *caption = NULL, *backends_arg = "fragment";
    int runs = 0, cpu_runs = 0, pop = 0, device = -1;
    uint32_t seed = 1;
    opt_spec specs[] = {
        {"quick", OPT_FLAG, &quick, "small sizes, few runs (minutes on llvmpipe)"},
        {"out", OPT_STRING, &out_dir, "write NAME.md, NAME.csv and NAME_speedup.svg/.png here"},
        {"name", OPT_STRING, &name, "file name stem under --out (default dsmga)"},
        {"problems", OPT_STRING, &problems_arg, "comma list of trap,ftrap,cyctrap,spin"},
        {"ells", OPT_STRING, &ells_arg, "comma list of problem sizes"},
        {"runs", OPT_INT, &runs, "runs per GPU scheme and sweep hits (default 10; quick 2)"},
        {"cpu-runs", OPT_INT, &cpu_runs, "runs of the CPU engine (original, lossy CPU): the first seeds of --runs (default: --runs)"},
        {"pop", OPT_INT, &pop, "fixed population (0: find it with the sweep)"},
        {"sweep", OPT_FLAG, &force_sweep, "sweep even where the built-in table has the cell"},
        {"table-only", OPT_FLAG, &table_only, "skip cells the sweep table lacks instead of sweeping"},
        {"seed", OPT_UINT, &seed, "first seed"},
        {"device", OPT_INT, &device, "EGL device index"},
        {"backend", OPT_STRING, &backends_arg, "model building of the GPU columns: fragment, compute, auto or cpu; a comma list gives a row each, the CPU columns run once (default fragment)"},
        {"redraw", OPT_STRING, &redraw, "comma list of CSVs of earlier runs: merge them and draw the picture under --out; runs nothing"},
        {"caption", OPT_STRING, &caption, "subtitle of the picture (default: the renderer; none with --redraw)"},
        {0}};
    int rc = opt_parse("bench dsmga", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo bench dsmga [--quick] [--out DIR] [--problems LIST] [--ells LIST]\n"
                               "       glevo bench dsmga --redraw CSV[,CSV...] --out DIR [--name NAME] [--caption TEXT]",
                       "Li & Yu 2017: BuildDSM / FindClique speedups and NFE of original, lossless, lossy.", specs);
        return 0;
    }
    if (redraw) {
        if (!out_dir) return cli_bad_input("bench dsmga", "--redraw needs --out DIR for the picture and merged table");
        return dsmga_plot_redraw(redraw, out_dir, name, caption);
    }
    if (runs == 0) runs = quick ? 2 : 10;
    if (runs < 1 || runs > MAX_RUNS) return cli_bad_input("bench dsmga", "--runs %d must be 1..%d", runs, MAX_RUNS);
    if (cpu_runs == 0 || cpu_runs > runs) cpu_runs = runs;
    if (cpu_runs < 1) return cli_bad_input("bench dsmga", "--cpu-runs %d must be positive", cpu_runs);
    char problems_buf[256];
    snprintf(problems_buf, sizeof problems_buf, "%s", problems_arg ? problems_arg : quick ? "trap,ftrap" : "trap,ftrap,cyctrap,spin");
    int ells[32];
    int nells = parse_ints(ells_arg ? ells_arg : quick ? "60,120" : "100,200,400,600,800", ells, 32);
    if (nells <= 0) return cli_bad_input("bench dsmga", "--ells '%s' is not a list of positive integers", ells_arg);
    if (pop < 0 || pop == 1) return cli_bad_input("bench dsmga", "--pop %d must be at least 2", pop);
    glevo_backend backends[MAX_BACKENDS];
    int nbackends = parse_backends(backends_arg, backends);
    if (nbackends <= 0)
        return cli_bad_input("bench dsmga", "--backend '%s' is not a list of distinct backends (fragment, compute, "
                             "auto, cpu)", backends_arg);

    glevo_context *ctx = NULL;
    glevo_context_params cparams = {.device_plus_one = device >= 0 ? device + 1 : 0};
    glevo_status st = glevo_context_create(&cparams, &ctx);
    if (st != GLEVO_OK) return cli_fail("bench dsmga", st);
    const char *renderer = glevo_context_renderer(ctx);
    for (int b = 0; b < nbackends; ++b) {
        /* compute on a context without it is the user's choice: one line naming the GL version, exit 2 */
        if ((st = glevo_backend_check(backends[b], "--backend")) != GLEVO_OK) {
            glevo_context_destroy(ctx);
            return cli_fail("bench dsmga", st);
        }
        backends[b] = glevo_backend_resolve(backends[b]);
    }

    FILE *md = NULL, *csv = NULL;
    /* From the moment the tables exist a signal is answered (one line, the temporary tables
     * removed), not left to its default action. */
    bench_signals_start();
    if ((rc = bench_open_tables("bench dsmga", out_dir, name, &md, &csv))) {
        glevo_context_destroy(ctx);
        return rc;
    }
    {
        if (csv) fprintf(csv, "problem,ell,pop,backend,pop_source,runs,cpu_runs,nfe_original,nfe_lossless,nfe_lossy_gpu,nfe_lossy_cpu,same_nfe_original_lossless,solved_original,solved_lossless,solved_lossy,gens_original,gens_lossless,gens_lossy,dsm_cpu_ms,dsm_gpu_ms,ils_cpu_ms,ils_gpu_ms,ils_lossy_cpu_ms,ils_lossy_gpu_ms,speedup_dsm,speedup_ils_lossless,speedup_ils_lossy,speedup_ils_lossy_vs_lossy_cpu\n");
    }
    FILE *outs[2] = {stdout, md};
    for (int o = 0; o < 2; ++o) {
        if (!outs[o]) continue;
        fprintf(outs[o], "# DSMGA-II model building, Li & Yu 2017 reproduction\n\nrenderer: %s; runs per cell: %d on the GPU, "
                         "%d of them (the first seeds) also on the CPU engine; population: %s\n"
                         "Times are host wall ms per generation over all generations of the runs. BuildDSM: FastCounting pack + "
                         "glTexSubImage2D + pass (fragment) or dispatch (compute) + glFinish; FindClique: passes or dispatch + ILS "
                         "read back. 'same' counts the CPU runs whose NFE the lossless GPU run matched exactly (same seed).\n\n",
                renderer, runs, cpu_runs, pop ? "fixed" : SWEEP_SOURCE);
        fprintf(outs[o], "| problem | ell | pop | backend | NFE original | NFE lossless | same | NFE lossy | lossy/lossless | solved o/ll/ly | gens o/ll/ly | DSM cpu ms | DSM gpu ms | DSM × | ILS cpu ms | ILS gpu ms | ILS × | lossy ILS gpu ms | lossy × (vs orig) | lossy × (vs cpu lossy) |\n"
                         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        fflush(outs[o]);
    }
    dsmga_plot_row plot_rows[256];
    int rows = 0;
    char *save = NULL;
    int rows_done = 0;
    for (char *pname = strtok_r(problems_buf, ",", &save); pname && !bench_stopped();
         pname = strtok_r(NULL, ",", &save)) {
        for (int k = 0; k < nells && !bench_stopped(); ++k) {
            int ell = fit_ell(pname, ells[k]);
            if (k > 0 && ell == fit_ell(pname, ells[k - 1])) continue;
            if (!pop && table_only && !force_sweep && !sweep_lookup(pname, ell)) {
                fprintf(stderr, "bench dsmga: %s ell %d: not in the sweep table, skipped\n", pname, ell);
                continue;
            }
            glevo_dsmga_problem *p = NULL;
            /* the instance (spin glass) from the sweep's seed, as `glevo dsmga --sweep --seed 1001` */
            st = glevo_dsmga_problem_create(pname, ell, NULL, seed + 1000, &p);
            if (st != GLEVO_OK) goto fail;
            int n = pop;
            const char *pop_source = "fixed";
            const sweep_entry *known = n ? NULL : sweep_lookup(pname, ell);
            if (known && !force_sweep) {
                n = known->pop;
                pop_source = "table";
            } else if (!n) {
                glevo_dsmga_params base = {.backend = backends[0], .seed = seed + 1000};
                glevo_dsmga_sweep_result sw;
                /* The sweep is one library call of many runs with no stop point of ours: a signal
                 * during it asks the library to stop (glevo_interrupt), and the command stops
                 * as at a row's end, the tables keeping the rows completed before. */
                run_control_library_begin();
                st = glevo_dsmga_sweep(p, &base, runs, &sw);
                run_control_library_end();
                if (st == GLEVO_ERR_INTERRUPTED && bench_stopped()) {
                    st = GLEVO_OK;
                    glevo_dsmga_problem_destroy(p);
                    break;
                }
                if (st != GLEVO_OK) { glevo_dsmga_problem_destroy(p); goto fail; }
                n = sw.pop;
                pop_source = "sweep";
                fprintf(stderr, "bench dsmga: sweep %s ell %d: pop %d, mean NFE %.1f over %d runs\n", pname, ell,
                        sw.pop, sw.mean_nfe, sw.runs);
            }
            fprintf(stderr, "bench dsmga: %s ell %d pop %d (%s)\n", pname, ell, n, pop_source);
            scheme_stats orig, lyc;
            st = run_scheme(p, n, GLEVO_BACKEND_CPU, GLEVO_DSMGA_LOSSLESS, cpu_runs, seed, &orig);
            if (st == GLEVO_OK) st = run_scheme(p, n, GLEVO_BACKEND_CPU, GLEVO_DSMGA_LOSSY, cpu_runs, seed, &lyc);
            for (int b = 0; b < nbackends && st == GLEVO_OK; ++b) {
                const char *bname = glevo_backend_name(backends[b]);
                fprintf(stderr, "bench dsmga: %s ell %d pop %d: model on %s\n", pname, ell, n, bname);
                scheme_stats ll, lyg;
                st = run_scheme(p, n, backends[b], GLEVO_DSMGA_LOSSLESS, runs, seed, &ll);
                if (st == GLEVO_OK) st = run_scheme(p, n, backends[b], GLEVO_DSMGA_LOSSY, runs, seed, &lyg);
                if (st != GLEVO_OK || bench_stopped()) break; /* a row counts every run or none */
                rows_done++;
                int same = 0;
                for (int r = 0; r < cpu_runs; ++r) same += orig.run_nfe[r] == ll.run_nfe[r];
                double sd = orig.dsm_ms_gen / ll.dsm_ms_gen, si = orig.ils_ms_gen / ll.ils_ms_gen;
                double sy = orig.ils_ms_gen / lyg.ils_ms_gen, syc = lyc.ils_ms_gen / lyg.ils_ms_gen;
                for (int o = 0; o < 2; ++o) {
                    if (!outs[o]) continue;
                    fprintf(outs[o], "| %s | %d | %d | %s | %.0f | %.0f | %d/%d | %.0f | %.3f | %d/%d/%d | %.1f/%.1f/%.1f | %.3f | %.3f | %.1f | %.3f | %.3f | %.1f | %.3f | %.1f | %.1f |\n",
                            pname, ell, n, bname, orig.nfe, ll.nfe, same, cpu_runs, lyg.nfe, lyg.nfe / ll.nfe, orig.solved, ll.solved,
                            lyg.solved, orig.gens, ll.gens, lyg.gens, orig.dsm_ms_gen, ll.dsm_ms_gen, sd, orig.ils_ms_gen,
                            ll.ils_ms_gen, si, lyg.ils_ms_gen, sy, syc);
                    fflush(outs[o]);
                }
                if (csv)
                    fprintf(csv, "%s,%d,%d,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.1f,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f\n",
                            pname, ell, n, bname, pop_source, runs, cpu_runs, orig.nfe, ll.nfe, lyg.nfe, lyc.nfe, same, orig.solved,
                            ll.solved, lyg.solved, orig.gens, ll.gens, lyg.gens, orig.dsm_ms_gen, ll.dsm_ms_gen,
                            orig.ils_ms_gen, ll.ils_ms_gen, lyc.ils_ms_gen, lyg.ils_ms_gen, sd, si, sy, syc);
                if (csv) fflush(csv);
                if (rows < 256) {
                    plot_rows[rows] = (dsmga_plot_row){.ell = ell, .speedup = {sd, si, sy}};
                    /* several backends: a line each in the picture */
                    if (nbackends > 1)
                        snprintf(plot_rows[rows++].problem, sizeof plot_rows[0].problem, "%s %s", pname, bname);
                    else
                        snprintf(plot_rows[rows++].problem, sizeof plot_rows[0].problem, "%s", pname);
                }
            }
            glevo_dsmga_problem_destroy(p);
            if (st != GLEVO_OK) goto fail;
        }
    }
    if (out_dir) {
        char path[4096], stamp[512], date[32];
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
        snprintf(stamp, sizeof stamp, "%s, %s", renderer, date);
        for (int k = 0; k < 2; ++k) {
            snprintf(path, sizeof path, "%s/%s_speedup.%s", out_dir, name, k ? "png" : "svg");
            if (dsmga_plot_write(path, plot_rows, rows, caption ? caption : stamp))
                fprintf(stderr, "bench dsmga: %s\n", glevo_last_error());
        }
    }
    rc = bench_close_table(md, true);
    rc |= bench_close_table(csv, true);
    if (rc) rc = cli_fail("bench dsmga", GLEVO_ERR_IO);
    glevo_context_destroy(ctx);
    return bench_stop_exit("bench dsmga", rows_done, "table rows", rc);
fail:
    bench_close_table(md, false);
    bench_close_table(csv, false);
    rc = cli_fail("bench dsmga", st);
    glevo_context_destroy(ctx);
    return rc;
}
