/* Genetic programming (Augusto & Barbosa 2012, GPOCL): programs as prefix linear arrays of
 * 32-bit codes, datasets stored transposed, evaluation by a stack interpreter on the GPU
 * (fragment passes, strategies PPPE / FP / PPCU) or the CPU, and a generational GP engine.
 *
 * Program text: one program per line, prefix S-expressions `(+ x1 (* 2.5 (sin x3)))`.
 * Variables x1..xN are the data columns in order, the target excluded. Operators:
 *   regression      (+ a b) (- a b) (* a b) (/ a b)   division protected: 1 when |b| < 1e-6
 *                   (neg a) (sin a) (cos a)
 *                   (exp a) (log a) = ln|a|, 0 where |a| < 1e-6   (sqrt a) = sqrt|a|
 *                   (square a) (cube a) (abs a) (tanh a)
 *                   (pow a b) = exp(b * log(a)) with that protected log: |a|^b
 *                   (aq a b) = a / sqrt(1 + b^2), the analytic quotient (Ni et al. 2013)
 *                   exp, log, pow and tanh are glevo's own from Cephes' float polynomials
 *                   (within ~2 ulp; src/gp/gp_math.h), sqrt correctly rounded: bit for bit
 *                   the same on the CPU and every GPU, like sin and cos.
 *   classification  (if c a b) = a when c != 0, else b   (condition first, as the paper's
 *                   interpreter pops it first); (< a b) (> a b) (= a b) give 1 or 0;
 *                   (and a b) (or a b) (not a) treat any non-zero value as true, give 1 or 0.
 * All arithmetic is 32-bit float. sin and cos are glevo's own (exact argument reduction, then
 * Cephes' float polynomials; within ~1.5 ulp of the true values) and division is correctly
 * rounded, identically on the CPU and every GPU (src/gp/gp_math.h), so GPU and CPU errors
 * agree bit for bit per case; GPUs may flush subnormal values to zero. Every backend adds the
 * per-case errors in one order (src/gp/eval_internal.h: quads, 64 lanes per segment of 2048
 * cases in float, segments in double), so a program's summed error, and so a GP run with the
 * same seed, is the same on the CPU, the fragment strategies and the compute kernel. */
#ifndef GLEVO_GP_H
#define GLEVO_GP_H

#include "glevo/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glevo/backend.h"
#include "glevo/checkpoint.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A code is op | (index << 8): the index names a variable (0-based) or a constant. */
typedef enum glevo_gp_op {
    GLEVO_GP_VAR = 0,
    GLEVO_GP_CONST,
    GLEVO_GP_ADD,
    GLEVO_GP_SUB,
    GLEVO_GP_MUL,
    GLEVO_GP_DIV,
    GLEVO_GP_NEG,
    GLEVO_GP_SIN,
    GLEVO_GP_COS,
    GLEVO_GP_IF,
    GLEVO_GP_LT,
    GLEVO_GP_GT,
    GLEVO_GP_EQ,
    GLEVO_GP_AND,
    GLEVO_GP_OR,
    GLEVO_GP_NOT,
    /* Symbolic-regression primitives (appended: earlier codes keep their numbers). */
    GLEVO_GP_EXP,
    GLEVO_GP_LOG,
    GLEVO_GP_SQRT,
    GLEVO_GP_SQUARE,
    GLEVO_GP_CUBE,
    GLEVO_GP_POW,
    GLEVO_GP_TANH,
    GLEVO_GP_ABS,
    GLEVO_GP_AQ,
    GLEVO_GP_OP_COUNT
} glevo_gp_op;

#define GLEVO_GP_CODE(op, index) ((uint32_t)(op) | ((uint32_t)(index) << 8))
#define GLEVO_GP_CODE_OP(code) ((glevo_gp_op)((code)&0xFFu))
#define GLEVO_GP_CODE_INDEX(code) ((uint32_t)(code) >> 8)
#define GLEVO_GP_MAX_INDEX 0xFFFFFFu

/* Operator name ("+", "sin", "if", ...) and arity (0 for terminals). */
GLEVO_API const char *glevo_gp_op_name(glevo_gp_op op);
GLEVO_API int glevo_gp_op_arity(glevo_gp_op op);

