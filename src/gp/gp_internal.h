/* Internals shared by the GP files: the program container and the dataset struct. */
#ifndef GLEVO_GP_INTERNAL_H
#define GLEVO_GP_INTERNAL_H

#include "glevo/gp.h"

struct glevo_gp_programs {
    uint32_t *codes;    /* all programs back to back */
    long long code_count, code_cap;
    long long *offsets; /* program i starts at codes[offsets[i]] */
    int *lengths;
    int count, cap;
    float *consts;
    long long const_count, const_cap;
    int max_length;
    int max_depth;      /* most values on the interpreter's stack over all programs */
    uint32_t ops_used;
};

/* Sizes refused before any allocation (overflow-safe: products are taken in long long of int
 * factors): a dataset of more than GP_MAX_DATA_VALUES numbers (inputs and target, 8 GiB of
 * floats), a population set of more than GP_MAX_NODES codes (2 GiB of codes and constants). */
#define GP_MAX_DATA_VALUES (1LL << 31)
#define GP_MAX_NODES (1LL << 28)

struct glevo_gp_data {
    int vars, cases;
    float *x;    /* vars rows of cases floats */
    float *y;
    char **names; /* vars + 1 names; names[vars] is the target's */
};

/* One program in the engine's layout: consts[i] belongs to codes[i] (meaningful where
 * codes[i] is a constant). */
typedef struct indiv {
    uint32_t *codes;
    float *consts;
    int len;
} indiv;

/* Index one past the end of the subtree starting at codes[i]. */
int gp_subtree_end(const uint32_t *codes, int length, int i);
/* codes[0..n) into out with each constant at its own position (the form the reported model
 * and its rewrites keep: out_k[i] the value of a constant code i, 0 beside other codes), the
 * values read from pool by the codes' constant indices; returns n. */
int gp_own_constants(const uint32_t *codes, int n, const float *pool, uint32_t *out,
                     float *out_k);
/* Arity of the code's op. */
int gp_code_arity(uint32_t code);
/* Each op's name (as the parser reads and the printers write it) and arity (ops.c). */
typedef struct gp_op_info { const char *name; int arity; } gp_op_info;
extern const gp_op_info gp_op_table[GLEVO_GP_OP_COUNT];
/* Largest arity among ops in mask (at least 1). */
int gp_mask_max_arity(uint32_t mask);
/* Every operator's arity, 2 bits each, operator op at bits 2 (op % 16) of word op / 16: the
 * table the GPU passes that walk or breed programs are given. */
void gp_op_arity_words(uint32_t words[4]);
/* The most values program codes[0..len) holds at once in its backward walk (terminals push,
 * an operator of arity a pops a and pushes 1). */
int gp_walk_depth(const uint32_t *codes, int len);
/* threads.c: how many threads `requested` means (0: every core), at most `most`, at least 1;
 * and `work(job)` run on that many, this one among them (they share out the job's items). */
int gp_cpu_threads(int requested, int most);
void gp_run_on_threads(int threads, void *(*work)(void *), void *job);
/* Threads kept for a job run many times over: gp_pool_run runs work(job) on this thread and
 * the pool's (threads - 1 at most; NULL, from threads < 2 or without memory: this one alone)
 * and returns when all are done; gp_pool_stop ends them. */
typedef struct gp_pool gp_pool;
gp_pool *gp_pool_start(int threads);
void gp_pool_run(gp_pool *p, void *(*work)(void *), void *job);
void gp_pool_stop(gp_pool *p);

/* GP's number grammar (number.c): NULL and *out set, or what is wrong with text ("is not a
 * finite number", "is out of float32's range ..."). */
const char *gp_number_parse(const char *text, double *out);
#define GP_NUMBER_RANGE "is out of float32's range (+-3.4e38)"

/* glevo_gp_data_create, with checked false also holding values the data rule refuses
 * (csv.c's value_problem): for the tests that feed operators infinities and NaNs. */
glevo_status gp_data_create(int vars, int cases, const float *x, const float *y, bool checked,
                            glevo_gp_data **out);
/* Every (cases / most)-th case of d, min(most, cases) of them, with d's names (split.c). */
glevo_status gp_data_stride_sample(const glevo_gp_data *d, int most, glevo_gp_data **out);

/* Text appended to buf (size bytes) as snprintf would, len counting what did not fit too:
 * the printers' shared sink (print_program.c, simplify.c's SymPy strings). names: what input
 * k is printed as (the data's columns as identifiers, gp_data_identifiers), NULL: x1, x2, ... */
typedef struct gp_out_buf {
    char *buf;
    size_t size, len;
    const char *const *names;
} gp_out_buf;
/* Input `index` (0-based) by its name, or as x<index+1>. */
void gp_out_var(gp_out_buf *o, unsigned index);
/* Program i of p in infix with the inputs named (NULL: x1, ...), snprintf's way. */
int gp_program_infix_named(const glevo_gp_programs *p, int i, const char *const *names, char *buf,
                           size_t size);
/* The data's input columns as identifiers a reader (and SymPy) takes: characters outside
 * [A-Za-z0-9_] become '_', a leading digit gains '_', a name that is a Python keyword, a
 * SymPy constant or function (E, I, S, N, O, Q, pi, sin, ...) or another column's gains a
 * suffix. vars malloc'd strings in a malloc'd array (gp_identifiers_free); NULL without memory. */
char **gp_data_identifiers(const glevo_gp_data *d);
void gp_identifiers_free(char **names, int vars);
void gp_out_put(gp_out_buf *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
