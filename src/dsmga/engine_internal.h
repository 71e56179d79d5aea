/* The DSMGA-II engine's state (engine.c runs the loop, checkpoint.c saves and restores it):
 * the population with fitness and Zobrist keys, the multiset of keys (open addressing with
 * counts), the host random stream, the best so far and the counters the termination reads. */
#ifndef GLEVO_DSMGA_ENGINE_INTERNAL_H
#define GLEVO_DSMGA_ENGINE_INTERNAL_H

#include "dsmga/dsmga_internal.h"

struct glevo_dsmga {
    const glevo_dsmga_problem *problem;
    glevo_dsmga_params p;
    int ell, n, words;
    uint8_t *pop;     /* n × ell */
    double *fit;
    uint64_t *key;    /* Zobrist hash of each individual */
    uint64_t *zob;    /* per-gene random 64-bit words */
    uint8_t *sel;     /* selected population, n × ell */
    uint32_t *rows;   /* CPU model: FastCounting rows of the selection */
    uint32_t *prows;  /* CPU model: FastCounting rows of the population (lossy donor test) */
    float *mi;
    int32_t *ils, *len;
    uint8_t *trial;
    int *order, *cand, *visit;
    int *tour;        /* selection_pressure permutations of the population (tournaments) */
    /* hash set of population keys (open addressing with counts, rebuilt when full) */
    uint64_t *hkeys;
    int *hcount;
    size_t hcap, hfill;
    host_rng rng;
    uint8_t *best;
    double best_fit, optimum;
    long long nfe;
    int generation;
    bool solved, done;
    bool changed;     /* some individual changed during this generation */
    int stalled;      /* generations in a row without any change */
    double dsm_ms, ils_ms, seconds;
    glevo_dsm_gpu *gpu;
};

/* Params with defaults filled in for the problem's length, and checked. */
glevo_status dsmga_resolve_params(const glevo_dsmga_problem *problem,
                                  const glevo_dsmga_params *params, glevo_dsmga_params *out);
/* An engine with its buffers, model builder, Zobrist words and random stream, and no
 * population yet (create initialises one; a checkpoint load puts one back). */
glevo_status dsmga_engine_new(const glevo_dsmga_problem *problem, const glevo_dsmga_params *resolved,
                              glevo_dsmga **out);

#endif