typedef enum glevo_gp_function_set {
    GLEVO_GP_REGRESSION = 0,     /* + - * / neg sin cos exp log sqrt (what symbolic-regression
                                  * users expect; until issue 26: + - * / neg sin cos) */
    GLEVO_GP_CLASSIFICATION = 1, /* if < > = and or not */
} glevo_gp_function_set;
/* Bit mask (1 << op) of the operators of a function set, terminals included. */
GLEVO_API uint32_t glevo_gp_function_set_ops(glevo_gp_function_set set);
/* "regression", "classification", or a comma-separated list of operator names as printed
 * ("+,-,*,/,exp,log"; spaces around names are ignored) -> *ops, a mask of (1 << op) with the
 * terminals. Refused (GLEVO_ERR_INVALID naming the text): an unknown name, an empty list or
 * one without an operator, and a list whose logical connectives (and, or, not) have no
 * comparison (<, >, =) to give them truth values while arithmetic operators are present
 * (arithmetic values are not truth values: the types do not fit). */
GLEVO_API glevo_status glevo_gp_function_set_parse(const char *text, uint32_t *ops);
/* The operators of a mask as the comma list glevo_gp_function_set_parse reads (snprintf's
 * return convention). */
GLEVO_API int glevo_gp_function_set_text(uint32_t ops, char *buf, size_t size);

typedef enum glevo_gp_metric {
    GLEVO_GP_SAE = 0,   /* sum of absolute errors (default, the paper's) */
    GLEVO_GP_MSE,
    GLEVO_GP_RMSE,
    GLEVO_GP_ACCURACY,  /* fraction of cases with |prediction - target| < 0.5 (higher is better) */
} glevo_gp_metric;
/* "sae", "mse", "rmse", "accuracy" <-> metric; returns GLEVO_ERR_INVALID naming the text. */
GLEVO_API glevo_status glevo_gp_metric_parse(const char *text, glevo_gp_metric *out);
GLEVO_API const char *glevo_gp_metric_name(glevo_gp_metric m);

/* ---- dataset: numbers only, stored transposed (one row of cases per variable) ---- */
typedef struct glevo_gp_data glevo_gp_data;

/* CSV with a header row. The target is the column named `target`, or the last column when
 * target is NULL. Errors name the file (source), line and column. */
GLEVO_API glevo_status glevo_gp_data_load_csv(const char *path, const char *target, glevo_gp_data **out);
GLEVO_API glevo_status glevo_gp_data_parse_csv(const char *text, const char *source, const char *target,
                                     glevo_gp_data **out);
/* From arrays: x holds vars rows of cases floats (transposed), y cases floats. */
GLEVO_API glevo_status glevo_gp_data_create(int vars, int cases, const float *x, const float *y,
                                  glevo_gp_data **out);
/* d with its input columns in like's order, matched by name (a held-out file whose columns
 * stand in another order): a new data set; refused, naming the column, where d lacks one of
 * like's inputs or has one like lacks, or where the targets' names differ. */
GLEVO_API glevo_status glevo_gp_data_align(const glevo_gp_data *like, const glevo_gp_data *d,
                                 glevo_gp_data **out);
GLEVO_API void glevo_gp_data_destroy(glevo_gp_data *d);
GLEVO_API int glevo_gp_data_vars(const glevo_gp_data *d);
GLEVO_API int glevo_gp_data_cases(const glevo_gp_data *d);
GLEVO_API const float *glevo_gp_data_row(const glevo_gp_data *d, int var); /* cases floats */
GLEVO_API const float *glevo_gp_data_target(const glevo_gp_data *d);
GLEVO_API const char *glevo_gp_data_var_name(const glevo_gp_data *d, int var); /* header name */
GLEVO_API const char *glevo_gp_data_target_name(const glevo_gp_data *d);
/* Names input `var` (0-based) as printed models show it (arrays' inputs are x1, x2, ...
 * until named; a CSV's come from its header). A name already another input's is refused. */
