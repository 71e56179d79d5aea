/* The island model's run loop (glevo_islands_evolve: steps, status checks, migrations,
 * checkpoints) and the summary gathered to rank 0. */
#include "glevo/islands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/context.h"
#include "islands/islands_internal.h"
#include "islands/policy.h"
#include "core/args.h"

static bool reached(const glevo_islands *is, const glevo_islands_run *run, double best)
{
    return run->has_target && !isnan(best) &&
           (is->maximize ? best >= run->target : best <= run->target);
}

/* Gathers each island's row to rank 0: the report, then the best x. */
static glevo_status gather_summary(glevo_islands *is, glevo_island_report *mine,
                                   const double *x, glevo_islands_summary *out)
{
    enum { fields = 9 };
    int dim = out->dim;
    size_t row = (size_t)fields + (size_t)dim;
    double *send = malloc(sizeof(double) * row);
    double *all = is->rank == 0 ? malloc(sizeof(double) * row * (size_t)is->count) : NULL;
    if (!send || (is->rank == 0 && !all)) {
        free(send), free(all);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    double head[fields] = {mine->device, mine->best_fitness, (double)mine->generations,
                           (double)mine->evaluations, (double)mine->immigrants, mine->seconds,
                           mine->migration_seconds, mine->sync_seconds, mine->step_seconds};
    memcpy(send, head, sizeof head);
    memcpy(send + fields, x, sizeof(double) * (size_t)dim);
    MPI_Request req;
    MPI_Igather(send, (int)row, MPI_DOUBLE, all, (int)row, MPI_DOUBLE, 0, is->comm, &req);
    glevo_status st = islands_wait_for(is, &req, "summary");
    if (!st && is->rank == 0) {
        glevo_island_report *rows = calloc((size_t)is->count, sizeof *rows);
        if (!rows) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
        for (int i = 0; rows && i < is->count; ++i) {
            const double *r = all + (size_t)i * row;
            rows[i] = (glevo_island_report){
                .island = i, .device = (int)r[0], .best_fitness = r[1],
                .generations = (long long)r[2], .evaluations = (long long)r[3],
                .immigrants = (long long)r[4], .seconds = r[5], .migration_seconds = r[6],
                .sync_seconds = r[7], .step_seconds = r[8]};
            double score = islands_score(r[1], is->maximize);
            if (out->best_island < 0 || score > islands_score(out->best_fitness, is->maximize)) {
                out->best_island = i;
                out->best_fitness = r[1];
                memcpy(out->best_x, r + fields, sizeof(double) * (size_t)dim);
            }
        }
        out->islands = rows;
    } else if (!st) {
        out->islands = malloc(sizeof *mine);
        if (out->islands) *out->islands = *mine;
        out->best_island = is->rank;
        out->best_fitness = mine->best_fitness;
        memcpy(out->best_x, x, sizeof(double) * (size_t)dim);
    }
    free(send), free(all);
    return st;
}

glevo_status glevo_islands_evolve(glevo_islands *is, const glevo_islands_run *run,
                                  glevo_islands_summary *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(run);
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    out->best_island = -1;
    out->best_fitness = NAN;
    const glevo_island_ops *ops = is->attached ? is->island.ops : NULL;
    void *algo = is->island.algo;
    int dim = ops ? ops->dim(algo) : 0;
    out->count = is->count;
    out->dim = dim;
    out->best_x = calloc((size_t)(dim ? dim : 1), sizeof(double));
    double *x = calloc((size_t)(dim ? dim : 1), sizeof(double));
    glevo_status local = GLEVO_OK, st;
    if (!out->best_x || !x) local = glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    if (!local && !ops)
        local = glevo_fail(GLEVO_ERR_INVALID, "island %d has no algorithm attached", is->rank);
    long long every = is->params.migrate_every, report = run->report_every;
    double start = islands_now(), best = NAN, migration0 = is->migration_seconds, sync0 = is->sync_seconds;
    double step0 = is->step_seconds;
    for (;;) {
        long long gen = ops ? ops->generation(algo) : 0;
        bool stop = run->interrupted && run->interrupted(run->user), save = false;
        if (!local) local = ops->best(algo, &best, x);
        if (!local) stop = stop || ops->done(algo) || reached(is, run, best);
        if (run->checkpoint_dir && run->checkpoint_due) save = run->checkpoint_due(run->user, gen);
        glevo_islands_state state;
        if ((st = islands_sync(is, local, stop, save, best, &state))) break;
        state.seconds = islands_now() - start;
        if (run->report) run->report(run->user, &state);
        out->stopped = state.stop;
        bool end = state.stop || (run->generations > 0 && gen >= run->generations);
        /* Before this point's migration: a resumed run starts with it, as this one goes on. */
        if (run->checkpoint_dir && (state.checkpoint || (end && run->final_checkpoint)) &&
            gen != is->checkpoint_generation) {
            double t0 = islands_now();
            if ((st = islands_checkpoint(is, run->checkpoint_dir, gen))) break;
            if (run->checkpoint_written) run->checkpoint_written(run->user, gen, islands_now() - t0);
        }
        if (end) break;
        if (gen > 0 && gen % every == 0) local = glevo_islands_migrate(is);
        long long next = gen - gen % every + every;
        if (report > 0 && gen - gen % report + report < next) next = gen - gen % report + report;
        long long ck = run->checkpoint_every;
        if (run->checkpoint_dir && ck > 0 && gen - gen % ck + ck < next) next = gen - gen % ck + ck;
        if (run->generations > 0 && run->generations < next) next = run->generations;
        if (!local) {
            double t0 = islands_now();
            local = ops->step(algo, (int)(next - gen));
            is->step_seconds += islands_now() - t0;
        }
    }
    if (!st) {
        glevo_island_report mine = {
            .island = is->rank, .device = is->device, .best_fitness = best,
            .generations = ops->generation(algo), .evaluations = ops->evaluations(algo),
            .immigrants = is->immigrants, .seconds = islands_now() - start,
            .migration_seconds = is->migration_seconds - migration0,
            .sync_seconds = is->sync_seconds - sync0, .step_seconds = is->step_seconds - step0};
        out->migrations = is->migrations;
        out->checkpoints = is->checkpoints;
        out->checkpoint_generation = is->checkpoint_generation;
        st = gather_summary(is, &mine, x, out);
    }
    free(x);
    return st;
}

void glevo_islands_summary_free(glevo_islands_summary *s)
{
    if (!s) return;
    free(s->islands), free(s->best_x);
    s->islands = NULL;
    s->best_x = NULL;
}
