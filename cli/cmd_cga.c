/* glevo cga: the fine-grained (cellular) GA of Li, Chi & Wan (2008), on the GPU by default. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "glevo/cga.h"
#include "glevo/output.h"
#include "islands.h"
#include "glevo/sheet.h"
#include "glevo/snapshot.h"
#include "cga_trace.h"

typedef struct cga_cli {
    const char *problem, *neighbourhood, *rng, *algorithm, *mutation, *trace, *fitness_file;
    const char *snapshot_dir, *snapshot_final, *sheet;
    int dim, grid[2], block_depth, block_tile[2], generations, bits, report_every, snapshot_every, sheet_columns, snapshot_scale;
    double pc, pm, target, lower, upper, tolerance;
    long long max_evals;
    bool maximize, has_target;
    common_opts common;
    island_opts islands;
} cga_cli;

static int parse_enum(const char *command, const char *option, const char *value,
                      const char *const *names, int count, int *out)
{
    for (int i = 0; i < count; ++i)
        if (!strcmp(value, names[i])) {
            *out = i;
            return 0;
        }
    char known[256] = "";
    for (int i = 0; i < count; ++i)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", names[i]);
    return cli_bad_input(command, "--%s '%s' is unknown (known: %s)", option, value, known);
}

static void print_json(const run_control *ctl, glevo_cga *cga, const glevo_cga_best *best,
                       const char *renderer, double seconds, const glevo_problem *pr, double optimum,
                       bool reached)
{
    const glevo_cga_params *p = glevo_cga_params_of(cga);
    json_writer w = {0};
    json_begin_object(&w, NULL);
    json_string(&w, "algorithm", p->algorithm == GLEVO_CGA_STANDARD ? "sga" : "cga");
    json_string(&w, "problem", pr->name);
    json_string(&w, "backend", glevo_backend_name(p->backend));
    json_string(&w, "renderer", renderer);
    json_int(&w, "seed", p->seed);
    json_int(&w, "dim", p->dim);
    json_int(&w, "grid_width", p->width);
    json_int(&w, "grid_height", p->height);
    json_int(&w, "bits", p->bits);
    json_number(&w, "pc", p->pc);
    json_number(&w, "pm", p->pm);
    json_string(&w, "rng", p->rng == GLEVO_RNG_TEXTURE ? "texture" : "philox");
    json_string(&w, "mutation", p->mutation == GLEVO_MUTATION_SKIP ? "skip" : "per-bit");
    json_number(&w, "best_fitness", best->fitness);
    json_begin_array(&w, "best_x");
    for (int j = 0; j < p->dim; ++j) json_number(&w, NULL, best->x[j]);
    json_end_array(&w);
    json_int(&w, "best_generation", best->generation);
    if (pr->has_optimum) {
        json_number(&w, "optimum", optimum);
        json_bool(&w, "reached_optimum", reached);
    }
    json_int(&w, "evaluations", glevo_cga_evaluations(cga));
    json_int(&w, "generations", glevo_cga_generation(cga));
    json_number(&w, "seconds", seconds);
    run_control_json(ctl, &w);
    json_end_object(&w);
}


static glevo_status cga_step(void *cga, long long generations)
{
    return glevo_cga_step(cga, (int)generations);
}

static int cga_main(int argc, char **argv)
{
    /* "Not given" marks: dim -1, max_evals -1, target and tolerance NaN (never a value a
     * user could mean, so an explicit 0 is taken as 0). */
    cga_cli o = {.problem = "camel", .neighbourhood = "moore", .rng = "philox",
                 .algorithm = "cellular", .mutation = "per-bit", .dim = INT_MIN, .grid = {64, 64},
                 .block_depth = INT_MIN,
                 .generations = 200, .bits = 24, .report_every = 25, .pc = 0.8, .pm = 0.005,
                 .target = NAN, .tolerance = NAN, .max_evals = -1, .lower = -1, .upper = 1,
                 .snapshot_every = 50, .sheet_columns = 4, .common = COMMON_OPTS_DEFAULT,
                 .islands = ISLAND_OPTS_DEFAULT};
    run_control ctl = {0};
    opt_spec specs[] = {
        {"problem", OPT_CHOICE, OPT_CHOICES(o.problem, cli_problem_choices()), "benchmark function:"},
        {"dim", OPT_INT, &o.dim, "number of genes (default: the problem's; 2 with --fitness)"},
        {"grid", OPT_GRID, o.grid, "population grid, one individual per texel (width even)"},
        {"generations", OPT_INT, &o.generations, "stop after this many generations"},
        {"max-evals", OPT_COUNT, &o.max_evals, "stop after this many evaluations (default: no limit)"},
        {"target", OPT_DOUBLE, &o.target, "stop once the best reaches this value (default: none)"},
        {"tolerance", OPT_DOUBLE, &o.tolerance, "success when |best - optimum| <= this (default: 1e-4 * max(1, |optimum|))"},
        {"pc", OPT_DOUBLE, &o.pc, "crossover probability per pair and gene"},
        {"pm", OPT_DOUBLE, &o.pm, "mutation probability per bit"},
        {"bits", OPT_INT, &o.bits, "gene length L, 1..24"},
        {"neighbourhood", OPT_CHOICE, OPT_CHOICES(o.neighbourhood, "moore von-neumann moore5"), "selection neighbourhood: moore (3x3), von-neumann, moore5 (5x5)"},
        {"rng", OPT_CHOICE, OPT_CHOICES(o.rng, "philox texture"), "random source: philox (counter-based) or texture (the 2008 scheme)"},
        {"mutation", OPT_CHOICE, OPT_CHOICES(o.mutation, "per-bit skip"), "per-bit (the paper's, one random word per bit) or skip (same distribution, one word per flip)"},
        {"algorithm", OPT_CHOICE, OPT_CHOICES(o.algorithm, "cellular sga"), "cellular, or sga (the paper's standard GA baseline, CPU)"},
        {"report-every", OPT_INT, &o.report_every, "generations between reports: the best read back for progress, --target and --trace"},
        {"trace", OPT_STRING, &o.trace, "write generation, best, mean, diversity, seconds to a CSV file"},
        {"fitness", OPT_STRING, &o.fitness_file, "user fitness: a GLSL file defining problem_init/step/finish"},
        {"lower", OPT_DOUBLE, &o.lower, "domain lower bound for --fitness"},
        {"upper", OPT_DOUBLE, &o.upper, "domain upper bound for --fitness"},
        {"maximize", OPT_FLAG, &o.maximize, "--fitness is to be maximised (default: minimised)"},
        {"snapshot", OPT_STRING, &o.snapshot_dir, "write population/fitness PNGs into this directory"},
        {"every", OPT_INT, &o.snapshot_every, "with --snapshot: every K generations"},
        {"sheet", OPT_STRING, &o.sheet, "with --snapshot: also combine the snapshots into one contact sheet PNG"},
        {"sheet-columns", OPT_INT, &o.sheet_columns, "columns of the contact sheet"},
        {"snapshot-final", OPT_STRING, &o.snapshot_final, "write a PNG of the final population"},
        {"snapshot-scale", OPT_INT, &o.snapshot_scale, "0: labelled pictures; N: raw, N x N pixels per individual, no text"},
        {"block-depth", OPT_INT, &o.block_depth, "--backend compute: generations one dispatch runs (temporal blocking), 1..64; 0: one a dispatch (default: the rule measured on the H100)"},
        {"block-tile", OPT_GRID, o.block_tile, "--backend compute: cells a work-group owns, width even (default: the rule)"},
        RUN_CONTROL_OPT_SPECS(ctl),
        COMMON_OPT_SPECS(o.common),
        ISLAND_OPT_SPECS(o.islands),
        {0}};
    bool help;
    int rc = opt_parse("cga", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo cga [--problem NAME] [--grid WxH] [--generations G] [OPTIONS]",
                       "Fine-grained (cellular) GA, Li, Chi & Wan 2008: one individual per texel,\n"
                       "each generation five render passes (fitness, selection, crossover points,\n"
                       "crossover, mutation) plus a reduction for the best.", specs);
        return 0;
    }
    o.has_target = !isnan(o.target);
    /* One file, one job: an output never lands on another output or an input (issue 23). */
    const cli_path files[] = {{"--trace", o.trace, true}, {"--checkpoint", ctl.checkpoint, true},
                              {"--snapshot", o.snapshot_dir, true},
                              {"--snapshot-final", o.snapshot_final, true},
                              {"--sheet", o.sheet, true}, {"--fitness", o.fitness_file, false},
                              {"--resume", ctl.resume, false}};
    if ((rc = cli_paths_distinct("cga", files, sizeof files / sizeof files[0]))) return rc;
    if ((rc = cli_picture_check("cga", "--snapshot-final", o.snapshot_final))) return rc;
    if ((rc = cli_picture_check("cga", "--sheet", o.sheet))) return rc;
    rc = o.islands.enabled ? islands_control_check("cga", &ctl) : run_control_check("cga", "cga", &ctl);
    if (rc) return rc;
    /* A resumed run: the checkpoint's backend and --generations unless typed again (islands
     * take the command line as typed: their --resume names a folder). */
    bool resume = ctl.resume != NULL, from_file = resume && !o.islands.enabled;
    if (from_file && !opt_given(argc, argv, 1, "backend")) o.common.backend = ctl.from.backend;
    if (from_file && !opt_given(argc, argv, 1, "generations") && ctl.from.extra.goal > 0)
        o.generations = (int)ctl.from.extra.goal;
    if (from_file && (rc = run_control_fitness("cga", &ctl, argc, argv, &o.fitness_file, &o.lower,
                                                &o.upper, &o.maximize, &o.dim)))
        return rc;
    if ((rc = common_check_backend("cga", &o.common))) return rc;
    /* INT_MIN marks "not given": --dim -1 is refused, not read as the default (issue 23). */
    if (o.dim != INT_MIN && o.dim < 1) return cli_bad_input("cga", "--dim %d is below 1", o.dim);
    /* The library reads -1 (GLEVO_ZERO) as a literal 0: a -1 typed here must not reach it. */
    if (!(o.pc >= 0.0 && o.pc <= 1.0)) return cli_bad_input("cga", "--pc %g is outside [0, 1]", o.pc);
    if (!(o.pm >= 0.0 && o.pm <= 1.0)) return cli_bad_input("cga", "--pm %g is outside [0, 1]", o.pm);
    if (o.report_every < 1) return cli_bad_input("cga", "--report-every %d is below 1", o.report_every);
    if (o.bits < 1 || o.bits > 24)
        return cli_bad_input("cga", "--bits %d is outside 1..24 (a float holds 24-bit integers exactly)", o.bits);
    if (o.generations < 1) return cli_bad_input("cga", "--generations %d is below 1", o.generations);
    if (o.max_evals == 0) return cli_bad_input("cga", "--max-evals 0 is below 1");
    if (o.snapshot_every < 1) return cli_bad_input("cga", "--every %d is below 1", o.snapshot_every);
    if (o.sheet && !o.snapshot_dir) return cli_bad_input("cga", "--sheet '%s' needs --snapshot DIR", o.sheet);
    if (o.sheet_columns < 1) return cli_bad_input("cga", "--sheet-columns %d is below 1", o.sheet_columns);
    if (o.tolerance < 0) return cli_bad_input("cga", "--tolerance %g is negative", o.tolerance);
    if (o.snapshot_scale < 0 || o.snapshot_scale > 64)
        return cli_bad_input("cga", "--snapshot-scale %d is outside 0..64", o.snapshot_scale);
    if (o.block_depth != INT_MIN && (o.block_depth < 0 || o.block_depth > 64))
        return cli_bad_input("cga", "--block-depth %d is outside 0..64", o.block_depth);
    bool blocking = o.block_depth != INT_MIN || o.block_tile[0] || o.block_tile[1];
    if (blocking && strcmp(o.common.backend, "compute") != 0)
        return cli_bad_input("cga", "--block-depth and --block-tile need --backend compute (not %s)",
                             o.common.backend);
    glevo_snapshot_params snap = {.scale = o.snapshot_scale};
    /* Output paths are checked before any work: a typo must not cost a whole run. */
    const char *const outputs[][2] = {{"--trace", o.trace}, {"--snapshot-final", o.snapshot_final},
                                      {"--sheet", o.sheet}};
    for (int i = 0; i < 3; ++i)
        if (outputs[i][1] && glevo_output_check(outputs[i][1], outputs[i][0]) != GLEVO_OK)
            return cli_fail("cga", GLEVO_ERR_INVALID);

    static const char *const neighbourhoods[] = {"moore", "von-neumann", "moore5"};
    static const char *const rngs[] = {"philox", "texture"};
    static const char *const algorithms[] = {"cellular", "sga"};
    static const char *const mutations[] = {"per-bit", "skip"};
    int nb = 0, rng = 0, alg = 0, mut = 0;
    if ((rc = parse_enum("cga", "mutation", o.mutation, mutations, 2, &mut))) return rc;
    if ((rc = parse_enum("cga", "neighbourhood", o.neighbourhood, neighbourhoods, 3, &nb))) return rc;
    if ((rc = parse_enum("cga", "rng", o.rng, rngs, 2, &rng))) return rc;
    if ((rc = parse_enum("cga", "algorithm", o.algorithm, algorithms, 2, &alg))) return rc;

    glevo_problem user_problem;
    const glevo_problem *pr;
    if (o.fitness_file) {
        glevo_status st = glevo_problem_from_glsl(o.fitness_file, o.dim > 0 ? o.dim : 2, o.lower, o.upper,
                                                  o.maximize ? GLEVO_MAXIMIZE : GLEVO_MINIMIZE, &user_problem);
        if (st) return cli_fail("cga", st == GLEVO_ERR_IO ? GLEVO_ERR_INVALID : st);
        pr = &user_problem;
    } else if (!(pr = glevo_problem_find(o.problem))) {
        return cli_fail("cga", GLEVO_ERR_INVALID);
    }
    glevo_cga_params params = {.problem = pr, .dim = o.dim > 0 ? o.dim : 0, .width = o.grid[0], .height = o.grid[1],
                               .bits = o.bits, .pc = GLEVO_LITERAL(o.pc), .pm = GLEVO_LITERAL(o.pm),
                               .neighbourhood = (glevo_cga_neighbourhood)nb, .rng = (glevo_rng_mode)rng, .mutation = (glevo_cga_mutation)mut,
                               .algorithm = (glevo_cga_algorithm)alg,
                               .backend = (glevo_backend)glevo_backend_parse(o.common.backend),
                               .seed = o.common.seed, .report_every = o.report_every,
                               .block_depth = o.block_depth == INT_MIN ? 0 : GLEVO_LITERAL(o.block_depth),
                               .block_tile = {o.block_tile[0], o.block_tile[1]}};
    /* On resume only what was typed is compared with the checkpoint (zero: as in the file). */
    glevo_cga_params changes = {.backend = (glevo_backend)GLEVO_LITERAL((int)params.backend)};
