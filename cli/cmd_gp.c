/* glevo gp: generational genetic programming on a CSV dataset (Augusto & Barbosa 2012,
 * Algorithm 1), evaluation on the GPU (or the CPU interpreter with --backend cpu); with
 * --islands one island per MPI rank (islands_gp.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gp_data_notes.h"
#include "gp_front.h"
#include "glevo/gp.h"
#include "islands.h"

static void progress(void *user, int generation, double best_error, const char *best)
{
    (void)user;
    fprintf(stderr, "gen %4d  best %-12.6g %s\n", generation, best_error, best);
}

/* The run: created (or loaded from --resume), a generation a step so that a signal stops it
 * between generations, checkpointed when due, at its end and when stopped. *used: the
 * parameters it ran with, defaults resolved (a resumed run's from its checkpoint). */
static glevo_status run_gp(const glevo_gp_params *p, const glevo_gp_params *changes,
                           const glevo_gp_data *data, run_control *ctl, glevo_gp_result *out,
                           glevo_gp_params *used, gp_front *front)
{
    glevo_gp *gp = NULL;
    run_control_library_begin();
    glevo_status st = ctl->resume ? glevo_gp_load(ctl->resume, changes, data, &gp)
                                  : glevo_gp_create(p, data, &gp);
    run_control_library_end();
    if (st) return st;
    *used = *glevo_gp_params_of(gp);
    run_control_start(ctl, glevo_gp_generation(gp));
    glevo_checkpoint_extra extra = {0};
#define CHECKPOINT()                                                                          \
    do {                                                                                      \
        double t0 = cli_seconds_now();                                                        \
        if (!(st = glevo_gp_save(gp, ctl->checkpoint, &extra)))                               \
            run_control_wrote(ctl, glevo_gp_generation(gp), cli_seconds_now() - t0);          \
    } while (0)
    while (!st && !glevo_gp_done(gp) && !run_control_signal()) {
        if ((st = glevo_gp_step(gp, 1))) break;
        if (run_control_due(ctl, glevo_gp_generation(gp))) CHECKPOINT();
    }
    if (!st && run_control_final_due(ctl, glevo_gp_generation(gp))) CHECKPOINT();
#undef CHECKPOINT
    run_control_report("gp", ctl, glevo_gp_generation(gp));
    if (!st) st = glevo_gp_result_get(gp, out);
    if (!st && front) st = gp_front_build(gp, data, out, front);
    glevo_gp_destroy(gp);
    return st;
}