GLEVO_API glevo_status glevo_gp_data_set_var_name(glevo_gp_data *d, int var, const char *name);
/* Input `var`'s name as printed models write it (infix, SymPy): the name made an identifier,
 * a reserved word or a taken name suffixed (src/gp/identifiers.c), snprintf's way into buf;
 * the length it needs, -1 on a bad argument or without memory. */
GLEVO_API int glevo_gp_data_var_identifier(const glevo_gp_data *d, int var, char *buf, size_t size);

/* ---- a population: programs packed one after another, constants on the side ---- */
typedef struct glevo_gp_programs glevo_gp_programs;

GLEVO_API glevo_status glevo_gp_programs_create(glevo_gp_programs **out);
GLEVO_API void glevo_gp_programs_destroy(glevo_gp_programs *p);
GLEVO_API void glevo_gp_programs_clear(glevo_gp_programs *p);
/* Parses text with one program per line (blank lines and lines starting with '#' are
 * skipped; each other line is one program). Variables above x{vars} are errors (vars <= 0:
 * any). Errors: "LINE:COLUMN: what" prefixed by source. Appends to p. */
GLEVO_API glevo_status glevo_gp_programs_parse(glevo_gp_programs *p, const char *text, const char *source,
                                     int vars);
/* Reads a program file (at most 1 GiB of text, no NUL bytes) and parses it as above. */
GLEVO_API glevo_status glevo_gp_programs_load(glevo_gp_programs *p, const char *path, int vars);
/* Appends one program: codes in prefix order whose constant indices refer to consts[]. The
 * program must be well formed (glevo_gp_program_check). */
GLEVO_API glevo_status glevo_gp_programs_add(glevo_gp_programs *p, const uint32_t *codes, int length,
                                   const float *consts);
GLEVO_API int glevo_gp_programs_count(const glevo_gp_programs *p);
/* Program i: codes (constant indices refer to glevo_gp_programs_constants). */
GLEVO_API const uint32_t *glevo_gp_programs_codes(const glevo_gp_programs *p, int i, int *length);
GLEVO_API const float *glevo_gp_programs_constants(const glevo_gp_programs *p);
GLEVO_API long long glevo_gp_programs_nodes(const glevo_gp_programs *p); /* total codes */
GLEVO_API int glevo_gp_programs_max_length(const glevo_gp_programs *p);
GLEVO_API uint32_t glevo_gp_programs_ops_used(const glevo_gp_programs *p); /* mask of (1 << op) */
/* Writes program i as an S-expression or in infix into buf (truncated to size); returns the
 * full length like snprintf. */
GLEVO_API int glevo_gp_program_sexpr(const glevo_gp_programs *p, int i, char *buf, size_t size);
GLEVO_API int glevo_gp_program_infix(const glevo_gp_programs *p, int i, char *buf, size_t size);
/* Appends count random programs of exactly `size` nodes over the operators in ops (a mask of
 * 1 << op; terminals: variables x1..x{vars} and constants in [-1, 1]), from seed. */
GLEVO_API glevo_status glevo_gp_programs_random(glevo_gp_programs *p, int count, uint32_t ops, int vars,
                                      int size, uint32_t seed);
/* GLEVO_OK when codes form exactly one complete prefix tree. */
GLEVO_API glevo_status glevo_gp_program_check(const uint32_t *codes, int length);
/* Stack slots the interpreter needs for programs up to max_length nodes whose operators have
 * at most max_arity arguments: the paper's footnote 7, max(1, t - floor(t / min(a, t))). */
GLEVO_API int glevo_gp_stack_size(int max_length, int max_arity);

/* ---- evaluation ---- */
/* The paper's strategies, as layouts of the fragment backend (the compute backend has its own
 * layout, a work-group per program over case blocks; the CPU backend runs the interpreter). */
typedef enum glevo_gp_strategy {
    GLEVO_GP_AUTO = 0,
    GLEVO_GP_PPPE,  /* one fragment per program, loop over every case */
    GLEVO_GP_FP,    /* one draw per program over the cases, then a row-sum pass */
    GLEVO_GP_PPCU,  /* programs x case-blocks in one draw, then a row-sum pass */
} glevo_gp_strategy;
/* "auto", "pppe", "fp", "ppcu"; errors name the text. */
GLEVO_API glevo_status glevo_gp_strategy_parse(const char *text, glevo_gp_strategy *out);
GLEVO_API const char *glevo_gp_strategy_name(glevo_gp_strategy s);
/* GLEVO_BACKEND_AUTO for GP: glevo_backend_resolve's choice, except the CPU engine on a
 * software rasterizer (llvmpipe runs GP's exact float math and double-precision constant
 * fitting emulated: a default run 7x slower on fragment, 25x on compute than the CPU engine
 * on the same cores, 2026-11-28); other values unchanged. */
