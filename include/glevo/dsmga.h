/* DSMGA-II (Hsu & Yu, GECCO 2015) with its model building (FastCounting, BuildDSM,
 * FindClique) optionally on the GPU, in fragment passes or compute dispatches, after Li & Yu
 * (GECCO 2017). The evolutionary loop runs on the host; the GPU builds the DSM and the
 * incremental linkage sets (ILS). */
#ifndef GLEVO_DSMGA_H
#define GLEVO_DSMGA_H

#include "glevo/export.h"

#include <stdbool.h>
#include <stdint.h>

#include "glevo/backend.h"
#include "glevo/checkpoint.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- problems (binary, maximised) ---- */
typedef struct glevo_dsmga_problem glevo_dsmga_problem;

/* name: "onemax", "trap" (k = 5), "ftrap" (folded, k = 6), "cyctrap" (k = 5, overlap 1,
 * wraparound) or "spin" (2-D ±J Ising, L×L torus). ell must fit the problem (multiple of 5,
 * 6, 4; spin: a square). spin_file: an instance file (data/spin/ format) for "spin"; NULL
 * generates a random instance from `seed` with its exact ground state (L ≤ 10). */
GLEVO_API glevo_status glevo_dsmga_problem_create(const char *name, int ell, const char *spin_file,
                                        uint32_t seed, glevo_dsmga_problem **out);
GLEVO_API void glevo_dsmga_problem_destroy(glevo_dsmga_problem *p);
GLEVO_API int glevo_dsmga_problem_ell(const glevo_dsmga_problem *p);
GLEVO_API const char *glevo_dsmga_problem_name(const glevo_dsmga_problem *p);
/* Fitness of x (ell bytes, 0 or 1). Trap values are sums of multiples of 0.2 computed from
 * integers, so equal fitness compares equal. */
GLEVO_API double glevo_dsmga_problem_eval(const glevo_dsmga_problem *p, const uint8_t *x);
/* The global optimum's fitness. */
GLEVO_API double glevo_dsmga_problem_optimum(const glevo_dsmga_problem *p);

/* ---- 2-D ±J spin glass instances (data/spin/README.md documents the file format) ---- */
typedef struct glevo_spin_instance {
    int L;
    int8_t *right; /* L*L couplings J between (r,c) and (r,(c+1) mod L) */
    int8_t *down;  /* L*L couplings J between (r,c) and ((r+1) mod L,c) */
    bool has_ground;
    int ground;    /* exact ground-state energy E0 = min over spins of -sum J s_i s_j */
} glevo_spin_instance;

GLEVO_API glevo_status glevo_spin_load(const char *path, glevo_spin_instance *out);
GLEVO_API glevo_status glevo_spin_save(const char *path, const glevo_spin_instance *in);
GLEVO_API glevo_status glevo_spin_random(int L, uint32_t seed, glevo_spin_instance *out);
GLEVO_API void glevo_spin_free(glevo_spin_instance *s);
/* Energy of spins given as bits (1 -> +1, 0 -> -1), row-major. */
GLEVO_API int glevo_spin_energy(const glevo_spin_instance *s, const uint8_t *bits);
/* Exact ground-state energy by a spin-by-spin transfer matrix (L ≤ 12), and by brute
 * force (L*L ≤ 24) for checking it. */
GLEVO_API glevo_status glevo_spin_ground_transfer(const glevo_spin_instance *s, int *energy);
GLEVO_API glevo_status glevo_spin_ground_brute(const glevo_spin_instance *s, int *energy);

/* ---- populations and the DSM (mutual information) ---- */
/* Reads one individual per line as a string of 0/1 (blank lines at the end are ignored).
 * Errors name the file and line: ragged, non-binary, empty. *bits is n*ell bytes, row-major;
 * caller frees. */
GLEVO_API glevo_status glevo_dsm_population_read(const char *path, uint8_t **bits, int *n, int *ell);
/* FastCounting words per gene: ceil(n / 32). */
GLEVO_API int glevo_dsm_words(int n);
/* Bit-packs a population (n individuals × ell genes, row-major bytes, nonzero = 1) into
 * FastCounting rows: gene g's row is rows[g*words .. g*words+words), bit i%32 of word i/32 =
 * individual i. The C twin of shaders/dsmga/pack.glsl (glevo_dsm_gpu_build_bits). */
GLEVO_API void glevo_dsm_pack(const uint8_t *bits, int n, int ell, uint32_t *rows);
/* Mutual information (natural log, 0·log0 = 0, diagonal 0) in fp32: the C twin of
 * shaders/dsmga/build_dsm.glsl. mi is ell*ell. */
