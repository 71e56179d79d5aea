/* glevo de: differential evolution (DE/rand/1/bin and friends) on the GPU as two fused
 * fragment passes per generation or as fused compute dispatches, or on the CPU (Qin et al.
 * 2012; issues 4 and 13). One run, or
 * --runs N independent seeds with mean/std/success-rate statistics as in the paper's tables. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "glevo/de.h"
#include "islands.h"

typedef struct run_stats {
    double efv_sum, efv_sq, sec_sum, sec_sq;
    int success, count;
} run_stats;

static void print_x(FILE *out, const double *x, int dim)
{
    for (int j = 0; j < dim; ++j) fprintf(out, "%s%.17g", j ? " " : "", x[j]);
    fputc('\n', out);
}

static double std_of(double sum, double sq, int n)
{
    if (n < 2) return 0.0;
    double mean = sum / n, var = (sq - n * mean * mean) / (n - 1);
    return var > 0.0 ? sqrt(var) : 0.0;
}

static glevo_status de_step(void *de, long long generations) { return glevo_de_step(de, generations); }

/* One run: created (or loaded from --resume), stepped in pieces so that a signal stops it
 * between generations, checkpointed when due, at its end and when stopped. */
static glevo_status run_one(const glevo_de_params *params, const glevo_de_params *changes,
                            run_control *ctl, bool one_of_many, glevo_de_result *out,
                            bool *complete)
{
    glevo_de *de = NULL;
    glevo_status st = ctl->resume ? glevo_de_load(ctl->resume, changes, &de)
                                  : glevo_de_create(params, &de);
    if (st) return st;
    run_control_start(ctl, glevo_de_generation(de));
    glevo_checkpoint_extra extra = {0};
#define CHECKPOINT()                                                                          \
    do {                                                                                      \
        double t0 = cli_seconds_now();                                                        \
        if (!(st = glevo_de_save(de, ctl->checkpoint, &extra)))                               \
            run_control_wrote(ctl, glevo_de_generation(de), cli_seconds_now() - t0);          \
    } while (0)
    while (!st && !glevo_de_done(de) && !run_control_signal()) {
        long long chunk = run_control_chunk(ctl, glevo_de_generation(de), 100), stepped;
        if ((st = run_control_step(ctl, de_step, de, chunk, &stepped))) break;
        if (run_control_due(ctl, glevo_de_generation(de))) CHECKPOINT();
    }
    if (!st && run_control_final_due(ctl, glevo_de_generation(de))) CHECKPOINT();
#undef CHECKPOINT
    *complete = !st && glevo_de_done(de);
    /* One of --runs N: the command says once how many runs it completed (de_main). */
    if (!one_of_many) run_control_report("de", ctl, glevo_de_generation(de));
    if (!st) st = glevo_de_result_get(de, out);
    glevo_de_destroy(de);
    return st;
}