static int gp_main(int argc, char **argv)
{
    const char *cmd = "gp";
    common_opts c = COMMON_OPTS_DEFAULT;
    const char *data_path = NULL, *test_path = NULL, *target = NULL;
    const char *set_text = "regression", *strategy_text = "auto", *metric_text = NULL;
    glevo_gp_params p = {.pop = 1000, .generations = 50, .tournament = 4, .pc = 0.9, .pm = 0.1,
                         .elitism = 1, .init_min_depth = 2, .init_max_depth = 6, .report_every = 10};
    double target_error = -1, split = 0, const_fraction = 0.14, parsimony = 0, const_prob = 0.25;
    double portfolio = 0.25;
    int const_iters = 0, enumeration = 0, const_max = 0, layer = 0;
    double const_range[2] = {-1, 1};
    int threads = 0;
    bool help = false, no_scaling = false, no_prune = false;
    island_opts islands = ISLAND_OPTS_DEFAULT;
    const char *trace = NULL;
    run_control ctl = {0};
    opt_spec specs[] = {
        {"data", OPT_STRING, &data_path, "training CSV with a header row, numbers only"},
        {"test", OPT_STRING, &test_path, "held-out CSV: report the best program's error on it"},
        {"target", OPT_STRING, &target, "target column name (default: the last column)"},
        {"split", OPT_DOUBLE, &split, "hold out this fraction of --data's rows (chosen by --seed) "
                                      "as the test set"},
        {"function-set", OPT_STRING, &set_text, "regression (+ - * / neg sin cos exp log "
                                                "sqrt), classification (if < > = and or not), "
                                                "or a list: +,-,*,/,pow,tanh,aq,..."},
        {"pop", OPT_INT, &p.pop, "population size"},
        {"generations", OPT_INT, &p.generations, "generations"},
        {"tournament", OPT_INT, &p.tournament, "tournament size"},
        {"pc", OPT_DOUBLE, &p.pc, "crossover probability"},
        {"pm", OPT_DOUBLE, &p.pm, "mutation probability per child (half subtree, half point)"},
        {"elitism", OPT_INT, &p.elitism, "best programs copied unchanged"},
        {"max-size", OPT_INT, &p.max_size, "nodes per program at most (default: 100 with mse "
                                           "or rmse, else 50)"},
        {"init-depth-min", OPT_INT, &p.init_min_depth, "ramped half-and-half: least depth"},
        {"init-depth-max", OPT_INT, &p.init_max_depth, "ramped half-and-half: greatest depth"},
        {"metric", OPT_CHOICE, OPT_CHOICES(metric_text, "sae mse rmse accuracy"), "sae, mse, rmse or accuracy (default: mse, with linear scaling, for a set of arithmetic operators; sae with if, comparisons or logic)"},
        {"const-opt", OPT_INT, &const_iters, "Levenberg-Marquardt steps on the constants of the "
                                             "programs fitted each generation: on the GPU with "
                                             "compute, and with fragment on a hardware GPU with "
                                             "compute shaders; else on the host (0: off; 8: "
                                             "PySR's) (default: 1 with mse or rmse, else 0)"},
        {"const-opt-fraction", OPT_DOUBLE, &const_fraction, "programs fitted each generation"},
        {"const-opt-max", OPT_INT, &const_max, "at most this many programs fitted a generation, "
                                               "on average (0: no limit) (default 1024: "
                                               "the library's)"},
        {"const-range", OPT_RANGE, const_range, "random constants' range"},
        {"const-prob", OPT_DOUBLE, &const_prob, "probability that a new terminal is a random "
                                                "constant, not an input (0: no constants)"},
        {"parsimony", OPT_DOUBLE, &parsimony, "lexicographic parsimony pressure: tournament "
                                               "errors within this fraction tie, the shorter "
                                               "wins (0: off)"},
        {"portfolio", OPT_DOUBLE, &portfolio, "share of --pop given to up to four more "
                                              "searches over the inputs, each with a "
                                              "family of operators (+ - * / neg sin cos log; "
                                              "+ - * sin cos; + - * / log; + - *), no random "
                                              "constants or fitting (the first scales "
                                              "linearly, the last two have the constant 1), "
                                              "tournaments of two, each "
                                              "starting again after 10 generations without a "
                                              "better best; the search with the lowest "
                                              "training error is "
                                              "reported (default: 0.25 with mse or rmse, else "
                                              "0; 0: one search)"},
        {"enumerate", OPT_INT, &enumeration, "candidates of an enumeration of short programs "
                                             "over the inputs and operators (smallest first, "
                                             "duplicates by value dropped), whose best that fit "
                                             "the data to rounding join the first generation "
                                             "(default: 100000 with mse or rmse, else 0; 0: off)"},
        {"linear-layer", OPT_INT, &layer, "the result's model, where not exact: a least-squares "
                                          "sum of up to this many of its subtrees and products of "
                                          "two, where that halves the training error "
                                          "(default: 32 with mse or rmse, else 0; 0: off)"},
        {"no-prune", OPT_FLAG, &no_prune, "mse/rmse: keep the result's model as found, not "
                                          "pruned of the terms that fit noise (a subtree as its "
                                          "mean, a constant as 0, an integer or a half, where the "
                                          "Bayesian information criterion falls)"},
        {"no-linear-scaling", OPT_FLAG, &no_scaling,
         "mse/rmse: score f itself, not a + b f with least-squares a, b (Keijzer 2003)"},
        {"target-error", OPT_DOUBLE, &target_error, "stop when the best error is <= this (-1: never)"},
        {"report-every", OPT_INT, &p.report_every, "generations between progress lines (each reads the GPU back)"},
        {"strategy", OPT_CHOICE, OPT_CHOICES(strategy_text, "auto pppe fp ppcu cpu"), "fragment layout of the evaluation: auto, pppe, fp or ppcu"},
        {"threads", OPT_INT, &threads, "CPU threads with --backend cpu (0: all cores)"},
        RUN_CONTROL_OPT_SPECS(ctl),
        COMMON_OPT_SPECS(c),
        ISLAND_OPT_SPECS(islands),
        {"trace", OPT_STRING, &trace,
         "with --islands: per-island rows at every generation into a CSV file"},
        {0}};
    int rc = opt_parse(cmd, specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo gp --data FILE.csv [options]",
                       "Evolves a program predicting the target column; prints it as an "
                       "S-expression and in infix.",
                       specs);
        return 0;
    }
    const cli_path files[] = {{"--trace", trace, true}, {"--checkpoint", ctl.checkpoint, true},
                              {"--data", data_path, false}, {"--test", test_path, false},
                              {"--resume", ctl.resume, false}};
    if ((rc = cli_paths_distinct(cmd, files, sizeof files / sizeof files[0]))) return rc;
    rc = islands.enabled ? islands_control_check(cmd, &ctl) : run_control_check(cmd, "gp", &ctl);
    if (rc) return rc;
    if (trace && !islands.enabled) return cli_bad_input(cmd, "--trace '%s' needs --islands", trace);
    bool resume = ctl.resume != NULL;
    /* Islands take the command line as typed: their --resume names a folder. */
    if (resume && !islands.enabled && !opt_given(argc, argv, 1, "backend"))
        c.backend = ctl.from.backend;
    /* What the run used, for the checks below and the report (typed options stay typed). */
    static char text[8][256];
    const char *v;
    if ((v = run_control_param(&ctl, argc, argv, "function-set", "param.function_set", text[0], 256))) set_text = v;
    if ((v = run_control_param(&ctl, argc, argv, "metric", "param.metric", text[1], 256))) metric_text = v;
    if ((v = run_control_param(&ctl, argc, argv, "pop", "param.pop", text[2], 256))) p.pop = atoi(v);
    if ((v = run_control_param(&ctl, argc, argv, "seed", "param.seed", text[3], 256))) c.seed = (uint32_t)strtoul(v, NULL, 10);
    if ((v = run_control_param(&ctl, argc, argv, "generations", "param.generations", text[4], 256))) p.generations = atoi(v);
    if ((rc = common_check_gp_backend(cmd, &c, strategy_text))) return rc;
    if (!data_path) return cli_bad_input(cmd, "--data FILE.csv is required");
    if (opt_given(argc, argv, 1, "split") && !(split > 0 && split < 1))
        return cli_bad_input(cmd, "--split %g is not a fraction in (0, 1)", split);
    if (split > 0 && test_path)
        return cli_bad_input(cmd, "--split %g and --test '%s': give one test set", split, test_path);
    glevo_status st = glevo_gp_function_set_parse(set_text, &p.ops);
    if (st) return cli_fail(cmd, st);
    if (!strcmp(set_text, "classification")) p.function_set = GLEVO_GP_CLASSIFICATION;
    /* Symbolic regression's usual error (issue 26: squared, with Keijzer's scaling); a set
     * with boolean operators keeps the error count's sae. */
    uint32_t boolean_ops = glevo_gp_function_set_ops(GLEVO_GP_CLASSIFICATION) &
                           ~(1u << GLEVO_GP_VAR | 1u << GLEVO_GP_CONST);
    if (!metric_text) metric_text = p.ops & boolean_ops ? "sae" : "mse";
    st = glevo_gp_metric_parse(metric_text, &p.metric);
    if (st) return cli_fail(cmd, st);
    /* --strategy cpu: the name the first version used for --backend cpu. */
    if (!strcmp(strategy_text, "cpu")) c.backend = "cpu", strategy_text = "auto";
    if ((st = glevo_gp_strategy_parse(strategy_text, &p.eval.strategy))) return cli_fail(cmd, st);
    if (threads < 0) return cli_bad_input(cmd, "--threads %d is negative", threads);
    if (p.pop < 2) return cli_bad_input(cmd, "--pop %d is below 2", p.pop);
    /* Zero in the params struct means "the default": a 0 the user typed goes in as
     * GLEVO_LITERAL (0 generations: the initial population only; --pm 0: no mutation). Where
     * the library has no literal zero (tournament, depths), 0 is refused. */
    if (p.generations < 0) return cli_bad_input(cmd, "--generations %d is negative", p.generations);
    if (p.tournament < 1) return cli_bad_input(cmd, "--tournament %d is below 1", p.tournament);
    if (p.init_min_depth < 1) return cli_bad_input(cmd, "--init-depth-min %d is below 1", p.init_min_depth);
    if (p.init_max_depth < 1) return cli_bad_input(cmd, "--init-depth-max %d is below 1", p.init_max_depth);
    if (opt_given(argc, argv, 1, "max-size") && p.max_size < 1)
        return cli_bad_input(cmd, "--max-size %d is below 1", p.max_size);
    if (p.elitism < 0) return cli_bad_input(cmd, "--elitism %d is negative", p.elitism);
    /* The library reads -1 (GLEVO_ZERO) as a literal 0: a -1 typed here must not reach it. */
    if (!(p.pc >= 0.0 && p.pc <= 1.0)) return cli_bad_input(cmd, "--pc %g is outside [0, 1]", p.pc);
    if (!(p.pm >= 0.0 && p.pm <= 1.0)) return cli_bad_input(cmd, "--pm %g is outside [0, 1]", p.pm);
    if (p.report_every < 1) return cli_bad_input(cmd, "--report-every %d is below 1", p.report_every);
    if (target_error < 0 && target_error != -1)
        return cli_bad_input(cmd, "--target-error %g is negative (-1: never stop early)", target_error);
    p.generations = GLEVO_LITERAL(p.generations);
    p.pc = GLEVO_LITERAL(p.pc);
    p.pm = GLEVO_LITERAL(p.pm);
    p.elitism = GLEVO_LITERAL(p.elitism);
    p.linear_scaling = no_scaling ? GLEVO_ZERO : 0;
    p.prune = no_prune ? GLEVO_ZERO : 0;
    if (!(parsimony >= 0 && parsimony < 1))
        return cli_bad_input(cmd, "--parsimony %g is outside [0, 1)", parsimony);
    p.parsimony = parsimony;
    if (const_iters < 0)
        return cli_bad_input(cmd, "--const-opt %d is negative", const_iters);
    if (const_iters > 1000) return cli_bad_input(cmd, "--const-opt %d is above 1000", const_iters);
    p.const_opt_iters = opt_given(argc, argv, 1, "const-opt") ? GLEVO_LITERAL(const_iters) : 0;
    if (enumeration < 0 || enumeration > 10000000)
        return cli_bad_input(cmd, "--enumerate %d is outside 0..10000000", enumeration);
    p.enumeration = opt_given(argc, argv, 1, "enumerate") ? GLEVO_LITERAL(enumeration) : 0;
    if (layer < 0 || layer > 64) return cli_bad_input(cmd, "--linear-layer %d is outside 0..64", layer);
    p.linear_layer = opt_given(argc, argv, 1, "linear-layer") ? GLEVO_LITERAL(layer) : 0;
    if (!(const_fraction > 0 && const_fraction <= 1))
        return cli_bad_input(cmd, "--const-opt-fraction %g is outside (0, 1]", const_fraction);
    p.const_opt_fraction = const_fraction;
    if (const_max < 0)
        return cli_bad_input(cmd, "--const-opt-max %d is negative (0: no limit)", const_max);
    /* Not given: the library's default, as --enumerate's. */
    p.const_opt_max = opt_given(argc, argv, 1, "const-opt-max") ? GLEVO_LITERAL(const_max) : 0;
    if (!(const_prob >= 0 && const_prob <= 1))
        return cli_bad_input(cmd, "--const-prob %g is outside [0, 1]", const_prob);
    p.const_prob = GLEVO_LITERAL(const_prob);
    if (!(portfolio >= 0 && portfolio < 1))
        return cli_bad_input(cmd, "--portfolio %g is outside [0, 1)", portfolio);
    if (islands.enabled && portfolio > 0 && opt_given(argc, argv, 1, "portfolio"))
        return cli_bad_input(cmd, "--portfolio %g with --islands: an island runs one search "
                             "(migration has no place for a second)", portfolio);
    /* Islands run one search each; elsewhere an untyped --portfolio is the metric's default. */
    p.portfolio = islands.enabled                           ? GLEVO_ZERO
                  : opt_given(argc, argv, 1, "portfolio") ? GLEVO_LITERAL(portfolio)
                                                          : 0;
    if (opt_given(argc, argv, 1, "const-range"))
        p.const_min = const_range[0], p.const_max = const_range[1];
    p.backend = (glevo_backend)glevo_backend_parse(c.backend);
    p.eval.threads = threads;
    p.seed = c.seed;
    if (target_error >= 0) {
        p.stop_on_target = true;
        p.target_error = p.metric == GLEVO_GP_ACCURACY ? 1.0 - target_error : target_error;
    }
    /* stderr, so --json stdout stays one object; islands report from rank 0 alone. */
    if (!c.quiet && !islands.enabled) p.progress = progress;
    /* On resume only what was typed is compared with the checkpoint (zero: as in the file). */
    glevo_gp_params changes = {.backend = (glevo_backend)GLEVO_LITERAL((int)p.backend),
                               .progress = p.progress, .report_every = p.report_every,
                               .linear_layer = p.linear_layer, .prune = p.prune};