GLEVO_API glevo_backend glevo_gp_backend_resolve(glevo_backend b);

typedef struct glevo_gp_eval_params {
    glevo_backend backend;      /* auto (default), compute, fragment or cpu */
    glevo_gp_strategy strategy; /* fragment layout; AUTO: picked by shape (src/gp/plan.c) */
    int threads;                /* CPU: 0 = all cores */
    int group;                  /* PPCU/FP fragments per program and case segment: 0 or 64
                                 * (the lanes of the shared summation order) */
    int lanes;                  /* GPU: case-quads per program walk (1..8); 0 = 1 */
    int tile_width;             /* PPCU/FP: the 64 fragments form a tile_width x
                                 * (64 / tile_width) block; 0 = 8 x 8 */
    double max_draw_steps;      /* GPU: split draws and dispatches into ranges of programs
                                 * above about this many quad-steps (64 times more for a
                                 * compute dispatch); 0 = 2^26 */
    bool moments;               /* linear scaling (Keijzer 2003): the sums are the moments
                                 * sum f*y, sum f*f, sum f (in abs_sum, sq_sum, hits; hits
                                 * rounded to float on every backend) and mse/rmse errors are
                                 * those of a + b f with the best a, b (src/gp/scaling.c) */
    int prog_lanes;             /* compute: invocations per program and case segment: 64 (a
                                 * work-group each, for large data) or 1, 2, 4, 8, 16, 32
                                 * (programs share a work-group, for small data); 0 = picked
                                 * by the measured rule of src/gp/plan.c */
} glevo_gp_eval_params;

/* Raw per-program sums, the same bits from every backend; metrics are finished from them. */
typedef struct glevo_gp_sums {
    double abs_sum, sq_sum, hits;
} glevo_gp_sums;

typedef struct glevo_gp_evaluator glevo_gp_evaluator;

/* GPU backends need a current GL context (glevo_context_create) and upload the data once. */
GLEVO_API glevo_status glevo_gp_evaluator_create(const glevo_gp_eval_params *params,
                                       const glevo_gp_data *data, glevo_gp_evaluator **out);
GLEVO_API void glevo_gp_evaluator_destroy(glevo_gp_evaluator *e);
/* Errors of every program of p under metric (count = glevo_gp_programs_count). Includes the
 * upload of the programs and the readback of the errors (the paper's evaluation time). */
GLEVO_API glevo_status glevo_gp_evaluate(glevo_gp_evaluator *e, const glevo_gp_programs *p,
                               glevo_gp_metric metric, double *errors);
/* EvoGP's timing of an evaluator (compute backend): seconds to upload the programs, seconds
 * per evaluation of the programs already on the GPU (reps evaluations back to back, then one
 * synchronisation, as scripts/device/gp_evogp_trees.py times EvoGP), seconds to read the
 * errors back; upload + evaluate + readback is GPOCL's evaluation time. prog_lanes and
 * walk_quads: the layout the plan picked (invocations a program and case segment, case-quads
 * a walk). */
typedef struct glevo_gp_eval_timing {
    double upload, evaluate, readback;
    int prog_lanes, walk_quads;
} glevo_gp_eval_timing;
GLEVO_API glevo_status glevo_gp_evaluate_timed(glevo_gp_evaluator *e,
                                               const glevo_gp_programs *p, int reps,
                                               glevo_gp_metric metric, double *errors,
                                               glevo_gp_eval_timing *timing);
/* The fragment layout the last evaluate used (AUTO resolved); AUTO for other backends. */
GLEVO_API glevo_gp_strategy glevo_gp_evaluator_strategy(const glevo_gp_evaluator *e);
/* The backend the evaluator runs on (AUTO resolved). */
GLEVO_API glevo_backend glevo_gp_evaluator_backend(const glevo_gp_evaluator *e);

