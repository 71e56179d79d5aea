/* Ramped half-and-half initialisation of the first generation on the host, on several
 * threads (engine.c's gp_engine_first_generation calls gp_engine_initialise, and a restart),
 * and the enumeration's short programs in its last slots (gp_enumerate_seed, from
 * sr/enumerate.c's enumeration, begun on a thread of its own at create). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp/engine_internal.h"
#include "core/args.h"
#include "gp/sr/enumerate.h"

static void copy_indiv(indiv *dst, const indiv *src)
{
    memcpy(dst->codes, src->codes, (size_t)src->len * sizeof *src->codes);
    memcpy(dst->consts, src->consts, (size_t)src->len * sizeof *src->consts);
    dst->len = src->len;
}

/* Ramped half-and-half: depths cycle through min..max, alternating full and grow; a tree
 * over the size limit is redrawn one level shallower. Program i draws from its own stream
 * (seed, "INIT", i), so the programs are made on several threads and the same on any count. */
typedef struct init_job {
    glevo_gp *gp;
    int first, last;
    uint32_t *codes;
    float *consts;
} init_job;

static void *initialise_range(void *arg)
{
    init_job *job = arg;
    glevo_gp *gp = job->gp;
    const glevo_gp_params *P = &gp->P;
    int ndepths = P->init_max_depth - P->init_min_depth + 1;
    gp_rng rng;
    tree_gen g = gp->g;
    g.rng = &rng;
    for (int i = job->first; i < job->last; ++i) {
        /* A huge population takes seconds: stop when asked (glevo_gp_create then refuses). */
        if ((i - job->first) % 4096 == 0 && glevo_interrupt_pending()) return NULL;
        tree_rng_init(&rng, P->seed, 0x494e4954u /* "INIT" */);
        rng.stream = (uint32_t)i;
        int depth = P->init_min_depth + (i / 2) % ndepths;
        int full = i % 2 == 0;
        for (;;) {
            int n = 0;
            int max_nodes = 1;
            for (int d = 0; d < depth && max_nodes <= gp->scratch_cap; ++d)
                max_nodes = max_nodes * gp_mask_max_arity(gp->mask) + 1;
            if (max_nodes <= gp->scratch_cap) {
                tree_random(&g, depth, full, job->codes, job->consts, &n);
                if (n <= P->max_size) {
                    indiv t = {job->codes, job->consts, n};
                    copy_indiv(&gp->pops[0][i], &t);
                    break;
                }
            }
            if (depth > 0) depth--;
        }
    }
    return NULL;
}

glevo_status gp_engine_initialise(glevo_gp *gp)
{
    enum { MAX_THREADS = 16 };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    if (threads > gp->P.pop / 256) threads = gp->P.pop / 256 > 0 ? gp->P.pop / 256 : 1;
    init_job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    size_t cap = (size_t)gp->scratch_cap;
    uint32_t *codes = malloc((size_t)threads * cap * sizeof *codes);
    float *consts = malloc((size_t)threads * cap * sizeof *consts);
    if (!codes || !consts) {
        free(codes), free(consts);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a population of %d", gp->P.pop);
    }
    int started = 0;
    for (int t = 0; t < threads; ++t) {
        jobs[t] = (init_job){gp, (int)((long long)gp->P.pop * t / threads),
                             (int)((long long)gp->P.pop * (t + 1) / threads), codes + t * cap,
                             consts + t * cap};
        /* The first range runs here, and any a thread could not start. */
        if (t > 0 && pthread_create(&tid[t], NULL, initialise_range, &jobs[t]) == 0)
            started |= 1 << t;
    }
    initialise_range(&jobs[0]);
    for (int t = 1; t < threads; ++t) {
        if (started >> t & 1) pthread_join(tid[t], NULL);
        else initialise_range(&jobs[t]);
    }
    free(codes), free(consts);
    if (glevo_interrupt_pending())
        return glevo_fail(GLEVO_ERR_INTERRUPTED, "glevo_gp_create: interrupted while initialising "
                          "the population");
    return GLEVO_OK;
}

/* The enumeration of a run on a thread of its own: the set-up of a default run spends 20-25
 * ms in it on any data (H200, 2026-11-29, docs/results/h200-2026-11-29-gp-time-split/), as
 * long as the GPU work of a 1000 x 100 run; begun at create, it overlaps the portfolio's
 * other searches' first generation. */
typedef struct gp_enumeration_job {
    pthread_t thread;
    const glevo_gp_data *data; /* what it enumerates over, copied from the run at its start */
    uint32_t mask;
    glevo_gp_params P;
    gp_enumerated found;
    glevo_status st;
} gp_enumeration_job;

static int enumeration_seeds(const glevo_gp_params *P)
{
    int seeds = P->pop / 8 < GP_ENUM_SEEDS ? P->pop / 8 : GP_ENUM_SEEDS;
    return P->enumeration > 0 ? seeds : 0;
}

static glevo_status enumerate_for(const glevo_gp_data *d, uint32_t mask, const glevo_gp_params *P,
                                  gp_enumerated *found)
{
    return gp_enumerate(d, mask, P->linear_scaling == 1, P->enumeration, P->max_size,
                        P->eval.threads, found);
}

static void *enumeration_thread(void *arg)
{
    gp_enumeration_job *job = arg;
    job->st = enumerate_for(job->data, job->mask, &job->P, &job->found);
    return NULL;
}

void gp_enumerate_begin(glevo_gp *gp)
{
    if (gp->enumeration || enumeration_seeds(&gp->P) < 1) return;
    gp_enumeration_job *job = calloc(1, sizeof *job);
    if (!job) return;
    job->data = gp->data, job->mask = gp->mask, job->P = gp->P;
    if (pthread_create(&job->thread, NULL, enumeration_thread, job)) {
        free(job);
        return;
    }
    gp->enumeration = job;
}

void gp_enumerate_abandon(glevo_gp *gp)
{
    if (!gp->enumeration) return;
    pthread_join(gp->enumeration->thread, NULL);
    free(gp->enumeration);
    gp->enumeration = NULL;
}

glevo_status gp_enumerate_seed(glevo_gp *gp)
{
    const glevo_gp_params *P = &gp->P;
    int seeds = enumeration_seeds(P);
    if (seeds < 1) return GLEVO_OK;
    gp_enumerated *found = malloc(sizeof *found);
    glevo_status st = GLEVO_OK;
    if (gp->enumeration) {
        pthread_join(gp->enumeration->thread, NULL);
        st = gp->enumeration->st;
        if (found) *found = gp->enumeration->found;
        free(gp->enumeration);
        gp->enumeration = NULL;
        /* The thread's error sentence stayed on its thread. */
        if (st) st = glevo_fail(st, "out of memory enumerating %lld short programs "
                                "(glevo_gp_params.enumeration)", (long long)P->enumeration);
    } else if (found) {
        st = enumerate_for(gp->data, gp->mask, P, found);
    }
    if (!found) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory enumerating short programs");
    double exact = GP_ENUM_EXACT * found->target_ss;
    for (int r = 0; !st && r < found->count && r < seeds && found->sse[r] <= exact; ++r) {
        indiv *slot = &gp->pops[gp->cur][P->pop - 1 - r];
        slot->len = found->len[r];
        memcpy(slot->codes, found->codes[r], (size_t)slot->len * sizeof *slot->codes);
        memset(slot->consts, 0, (size_t)slot->len * sizeof *slot->consts);
    }
    free(found);
    return st;
}
