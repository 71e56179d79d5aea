/* CPU stack interpreter (the paper's Interpreter() of §3.2.1 and CPU kernel, Algorithm 2):
 * the reference the GPU passes are tested against and the CPU baseline of `glevo bench gp`.
 * Population-parallel over threads; within a program, cases run in blocks of GP_BLOCK so that
 * each node's loop over the block vectorises (same float arithmetic per case as the scalar
 * interpreter, which tests check). The errors are summed in the order every backend shares
 * (eval_internal.h), so the sums equal the GPU's bit for bit. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gp/eval/eval_internal.h"
#include "gp/eval/apply.h"
#include "core/args.h"

/* One block is GP_SUM_LANES quads: quad i of a block goes to lane i of its segment. */
#define GP_BLOCK (4 * GP_SUM_LANES)

float glevo_gp_interpret(const uint32_t *codes, int length, const float *consts,
                         const glevo_gp_data *d, int c)
{
    ARG_NOT_NULL_OR(codes, NAN);
    ARG_NOT_NULL_OR(consts, NAN); /* d may be NULL for a program without variables */
    return gp_interpret_nodes(codes, length, consts, d, c, NULL);
}

float gp_interpret_nodes(const uint32_t *codes, int length, const float *consts,
                         const glevo_gp_data *d, int c, float *node_values)
{
    float stack_small[64] = {0};
    float *stack = length <= 64 ? stack_small : malloc((size_t)length * sizeof *stack);
    if (!stack) return NAN;
    int sp = 0;
    /* Walk backwards: arguments are pushed before their operator is met, the first
     * argument last, so it is on top. */
    for (int i = length - 1; i >= 0; --i) {
        uint32_t code = codes[i];
        glevo_gp_op op = GLEVO_GP_CODE_OP(code);
        uint32_t idx = GLEVO_GP_CODE_INDEX(code);
        switch (op) {
        case GLEVO_GP_VAR: stack[sp++] = d ? d->x[(size_t)idx * d->cases + c] : NAN; break;
        case GLEVO_GP_CONST: stack[sp++] = consts[idx]; break;
        case GLEVO_GP_NEG:
        case GLEVO_GP_SIN:
        case GLEVO_GP_COS:
        case GLEVO_GP_NOT:
        case GLEVO_GP_EXP:
        case GLEVO_GP_LOG:
        case GLEVO_GP_SQRT:
        case GLEVO_GP_SQUARE:
        case GLEVO_GP_CUBE:
        case GLEVO_GP_TANH:
        case GLEVO_GP_ABS: stack[sp - 1] = gp_apply1(op, stack[sp - 1]); break;
        case GLEVO_GP_IF: {
            float cond = stack[sp - 1], a = stack[sp - 2], b = stack[sp - 3];
            sp -= 2;
            stack[sp - 1] = cond != 0.0f ? a : b;
            break;
        }
        default: {
            float a = stack[sp - 1], b = stack[sp - 2];
            sp -= 1;
            stack[sp - 1] = gp_apply2(op, a, b);
            break;
        }
        }
        if (node_values) node_values[i] = stack[sp - 1]; /* the subtree at i's value */
    }
    float r = stack[0];
    if (stack != stack_small) free(stack);
    return r;
}

/* Predictions of one program on the n <= GP_BLOCK cases from c0 into stack[0..n); stack
 * holds length * GP_BLOCK floats. */
