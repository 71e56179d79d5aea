/* glevo gp-eval: errors of given programs on a CSV dataset, one line per program, evaluated
 * by a GPU strategy (PPPE, FP, PPCU; Augusto & Barbosa 2012 §3.4) or the CPU interpreter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "glevo/gp.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cmd_gp_eval(int argc, char **argv)
{
    const char *cmd = "gp-eval";
    common_opts c = COMMON_OPTS_DEFAULT;
    const char *programs_path = NULL, *data_path = NULL, *target = NULL;
    const char *strategy_text = "auto", *metric_text = "sae";
    int threads = 0, group = 0, runs = 1, prog_lanes = 0, lanes = 0, tile_width = 0;
    bool help = false, resident = false;
    opt_spec specs[] = {
        {"programs", OPT_STRING, &programs_path, "programs, one prefix S-expression per line"},
        {"data", OPT_STRING, &data_path, "CSV with a header row, numbers only"},
        {"target", OPT_STRING, &target, "target column name (default: the last column)"},
        {"strategy", OPT_CHOICE, OPT_CHOICES(strategy_text, "auto pppe fp ppcu cpu"), "fragment layout: auto, pppe, fp or ppcu (cpu: --backend cpu)"},
        {"metric", OPT_CHOICE, OPT_CHOICES(metric_text, "sae mse rmse accuracy"), "sae, mse, rmse or accuracy"},
        {"threads", OPT_INT, &threads, "CPU threads (0: all cores)"},
        {"group", OPT_INT, &group, "fragments per program tile for fp/ppcu (0 or 64)"},
        {"tile-width", OPT_INT, &tile_width, "fp/ppcu: the tile's 64 fragments as tile-width x "
                                             "64 / tile-width (0: 8 x 8)"},
        {"runs", OPT_INT, &runs, "timed evaluations; seconds and gpops are their median"},
        {"resident", OPT_FLAG, &resident, "compute: also time as EvoGP does (programs already on "
                                          "the GPU, --runs evaluations then one synchronisation), "
                                          "with the upload and the read-back beside it"},
        {"prog-lanes", OPT_INT, &prog_lanes, "compute: invocations per program, 1..64 (0: the "
                                             "measured rule)"},
        {"lanes", OPT_INT, &lanes, "GPU case-quads per program walk, 1..8 (0: default)"},
        COMMON_OPT_SPECS(c),
        {0}};
    int rc = opt_parse(cmd, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo gp-eval --programs FILE --data FILE.csv [options]",
                       "Prints the error of each program (one per line) on the data. With --json:\n"
                       "algorithm, problem (the data file), backend, renderer, seed, strategy, metric,\n"
                       "programs, cases, errors (one per program), nodes, seconds, gpops; with\n"
                       "--resident also resident_seconds, resident_gpops, upload_seconds,\n"
                       "readback_seconds, prog_lanes, walk_quads; no\n"
                       "best_fitness, evaluations or generations (nothing evolves).", specs);
        return 0;
    }
    if ((rc = common_check_gp_backend(cmd, &c, strategy_text))) return rc;
    if (!programs_path) return cli_bad_input(cmd, "--programs FILE is required");
    if (!data_path) return cli_bad_input(cmd, "--data FILE.csv is required");
    glevo_gp_strategy strategy;
    glevo_gp_metric metric;
    /* --strategy cpu: the name the first version used for --backend cpu. */
    if (!strcmp(strategy_text, "cpu")) c.backend = "cpu", strategy_text = "auto";
    glevo_status st = glevo_gp_strategy_parse(strategy_text, &strategy);
    if (st) return cli_fail(cmd, st);
    if ((st = glevo_gp_metric_parse(metric_text, &metric))) return cli_fail(cmd, st);
    if (threads < 0) return cli_bad_input(cmd, "--threads %d is negative", threads);
    if (group < 0) return cli_bad_input(cmd, "--group %d is negative", group);
    if (tile_width < 0 || (tile_width > 0 && 64 % tile_width))
        return cli_bad_input(cmd, "--tile-width %d does not divide 64 (0: the default)", tile_width);
    if (runs < 1 || runs > 1000) return cli_bad_input(cmd, "--runs %d is outside 1..1000", runs);
    glevo_backend backend = (glevo_backend)glevo_backend_parse(c.backend);
    if (backend != GLEVO_BACKEND_FRAGMENT && backend != GLEVO_BACKEND_AUTO && strategy != GLEVO_GP_AUTO)
        return cli_bad_input(cmd, "--strategy %s is a layout of --backend fragment", strategy_text);

    glevo_gp_data *data = NULL;
    glevo_gp_programs *progs = NULL;
    glevo_gp_evaluator *ev = NULL;
    glevo_context *ctx = NULL;
    double *errors = NULL, *times = NULL;
    int count = 0;
    if ((rc = cli_gp_programs_load(cmd, data_path, target, programs_path, &data, &progs, &count)))
        goto done;
    if (backend != GLEVO_BACKEND_CPU) {
        if ((rc = common_context_create(cmd, &c, &ctx))) goto done;
        backend = common_backend(&c);
    }
    if (resident && backend != GLEVO_BACKEND_COMPUTE) {
        rc = cli_bad_input(cmd, "--resident times the compute backend, not %s",
                           glevo_backend_name(backend));
        goto done;
    }
    glevo_gp_eval_params ep = {.backend = backend, .strategy = strategy, .threads = threads,
                               .group = group, .prog_lanes = prog_lanes, .lanes = lanes,
                               .tile_width = tile_width};
    errors = malloc((size_t)count * sizeof *errors);
    if (!errors) {
        rc = cli_fail(cmd, glevo_fail(GLEVO_ERR_NOMEM, "out of memory for %d errors", count));
        goto done;
    }
    if ((st = glevo_gp_evaluator_create(&ep, data, &ev))) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    /* One untimed evaluation builds the shader for the operators in use; the timed one is the
     * paper's evaluation time (program upload, passes, error readback). */
    if (backend != GLEVO_BACKEND_CPU && (st = glevo_gp_evaluate(ev, progs, metric, errors))) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    double seconds = 0;
    times = malloc((size_t)runs * sizeof *times);
    /* A signal ends the timing after the evaluation in progress: the median of those done. */
    run_control_signals_install();
    int asked = runs;
    for (int r = 0; r < asked; ++r) {
        if (r > 0 && run_control_signal()) {
            runs = r;
            fprintf(stderr, "glevo %s: stopped by %s: %d of %d timed runs completed\n", cmd,
                    run_control_signal_name(), runs, asked);
            break;
        }
        double t0 = cli_seconds_now();
        if (!times || (st = glevo_gp_evaluate(ev, progs, metric, errors))) {
            rc = cli_fail(cmd, times ? st : glevo_fail(GLEVO_ERR_NOMEM, "out of memory"));
            goto done;
        }
        times[r] = cli_seconds_now() - t0;
    }
    glevo_gp_eval_timing timing = {0};
    if (resident && (st = glevo_gp_evaluate_timed(ev, progs, runs, metric, errors, &timing))) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    qsort(times, (size_t)runs, sizeof *times, cmp_double);
    seconds = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
    double nodes = (double)glevo_gp_programs_nodes(progs);
    double gpops = seconds > 0 ? nodes * glevo_gp_data_cases(data) / seconds / 1e9 : 0;
    if (c.json) {
        json_writer w = {0};
        json_begin_object(&w, NULL);
        json_string(&w, "algorithm", "gp-eval");
        json_string(&w, "problem", data_path);
        json_string(&w, "backend", glevo_backend_name(backend));
        json_string(&w, "renderer", ctx ? glevo_context_renderer(ctx) : "cpu");
        json_int(&w, "seed", c.seed);
        json_string(&w, "strategy", glevo_gp_strategy_name(glevo_gp_evaluator_strategy(ev)));
        json_string(&w, "metric", glevo_gp_metric_name(metric));
        json_int(&w, "programs", count);
        json_int(&w, "cases", glevo_gp_data_cases(data));
        json_begin_array(&w, "errors");
        for (int i = 0; i < count; ++i) json_number(&w, NULL, errors[i]);
        json_end_array(&w);
        json_int(&w, "nodes", (long long)nodes);
        json_int(&w, "runs", runs); /* completed: fewer than asked after a signal */
        json_bool(&w, "interrupted", run_control_signal() != 0);
        json_number(&w, "seconds", seconds);
        json_number(&w, "gpops", gpops);
        if (resident) {
            json_number(&w, "resident_seconds", timing.evaluate);
            json_number(&w, "resident_gpops",
                        nodes * glevo_gp_data_cases(data) / timing.evaluate / 1e9);
            json_number(&w, "upload_seconds", timing.upload);
            json_number(&w, "readback_seconds", timing.readback);
            json_int(&w, "prog_lanes", timing.prog_lanes);
            json_int(&w, "walk_quads", timing.walk_quads);
        }
        json_end_object(&w);
    } else {
        /* NaN's sign is not an error's: "nan" from every engine (the CPU's was "-nan"). */
        for (int i = 0; i < count; ++i)
            isnan(errors[i]) ? printf("nan\n") : printf("%.9g\n", errors[i]);
    }
    rc = run_control_exit(0);
done:
    glevo_gp_evaluator_destroy(ev);
    glevo_gp_programs_destroy(progs);
    glevo_gp_data_destroy(data);
    if (ctx) glevo_context_destroy(ctx);
    free(errors);
    free(times);
    return rc;
}