#define GIVEN(name) opt_given(argc, argv, 1, name)
    if (GIVEN("problem") || o.fitness_file) changes.problem = pr;
    if (GIVEN("dim")) changes.dim = params.dim;
    if (GIVEN("grid")) changes.width = params.width, changes.height = params.height;
    if (GIVEN("bits")) changes.bits = params.bits;
    if (GIVEN("pc")) changes.pc = params.pc;
    if (GIVEN("pm")) changes.pm = params.pm;
    if (GIVEN("neighbourhood")) changes.neighbourhood = (glevo_cga_neighbourhood)GLEVO_LITERAL(nb);
    if (GIVEN("rng")) changes.rng = (glevo_rng_mode)GLEVO_LITERAL(rng);
    if (GIVEN("mutation")) changes.mutation = (glevo_cga_mutation)GLEVO_LITERAL(mut);
    if (GIVEN("algorithm")) changes.algorithm = (glevo_cga_algorithm)GLEVO_LITERAL(alg);
    if (GIVEN("seed")) changes.seed = params.seed ? params.seed : (uint32_t)GLEVO_ZERO;
    if (GIVEN("report-every")) changes.report_every = params.report_every;
    changes.block_depth = params.block_depth;
    changes.block_tile[0] = params.block_tile[0], changes.block_tile[1] = params.block_tile[1];
