/* glevo dsmga: DSMGA-II (Hsu & Yu 2015) with its model building on the GPU (Li & Yu 2017):
 * one run, or the population-sizing sweep (--sweep). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "glevo/dsmga.h"

static int parse_model(const char *model, glevo_dsmga_model *out)
{
    if (!strcmp(model, "lossless")) *out = GLEVO_DSMGA_LOSSLESS;
    else if (!strcmp(model, "lossy")) *out = GLEVO_DSMGA_LOSSY;
    else return cli_bad_input("dsmga", "--model '%s' is unknown (lossless or lossy)", model);
    return 0;
}

int cmd_dsmga(int argc, char **argv)
{
    common_opts c = COMMON_OPTS_DEFAULT;
    const char *problem_name = "trap", *model = "lossless", *spin_file = NULL;
    /* INT_MIN and -1 mark "not given"; an explicit 0 is refused rather than read as a default. */
    int ell = 100, pop = 100, selection = 2, max_gens = 10000, repeat = INT_MIN, runs = 10, stall = 20;
    long long max_nfe = -1;
    bool sweep = false, help = false, skip_dup = false;
    run_control ctl = {0};
    opt_spec specs[] = {
        {"problem", OPT_CHOICE, OPT_CHOICES(problem_name, "onemax trap ftrap cyctrap spin"), "onemax, trap (k=5), ftrap (folded, k=6), cyctrap, spin"},
        {"ell", OPT_INT, &ell, "problem size in bits (spin: L*L)"},
        {"pop", OPT_INT, &pop, "population size"},
        {"model", OPT_CHOICE, OPT_CHOICES(model, "lossless lossy"), "FindClique: lossless or lossy (stop a set without a donor)"},
        {"selection", OPT_INT, &selection, "tournament size (selection pressure s)"},
        {"max-gens", OPT_INT, &max_gens, "generation limit"},
        {"stall", OPT_INT, &stall, "end after this many generations without any change (-1: never)"},
        {"max-nfe", OPT_COUNT, &max_nfe, "evaluation budget (default: none)"},
        {"repeat", OPT_INT, &repeat, "restricted-mixing sweeps a generation (default: max(1, ell/50))"},
        {"spin-file", OPT_STRING, &spin_file, "spin-glass instance (data/spin/ format)"},
        {"skip-duplicates", OPT_FLAG, &skip_dup,
         "restricted mixing skips a trial already in the population (Hsu & Yu 2015 code) instead of stopping (their 2016+ code)"},
        {"sweep", OPT_FLAG, &sweep, "find the smallest population solving --runs runs in a row (--pop: first guess)"},
        {"runs", OPT_INT, &runs, "runs per population in the sweep"},
        RUN_CONTROL_OPT_SPECS(ctl),
        COMMON_OPT_SPECS(c),
        {0}};
    int rc = opt_parse("dsmga", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo dsmga [--problem trap|ftrap|cyctrap|spin|onemax] [--ell L] "
                               "[--pop N] [--model lossless|lossy] [--sweep] ...",
                       "DSMGA-II with DSM and linkage sets built in fragment passes, compute dispatches or on the CPU.", specs);
        return 0;
    }
    const cli_path files[] = {{"--checkpoint", ctl.checkpoint, true},
                              {"--spin-file", spin_file, false}, {"--resume", ctl.resume, false}};
    if ((rc = cli_paths_distinct("dsmga", files, sizeof files / sizeof files[0]))) return rc;
    if ((rc = run_control_check("dsmga", "dsmga", &ctl))) return rc;
    bool resume = ctl.resume != NULL;
    if ((ctl.checkpoint || resume) && sweep)
        return cli_bad_input("dsmga", "--sweep: --checkpoint and --resume save and continue one run");
    if (resume && !opt_given(argc, argv, 1, "backend")) c.backend = ctl.from.backend;
    /* The run's problem and what is printed come from the checkpoint unless typed: the
     * problem is rebuilt from its name, length and seed (a --spin-file must be given again). */
    static char text[8][256];
    const char *v;
    if ((v = run_control_param(&ctl, argc, argv, "problem", "param.problem", text[0], 256))) problem_name = v;
    if ((v = run_control_param(&ctl, argc, argv, "ell", "param.ell", text[1], 256))) ell = atoi(v);
    if ((v = run_control_param(&ctl, argc, argv, "seed", "param.seed", text[2], 256))) c.seed = (uint32_t)strtoul(v, NULL, 10);
    if ((v = run_control_param(&ctl, argc, argv, "pop", "param.pop", text[3], 256))) pop = atoi(v);
    if ((v = run_control_param(&ctl, argc, argv, "model", "param.model", text[4], 256))) model = v;
    if ((v = run_control_param(&ctl, argc, argv, "selection", "param.selection_pressure", text[5], 256)))
        selection = atoi(v);
    if ((rc = common_check_backend("dsmga", &c))) return rc;
    glevo_dsmga_model m = GLEVO_DSMGA_LOSSLESS;
    if ((rc = parse_model(model, &m))) return rc;
    /* Sizes are bounded so that pop * ell bytes, pop * selection tournament slots and the
     * FastCounting words stay far inside int and memory. */
    if (pop < 2 || pop > (1 << 24))
        return cli_bad_input("dsmga", "--pop %d is out of range (2..16777216)", pop);
    if (ell > 0 && (long long)pop * ell > (1LL << 30))
        return cli_bad_input("dsmga", "--pop %d is out of range: %d x %d genes exceed 2^30", pop, pop, ell);
    if (selection < 1 || selection > pop || selection > 1024)
        return cli_bad_input("dsmga", "--selection %d is out of range (1..%d: at most the population and 1024)",
                             selection, pop < 1024 ? pop : 1024);
    if (max_gens < 1) return cli_bad_input("dsmga", "--max-gens %d must be positive", max_gens);
    if (max_nfe == 0) return cli_bad_input("dsmga", "--max-nfe 0 is below 1");
    if (repeat != INT_MIN && repeat < 1) return cli_bad_input("dsmga", "--repeat %d is below 1", repeat);
    if (stall == 0 || stall < -1)
        return cli_bad_input("dsmga", "--stall %d: give at least 1 generation, or -1 for never", stall);
    if (runs < 1) return cli_bad_input("dsmga", "--runs %d must be positive", runs);

    /* A spin-glass file sets the problem and its length (L*L): the library is asked for
     * length 0 then unless --ell was typed (it must match the file). */
    if (spin_file && strcmp(problem_name, "spin"))
        return cli_bad_input("dsmga", "--spin-file '%s' is an instance of --problem spin, not of "
                             "--problem %s", spin_file, problem_name);
    glevo_dsmga_problem *problem = NULL;
    glevo_status st = glevo_dsmga_problem_create(problem_name,
                                                 spin_file && !opt_given(argc, argv, 1, "ell") ? 0 : ell,
                                                 spin_file, c.seed, &problem);
    if (st != GLEVO_OK) return st == GLEVO_ERR_IO ? cli_bad_input("dsmga", "%s", glevo_last_error())
                                                  : cli_fail("dsmga", st);
    glevo_context *ctx = NULL;
    bool gpu = common_is_gpu(&c);
    if (gpu && (rc = common_context_create("dsmga", &c, &ctx))) {
        glevo_dsmga_problem_destroy(problem);
        return rc;
    }
    const char *renderer = gpu ? glevo_context_renderer(ctx) : "cpu";
    glevo_dsmga_params params = {.pop = pop, .selection_pressure = selection, .max_generations = max_gens,
                                 .max_nfe = max_nfe > 0 ? max_nfe : 0, .repeat = repeat > 0 ? repeat : 0, .model = m,
                                 .skip_duplicates = skip_dup, .stall_generations = stall, .backend = common_backend(&c), .seed = c.seed};
    double t0 = cli_seconds_now();
    glevo_dsmga_sweep_result sw = {0};
    if (sweep) {
        st = glevo_dsmga_sweep(problem, &params, runs, &sw);
        if (st != GLEVO_OK) goto fail;
        params.pop = sw.pop;
        if (!c.quiet) fprintf(stderr, "glevo dsmga: sweep: population %d solves %d runs in a row\n", sw.pop, runs);
    }
    /* On resume only what was typed is compared with the checkpoint (zero: as in the file). */
    glevo_dsmga_params changes = {.backend = (glevo_backend)GLEVO_LITERAL((int)params.backend)};