/* CPU reference: prediction of program i on case c (d may be NULL for a program without
 * variables, e.g. constant folding), and sums over all cases. */
GLEVO_API float glevo_gp_interpret(const uint32_t *codes, int length, const float *consts,
                         const glevo_gp_data *d, int c);
GLEVO_API glevo_status glevo_gp_evaluate_cpu(const glevo_gp_programs *p, const glevo_gp_data *d,
                                   int threads, glevo_gp_sums *sums);
GLEVO_API double glevo_gp_metric_value(glevo_gp_metric m, const glevo_gp_sums *s, int cases);

/* ---- generational GP (the paper's Algorithm 1) ---- */
typedef void (*glevo_gp_progress_fn)(void *user, int generation, double best_error,
                                     const char *best_sexpr);

typedef struct glevo_gp_params {
    glevo_gp_function_set function_set;
    uint32_t ops;         /* the operators as a mask of 1 << op (glevo_gp_function_set_parse);
                           * 0: function_set's */
    int pop;              /* default 1000 */
    int generations;      /* default 50 */
    int tournament;       /* default 4 */
    double pc;            /* crossover probability, default 0.9 */
    double pm;            /* mutation probability, default 0.1 (half subtree, half point) */
    int elitism;          /* best copied unchanged, default 1; GLEVO_ZERO = none */
    int max_size;         /* nodes per program, default 100 for mse and rmse, else 50 */
    int init_min_depth;   /* ramped half-and-half depths, default 2..6 */
    int init_max_depth;
    double const_min, const_max; /* random constants, default [-1, 1]; equal: that value */
    double const_prob;    /* terminal is a constant with this probability, default 0.25 */
    glevo_gp_metric metric;
    int linear_scaling;   /* score a + b f with the least-squares a, b (Keijzer 2003; the best
                           * program is reported with them): 0 = on for mse and rmse, off
                           * otherwise; 1 = on (mse, rmse only); GLEVO_ZERO = off */
    int const_opt_iters;  /* Levenberg-Marquardt steps on the constants of the programs fitted
                           * each generation, written back (8 is PySR's optimizer_iterations;
                           * on the GPU, shaders/gp/const_fit.glsl, for the compute backend
                           * and the fragment backend on a hardware device with compute
                           * shaders, else on the host, src/gp/const_opt.c); 0 = the
                           * default: 1 for mse and rmse (a generation of 10^4 programs x
                           * 1000 cases takes up to 2x as long on the GPU,
                           * docs/performance.md), else off; GLEVO_ZERO = off */
    double const_opt_fraction; /* programs fitted each generation, 0 = 0.14 (PySR's
                           * optimize_probability) */
    int const_opt_max;    /* at most this many fitted a generation on average: a larger
                           * population's share is cut to it (a fit's cost grows with the
                           * population, what it finds does not: docs/performance.md, GP
                           * defaults); 0 = 1024, GLEVO_ZERO = no limit */
    double parsimony;     /* lexicographic parsimony pressure (Luke & Panait 2002): tournament
                           * contenders whose fitnesses differ by at most this fraction tie and
                           * the shorter wins; 0 = off (the lower fitness wins) */
    double portfolio;     /* a portfolio of searches (issue 26): this share of pop runs up to
                           * four more searches over the variables, each with the
                           * operators of ops in its family (+ - * / neg sin cos log;
                           * + - * sin cos; + - * / log; + - *: all of ops where it has none
                           * of them),
                           * no random constants and no constant fitting (the first
                           * scales linearly where the run does, the last two draw the
                           * constant 1 for a quarter of their terminals),
                           * from its own seed; the run reports the search whose printed
                           * model has the lowest training error. Exact formulas live there,
                           * while the main search with its constants settles on close
                           * approximations (docs/symbolic-regression.md). As many searches
                           * run as hold tournament and elitism + 1 programs each (at least
                           * two). 0 = the default: 0.25 for mse and rmse where two searches
                           * fit, else off; GLEVO_ZERO = off; else in (0, 1). With a
                           * portfolio, glevo_gp_population and glevo_gp_read_errors show
                           * the main search, and migration's program calls are refused. */
    int enumeration;      /* candidates of an enumeration of short programs (issue 26): every
                           * program over the variables and the operators, the smallest first,
                           * one whose values equal an earlier one's dropped, scored on up to
                           * 32 cases; those of the best 16 that fit the cases to rounding
                           * (1 - R^2 <= 1e-10) replace random programs of the main search's
                           * first generation, so exact short formulas (x^y as exp(y log x))
                           * are found for certain (docs/symbolic-regression.md). 0 = the
                           * default: 100000 for mse and rmse, else off; GLEVO_ZERO = off; at
                           * most 10^7 */
    int linear_layer;     /* the result's linear layer (issue 45): where the best model is not
                           * exact, a least-squares sum of up to this many of its subtrees and
                           * products of two (multiple regression GP's last layer, FFX's
                           * bases), chosen by orthogonal matching pursuit with the Bayesian
                           * information criterion on up to 1024 cases and at most one term
                           * per ten cases, replaces it where that halves the training squared
                           * error: accurate models of sums of products, at the cost of length
                           * (docs/symbolic-regression.md). Only glevo_gp_result_get's model
                           * (not progress's or glevo_gp_model's); the search is unchanged.
                           * 0 = the default: 32 for mse and rmse, else off; GLEVO_ZERO = off;
                           * at most 64 */
    int prune;            /* the result's noise pruned (issue 45): where the best model is not
                           * exact, a subtree replaced by its mean on the training data, or a
                           * constant by 0, an integer or a half, with linear scaling fitted
                           * again (a + b f, b f or neither), where the Bayesian information
                           * criterion falls (each code and each constant one parameter): the
                           * terms of a noisy fit that fit the noise go
                           * (docs/symbolic-regression.md). Before the linear layer, only
                           * glevo_gp_result_get's model (and glevo_gp_model_layer's). 0 = the
                           * default: on for mse and rmse, else off; 1 = on (mse, rmse only);
                           * GLEVO_ZERO = off */
    glevo_backend backend;  /* auto (default), compute, fragment or cpu: evaluation and, on
                             * a GPU backend, breeding too, the population staying on the GPU
                             * (the same children as the cpu backend's, seed for seed; with
                             * constant fitting, the GPU's fit, compute and fragment alike
                             * where the context has compute shaders, may differ from the
                             * host's in the last bits on NVIDIA) */
    glevo_gp_eval_params eval; /* layout and threads; eval.backend is replaced by backend */
    uint32_t seed;
    double target_error;  /* stop when the best error is <= this (default: never; 0 = exact) */
    bool stop_on_target;
    glevo_gp_progress_fn progress; /* called with the reported model (scaled and simplified)
                                    * at generation 0, every report_every generations and at
                                    * the last: a report reads the GPU's results back and
                                    * builds each search's model */
    void *progress_user;
    int report_every;     /* generations between progress calls; default 10 (the target is
                           * checked every generation all the same) */
} glevo_gp_params;