static int de_main(int argc, char **argv)
{
    common_opts c = COMMON_OPTS_DEFAULT;
    const char *problem_name = "sphere", *strategy = "rand1bin", *shift = "cec", *fitness = NULL,
               *kernel = "auto";
    /* INT_MIN and -1 mark "not given"; an explicit 0 is refused rather than read as a default. */
    int dim = INT_MIN, pop = 100, runs = 1, check_every = 100;
    long long max_evals = -1;
    double F = 0.5, CR = 0.3, target_efv = 0, lower = -100, upper = 100;
    bool maximize = false, help = false;
    island_opts islands = ISLAND_OPTS_DEFAULT;
    const char *trace = NULL;
    run_control ctl = {0};
    opt_spec specs[] = {
        {"problem", OPT_CHOICE, OPT_CHOICES(problem_name, cli_problem_choices()), "benchmark function:"},
        {"fitness", OPT_STRING, &fitness,
         "user GLSL file defining problem_init/step/finish (GPU only; with --lower/--upper)"},
        {"lower", OPT_DOUBLE, &lower, "domain lower bound per gene for --fitness"},
        {"upper", OPT_DOUBLE, &upper, "domain upper bound per gene for --fitness"},
        {"maximize", OPT_FLAG, &maximize, "--fitness is maximised (default: minimised)"},
        {"dim", OPT_INT, &dim, "dimension D (default: 10, or the problem's fixed dimension)"},
        {"pop", OPT_INT, &pop, "population size NP (at least 4)"},
        {"max-evals", OPT_COUNT, &max_evals, "evaluation budget (default: 10^4 * D)"},
        {"F", OPT_DOUBLE, &F, "differential weight"},
        {"CR", OPT_DOUBLE, &CR, "crossover rate in [0, 1]"},
        {"strategy", OPT_CHOICE,
         OPT_CHOICES(strategy, "rand1bin best1bin current-to-best1bin rand1exp rand/1/bin best/1/bin "
                               "current-to-best/1/bin rand/1/exp"),
         "rand1bin, best1bin, current-to-best1bin or rand1exp (also written rand/1/bin, ...)"},
        {"shift", OPT_CHOICE, OPT_CHOICES(shift, "cec none"), "cec (CEC 2005 shift vectors where defined) or none"},
        {"runs", OPT_INT, &runs, "independent runs (seeds seed, seed+1, ...) with statistics"},
        {"target-efv", OPT_DOUBLE, &target_efv, "stop a run once its error value is below this (0: never, run the full budget)"},
        {"check-every", OPT_INT, &check_every, "generations between best-so-far readbacks"},
        {"kernel", OPT_CHOICE, OPT_CHOICES(kernel, "auto generation resident"),
         "compute backend: auto, generation (a dispatch a generation) or resident (the "
         "population in one work-group, many generations a dispatch)"},
        RUN_CONTROL_OPT_SPECS(ctl),
        COMMON_OPT_SPECS(c),
        ISLAND_OPT_SPECS(islands),
        {"trace", OPT_STRING, &trace, "with --islands: per-island rows at every check into a CSV file"},
        {0}};
    int rc = opt_parse("de", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout,
                       "glevo de [--problem NAME] [--dim D] [--pop NP] [--max-evals E] [--F F] "
                       "[--CR CR] [--strategy S] [--runs N] ...",
                       "Differential evolution as two fused fragment passes per generation, or "
                       "fused compute dispatches (Qin et al. 2012's cudaDE_i idea).",
                       specs);
        return 0;
    }
    const cli_path files[] = {{"--trace", trace, true}, {"--checkpoint", ctl.checkpoint, true},
                              {"--fitness", fitness, false}, {"--resume", ctl.resume, false}};
    if ((rc = cli_paths_distinct("de", files, sizeof files / sizeof files[0]))) return rc;
    rc = islands.enabled ? islands_control_check("de", &ctl) : run_control_check("de", "de", &ctl);
    if (rc) return rc;
    bool resume = ctl.resume != NULL;
    if ((ctl.checkpoint || resume) && runs > 1)
        return cli_bad_input("de", "--runs %d: --checkpoint and --resume save and continue one run", runs);
    /* Islands take the command line as typed: their --resume names a folder. */
    if (resume && !islands.enabled && !opt_given(argc, argv, 1, "backend")) c.backend = ctl.from.backend;
    /* What the run used, for the checks below and the report (typed options stay typed). */
    if (resume && !islands.enabled &&
        (rc = run_control_fitness("de", &ctl, argc, argv, &fitness, &lower, &upper, &maximize, &dim)))
        return rc;
    static char text[8][256];
    const char *v;
    if (!fitness && (v = run_control_param(&ctl, argc, argv, "problem", "param.problem", text[0], 256)))
        problem_name = v;
    if ((v = run_control_param(&ctl, argc, argv, "dim", "param.dim", text[1], 256))) dim = atoi(v);
    if ((v = run_control_param(&ctl, argc, argv, "pop", "param.pop", text[2], 256))) pop = atoi(v);
    if ((v = run_control_param(&ctl, argc, argv, "F", "param.F", text[3], 256))) F = strtod(v, NULL);
    if ((v = run_control_param(&ctl, argc, argv, "CR", "param.CR", text[4], 256))) CR = strtod(v, NULL);
    if ((v = run_control_param(&ctl, argc, argv, "strategy", "param.strategy", text[5], 256))) strategy = v;
    if ((v = run_control_param(&ctl, argc, argv, "seed", "param.seed", text[6], 256))) c.seed = (uint32_t)strtoul(v, NULL, 10);
    if ((v = run_control_param(&ctl, argc, argv, "shift", "param.shifted", text[7], 256)))
        shift = atoi(v) ? "cec" : "none";
    if ((rc = common_check_backend("de", &c))) return rc;
    const glevo_problem *problem = NULL;
    glevo_problem user;
    if (dim != INT_MIN && dim < 1) return cli_bad_input("de", "--dim %d is below 1", dim);
    if (fitness) {
        if (dim == INT_MIN) return cli_bad_input("de", "--fitness %s needs --dim D (its dimension)", fitness);
        glevo_status st = glevo_problem_from_glsl(fitness, dim, lower, upper,
                                                  maximize ? GLEVO_MAXIMIZE : GLEVO_MINIMIZE, &user);
        if (st != GLEVO_OK) return cli_bad_input("de", "%s", glevo_last_error());
        if (!common_is_gpu(&c))
            return cli_bad_input("de", "--fitness %s has no C twin: use --backend fragment", fitness);
        problem = &user;
    } else {
        problem = glevo_problem_find(problem_name);
        if (!problem) return cli_bad_input("de", "--problem: %s", glevo_last_error());
    }
    if (pop < 4) return cli_bad_input("de", "--pop %d is below 4 (DE needs i, r1, r2, r3 distinct)", pop);
    if (!(CR >= 0.0 && CR <= 1.0)) return cli_bad_input("de", "--CR %g is outside [0, 1]", CR);
    if (!(F > 0.0 && F <= 2.0)) return cli_bad_input("de", "--F %g is outside (0, 2]", F);
    if (max_evals == 0) return cli_bad_input("de", "--max-evals 0 is below 1");
    if (runs < 1) return cli_bad_input("de", "--runs %d must be at least 1", runs);
    if (target_efv < 0) return cli_bad_input("de", "--target-efv %g is negative", target_efv);
    if (check_every < 1) return cli_bad_input("de", "--check-every %d is below 1", check_every);
    int strat = glevo_de_strategy_parse(strategy);
    if (strat < 0)
        return cli_bad_input("de", "--strategy '%s' is unknown (rand1bin, best1bin, "
                                   "current-to-best1bin, rand1exp)", strategy);
    int kern = glevo_de_kernel_parse(kernel);
    if (kern < 0)
        return cli_bad_input("de", "--kernel '%s' is unknown (auto, generation, resident)", kernel);
    if (strcmp(shift, "cec") && strcmp(shift, "none"))
        return cli_bad_input("de", "--shift '%s' is unknown (cec or none)", shift);
    if (problem->fixed_dim && dim > 0 && dim != problem->fixed_dim)
        return cli_bad_input("de", "--dim %d: problem '%s' is %d-dimensional", dim, problem->name,
                             problem->fixed_dim);
    /* The population is one texel per gene (16384 x 16384 at most) and as many floats on the
     * host: a size beyond that is bad input, not a failure halfway through allocation. */
    long long genes = dim > 0 ? dim : problem->fixed_dim ? problem->fixed_dim : 10;
    if ((long long)pop * genes > (1LL << 28))
        return cli_bad_input("de", "--pop %d is out of range: %d x %lld genes exceed 2^28 "
                                   "(one 16384 x 16384 texture)", pop, pop, genes);

    glevo_de_params params = {
        .problem = problem, .dim = dim > 0 ? dim : 0, .pop = pop, .F = F,
        .CR = CR == 0.0 ? GLEVO_DE_CR_ZERO : CR, .strategy = (glevo_de_strategy)strat,
        .max_evals = max_evals > 0 ? max_evals : 0, .no_shift = !strcmp(shift, "none"),
        .check_every = check_every, .target_efv = target_efv, .kernel = (glevo_de_kernel)kern,
        .backend = (glevo_backend)glevo_backend_parse(c.backend)};

    /* On resume only what was typed is compared with the checkpoint (zero: as in the file). */
    glevo_de_params changes = {.backend = (glevo_backend)GLEVO_LITERAL((int)params.backend)};