#define GIVEN(name) opt_given(argc, argv, 1, name)
    if (GIVEN("pop")) changes.pop = params.pop;
    if (GIVEN("selection")) changes.selection_pressure = params.selection_pressure;
    if (GIVEN("max-gens")) changes.max_generations = params.max_generations;
    if (GIVEN("max-nfe")) changes.max_nfe = params.max_nfe;
    if (GIVEN("repeat")) changes.repeat = params.repeat;
    if (GIVEN("model")) changes.model = params.model;
    if (GIVEN("skip-duplicates")) changes.skip_duplicates = true;
    if (GIVEN("stall")) changes.stall_generations = params.stall_generations;
    if (GIVEN("seed")) changes.seed = c.seed ? c.seed : (uint32_t)GLEVO_ZERO;
#undef GIVEN
    glevo_dsmga *e = NULL;
    run_control_library_begin();
    st = resume ? glevo_dsmga_load(ctl.resume, problem, &changes, &e)
                : glevo_dsmga_create(problem, &params, &e);
    run_control_library_end();
    if (st != GLEVO_OK) goto fail;
    run_control_start(&ctl, glevo_dsmga_generation(e));
    glevo_checkpoint_extra extra = {0};
#define CHECKPOINT()                                                                          \
    do {                                                                                      \
        double t0 = cli_seconds_now();                                                        \
        if (!(st = glevo_dsmga_save(e, ctl.checkpoint, &extra)))                              \
            run_control_wrote(&ctl, glevo_dsmga_generation(e), cli_seconds_now() - t0);       \
    } while (0)
    bool done = false;
    while (!done && !run_control_signal()) {
        st = glevo_dsmga_step(e, &done);
        if (st == GLEVO_OK && run_control_due(&ctl, glevo_dsmga_generation(e))) CHECKPOINT();
        if (st != GLEVO_OK) {
            glevo_dsmga_destroy(e);
            goto fail;
        }
    }
    if (run_control_final_due(&ctl, glevo_dsmga_generation(e))) CHECKPOINT();