typedef struct glevo_gp_result {
    double best_error;        /* under params.metric; for accuracy, the accuracy: that of the
                               * printed program (with linear scaling, a + b f folded in) */
    char *best_sexpr;         /* malloc'd; glevo_gp_result_free */
    char *best_infix;
    char *best_sympy;         /* the printed program as SymPy reads it (sympy.sympify) */
    double train_r2;          /* 1 - SSE / sum (y - mean y)^2 of the printed program */
    int best_nodes;
    long long evaluations;    /* programs evaluated */
    long long nodes_evaluated;/* program nodes x cases */
    int generations;
    double seconds, eval_seconds;
    double variation_seconds; /* breeding: selection, crossover, mutation (GPU or host);
                               * where the GPU breeds without a wait (compute, below 4096
                               * programs) its GPU time falls in eval_seconds */
    glevo_gp_programs *best;  /* the best program alone (for evaluation on test data) */
    int best_search;          /* the search that found it: 0 the main one, 1.. a portfolio's
                               * others (glevo_gp_params.portfolio, glevo_gp_search_name) */
    glevo_gp_programs *layer_parts; /* the model before its like terms were collected, whose
                               * subtrees the result's linear layer weighs
                               * (glevo_gp_model_layer); NULL where that is best itself */
} glevo_gp_result;

