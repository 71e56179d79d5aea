/* The collective status check at every synchronisation point (so a failing rank stops the
 * job instead of leaving the others waiting), and the polled waits with their timeout. */
#include "glevo/islands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glevo/context.h"
#include "islands/islands_internal.h"
#include "islands/policy.h"
#include "core/args.h"

/* Fixed-size record every rank contributes at a synchronisation point. */
typedef struct sync_record {
    int32_t status, device, stop, attached, checkpoint, padding; /* doubles 8-aligned */
    double best, evaluations, immigrants;
    char message[224];
} sync_record;

/* How long a rank waits at a synchronisation point: the set limit, none (GLEVO_ZERO), or the
 * derived one (islands_internal.h). Arriving ends a stretch of work. */
static double wait_limit(glevo_islands *is)
{
    double worked = islands_now() - is->work_since;
    if (worked > is->longest_work) is->longest_work = worked;
    if (is->params.sync_timeout == GLEVO_ZERO) return 0;
    if (is->params.sync_timeout > 0) return is->params.sync_timeout;
    double derived = ISLANDS_TIMEOUT_FACTOR * is->longest_work;
    return derived > ISLANDS_TIMEOUT_FLOOR ? derived : ISLANDS_TIMEOUT_FLOOR;
}

/* Polls a request: spin for a moment (a collective of ranks in step completes in
 * microseconds), then sleep between polls so a waiting rank leaves its core to the others. */
glevo_status islands_wait_for(glevo_islands *is, MPI_Request *req, const char *what)
{
    double start = islands_now(), limit = wait_limit(is);
    for (long polls = 0;; ++polls) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) {
            is->work_since = islands_now();
            return GLEVO_OK;
        }
        double waited = islands_now() - start;
        if (limit > 0 && waited > limit) {
            is->broken = true;
            return glevo_fail(GLEVO_ERR_UNSUPPORTED, "island %d: no answer from the other "
                              "islands within %g s at the %s (a rank hung, stopped or died)",
                              is->rank, limit, what);
        }
        if (waited > 2e-4) nanosleep(&(struct timespec){0, 100000}, NULL);
    }
}

/* Before a status check, every rank tells every other that it has arrived (empty messages),
 * so that a rank waiting past the limit names the ranks that did not come, rather than
 * waiting on a collective that cannot say who is missing. */
#define ARRIVAL_TAG 0x6c5
static glevo_status wait_arrivals(glevo_islands *is, const char *what)
{
    int n = is->count;
    if (n < 2) return GLEVO_OK;
    MPI_Request *sends = malloc(sizeof *sends * (size_t)n * 2);
    if (!sends) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Request *recvs = sends + n;
    for (int i = 0; i < n; ++i) {
        sends[i] = recvs[i] = MPI_REQUEST_NULL;
        if (i == is->rank) continue;
        MPI_Isend(NULL, 0, MPI_BYTE, i, ARRIVAL_TAG, is->comm, &sends[i]);
        MPI_Irecv(NULL, 0, MPI_BYTE, i, ARRIVAL_TAG, is->comm, &recvs[i]);
    }
    double start = islands_now(), limit = wait_limit(is);
    glevo_status st = GLEVO_OK;
    for (;;) {
        int done = 0;
        MPI_Testall(n, recvs, &done, MPI_STATUSES_IGNORE);
        if (done) break;
        double waited = islands_now() - start;
        if (limit > 0 && waited > limit) {
            char missing[256] = "";
            size_t used = 0;
            int count = 0;
            for (int i = 0; i < n && used + 16 < sizeof missing; ++i) {
                int arrived = recvs[i] == MPI_REQUEST_NULL;
                if (!arrived) MPI_Test(&recvs[i], &arrived, MPI_STATUS_IGNORE);
                if (!arrived)
                    used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%d",
                                             count++ ? ", " : "", i);
            }
            is->broken = true;
            st = glevo_fail(GLEVO_ERR_UNSUPPORTED, "island %d: island%s %s (rank%s %s) did not "
                            "reach the %s within %g s: it hung, was stopped or died",
                            is->rank, count > 1 ? "s" : "", missing, count > 1 ? "s" : "",
                            missing, what, limit);
            break;
        }
        if (waited > 2e-4) nanosleep(&(struct timespec){0, 100000}, NULL);
    }
    /* Empty sends complete at once where everyone arrived; after a timeout the job ends. */
    if (!st) MPI_Waitall(n, sends, MPI_STATUSES_IGNORE);
    if (!st) is->work_since = islands_now();
    free(sends);
    return st;
}

static void describe_rank(const sync_record *r, int rank, char *out, size_t size)
{
    if (r->device >= 0)
        snprintf(out, size, "island %d (rank %d, EGL device %d)", rank, rank, (int)r->device);
    else
        snprintf(out, size, "island %d (rank %d, no GL device)", rank, rank);
}

glevo_status glevo_islands_sync(glevo_islands *is, glevo_status local, bool stop, double best,
                                glevo_islands_state *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(is);
    ARG_NOT_NULL(out);
    return islands_sync(is, local, stop, false, best, out);
}

glevo_status islands_agree(glevo_islands *is, glevo_status local)
{
    glevo_islands_state ignored;
    return islands_sync(is, local, false, false, is->best[is->rank], &ignored);
}

glevo_status islands_sync(glevo_islands *is, glevo_status local, bool stop, bool checkpoint,
                          double best, glevo_islands_state *out)
{
    double start = islands_now();
    const glevo_island *isl = &is->island;
    sync_record mine = {.status = (int32_t)local, .device = is->device, .stop = stop,
                        .attached = is->attached, .checkpoint = checkpoint, .best = best,
                        .evaluations = is->attached ? (double)isl->ops->evaluations(isl->algo) : 0,
                        .immigrants = (double)is->immigrants};
    if (local) snprintf(mine.message, sizeof mine.message, "%s", glevo_last_error());
    glevo_status arrived = wait_arrivals(is, "status check");
    if (arrived) return arrived;
    sync_record *all = malloc(sizeof *all * (size_t)is->count);
    if (!all) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    MPI_Request req;
    MPI_Iallgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, is->comm,
                   &req);
    glevo_status st = islands_wait_for(is, &req, "status check");
    if (st) {
        free(all);
        return st;
    }
    memset(out, 0, sizeof *out);
    out->count = is->count;
    out->best = is->best;
    out->evaluations = is->evaluations;
    out->immigrants = is->immigrant_counts;
    out->global_best = NAN;
    out->global_best_island = -1;
    out->migrations = is->migrations;
    out->generation = is->attached ? is->island.ops->generation(is->island.algo) : 0;
    for (int i = 0; i < is->count; ++i) {
        const sync_record *r = &all[i];
        if (r->status && !st) {
            char who[96];
            describe_rank(r, i, who, sizeof who);
            st = glevo_fail((glevo_status)r->status, "%s failed: %s", who, r->message);
        }
        is->best[i] = r->best;
        is->evaluations[i] = r->evaluations;
        is->immigrant_counts[i] = r->immigrants;
        out->stop = out->stop || r->stop;
        out->checkpoint = out->checkpoint || r->checkpoint;
        double score = islands_score(r->best, is->maximize);
        bool first = out->global_best_island < 0;
        if (r->attached && !isnan(r->best) &&
            (first || score > islands_score(out->global_best, is->maximize))) {
            out->global_best = r->best;
            out->global_best_island = i;
        }
    }
    free(all);
    is->sync_seconds += islands_now() - start;
    return st;
}