#undef CHECKPOINT
    if (st != GLEVO_OK) {
        glevo_dsmga_destroy(e);
        goto fail;
    }
    run_control_report("dsmga", &ctl, glevo_dsmga_generation(e));
    glevo_dsmga_result r;
    glevo_dsmga_result_get(e, &r);
    double seconds = cli_seconds_now() - t0;
    int L = glevo_dsmga_problem_ell(problem);
    char *best = malloc((size_t)L + 1);
    if (!best) {
        glevo_dsmga_destroy(e);
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int i = 0; i < L; ++i) best[i] = (char)('0' + glevo_dsmga_best(e)[i]);
    best[L] = '\0';
    if (c.json) {
        json_writer w = {0};
        json_begin_object(&w, NULL);
        json_string(&w, "algorithm", "dsmga2");
        json_string(&w, "problem", glevo_dsmga_problem_name(problem));
        json_string(&w, "backend", glevo_backend_name(params.backend));
        json_string(&w, "renderer", renderer);
        json_int(&w, "seed", c.seed);
        json_string(&w, "model", model);
        json_int(&w, "ell", L);
        json_int(&w, "pop", params.pop);
        json_number(&w, "best_fitness", r.best_fitness);
        json_number(&w, "optimum", glevo_dsmga_problem_optimum(problem));
        json_bool(&w, "solved", r.solved);
        json_int(&w, "evaluations", r.nfe);
        json_int(&w, "nfe", r.nfe);
        json_int(&w, "generations", r.generations);
        json_number(&w, "seconds", seconds);
        json_number(&w, "dsm_ms", r.dsm_ms);
        json_number(&w, "ils_ms", r.ils_ms);
        if (sweep) {
            json_int(&w, "sweep_pop", sw.pop);
            json_number(&w, "sweep_mean_nfe", sw.mean_nfe);
        }
        json_begin_array(&w, "best_x");
        for (int i = 0; i < L; ++i) json_int(&w, NULL, best[i] - '0');
        json_end_array(&w);
        run_control_json(&ctl, &w);
        json_end_object(&w);
    } else {
        printf("problem %s ell %d pop %d model %s backend %s (%s)\n", glevo_dsmga_problem_name(problem), L,
               params.pop, model, c.backend, renderer);
        printf("solved %s  best %.6g (optimum %.6g)  nfe %lld  generations %d\n", r.solved ? "yes" : "no",
               r.best_fitness, glevo_dsmga_problem_optimum(problem), r.nfe, r.generations);
        printf("dsm %.3f ms  ils %.3f ms  total %.3f s\nbest_x %s\n", r.dsm_ms, r.ils_ms, seconds, best);
    }
    free(best);
    glevo_dsmga_destroy(e);
    if (gpu && c.profile) glevo_context_print_profile(ctx, stderr);
    glevo_dsmga_problem_destroy(problem);
    glevo_context_destroy(ctx);
    return run_control_exit(0);
fail:
    rc = cli_fail("dsmga", st);
    glevo_dsmga_problem_destroy(problem);
    glevo_context_destroy(ctx);
    return rc;
}