static void block_predict(const uint32_t *codes, int length, const float *consts,
                          const glevo_gp_data *d, int c0, int n, float *stack)
{
    int sp = 0;
    for (int i = length - 1; i >= 0; --i) {
        uint32_t code = codes[i];
        glevo_gp_op op = GLEVO_GP_CODE_OP(code);
        uint32_t idx = GLEVO_GP_CODE_INDEX(code);
        float *top = stack + (size_t)sp * GP_BLOCK;
        float *a = top - GP_BLOCK, *b = top - 2 * GP_BLOCK;
        switch (op) {
        case GLEVO_GP_VAR:
            memcpy(top, d->x + (size_t)idx * d->cases + c0, (size_t)n * sizeof *top);
            sp++;
            break;
        case GLEVO_GP_CONST:
            for (int k = 0; k < n; ++k) top[k] = consts[idx];
            sp++;
            break;
        case GLEVO_GP_NEG: for (int k = 0; k < n; ++k) a[k] = -a[k]; break;
        case GLEVO_GP_SIN: for (int k = 0; k < n; ++k) a[k] = gp_sin(a[k]); break;
        case GLEVO_GP_COS: for (int k = 0; k < n; ++k) a[k] = gp_cos(a[k]); break;
        case GLEVO_GP_NOT: for (int k = 0; k < n; ++k) a[k] = a[k] == 0.0f ? 1.0f : 0.0f; break;
        /* One loop per operator, so that no switch runs per case. */
        case GLEVO_GP_EXP: for (int k = 0; k < n; ++k) a[k] = gp_exp(a[k]); break;
        case GLEVO_GP_LOG: for (int k = 0; k < n; ++k) a[k] = gp_log(a[k]); break;
        case GLEVO_GP_SQRT: for (int k = 0; k < n; ++k) a[k] = gp_sqrt(a[k]); break;
        case GLEVO_GP_SQUARE: for (int k = 0; k < n; ++k) a[k] = a[k] * a[k]; break;
        case GLEVO_GP_CUBE: for (int k = 0; k < n; ++k) a[k] = (a[k] * a[k]) * a[k]; break;
        case GLEVO_GP_TANH: for (int k = 0; k < n; ++k) a[k] = gp_tanh(a[k]); break;
        case GLEVO_GP_ABS: for (int k = 0; k < n; ++k) a[k] = fabsf(a[k]); break;
        case GLEVO_GP_POW:
            for (int k = 0; k < n; ++k) b[k] = gp_pow(a[k], b[k]);
            sp--;
            break;
        case GLEVO_GP_AQ:
            for (int k = 0; k < n; ++k) b[k] = gp_aq(a[k], b[k]);
            sp--;
            break;
        case GLEVO_GP_IF: {
            float *e = top - 3 * GP_BLOCK; /* c = a (top), then-value = b, else = e */
            for (int k = 0; k < n; ++k) e[k] = a[k] != 0.0f ? b[k] : e[k];
            sp -= 2;
            break;
        }
        /* Binary: first argument on top (a), second below it (b); result replaces b. */
        case GLEVO_GP_ADD: for (int k = 0; k < n; ++k) b[k] = a[k] + b[k]; sp--; break;
        case GLEVO_GP_SUB: for (int k = 0; k < n; ++k) b[k] = a[k] - b[k]; sp--; break;
        case GLEVO_GP_MUL: for (int k = 0; k < n; ++k) b[k] = a[k] * b[k]; sp--; break;
        case GLEVO_GP_DIV:
            for (int k = 0; k < n; ++k) b[k] = gp_div(a[k], b[k]);
            sp--;
            break;
        default:
            for (int k = 0; k < n; ++k) b[k] = gp_apply2(op, a[k], b[k]);
            sp--;
            break;
        }
    }
}

glevo_status gp_predict_cpu(const uint32_t *codes, int length, const float *consts,
                            const glevo_gp_data *d, float *out)
{
    float *stack = malloc(((size_t)length + 1) * GP_BLOCK * sizeof *stack);
    if (!stack) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the CPU interpreter stack");
    for (int c0 = 0; c0 < d->cases; c0 += GP_BLOCK) {
        int n = d->cases - c0 < GP_BLOCK ? d->cases - c0 : GP_BLOCK;
        block_predict(codes, length, consts, d, c0, n, stack);
        memcpy(out + c0, stack, (size_t)n * sizeof *out);
    }
    free(stack);
    return GLEVO_OK;
}

/* Sums of one program over all cases in the order every backend shares (eval_internal.h):
 * block by block (a block is one round of the 64 lanes of a segment: its quad i goes to lane
 * i), the quad partials added to the lane sums in float; at a segment's end the lanes added in
 * order in float, and the segment into the program's sums in double. */