/* A portfolio's search by its index, as reports name it: "main", "second", "third",
 * "fourth", "fifth"; NULL for any other index. */
GLEVO_API const char *glevo_gp_search_name(int search);

/* The parameters with every default filled in (what a run uses; what --help prints). Zero
 * means default; GLEVO_ZERO asks for 0 (generations, pc, pm, elitism, const_prob). */
GLEVO_API glevo_gp_params glevo_gp_params_defaults(const glevo_gp_params *params);
/* A GP run one generation at a time, like the other families (a GPU strategy needs a current
 * GL context). create builds and evaluates generation 0; step breeds and evaluates up to
 * `generations` more, stopping early once the run is done (params.generations reached, or
 * the target with stop_on_target). data must outlive the run. */
typedef struct glevo_gp glevo_gp;
GLEVO_API glevo_status glevo_gp_create(const glevo_gp_params *params, const glevo_gp_data *data,
                             glevo_gp **out);
GLEVO_API glevo_status glevo_gp_step(glevo_gp *gp, int generations);
GLEVO_API void glevo_gp_destroy(glevo_gp *gp);
GLEVO_API bool glevo_gp_done(const glevo_gp *gp);
GLEVO_API int glevo_gp_generation(const glevo_gp *gp);     /* the last evaluated generation */
GLEVO_API double glevo_gp_best_error(const glevo_gp *gp);  /* its best program's error, as
                                                             * glevo_gp_model prints it (the
                                                             * result's, but for its linear
                                                             * layer: linear_layer) */
/* The last evaluated generation's programs (a portfolio's main search), and in *best (if
 * not NULL) its best's index; valid until the next step. */
GLEVO_API const glevo_gp_programs *glevo_gp_population(const glevo_gp *gp, int *best);
/* The run so far as a result (free it with glevo_gp_result_free). */
GLEVO_API glevo_status glevo_gp_result_get(const glevo_gp *gp, glevo_gp_result *out);

/* The run's parameters with every default filled in, and the programs evaluated so far. */
GLEVO_API const glevo_gp_params *glevo_gp_params_of(const glevo_gp *gp);
GLEVO_API long long glevo_gp_evaluations(const glevo_gp *gp);

/* ---- migration (the island model, glevo/islands.h) ----
 * A program travels as a block of glevo_gp_block_size(max_size) = 1 + 2 max_size doubles:
 *   block[0]                       its length n (1..max_size)
 *   block[1 + k], k < max_size     code k (op | index << 8), a constant's index being its own
 *                                  position k; 0 from n on
 *   block[1 + max_size + k]        the constant of code k when it is one; 0 otherwise
 * Codes (uint32) and constants (float) are exact in a double, so decoding gives back the same
 * program bit for bit. encode takes codes whose constant indices refer to consts[] (a
 * glevo_gp_programs' codes and constants, or codes with a constant beside each code). decode
 * refuses anything encode cannot have written (GLEVO_ERR_INVALID naming what): a length or
 * code that is not an integer in range, an operator outside ops (a mask of 1 << op; 0: any),
 * a variable at or above vars (vars <= 0: any), a constant not a float or not at its own
 * position, a non-zero pad, or codes that are not one tree (glevo_gp_program_check). It
 * writes length codes and consts[k] beside each, ready for glevo_gp_programs_add.
 * With a portfolio, read_errors gives the main search's errors (those of
 * glevo_gp_population's programs) and read_programs and write_programs are refused
 * (GLEVO_ERR_INVALID): islands are one search each (set portfolio to GLEVO_ZERO). */
GLEVO_API int glevo_gp_block_size(int max_size);
GLEVO_API glevo_status glevo_gp_program_encode(const uint32_t *codes, int length, const float *consts,
                                     int max_size, double *block);
GLEVO_API glevo_status glevo_gp_program_decode(const double *block, int max_size, int vars, uint32_t ops,
                                     uint32_t *codes, float *consts, int *length);