#define GIVEN(name) opt_given(argc, argv, 1, name)
    if (GIVEN("function-set")) changes.function_set = (glevo_gp_function_set)GLEVO_LITERAL((int)p.function_set), changes.ops = p.ops;
    if (GIVEN("metric")) changes.metric = (glevo_gp_metric)GLEVO_LITERAL((int)p.metric);
    if (GIVEN("pop")) changes.pop = p.pop;
    if (GIVEN("generations")) changes.generations = p.generations;
    if (GIVEN("tournament")) changes.tournament = p.tournament;
    if (GIVEN("pc")) changes.pc = p.pc;
    if (GIVEN("pm")) changes.pm = p.pm;
    if (GIVEN("elitism")) changes.elitism = p.elitism;
    if (GIVEN("max-size")) changes.max_size = p.max_size;
    if (GIVEN("const-prob")) changes.const_prob = p.const_prob;
    if (GIVEN("portfolio")) changes.portfolio = p.portfolio;
    if (GIVEN("init-depth-min")) changes.init_min_depth = p.init_min_depth;
    if (GIVEN("init-depth-max")) changes.init_max_depth = p.init_max_depth;
    if (GIVEN("seed")) changes.seed = c.seed ? c.seed : (uint32_t)GLEVO_ZERO;
    /* The search's own settings: a resume compares them with the file's and refuses a change. */
    if (GIVEN("parsimony")) changes.parsimony = GLEVO_LITERAL(p.parsimony);
    if (GIVEN("const-opt")) changes.const_opt_iters = p.const_opt_iters;
    if (GIVEN("const-opt-fraction")) changes.const_opt_fraction = GLEVO_LITERAL(p.const_opt_fraction);
    if (GIVEN("const-opt-max")) changes.const_opt_max = p.const_opt_max;
    if (GIVEN("no-linear-scaling")) changes.linear_scaling = GLEVO_ZERO;
    if (GIVEN("const-range")) changes.const_min = p.const_min, changes.const_max = p.const_max;
    if (GIVEN("target-error")) changes.stop_on_target = p.stop_on_target, changes.target_error = p.target_error;
    if (GIVEN("strategy") || GIVEN("threads")) changes.eval = p.eval;