#undef GIVEN
    glevo_status st = resume ? GLEVO_OK : glevo_cga_validate(&params);
    if (st) return cli_fail("cga", st);
    if (o.snapshot_dir) {
        struct stat sb;
        if (stat(o.snapshot_dir, &sb) != 0 && mkdir(o.snapshot_dir, 0755) != 0)
            return cli_bad_input("cga", "--snapshot '%s' cannot be created", o.snapshot_dir);
        if (glevo_output_folder_check(o.snapshot_dir, "--snapshot") != GLEVO_OK) return cli_fail("cga", GLEVO_ERR_INVALID);
    }

    if (o.islands.enabled) {
        if (o.snapshot_dir || o.snapshot_final)
            return cli_bad_input("cga", "--snapshot and --snapshot-final are not available with --islands");
        long long cells = (long long)o.grid[0] * o.grid[1], generations = o.generations;
        if (o.max_evals > 0 && o.max_evals / cells < generations) generations = o.max_evals / cells;
        return islands_cga(&params, &changes, generations > 0 ? generations : 1, o.has_target,
                           o.target, o.tolerance, &o.common, &o.islands, o.trace, &ctl);
    }

    glevo_context *ctx = NULL;
    if (params.backend != GLEVO_BACKEND_CPU && (rc = common_context_create("cga", &o.common, &ctx)))
        return rc;
    char renderer[256] = "cpu";
    if (ctx) snprintf(renderer, sizeof renderer, "%s", glevo_context_renderer(ctx));
    glevo_cga *cga = NULL;
    run_control_library_begin();
    st = resume ? glevo_cga_load(ctl.resume, &changes, &cga) : glevo_cga_create(&params, &cga);
    run_control_library_end();
    if (st) {
        glevo_context_destroy(ctx);
        return cli_fail_fitness("cga", st, o.fitness_file);
    }
    cga_trace_file trace;
    if ((rc = cga_trace_open(&trace, o.trace, resume ? ctl.from.extra.trace_bytes : 0))) {
        glevo_cga_destroy(cga);
        glevo_context_destroy(ctx);
        return rc;
    }
    const glevo_cga_params *run = glevo_cga_params_of(cga);
    pr = run->problem;
    alg = (int)run->algorithm;
    int dim = run->dim;
    double optimum = pr->has_optimum ? glevo_problem_optimum(pr, dim) : NAN;
    double tolerance = !isnan(o.tolerance) ? o.tolerance : 1e-4 * fmax(1.0, fabs(optimum));
    long long cells = (long long)run->width * run->height;
    long long max_generations = o.generations;
    /* Whole generations within the budget (integers: max_evals <= 2^53, so no overflow). */
    if (o.max_evals > 0 && o.max_evals / cells < max_generations) max_generations = o.max_evals / cells;
    if (max_generations < 1) max_generations = 1;

    char **snapshots = NULL;
    int snapshot_count = 0;
    /* The run's seconds start once create's uploads (the population, the cleared buffers)
     * have landed: they are the engine's setup, which JAX-style timings leave out too. */
    glevo_context_finish(ctx);
    double start = cli_seconds_now(), last_progress = start;
    glevo_cga_best best = {0};
    bool stop = false;
    run_control_start(&ctl, glevo_cga_generation(cga));
    /* The checkpoint: the trace's rows put in place first, so the file holds what it covers. */
    glevo_checkpoint_extra extra = {.goal = o.generations};