static void program_sums(const uint32_t *codes, int length, const float *consts,
                         const glevo_gp_data *d, float *stack, bool moments, glevo_gp_sums *out)
{
    double abs_sum = 0, sq_sum = 0, hits = 0;
    float la[GP_SUM_LANES], ls[GP_SUM_LANES], lh[GP_SUM_LANES];
    float e[GP_BLOCK], s[GP_BLOCK], h[GP_BLOCK];
    const int seg_cases = 4 * GP_SEG_QUADS;
    for (int c0 = 0; c0 < d->cases; c0 += GP_BLOCK) {
        if (c0 % seg_cases == 0) {
            memset(la, 0, sizeof la);
            memset(ls, 0, sizeof ls);
            memset(lh, 0, sizeof lh);
        }
        int n = d->cases - c0 < GP_BLOCK ? d->cases - c0 : GP_BLOCK;
        block_predict(codes, length, consts, d, c0, n, stack);
        const float *y = d->y + c0;
        if (moments) /* linear scaling: (f*y, f*f, f) in the same order, the shader's twin */
            for (int k = 0; k < GP_BLOCK; ++k) {
                float f = k < n ? stack[k] : 0.0f;
                e[k] = f * (k < n ? y[k] : 0.0f);
                s[k] = f * f;
                h[k] = f;
            }
        else
            for (int k = 0; k < GP_BLOCK; ++k) {
                float ek = k < n ? fabsf(stack[k] - y[k]) : 0.0f;
                e[k] = ek;
                s[k] = ek * ek;
                h[k] = k < n && ek < 0.5f ? 1.0f : 0.0f;
            }
        for (int q = 0; q < GP_SUM_LANES; ++q) {
            la[q] += (e[4 * q] + e[4 * q + 1]) + (e[4 * q + 2] + e[4 * q + 3]);
            ls[q] += (s[4 * q] + s[4 * q + 1]) + (s[4 * q + 2] + s[4 * q + 3]);
            lh[q] += (h[4 * q] + h[4 * q + 1]) + (h[4 * q + 2] + h[4 * q + 3]);
        }
        if ((c0 + GP_BLOCK) % seg_cases == 0 || c0 + GP_BLOCK >= d->cases) {
            float sa = 0.0f, ss = 0.0f, sh = 0.0f;
            for (int t = 0; t < GP_SUM_LANES; ++t) {
                sa += la[t];
                ss += ls[t];
                sh += lh[t];
            }
            abs_sum += sa;
            sq_sum += ss;
            hits += sh;
        }
    }
    out->abs_sum = abs_sum;
    out->sq_sum = sq_sum;
    /* The GPU drivers hand the third sum back as a float (exact for counts of hits). */
    out->hits = moments ? (double)(float)hits : hits;
}

typedef struct cpu_job {
    const glevo_gp_programs *p;
    const glevo_gp_data *d;
    glevo_gp_sums *sums;
    bool moments;
    atomic_int next;
    int failed;
} cpu_job;

static void *worker(void *arg)
{
    cpu_job *job = arg;
    const glevo_gp_programs *p = job->p;
    float *stack = malloc(((size_t)p->max_length + 1) * GP_BLOCK * sizeof *stack);
    if (!stack) {
        job->failed = 1;
        return NULL;
    }
    for (;;) {
        int i0 = atomic_fetch_add(&job->next, 16);
        if (i0 >= p->count) break;
        int i1 = i0 + 16 < p->count ? i0 + 16 : p->count;
        for (int i = i0; i < i1; ++i)
            program_sums(p->codes + p->offsets[i], p->lengths[i], p->consts, job->d, stack,
                         job->moments, &job->sums[i]);
    }
    free(stack);
    return NULL;
}

glevo_status glevo_gp_evaluate_cpu(const glevo_gp_programs *p, const glevo_gp_data *d,
                                   int threads, glevo_gp_sums *sums)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(d);
    ARG_NOT_NULL(sums);
    return gp_evaluate_cpu_sums(p, d, threads, false, sums);
}

glevo_status gp_evaluate_cpu_sums(const glevo_gp_programs *p, const glevo_gp_data *d,
                                  int threads, bool moments, glevo_gp_sums *sums)
{
    cpu_job job = {.p = p, .d = d, .sums = sums, .moments = moments};
    atomic_init(&job.next, 0);
    gp_run_on_threads(gp_cpu_threads(threads, (p->count + 15) / 16), worker, &job);
    if (job.failed) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the CPU interpreter stack");
    return GLEVO_OK;
}

double glevo_gp_metric_value(glevo_gp_metric m, const glevo_gp_sums *s, int cases)
{
    ARG_NOT_NULL_OR(s, NAN);
    switch (m) {
    case GLEVO_GP_MSE: return s->sq_sum / cases;
    case GLEVO_GP_RMSE: return sqrt(s->sq_sum / cases);
    case GLEVO_GP_ACCURACY: return s->hits / cases;
    default: return s->abs_sum;
    }
}

static const char *metric_names[] = {"sae", "mse", "rmse", "accuracy"};

const char *glevo_gp_metric_name(glevo_gp_metric m)
{
    return (unsigned)m < 4 ? metric_names[m] : "?";
}

glevo_status glevo_gp_metric_parse(const char *text, glevo_gp_metric *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(text);
    ARG_NOT_NULL(out);
    for (int i = 0; i < 4; ++i)
        if (!strcmp(text, metric_names[i])) {
            *out = (glevo_gp_metric)i;
            return GLEVO_OK;
        }
    return glevo_fail(GLEVO_ERR_INVALID, "metric '%s' is unknown (sae, mse, rmse or accuracy)", text);
}