GLEVO_API void glevo_dsm_mi_cpu(const uint32_t *rows, int n, int ell, float *mi);
/* Fixed-point MI used by FindClique: truncation of mi·2^20 (exact in fp32 on both sides, so
 * sums are exact unsigned integers and GPU == CPU). */
GLEVO_API uint32_t glevo_dsm_quantize(float mi);

/* ---- FindClique: incremental linkage sets ---- */
typedef struct glevo_clique_params {
    uint32_t seed;       /* RNG key (seed, stream 0x05D5) */
    uint32_t generation; /* counter word: ties and representatives differ per generation */
    bool lossy;          /* stop a set when no complementary pattern (donor) exists */
    const uint32_t *pop_rows; /* lossy: FastCounting rows of the current population */
    /* Lossy, GPU model only: the current population's bytes instead (pop_n × ell, row-major,
     * as glevo_dsm_pack takes them), packed on the GPU; pop_rows is then not read. */
    const uint8_t *pop_bits;
    int pop_n;
    /* Write only the sets: ils[s*ell + t] for t < len[s], leaving the entries past a set's
     * end as they were instead of -1 (the engine reads no further; filling ell² entries costs
     * ~0.1 ms a generation at ell = 600, more than the GPU's lossy FindClique). */
    bool sets_only;
} glevo_clique_params;

/* ils[s*ell + t] = t-th gene of the set started at gene s (ils[s*ell] = s) for t < len[s], -1
 * after it (unless cp->sets_only); len[s] = its length (ell when lossless). The C twin of the
 * shaders/dsmga/clique_*.glsl passes. */
GLEVO_API void glevo_find_clique_cpu(const float *mi, int ell, const glevo_clique_params *cp,
                           int32_t *ils, int32_t *len);

/* GPU model builder on the current glevo context: backend fragment (passes) or compute
 * (dispatches; GL 4.3), AUTO picks compute where the context has it. */
typedef struct glevo_dsm_gpu glevo_dsm_gpu;
GLEVO_API glevo_status glevo_dsm_gpu_create(int ell, int n, glevo_backend backend, glevo_dsm_gpu **out);
GLEVO_API void glevo_dsm_gpu_destroy(glevo_dsm_gpu *g);
/* FastCounting rows (glevo_dsm_pack's) upload + BuildDSM pass (the DSM stays in a texture). */
GLEVO_API glevo_status glevo_dsm_gpu_build(glevo_dsm_gpu *g, const uint32_t *rows);
/* The same from the population's bytes (n × ell, row-major, nonzero = 1): uploaded as they
 * are and packed into FastCounting rows on the GPU (equal to glevo_dsm_pack's), then BuildDSM.
 * What the engine calls: no host pack. */
GLEVO_API glevo_status glevo_dsm_gpu_build_bits(glevo_dsm_gpu *g, const uint8_t *bits);
/* Reads the DSM back (ell*ell floats): for tests and `glevo dsm`. */
GLEVO_API glevo_status glevo_dsm_gpu_read(glevo_dsm_gpu *g, float *mi);
/* Reads back the FastCounting rows (ell × words) the last build used and, if pop_rows is not
 * NULL, those the last lossy FindClique used: for tests. */
GLEVO_API glevo_status glevo_dsm_gpu_read_rows(glevo_dsm_gpu *g, uint32_t *rows, uint32_t *pop_rows);
/* FindClique passes on the DSM built last; only the ILS comes back. */
GLEVO_API glevo_status glevo_dsm_gpu_clique(glevo_dsm_gpu *g, const glevo_clique_params *cp,
                                  int32_t *ils, int32_t *len);

/* ---- DSMGA-II ---- */
typedef enum glevo_dsmga_model { GLEVO_DSMGA_LOSSLESS = 0, GLEVO_DSMGA_LOSSY = 1 } glevo_dsmga_model;

/* Progress (the shape of glevo_gp_progress_fn): generations done, the best fitness so far and
 * the evaluations (NFE) so far. */
typedef void (*glevo_dsmga_progress_fn)(void *user, int generation, double best_fitness,
                                        long long nfe);