#undef GIVEN

    glevo_gp_data *data = NULL, *test = NULL;
    glevo_context *ctx = NULL;
    glevo_gp_result r = {0};
    gp_front front = {0};
    if ((st = glevo_gp_data_load_csv(data_path, target, &data))) return cli_fail(cmd, st);
    if (!c.quiet) note_constant_columns(cmd, data);
    /* The held-out file's columns by name: its target the training target's name, its inputs
     * in the training order (another order, or other names, are the user's to know). */
    if (test_path) {
        glevo_gp_data *loaded = NULL;
        const char *tname = target ? target : glevo_gp_data_target_name(data);
        st = glevo_gp_data_load_csv(test_path, tname, &loaded);
        if (!st) st = glevo_gp_data_align(data, loaded, &test);
        glevo_gp_data_destroy(loaded);
        if (st) {
            char why[512];
            snprintf(why, sizeof why, "%s", glevo_last_error());
            rc = st == GLEVO_ERR_INVALID ? cli_bad_input(cmd, "--test '%s': %s", test_path, why)
                                         : cli_fail(cmd, st);
            goto done;
        }
    }
    if (split > 0) {
        glevo_gp_data *all = data;
        st = glevo_gp_data_split(all, split, c.seed, &data, &test);
        glevo_gp_data_destroy(all);
        if (st) {
            rc = cli_fail(cmd, st);
            goto done;
        }
    }
    if (test && glevo_gp_data_vars(test) != glevo_gp_data_vars(data)) {
        rc = cli_bad_input(cmd, "--test '%s' has %d input columns, the data has %d", test_path,
                           glevo_gp_data_vars(test), glevo_gp_data_vars(data));
        goto done;
    }
    if (islands.enabled) {
        rc = islands_gp(&p, &changes, data, data_path, test, &c, &islands, trace, &ctl);
        goto done;
    }
    if (p.backend != GLEVO_BACKEND_CPU) {
        if ((rc = common_context_create(cmd, &c, &ctx))) goto done;
        p.backend = common_backend(&c);
    }
    glevo_gp_params used;
    if ((st = run_gp(&p, &changes, data, &ctl, &r, &used, c.json ? &front : NULL))) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    /* A model no number describes is no result: said, exit 1, rather than "mse inf" and a
     * program that cannot be read back. */
    if (!isfinite(r.best_error)) {
        fprintf(stderr, "glevo %s: no program has a finite error on '%s' (best: %g); nothing "
                "was printed\n", cmd, data_path, r.best_error);
        rc = 1;
        goto done;
    }
    double test_error = NAN, test_r2 = NAN;
    if (test && (st = glevo_gp_r2(r.best, 0, test, &test_r2))) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    if (test) {
        glevo_gp_evaluator *ev = NULL;
        glevo_gp_eval_params tp = p.eval;
        tp.backend = p.backend; /* the run's backend (p.eval's is the default) */
        if ((st = glevo_gp_evaluator_create(&tp, test, &ev)) ||
            (st = glevo_gp_evaluate(ev, r.best, p.metric, &test_error))) {
            glevo_gp_evaluator_destroy(ev);
            rc = cli_fail(cmd, st);
            goto done;
        }
        glevo_gp_evaluator_destroy(ev);
    }
    double gpops = r.eval_seconds > 0 ? (double)r.nodes_evaluated / r.eval_seconds / 1e9 : 0;
    if (c.json) {
        json_writer w = {0};
        json_begin_object(&w, NULL);
        json_string(&w, "algorithm", "gp");
        json_string(&w, "problem", data_path);
        json_string(&w, "backend", glevo_backend_name(p.backend));
        json_string(&w, "renderer", ctx ? glevo_context_renderer(ctx) : "cpu");
        json_int(&w, "seed", c.seed);
        json_string(&w, "function_set", set_text);
        json_string(&w, "metric", glevo_gp_metric_name(p.metric));
        /* The settings whose defaults depend on the metric, as the run used them. */
        json_bool(&w, "linear_scaling", used.linear_scaling == 1);
        json_int(&w, "const_opt", used.const_opt_iters);
        json_number(&w, "const_opt_fraction", used.const_opt_fraction);
        json_int(&w, "const_opt_max", used.const_opt_max > 0 ? used.const_opt_max : 0);
        json_int(&w, "max_size", used.max_size);
        json_number(&w, "portfolio", used.portfolio);
        json_int(&w, "enumerate", used.enumeration);
        json_int(&w, "linear_layer", used.linear_layer > 0 ? used.linear_layer : 0);
        json_bool(&w, "prune", used.prune == 1);
        json_string(&w, "best_search", glevo_gp_search_name(r.best_search));
        json_number(&w, "best_fitness", r.best_error);
        /* best_program names input k as x<k>; inputs[k-1] is its column (best_infix and
         * best_sympy use the columns' names, made identifiers). */
        json_begin_array(&w, "inputs");
        for (int v = 0; v < glevo_gp_data_vars(data); ++v)
            json_string(&w, NULL, glevo_gp_data_var_name(data, v));
        json_end_array(&w);
        /* The same inputs as best_infix and best_sympy name them. */
        json_begin_array(&w, "identifiers");
        for (int v = 0; v < glevo_gp_data_vars(data); ++v) {
            char name[256];
            glevo_gp_data_var_identifier(data, v, name, sizeof name);
            json_string(&w, NULL, name);
        }
        json_end_array(&w);
        json_string(&w, "best_program", r.best_sexpr);
        json_string(&w, "best_infix", r.best_infix);
        json_string(&w, "best_sympy", r.best_sympy);
        json_int(&w, "best_nodes", r.best_nodes);
        gp_front_json(&w, &front);
        json_number(&w, "train_r2", r.train_r2);
        if (test) json_number(&w, "test_error", test_error);
        if (test) json_number(&w, "test_r2", test_r2);
        json_int(&w, "evaluations", r.evaluations);
        json_int(&w, "generations", r.generations);
        json_int(&w, "pop", p.pop);
        json_number(&w, "seconds", r.seconds);
        json_number(&w, "eval_seconds", r.eval_seconds);
        json_number(&w, "variation_seconds", r.variation_seconds);
        common_json_builds(&w, ctx);
        json_number(&w, "gpops", gpops);
        run_control_json(&ctl, &w);
        json_end_object(&w);
    } else {
        printf("best_program %s\ninfix        %s\nsympy        %s\n%-12s %.9g\nr2           %.9g\n",
               r.best_sexpr, r.best_infix, r.best_sympy, glevo_gp_metric_name(p.metric),
               r.best_error, r.train_r2);
        if (test) printf("test_%-7s %.9g\ntest_r2      %.9g\n", glevo_gp_metric_name(p.metric),
                         test_error, test_r2);
        printf("generations  %d\nevaluations  %lld\nseconds      %.3f\n", r.generations,
               r.evaluations, r.seconds);
        /* The engine that ran (--backend auto picks one): the 2008 way is --backend fragment. */
        printf("engine       %s on %s\n", glevo_backend_name(p.backend),
               ctx ? glevo_context_renderer(ctx) : "the CPU");
    }
    if (ctx && c.profile) glevo_context_print_profile(ctx, stderr);
    rc = 0;
done:
    glevo_gp_result_free(&r);
    gp_front_free(&front);
    glevo_gp_data_destroy(data);
    glevo_gp_data_destroy(test);
    if (ctx) glevo_context_destroy(ctx);
    return run_control_exit(rc);
}

/* --islands: MPI around the whole command (cli/islands.h). */
int cmd_gp(int argc, char **argv)
{
    islands_begin(argc, argv);
    return islands_end(gp_main(argc, argv));
}