#define CHECKPOINT()                                                                          \
    do {                                                                                      \
        double t0 = cli_seconds_now();                                                        \
        if (!(st = cga_trace_sync(&trace, &extra.trace_bytes)) &&                             \
            !(st = glevo_cga_save(cga, ctl.checkpoint, &extra)))                              \
            run_control_wrote(&ctl, glevo_cga_generation(cga), cli_seconds_now() - t0);       \
    } while (0)
    while (!stop && !run_control_signal() && glevo_cga_generation(cga) < max_generations) {
        long long gen = glevo_cga_generation(cga);
        int chunk = run->report_every;
        if (o.snapshot_dir && o.snapshot_every < chunk) chunk = o.snapshot_every;
        if (gen + chunk > max_generations) chunk = (int)(max_generations - gen);
        chunk = (int)run_control_chunk(&ctl, gen, chunk);
        long long stepped;
        if ((st = run_control_step(&ctl, cga_step, cga, chunk, &stepped))) break;
        gen = glevo_cga_generation(cga);
        double now = cli_seconds_now();
        /* The best comes back (a readback, which waits for the GPU) only where this report
         * uses it: 64x64 x 200 at the default --report-every 25 took 3.2-3.7 ms a process with
         * a wait every report, 1.43 ms without (H100); the end reads it anyway. */
        bool progress_due = !o.common.quiet && now - last_progress > 1.0;
        if ((trace.f || o.has_target || progress_due) && (st = glevo_cga_best_get(cga, &best)))
            break;
        if (trace.f) {
            glevo_cga_stats stats;
            if ((st = glevo_cga_stats_get(cga, &stats))) break;
            fprintf(trace.f, "%lld,%lld,%.9g,%.9g,%.9g,%.6g,%.6f\n", gen, glevo_cga_evaluations(cga),
                    best.fitness, stats.best, stats.mean, stats.diversity, now - start);
        }
        if (o.snapshot_dir && gen % o.snapshot_every == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/generation-%06lld.png", o.snapshot_dir, gen);
            if ((st = glevo_cga_snapshot_png(cga, path, &snap))) break;
            char **grown = realloc(snapshots, sizeof *snapshots * (size_t)(snapshot_count + 1));
            if (!grown || !(grown[snapshot_count] = strdup(path))) {
                snapshots = grown ? grown : snapshots;
                st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory listing snapshots");
                break;
            }
            snapshots = grown;
            snapshot_count++;
        }
        if (o.has_target && (pr->direction == GLEVO_MAXIMIZE ? best.fitness >= o.target : best.fitness <= o.target))
            stop = true;
        if (progress_due) {
            fprintf(stderr, "glevo cga: generation %lld/%lld, best %.9g, %.1f s\n", gen, max_generations,
                    best.fitness, now - start);
            last_progress = now;
        }
        if (run_control_due(&ctl, gen)) {
            CHECKPOINT();
            if (st) break;
        }
    }
    /* The end, or a signal: a last checkpoint where the run stands. */
    if (!st && run_control_final_due(&ctl, glevo_cga_generation(cga))) CHECKPOINT();