/* The last evaluated generation: its pop errors (a portfolio's main search's: as many as its
 * programs; under params.metric; accuracy for
 * GLEVO_GP_ACCURACY), and programs index[0..count) as blocks of glevo_gp_block_size(max_size)
 * doubles one after another. */
GLEVO_API glevo_status glevo_gp_read_errors(const glevo_gp *gp, double *errors);
GLEVO_API glevo_status glevo_gp_read_programs(const glevo_gp *gp, int count, const int *index,
                                    double *blocks);
/* Replaces programs index[0..count) by the blocks, with errors[k] as program k's error (as
 * another run on the same data computed it: nothing is evaluated, nor counted), then chooses
 * the generation's best again as evaluation does (the least error, ties to the shorter
 * program) and whether the target is reached. Every block is decoded before anything
 * changes, so a refused write leaves the run as it was; the state stays what glevo_gp_save
 * writes, so a checkpoint after a write resumes bit for bit. */
GLEVO_API glevo_status glevo_gp_write_programs(glevo_gp *gp, int count, const int *index,
                                     const double *blocks, const double *errors);

/* Checkpoints (docs/checkpoint.md): the parameters, the random stream's state, the evaluated
 * generation's programs and errors, the best and the counters, written atomically; the data
 * is not stored, only its shape and CRC-32. load builds the run back on the same data, and
 * stepping it ends bit for bit where the saved run would have (on the same evaluator
 * backend). changes: NULL, or parameters to change, zero meaning "as in the file" (GLEVO_ZERO
 * asks for 0): generations, backend, eval, target_error with stop_on_target, and progress
 * may change; any other field that differs is refused naming it, as is other data. */
GLEVO_API glevo_status glevo_gp_save(glevo_gp *gp, const char *path, const glevo_checkpoint_extra *extra);
GLEVO_API glevo_status glevo_gp_load(const char *path, const glevo_gp_params *changes,
                           const glevo_gp_data *data, glevo_gp **out);

/* Runs GP on data to the end: create, step until done, result. */
GLEVO_API glevo_status glevo_gp_run(const glevo_gp_params *params, const glevo_gp_data *data,
                          glevo_gp_result *out);
GLEVO_API void glevo_gp_result_free(glevo_gp_result *r);
/* R^2 = 1 - sum (y - f)^2 / sum (y - mean y)^2 of program i of p on d (the CPU interpreter's
 * values, the GPU's bits); where y is constant, 1 for an exact model and 0 otherwise. The reported model (glevo_gp_result.best) is
 * simplified first (constant folding, x - x, x / x, nested negations: src/gp/simplify.c), with
 * linear scaling's a and b folded in: its errors are those of the printed program. */
GLEVO_API glevo_status glevo_gp_r2(const glevo_gp_programs *p, int i, const glevo_gp_data *d, double *r2);
/* The reported model of program i of p as a run with these (resolved) parameters on data
 * reports it: best, best_sexpr, best_infix, best_sympy, best_nodes, best_error and train_r2
 * filled (the other fields 0); free with glevo_gp_result_free. */
GLEVO_API glevo_status glevo_gp_model(const glevo_gp_params *params, const glevo_gp_data *data,
                            const glevo_gp_programs *p, int i, glevo_gp_result *out);
/* The result's linear layer on a model glevo_gp_model made with these parameters on data
 * (params.linear_layer terms at most; 0 or less: none; squared errors alone): where a
 * least-squares sum of the model's subtrees and their products at least halves its squared
 * error on data, model becomes that sum (best and its strings, nodes, error, R^2); else it
 * stays. What glevo_gp_result_get does to a run's model (docs/symbolic-regression.md). */
GLEVO_API glevo_status glevo_gp_model_layer(const glevo_gp_params *params,
                                            const glevo_gp_data *data, glevo_gp_result *model);
/* Splits d's cases at random (seed): round(fraction * cases) into *test, the rest into *train
 * (both keep the column names); fraction in (0, 1), each part at least one case. */
GLEVO_API glevo_status glevo_gp_data_split(const glevo_gp_data *d, double fraction, uint32_t seed,
                                 glevo_gp_data **train, glevo_gp_data **test);

#ifdef __cplusplus
}
#endif
#endif