#define GIVEN(name) opt_given(argc, argv, 1, name)
    if (GIVEN("problem") || fitness) changes.problem = problem;
    if (GIVEN("dim")) changes.dim = params.dim;
    if (GIVEN("pop")) changes.pop = pop;
    if (GIVEN("F")) changes.F = F;
    if (GIVEN("CR")) changes.CR = params.CR;
    if (GIVEN("strategy")) changes.strategy = (glevo_de_strategy)GLEVO_LITERAL(strat);
    if (GIVEN("shift")) changes.no_shift = params.no_shift;
    if (GIVEN("seed")) changes.seed = c.seed ? c.seed : (uint32_t)GLEVO_ZERO;
    if (GIVEN("max-evals")) changes.max_evals = params.max_evals;
    if (GIVEN("check-every")) changes.check_every = check_every;
    if (GIVEN("target-efv")) changes.target_efv = target_efv;
    if (GIVEN("kernel")) changes.kernel = (glevo_de_kernel)GLEVO_LITERAL(kern);
#undef GIVEN
    /* Validate everything (including the shift vector's dimension) before opening a context. */
    if (!fitness && !resume) {
        glevo_de_params probe = params;
        probe.pop = 4;
        probe.max_evals = 4;
        probe.backend = GLEVO_BACKEND_CPU;
        glevo_de *tmp;
        glevo_status st = glevo_de_create(&probe, &tmp);
        if (st == GLEVO_ERR_INVALID) return cli_fail("de", st);
        if (st == GLEVO_OK) glevo_de_destroy(tmp);
    }
    if (islands.enabled) {
        if (runs > 1) return cli_bad_input("de", "--runs %d: with --islands each rank is one run", runs);
        params.seed = c.seed;
        return islands_de(&params, &changes, &c, &islands, trace, &ctl);
    }
    if (trace) return cli_bad_input("de", "--trace '%s' needs --islands", trace);
    glevo_context *ctx = NULL;
    if (params.backend != GLEVO_BACKEND_CPU && (rc = common_context_create("de", &c, &ctx)))
        return rc;
    params.backend = common_backend(&c);

    run_stats s = {0};
    glevo_de_result best = {0}, r;
    int best_run = -1;
    glevo_status st = GLEVO_OK;
    /* A signal stops the whole command (issue 23): the run in progress stops after its
     * current step and, one of several, is left out; no further run starts. */
    int stopped_in = 0;
    for (int k = 0; k < runs && !run_control_signal(); ++k) {
        params.seed = c.seed + (uint32_t)k;
        bool complete = false;
        st = run_one(&params, &changes, &ctl, runs > 1, &r, &complete);
        if (st != GLEVO_OK) break;
        if (runs > 1 && !complete) {
            glevo_de_result_free(&r);
            stopped_in = k + 1;
            break;
        }
        s.count++;
        if (!isnan(r.efv)) {
            s.efv_sum += r.efv;
            s.efv_sq += r.efv * r.efv;
            s.success += r.efv < 1e-8;
        }
        s.sec_sum += r.seconds;
        s.sec_sq += r.seconds * r.seconds;
        if (!c.quiet && runs > 1)
            fprintf(stderr, "glevo de: run %d/%d seed %u: efv %.6g in %.3f s\n", k + 1, runs,
                    params.seed, r.efv, r.seconds);
        if (best_run < 0 || glevo_problem_better(problem, r.best_fitness, best.best_fitness)) {
            glevo_de_result_free(&best);
            best = r;
            best_run = k;
        } else {
            glevo_de_result_free(&r);
        }
    }
    if (st != GLEVO_OK) {
        glevo_de_result_free(&best);
        glevo_context_destroy(ctx);
        return cli_fail_fitness("de", st, fitness);
    }
    int sig = run_control_signal();
    if (sig && runs > 1) {
        const char *name = run_control_signal_name();
        if (stopped_in)
            fprintf(stderr, "glevo de: stopped by %s during run %d/%d: %d of %d runs completed, "
                            "the report covers those\n", name, stopped_in, runs, s.count, runs);
        else
            fprintf(stderr, "glevo de: stopped by %s: %d of %d runs completed, the report "
                            "covers those\n", name, s.count, runs);
    }
    if (s.count == 0) { /* stopped before the first run completed: nothing to report */
        if (c.json) {
            json_writer w = {0};
            json_begin_object(&w, NULL);
            json_string(&w, "algorithm", "de");
            json_int(&w, "runs", runs);
            json_int(&w, "runs_completed", 0);
            run_control_json(&ctl, &w);
            json_end_object(&w);
        }
        glevo_context_destroy(ctx);
        return run_control_exit(0);
    }
    if (isnan(best.best_fitness))
        fprintf(stderr, "glevo de: warning: every fitness value was NaN, so there is no best "
                        "individual%s\n", fitness ? " (check the --fitness file)" : "");
    int D = best.dim;
    if (c.json) {
        json_writer w = {0};
        json_begin_object(&w, NULL);
        json_string(&w, "algorithm", "de");
        json_string(&w, "strategy", glevo_de_strategy_name(params.strategy));
        json_string(&w, "problem", problem->name);
        json_string(&w, "backend", glevo_backend_name(params.backend));
        json_string(&w, "renderer", best.renderer);
        json_string(&w, "engine", best.engine);
        json_int(&w, "seed", c.seed); /* as given; runs use seed, seed + 1, ... */
        json_int(&w, "best_seed", c.seed + (uint32_t)best_run);
        json_int(&w, "dim", D);
        json_int(&w, "pop", pop);
        json_number(&w, "F", F);
        json_number(&w, "CR", CR);
        json_bool(&w, "shifted", !params.no_shift && problem->cec_shift_file);
        json_number(&w, "best_fitness", best.best_fitness);
        if (isnan(best.efv)) json_null(&w, "efv");
        else json_number(&w, "efv", best.efv);
        json_int(&w, "evaluations", best.evaluations);
        json_int(&w, "generations", best.generations);
        json_number(&w, "seconds", best.seconds);
        json_begin_array(&w, "best_x");
        for (int j = 0; j < D; ++j) json_number(&w, NULL, best.best_x[j]);
        json_end_array(&w);
        if (runs > 1) { /* statistics over the completed runs */
            int n = s.count;
            json_int(&w, "runs", runs);
            json_int(&w, "runs_completed", n);
            json_int(&w, "first_seed", c.seed);
            json_number(&w, "efv_mean", s.efv_sum / n);
            json_number(&w, "efv_std", std_of(s.efv_sum, s.efv_sq, n));
            json_number(&w, "success_rate", (double)s.success / n);
            json_number(&w, "seconds_mean", s.sec_sum / n);
            json_number(&w, "seconds_std", std_of(s.sec_sum, s.sec_sq, n));
        }
        run_control_json(&ctl, &w);
        json_end_object(&w);
    } else {
        printf("de %s on %s D=%d NP=%d F=%g CR=%g backend %s, %s (%s)\n",
               glevo_de_strategy_name(params.strategy), problem->name, D, pop, F, CR,
               glevo_backend_name(params.backend), best.engine, best.renderer);
        printf("best %.17g  efv %.6g  evaluations %lld  generations %lld  %.3f s\n",
               best.best_fitness, best.efv, best.evaluations, best.generations, best.seconds);
        if (runs > 1) {
            int n = s.count;
            if (n < runs) printf("%d of %d runs completed (stopped by a signal)\n", n, runs);
            printf("%d runs: efv %.6g (%.6g)  success rate %.2f  time %.3f (%.3f) s\n", n,
                   s.efv_sum / n, std_of(s.efv_sum, s.efv_sq, n), (double)s.success / n,
                   s.sec_sum / n, std_of(s.sec_sum, s.sec_sq, n));
        }
        printf("best_x ");
        print_x(stdout, best.best_x, D);
    }
    glevo_de_result_free(&best);
    if (ctx && c.profile) glevo_context_print_profile(ctx, stderr);
    glevo_context_destroy(ctx);
    return run_control_exit(0);
}

/* --islands: MPI around the whole command (cli/islands.h). */
int cmd_de(int argc, char **argv)
{
    islands_begin(argc, argv);
    return islands_end(de_main(argc, argv));
}