typedef struct glevo_dsmga_params {
    int pop;                 /* population size n (default 100) */
    int selection_pressure;  /* tournament size s (default 2) */
    int max_generations;     /* default 10000 */
    long long max_nfe;       /* 0: no budget */
    int repeat;              /* R restricted-mixing sweeps a generation (0: max(1, ell/50)) */
    glevo_dsmga_model model;
    /* Restricted mixing meets a trial that is already in the population: false (default)
     * stops trying this linkage set, as the authors' code does from October 2016 on
     * (isInP -> break); true skips the trial unevaluated and tries the next longer prefix, as
     * Hsu & Yu's 2015 code does (isInP -> continue). */
    bool skip_duplicates;
    /* End a run after this many generations in a row in which no individual changed (ours,
     * not in Hsu & Yu's code): 0 means 20, GLEVO_ZERO never. */
    int stall_generations;
    /* Model building: auto (default: compute dispatches where the context has them, else
     * fragment passes, the CPU twins without GL), compute, fragment or cpu; the evolutionary
     * loop runs on the host in every case. */
    glevo_backend backend;
    uint32_t seed;
    /* NULL: none. Else called after every generation of glevo_dsmga_step; not stored in
     * checkpoints (give it again in changes). */
    glevo_dsmga_progress_fn progress;
    void *progress_user;
} glevo_dsmga_params;

typedef struct glevo_dsmga_result {
    bool solved;
    double best_fitness;
    long long nfe;
    int generations;
    double dsm_ms, ils_ms;   /* host wall time of BuildDSM (CPU: FastCounting pack + MI; GPU:
                              * population bytes upload, pack and BuildDSM passes or dispatches,
                              * glFinish) and FindClique (GPU: lossy population upload and pack,
                              * passes or dispatch, ILS read back) */
    double seconds;
} glevo_dsmga_result;

typedef struct glevo_dsmga glevo_dsmga;

/* The parameters with every default filled in for a problem of length ell (R = max(1,
 * ell / 50), stall 20, ...): what a run uses and what --help prints. */
GLEVO_API glevo_dsmga_params glevo_dsmga_params_defaults(const glevo_dsmga_params *params, int ell);
GLEVO_API glevo_status glevo_dsmga_create(const glevo_dsmga_problem *problem,
                                const glevo_dsmga_params *params, glevo_dsmga **out);
GLEVO_API void glevo_dsmga_destroy(glevo_dsmga *e);
/* One generation; *done when a termination criterion holds. */
GLEVO_API glevo_status glevo_dsmga_step(glevo_dsmga *e, bool *done);
/* Runs to termination. */
GLEVO_API glevo_status glevo_dsmga_run(glevo_dsmga *e, glevo_dsmga_result *out);
/* One whole run: create, run to termination, destroy. */
GLEVO_API glevo_status glevo_dsmga_solve(const glevo_dsmga_problem *problem, const glevo_dsmga_params *params,
                               glevo_dsmga_result *out);
GLEVO_API void glevo_dsmga_result_get(const glevo_dsmga *e, glevo_dsmga_result *out);
/* Best individual so far (ell bytes). */
GLEVO_API const uint8_t *glevo_dsmga_best(const glevo_dsmga *e);

/* Checkpoints (docs/checkpoint.md), between steps: the parameters, the problem's name,
 * length and spin-glass couplings' CRC-32, the population, keys and key multiset, the random
 * stream's counter, the best so far and the counters, written atomically. load builds the run
 * back on the same problem; stepping it ends bit for bit where the saved run would have.
 * changes: NULL, or parameters to change, zero meaning "as in the file" (GLEVO_ZERO asks for
 * 0): max_generations, max_nfe, stall_generations and backend may change; any other field
 * that differs is refused naming it, as is another problem. */
GLEVO_API glevo_status glevo_dsmga_save(glevo_dsmga *e, const char *path, const glevo_checkpoint_extra *extra);
GLEVO_API glevo_status glevo_dsmga_load(const char *path, const glevo_dsmga_problem *problem,
                              const glevo_dsmga_params *changes, glevo_dsmga **out);
/* Generations done and evaluations so far. */
GLEVO_API int glevo_dsmga_generation(const glevo_dsmga *e);
GLEVO_API long long glevo_dsmga_nfe(const glevo_dsmga *e);

/* Population sizing (the paper's sweep): smallest n, found by doubling then bisection to
 * within 10%, for which `runs` consecutive runs (seeds seed, seed+1, ...) all find the
 * optimum. base->pop > 0 is a first guess: from there the search halves down or doubles up
 * to bracket the answer (0: double up from 8). */
typedef struct glevo_dsmga_sweep_result {
    int pop;
    double mean_nfe;         /* over the runs at the final pop */
    int runs;
} glevo_dsmga_sweep_result;
GLEVO_API glevo_status glevo_dsmga_sweep(const glevo_dsmga_problem *problem, const glevo_dsmga_params *base,
                               int runs, glevo_dsmga_sweep_result *out);

#ifdef __cplusplus
}
#endif
#endif