#undef CHECKPOINT
    run_control_report("cga", &ctl, glevo_cga_generation(cga));
    if (!st) glevo_context_finish(ctx);
    double seconds = cli_seconds_now() - start;
    if (!st) st = glevo_cga_best_get(cga, &best);
    if (!st && o.snapshot_final) st = glevo_cga_snapshot_png(cga, o.snapshot_final, &snap);
    if (!st && o.sheet && snapshot_count > 0)
        st = glevo_png_sheet((const char *const *)snapshots, NULL, snapshot_count, o.sheet_columns, o.sheet);
    for (int i = 0; i < snapshot_count; ++i) free(snapshots[i]);
    free(snapshots);
    glevo_status trace_st = cga_trace_close(&trace, st == GLEVO_OK);
    if (!st) st = trace_st;
    if (st) {
        glevo_cga_destroy(cga);
        glevo_context_destroy(ctx);
        return cli_fail("cga", st);
    }
    bool reached = pr->has_optimum && fabs(best.fitness - optimum) <= tolerance;
    if (isnan(best.fitness))
        fprintf(stderr, "glevo cga: warning: every fitness value was NaN, so there is no best "
                        "individual%s\n", o.fitness_file ? " (check the --fitness file)" : "");
    if (o.common.json) {
        print_json(&ctl, cga, &best, renderer, seconds, pr, optimum, reached);
    } else {
        printf("problem      %s (dim %d, %s)\nengine       %s %s on %s\n", pr->name, dim,
               pr->direction == GLEVO_MAXIMIZE ? "maximise" : "minimise",
               alg ? "standard GA" : "cellular GA", glevo_backend_name(glevo_cga_params_of(cga)->backend), renderer);
        printf("population   %dx%d = %lld, %lld generations, %lld evaluations, %.3f s\n", run->width,
               run->height, cells, glevo_cga_generation(cga), glevo_cga_evaluations(cga), seconds);
        printf("best         %.10g at generation %lld\nbest x      ", best.fitness, best.generation);
        for (int j = 0; j < dim; ++j) printf(" %.8g", best.x[j]);
        printf("\n");
        if (pr->has_optimum)
            printf("optimum      %.10g (%s, tolerance %g)\n", optimum, reached ? "reached" : "not reached", tolerance);
        if (o.snapshot_final) printf("snapshot     %s\n", o.snapshot_final);
        if (o.sheet && snapshot_count > 0) printf("sheet        %s (%d snapshots)\n", o.sheet, snapshot_count);
    }
    if (ctx && o.common.profile) glevo_context_print_profile(ctx, stderr);
    glevo_cga_destroy(cga);
    glevo_context_destroy(ctx);
    return run_control_exit(0);
}

/* --islands: MPI around the whole command (cli/islands.h). */
int cmd_cga(int argc, char **argv)
{
    islands_begin(argc, argv);
    return islands_end(cga_main(argc, argv));
}
