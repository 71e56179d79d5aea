/* The --islands front end shared by glevo cga, de and gp: MPI start-up, one island per rank
 * on its EGL device, a collective check after start-up (a rank whose context or engine
 * failed stops every rank), the placement map (islands_placement.c), the run, and rank 0's
 * output: the one JSON object (or a text summary), progress on stderr, and the per-island
 * trace. Every rank returns the same exit code (but for a trace rank 0 fails to finish).
 * Without MPI, --islands is bad input naming what to install. */
#include "islands.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glevo/output.h"

int islands_control_check(const char *command, run_control *ctl)
{
#ifndef GLEVO_HAVE_MPI
    (void)ctl;
    return cli_bad_input(command, "--islands needs glevo built with MPI (install libopenmpi-dev "
                         "and openmpi-bin, then cmake -DGLEVO_MPI=ON)");
#endif
    if (ctl->every < 0)
        return cli_bad_input(command, "--checkpoint-every %d is negative", ctl->every);
    struct stat sb;
    if (ctl->checkpoint) {
        if (stat(ctl->checkpoint, &sb) != 0 && mkdir(ctl->checkpoint, 0755) != 0 && errno != EEXIST)
            return cli_bad_input(command, "--checkpoint '%s' cannot be created (with --islands it "
                                 "names a folder: a file per island and a manifest)", ctl->checkpoint);
        if (glevo_output_folder_check(ctl->checkpoint, "--checkpoint") != GLEVO_OK)
            return cli_fail(command, GLEVO_ERR_INVALID);
    }
    if (ctl->resume && (stat(ctl->resume, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        return cli_bad_input(command, "--resume '%s' is not a folder (with --islands it names "
                             "the --checkpoint folder of the run to continue)", ctl->resume);
    return 0;
}

void islands_begin(int argc, char **argv)
{
    bool islands = false;
    for (int i = 1; i < argc; ++i) islands = islands || !strcmp(argv[i], "--islands");
#ifdef GLEVO_HAVE_MPI
    if (islands && glevo_islands_init(NULL, NULL) == GLEVO_OK)
        cli_silence_errors(glevo_islands_world_rank() != 0);
#else
    (void)islands;
#endif
}

int islands_end(int code)
{
#ifdef GLEVO_HAVE_MPI
    glevo_islands_finalize();
#endif
    return code;
}

#ifndef GLEVO_HAVE_MPI
glevo_status islands_create_unavailable(void *user, uint32_t seed, const char *resume,
                                        glevo_island *out)
{
    (void)user, (void)seed, (void)resume, (void)out;
    return GLEVO_ERR_UNSUPPORTED;
}

int islands_main(const island_family *f, const common_opts *c, const island_opts *o,
                 const char *trace_path, run_control *ctl)
{
    (void)c, (void)o, (void)trace_path, (void)ctl;
    return cli_bad_input(f->command, "--islands needs glevo built with MPI (install "
                         "libopenmpi-dev and openmpi-bin, then cmake -DGLEVO_MPI=ON)");
}
#else

/* The trace goes through glevo_output: whole or not at all. */
typedef struct trace_out {
    glevo_output *out;
    FILE *f;
} trace_out;

typedef struct progress {
    const island_family *f;
    const common_opts *c;
    run_control *ctl;
    bool root;
    double last;
    trace_out trace;
    long long generations;
} progress;

/* Rank 0 at every synchronisation point: one trace row per island, progress once a second. */
static void report(void *user, const glevo_islands_state *s)
{
    progress *p = user;
    if (!p->root) return;
    if (p->trace.f)
        for (int i = 0; i < s->count; ++i)
            fprintf(p->trace.f, "%lld,%d,%.0f,%.9g,%.0f,%lld,%.6f\n", s->generation, i,
                    s->evaluations[i], s->best[i], s->immigrants[i], s->migrations, s->seconds);
    if (!p->c->quiet && s->seconds - p->last > 1.0) {
        fprintf(stderr, "glevo %s: generation %lld", p->f->command, s->generation);
        if (p->generations > 0) fprintf(stderr, "/%lld", p->generations);
        fprintf(stderr, ", best %.9g (island %d), %lld migrations, %.1f s\n", s->global_best,
                s->global_best_island, s->migrations, s->seconds);
        p->last = s->seconds;
    }
}

/* The run's checkpoint clock and signals (run_control.c), for glevo_islands_evolve. */
static bool checkpoint_due(void *user, long long generation)
{
    return run_control_due(((progress *)user)->ctl, generation);
}

static void checkpoint_written(void *user, long long generation, double seconds)
{
    run_control_wrote(((progress *)user)->ctl, generation, seconds);
}

static bool interrupted(void *user)
{
    (void)user;
    return run_control_signal() != 0;
}

/* --island-devices "0,2": device of node-local rank r is list[r mod length]. */
static glevo_status parse_devices(const char *text, int *list, int capacity, int *count)
{
    *count = 0;
    if (!text) return GLEVO_OK;
    const char *p = text;
    while (*p) {
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || d < 0 || d > 1023 || (*end && *end != ',') || *count == capacity)
            break;
        list[(*count)++] = (int)d;
        p = *end ? end + 1 : end;
        if (!*p) return GLEVO_OK;
    }
    return glevo_fail(GLEVO_ERR_INVALID, "--island-devices '%s' is not a list of device indices "
                      "like 0,1", text);
}

static void print_json(const island_family *f, const common_opts *c, const island_opts *o,
                       const run_control *ctl, const char *renderer,
                       const glevo_island_place *places, const glevo_islands_summary *s,
                       double seconds)
{
    long long evaluations = 0;
    double migration_max = 0, share = 0;
    for (int i = 0; i < s->count; ++i) {
        evaluations += s->islands[i].evaluations;
        migration_max = fmax(migration_max, s->islands[i].migration_seconds);
        share += s->islands[i].seconds > 0 ? s->islands[i].migration_seconds / s->islands[i].seconds : 0;
    }
    json_writer w = {0};
    json_begin_object(&w, NULL);
    json_string(&w, "algorithm", f->command);
    json_string(&w, "backend", glevo_backend_name(common_backend(c)));
    json_string(&w, "renderer", renderer);
    json_int(&w, "seed", c->seed);
    json_number(&w, "best_fitness", s->best_fitness);
    if (!f->opaque_x) {
        json_begin_array(&w, "best_x");
        for (int j = 0; j < s->dim; ++j) json_number(&w, NULL, s->best_x[j]);
        json_end_array(&w);
    }
    json_int(&w, "evaluations", evaluations);
    json_int(&w, "generations", s->islands[0].generations);
    json_number(&w, "seconds", seconds);
    if (f->has_target) json_number(&w, "target", f->target);
    f->json(f->user, &w, s->best_fitness, s->best_x);
    run_control_json(ctl, &w);
    json_begin_object(&w, "islands");
    json_int(&w, "count", s->count);
    json_string(&w, "topology", o->topology);
    json_int(&w, "migrants", o->migrants);
    json_int(&w, "migrate_every", o->migrate_every);
    json_string(&w, "selection", "best");
    json_string(&w, "replacement", "worst-if-better");
    json_int(&w, "migrations", s->migrations);
    json_number(&w, "migration_seconds", migration_max);
    json_number(&w, "migration_share", share / s->count);
    json_int(&w, "best_island", s->best_island);
    json_bool(&w, "stopped_early", s->stopped);
    if (ctl->checkpoint) json_int(&w, "checkpoint_generation", s->checkpoint_generation);
    json_begin_array(&w, "per_island");
    for (int i = 0; i < s->count; ++i) {
        const glevo_island_report *r = &s->islands[i];
        json_begin_object(&w, NULL);
        json_int(&w, "island", r->island);
        json_int(&w, "device", r->device);
        json_int(&w, "seed", (uint32_t)(c->seed + (uint32_t)r->island));
        json_number(&w, "best_fitness", r->best_fitness);
        json_int(&w, "evaluations", r->evaluations);
        json_int(&w, "generations", r->generations);
        json_int(&w, "immigrants", r->immigrants);
        json_number(&w, "seconds", r->seconds);
        json_number(&w, "migration_seconds", r->migration_seconds);
        json_number(&w, "sync_seconds", r->sync_seconds);
        json_number(&w, "step_seconds", r->step_seconds);
        /* Neither generations nor migration nor status checks: checkpoints, and waiting. */
        json_number(&w, "other_seconds", fmax(0.0, r->seconds - r->step_seconds -
                                                   r->migration_seconds - r->sync_seconds));
        json_end_object(&w);
    }
    json_end_array(&w);
    islands_placement_json(&w, places, s->count);
    json_end_object(&w);
    json_end_object(&w);
    fputc('\n', stdout);
}

static void print_text(const island_family *f, const island_opts *o, const char *renderer,
                       const glevo_islands_summary *s, double seconds)
{
    printf("islands      %d (%s, %d migrants every %d generations), %lld migrations on %s\n",
           s->count, o->topology, o->migrants, o->migrate_every, s->migrations, renderer);
    for (int i = 0; i < s->count; ++i) {
        const glevo_island_report *r = &s->islands[i];
        printf("island %-5d best %.10g, %lld evaluations, %lld immigrants, %.3f s migrating\n",
               i, r->best_fitness, r->evaluations, r->immigrants, r->migration_seconds);
    }
    printf("best         %.10g (island %d), %.3f s\n", s->best_fitness, s->best_island, seconds);
    if (f->opaque_x) {
        f->text(f->user, s->best_fitness, s->best_x);
        return;
    }
    printf("best x      ");
    for (int j = 0; j < s->dim; ++j) printf(" %.8g", s->best_x[j]);
    printf("\n");
}

/* Start-up on this rank: device, context, engine. Errors are left for the collective check. */
static glevo_status start(glevo_islands *is, const island_family *f, const common_opts *c,
                          const int *devices, int device_count, const char *resume,
                          glevo_context **ctx, bool *engine, char *renderer, size_t renderer_size)
{
    glevo_status st = GLEVO_OK;
    snprintf(renderer, renderer_size, "cpu");
    common_forget_probe(); /* the rank opens its own device's context */
    if (common_is_gpu(c)) {
        /* --device: every island there; --island-devices: that list; otherwise the host's
         * usable devices (islands_usable_devices), by node-local rank. */
        int usable[64], device;
        if (c->device >= 0) {
            device = c->device;
            glevo_islands_set_device(is, device);
        } else if (device_count) {
            device = glevo_islands_device(is, devices, device_count);
        } else {
            device = glevo_islands_device(is, usable, islands_usable_devices(usable, 64));
        }
        glevo_context_params cp = {.device_plus_one = device + 1, .profile = c->profile,
                                   .debug = c->gl_debug, .log = cli_log};
        st = glevo_context_create(&cp, ctx);
        int b = glevo_backend_parse(c->backend);
        if (!st) st = glevo_backend_check((glevo_backend)b, "--backend");
        if (!st) snprintf(renderer, renderer_size, "%s", glevo_context_renderer(*ctx));
    }
    glevo_island island = {0};
    if (!st) st = f->create(f->user, glevo_islands_seed(is, c->seed), resume, &island);
    if (st) return st;
    *engine = true;
    return glevo_islands_attach(is, island);
}

static int trace_open(trace_out *t, const char *command, const char *path)
{
    t->out = NULL;
    t->f = NULL;
    if (!path) return 0;
    if (glevo_output_open(path, &t->out) != GLEVO_OK) return cli_fail(command, GLEVO_ERR_INVALID);
    t->f = glevo_output_stream(t->out);
    fprintf(t->f, "generation,island,evaluations,best_so_far,immigrants,migrations,seconds\n");
    return 0;
}

static glevo_status trace_close(trace_out *t, bool keep)
{
    glevo_output *out = t->out;
    t->out = NULL;
    t->f = NULL;
    if (!out) return GLEVO_OK;
    if (keep) return glevo_output_commit(out);
    glevo_output_abort(out);
    return GLEVO_OK;
}

/* The options, checked alike on every rank (so that rank 0 alone need say what is wrong). */
static glevo_status check_options(const island_family *f, const island_opts *o,
                                  const char *trace_path, glevo_islands_params *ip, int *devices,
                                  int *device_count)
{
    int topology = glevo_topology_parse(o->topology);
    if (topology < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "--topology '%s' is unknown (ring, fully-connected, "
                          "unconnected or torus)", o->topology);
    if (o->migrants < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "--migrants %d is below 1", o->migrants);
    if (o->migrate_every < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "--migrate-every %d is below 1", o->migrate_every);
    if (o->torus_width != -1 && o->torus_width < 1)
        return glevo_fail(GLEVO_ERR_INVALID, "--torus-width %d is below 1", o->torus_width);
    if (o->sync_timeout < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "--sync-timeout %g is negative", o->sync_timeout);
    glevo_status st = parse_devices(o->devices, devices, 64, device_count);
    if (st) return st;
    /* Checked before any work on every rank, though rank 0 alone writes it. */
    if (trace_path && (st = glevo_output_check(trace_path, "--trace"))) return st;
    *ip = (glevo_islands_params){.topology = (glevo_topology)topology, .migrants = o->migrants,
                                 .migrate_every = o->migrate_every,
                                 .torus_width = o->torus_width > 0 ? o->torus_width : 0,
                                 /* not given: 0, derived; given 0: no limit */
                                 .sync_timeout = isnan(o->sync_timeout) ? 0
                                                 : GLEVO_LITERAL(o->sync_timeout)};
    return glevo_islands_validate(ip, 0, f->population);
}

int islands_main(const island_family *f, const common_opts *c, const island_opts *o,
                 const char *trace_path, run_control *ctl)
{
    const char *cmd = f->command;
    glevo_status st = glevo_islands_init(NULL, NULL); /* islands_begin's, or here */
    if (st) return cli_fail(cmd, st);
    cli_silence_errors(glevo_islands_world_rank() != 0);
    int devices[64], device_count = 0;
    glevo_islands_params ip;
    if ((st = check_options(f, o, trace_path, &ip, devices, &device_count))) {
        int rc = cli_fail(cmd, st); /* printed by rank 0 alone */
        glevo_islands_finalize();
        return rc;
    }

    /* From here every rank takes the same path to the same exit code. */
    glevo_islands *is = NULL;
    if ((st = glevo_islands_create(&ip, &is))) {
        /* Bad input that needs the number of ranks (--torus-width): every rank knows it. */
        int code = cli_fail(cmd, st);
        glevo_islands_finalize();
        return code;
    }
    bool root = glevo_islands_rank(is) == 0, engine = false;
    glevo_context *ctx = NULL;
    char renderer[256] = "cpu";
    progress p = {.f = f, .c = c, .ctl = ctl, .root = root, .generations = f->generations};
    /* Rank 0 alone writes the trace; a path it cannot write is bad input for the whole job
     * (it has said so itself). A resumed job reads its manifest together (collective), then
     * every rank's start-up is checked together. */
    int trace_rc = root ? trace_open(&p.trace, cmd, trace_path) : 0;
    char resume_path[4096];
    long long resumed = 0;
    st = trace_rc ? GLEVO_ERR_INVALID : GLEVO_OK;
    if (ctl->resume) {
        /* Every rank reads the same manifest: a refusal is the same everywhere, so it is
         * reported as it is, not as one island's failure. */
        glevo_status read = glevo_islands_resume(is, ctl->resume, resume_path, sizeof resume_path,
                                                 &resumed);
        if (read && !st) {
            int code = cli_fail(cmd, read);
            trace_close(&p.trace, false);
            glevo_islands_destroy(is);
            glevo_islands_finalize();
            return code;
        }
        ctl->from.generation = resumed;
    }
    if (!st)
        st = start(is, f, c, devices, device_count, ctl->resume ? resume_path : NULL, &ctx,
                   &engine, renderer, sizeof renderer);
    glevo_islands_state state;
    glevo_status all = glevo_islands_sync(is, st, false, NAN, &state);
    glevo_islands_summary sum = {0};
    glevo_island_place *places = NULL;
    if (!all) {
        places = islands_placement_gather(is, renderer, ctx != NULL);
        islands_placement_print(cmd, places, glevo_islands_count(is), c->quiet);
    }
    run_control_start(ctl, resumed);
    glevo_islands_run run = {.generations = f->generations, .has_target = f->has_target,
                             .target = f->target, .report_every = f->report_every,
                             .report = report, .user = &p, .checkpoint_dir = ctl->checkpoint,
                             .checkpoint_every = ctl->every, .checkpoint_due = checkpoint_due,
                             .checkpoint_written = checkpoint_written,
                             .final_checkpoint = ctl->checkpoint != NULL,
                             .interrupted = interrupted};
    double t0 = cli_seconds_now();
    if (!all) all = glevo_islands_evolve(is, &run, &sum);
    if (!all) glevo_context_finish(ctx);
    double seconds = cli_seconds_now() - t0;
    glevo_status traced = trace_close(&p.trace, all == GLEVO_OK);
    if (!all) all = traced;
    int code = 0;
    if (all) {
        /* The message names the failing island; one rank says it. A hung rank cannot be
         * met again: end the job instead of finalising. */
        if (trace_rc) {
            code = trace_rc;
        } else if (glevo_islands_broken(is)) {
            fprintf(stderr, "glevo %s: %s\n", cmd, glevo_last_error());
            code = glevo_status_exit_code(all);
        } else {
            code = cli_fail(cmd, all); /* printed by rank 0 alone */
        }
        if (glevo_islands_broken(is)) glevo_islands_abort(code);
    } else if (root) {
        if (c->json)
            print_json(f, c, o, ctl, renderer, places, &sum, seconds);
        else
            print_text(f, o, renderer, &sum, seconds);
        fflush(stdout);
        run_control_report(cmd, ctl, sum.islands[0].generations);
    }
    if (all && ctl->checkpoint && glevo_islands_checkpoint_generation(is) >= 0 && root &&
        !glevo_islands_broken(is))
        fprintf(stderr, "glevo %s: the last complete checkpoint, generation %lld, is in %s "
                "(--resume %s)\n", cmd, glevo_islands_checkpoint_generation(is), ctl->checkpoint,
                ctl->checkpoint);
    if (ctx && c->profile && !all) glevo_context_print_profile(ctx, stderr);
    glevo_islands_summary_free(&sum);
    free(places);
    if (engine) f->destroy(f->user);
    glevo_context_destroy(ctx);
    glevo_islands_destroy(is);
    glevo_islands_finalize();
    return run_control_exit(code);
}
#endif
