/* The model a GP run reports (issue 26): the best program as evolved, with linear scaling's
 * a and b folded in as constants, then its errors recomputed on that very program, so that
 * what is printed is what was scored. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/args.h"
#include "gp/eval/eval_internal.h"
#include "gp/sr/model.h"

/* The model as an S-expression (names NULL: the format programs are read back in) or, with
 * the data's names, in infix. */
static char *print_alloc(const glevo_gp_programs *p, const char *const *names)
{
    int n = names ? gp_program_infix_named(p, 0, names, NULL, 0) : glevo_gp_program_sexpr(p, 0, NULL, 0);
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    if (names)
        gp_program_infix_named(p, 0, names, s, (size_t)n + 1);
    else
        glevo_gp_program_sexpr(p, 0, s, (size_t)n + 1);
    return s;
}

/* The target's centred sum of squares on d. */
static double target_ss(const glevo_gp_data *d)
{
    double sy = 0, syy = 0;
    for (int c = 0; c < d->cases; ++c) sy += d->y[c];
    double my = sy / d->cases;
    for (int c = 0; c < d->cases; ++c) syy += (d->y[c] - my) * (d->y[c] - my);
    return syy;
}

/* R^2 of a model whose squared errors on d sum to sq_sum. */
static double r2_of(const glevo_gp_data *d, double sq_sum)
{
    double syy = target_ss(d);
    /* A constant target has no variance to explain: R^2 is 1 for a model that is exact on
     * it and 0 otherwise (scikit-learn's r2_score), never a NaN printed beside a model. */
    return syy > 0 ? 1.0 - sq_sum / syy : sq_sum == 0 ? 1.0 : 0.0;
}

glevo_status glevo_gp_r2(const glevo_gp_programs *p, int i, const glevo_gp_data *d, double *r2)
{
    glevo_clear_error();
    ARG_NOT_NULL(p);
    ARG_NOT_NULL(d);
    ARG_NOT_NULL(r2);
    ARG_INDEX_OR(i, glevo_gp_programs_count(p), GLEVO_ERR_INVALID);
    int len;
    const uint32_t *codes = glevo_gp_programs_codes(p, i, &len);
    glevo_gp_programs *one = NULL;
    glevo_status st = glevo_gp_programs_create(&one);
    if (!st) st = glevo_gp_programs_add(one, codes, len, glevo_gp_programs_constants(p));
    glevo_gp_sums s;
    if (!st) st = glevo_gp_evaluate_cpu(one, d, 1, &s);
    glevo_gp_programs_destroy(one);
    if (!st) *r2 = r2_of(d, s.sq_sum);
    return st;
}

void glevo_gp_result_free(glevo_gp_result *r)
{
    if (!r) return;
    free(r->best_sexpr);
    free(r->best_infix);
    free(r->best_sympy);
    glevo_gp_programs_destroy(r->best);
    glevo_gp_programs_destroy(r->layer_parts);
    memset(r, 0, sizeof *r);
}

glevo_status glevo_gp_model(const glevo_gp_params *params, const glevo_gp_data *data,
                            const glevo_gp_programs *p, int i, glevo_gp_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(out);
    memset(out, 0, sizeof *out);
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(p);
    ARG_INDEX_OR(i, glevo_gp_programs_count(p), GLEVO_ERR_INVALID);
    int len;
    const uint32_t *codes = glevo_gp_programs_codes(p, i, &len);
    glevo_status st = glevo_gp_programs_create(&out->best);
    if (!st) st = glevo_gp_programs_add(out->best, codes, len, glevo_gp_programs_constants(p));
    if (!st) st = gp_model_finish(params, data, false, out);
    if (st) glevo_gp_result_free(out);
    return st;
}

/* model (taken) becomes out's: its strings, nodes, and its training error and R^2 from s,
 * its sums on d. */
static glevo_status publish(const glevo_gp_params *P, const glevo_gp_data *d,
                            glevo_gp_programs *model, glevo_gp_programs *parts,
                            const glevo_gp_sums *s, glevo_gp_result *out)
{
    double err = glevo_gp_metric_value(P->metric, s, d->cases), r2 = r2_of(d, s->sq_sum);
    glevo_status st = GLEVO_OK;
    char *sexpr = NULL, *infix = NULL, *sympy = NULL;
    char **names = gp_data_identifiers(d);
    if (names) {
        /* What a person reads names the data's columns; the S-expression stays x1, ... */
        const char *const *named = (const char *const *)names;
        sexpr = print_alloc(model, NULL);
        infix = print_alloc(model, named);
        int ml;
        const uint32_t *mc = glevo_gp_programs_codes(model, 0, &ml);
        const float *mk = glevo_gp_programs_constants(model);
        sympy = gp_program_sympy(mc, ml, mk, named, d);
    }
    gp_identifiers_free(names, d->vars);
    if (!sexpr || !infix || !sympy) st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the model");
    if (!st) {
        free(out->best_sexpr);
        free(out->best_infix);
        glevo_gp_programs_destroy(out->best);
        free(out->best_sympy);
        glevo_gp_programs_destroy(out->layer_parts);
        out->best_sexpr = sexpr, out->best_infix = infix, out->best = model;
        out->layer_parts = parts, parts = NULL;
        out->best_sympy = sympy, out->train_r2 = r2;
        out->best_nodes = (int)glevo_gp_programs_nodes(model);
        out->best_error = err;
        model = NULL, sexpr = infix = sympy = NULL;
    }
    free(sexpr);
    free(infix);
    free(sympy);
    glevo_gp_programs_destroy(model);
    glevo_gp_programs_destroy(parts);
    return st;
}

/* The linear layer of model (gp_linear_layer, on the subtrees of parts) where it halves the
 * squared error on every case of d: *layered (NULL where not) and *sums become its; sums
 * holds model's on entry. */
static glevo_status layer_of(const glevo_gp_params *P, const glevo_gp_data *d,
                             const glevo_gp_programs *parts, glevo_gp_sums *sums,
                             glevo_gp_programs **layered)
{
    *layered = NULL;
    bool squared = P->metric == GLEVO_GP_MSE || P->metric == GLEVO_GP_RMSE;
    if (P->linear_layer <= 0 || !squared || d->cases < 2) return GLEVO_OK;
    /* A model exact to rounding (the enumeration's rule, 1 - R^2 <= 1e-10) stays as found. */
    if (!(sums->sq_sum > 1e-10 * target_ss(d))) return GLEVO_OK;
    int len;
    const uint32_t *codes = glevo_gp_programs_codes(parts, 0, &len);
    uint32_t *lc = NULL;
    float *lk = NULL;
    int n = gp_linear_layer(codes, glevo_gp_programs_constants(parts), len, d, P->linear_layer,
                            P->eval.threads, &lc, &lk);
    /* Made readable as the search's model is where short (a factor of 1 dropped); longer sums
     * are left as weighed (the readable steps' trials cost tens of milliseconds there). */
    uint32_t *sc = n > 0 ? malloc((size_t)n * sizeof *sc) : NULL;
    float *sk = n > 0 ? malloc((size_t)n * sizeof *sk) : NULL;
    if (n > 0) n = sc && sk ? gp_simplify(lc, n, lk, sc, sk) : -1;
    if (n > 0 && n <= 64) n = gp_readable(sc, sk, n, d, P->metric, true);
    glevo_gp_programs *p = NULL;
    glevo_gp_sums s;
    glevo_status st = n < 0 ? glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the linear layer")
                            : GLEVO_OK;
    if (!st && n > 0) st = glevo_gp_programs_create(&p);
    if (!st && n > 0) st = glevo_gp_programs_add(p, sc, n, sk);
    if (!st && n > 0) st = glevo_gp_evaluate_cpu(p, d, 1, &s);
    /* Kept where the interpreter's floats on every case halve the squared error. */
    if (!st && n > 0 && 2 * s.sq_sum < sums->sq_sum) {
        *layered = p, *sums = s;
        p = NULL;
    }
    glevo_gp_programs_destroy(p);
    free(lc), free(lk), free(sc), free(sk);
    return st;
}

/* The printed form of a program (codes, n, constants at their own positions; linear scaling
 * folded in): simplified, made readable, with prune its noise pruned (prune.c; *pruned where
 * that changed it, then readable again; where it did not, no model is made), then its like
 * terms collected where that is shorter: *model, and *parts the form before collection (NULL
 * where nothing was collected: the layer's parts are the model's). */
static glevo_status printed_form(const glevo_gp_params *P, const glevo_gp_data *d,
                                 const uint32_t *codes, const float *consts, int n, bool prune,
                                 glevo_gp_programs **model, glevo_gp_programs **parts,
                                 bool *pruned)
{
    *model = *parts = NULL;
    *pruned = false;
    uint32_t *c3 = malloc((size_t)n * 2 * sizeof *c3), *c4 = c3 ? c3 + n : NULL;
    float *k3 = malloc((size_t)n * 2 * sizeof *k3), *k4 = k3 ? k3 + n : NULL;
    /* Simplified (the result is never longer), made readable, pruned (never longer). */
    int m = c3 && k3 ? gp_simplify(codes, n, consts, c3, k3) : -1;
    if (m > 0) m = gp_readable(c3, k3, m, d, P->metric, false);
    if (m > 0 && prune) m = gp_prune(c3, k3, m, d, pruned);
    if (m > 0 && prune && !*pruned) { /* nothing to print anew: no model made */
        free(c3), free(k3);
        return GLEVO_OK;
    }
    if (m > 0 && *pruned) m = gp_readable(c3, k3, m, d, P->metric, false);
    int collected = m;
    /* (gp_readable's trials are evaluations: only where collecting shortens at all.) */
    if (m > 0 && (gp_collect(c3, m, k3, true, c4, k4, m - 1) > 0 ||
                  gp_collect(c3, m, k3, false, c4, k4, m - 1) > 0)) {
        memcpy(c4, c3, (size_t)m * sizeof *c4), memcpy(k4, k3, (size_t)m * sizeof *k4);
        collected = gp_readable(c4, k4, m, d, P->metric, true);
    }
    glevo_status st = m > 0 ? glevo_gp_programs_create(model)
                            : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the model");
    if (!st && collected < m) {
        st = glevo_gp_programs_create(parts);
        if (!st) st = glevo_gp_programs_add(*parts, c3, m, k3);
        if (!st) st = glevo_gp_programs_add(*model, c4, collected, k4);
    } else if (!st) {
        st = glevo_gp_programs_add(*model, c3, m, k3);
    }
    free(c3);
    free(k3);
    return st;
}

/* The model's last steps, a run's result's alone (P resolved): its linear layer
 * (P->linear_layer), weighed on the model's parts as the search found them, where that fits
 * better; then the noise of what is to be printed pruned (P->prune: the layer's sum where it
 * is short, as it is made readable only then, else the model's form before collection), and
 * that published into out. model and parts are taken, unless they are out's own (out->best
 * and out->layer_parts), which stay out's where nothing replaces them. */
static glevo_status last_steps(const glevo_gp_params *P, const glevo_gp_data *d,
                               glevo_gp_programs *model, glevo_gp_programs *parts,
                               glevo_gp_result *out)
{
    bool own = model == out->best, pruned = false; /* own: out's, freed by publish */
    glevo_gp_sums sums;
    glevo_status st = glevo_gp_evaluate_cpu(model, d, 1, &sums);
    /* The layer is weighed before either model is printed (printing checks signs on every
     * case: milliseconds at 10^4 cases). */
    glevo_gp_programs *layered = NULL, *p = NULL, *p_parts = NULL;
    if (!st) st = layer_of(P, d, parts ? parts : model, &sums, &layered);
    const glevo_gp_programs *from = layered ? layered : parts ? parts : model;
    if (!st && P->prune == 1 && glevo_gp_programs_nodes(from) <= (layered ? 64 : 256)) {
        int len;
        const uint32_t *codes = glevo_gp_programs_codes(from, 0, &len);
        st = printed_form(P, d, codes, glevo_gp_programs_constants(from), len, true, &p,
                          &p_parts, &pruned);
        if (!st && pruned) st = glevo_gp_evaluate_cpu(p, d, 1, &sums);
    }
    /* publish takes what it is given; a layered model has no parts (it is a sum). */
    if (!st && pruned) st = publish(P, d, p, p_parts, &sums, out), p = p_parts = NULL;
    else if (!st && layered) st = publish(P, d, layered, NULL, &sums, out), layered = NULL;
    else if (!st && !own) st = publish(P, d, model, parts, &sums, out), model = parts = NULL;
    if (!own) glevo_gp_programs_destroy(model), glevo_gp_programs_destroy(parts);
    glevo_gp_programs_destroy(layered);
    glevo_gp_programs_destroy(p);
    glevo_gp_programs_destroy(p_parts);
    return st;
}

glevo_status glevo_gp_model_layer(const glevo_gp_params *params, const glevo_gp_data *data,
                                  glevo_gp_result *model)
{
    glevo_clear_error();
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(data);
    ARG_NOT_NULL(model);
    if (!model->best || glevo_gp_programs_count(model->best) != 1)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_gp_model_layer: model is not one program "
                          "(make it with glevo_gp_model)");
    return last_steps(params, data, model->best, model->layer_parts, model);
}

glevo_status gp_model_finish(const glevo_gp_params *P, const glevo_gp_data *d, bool layer,
                             glevo_gp_result *out)
{
    int len;
    const uint32_t *codes = glevo_gp_programs_codes(out->best, 0, &len);
    const float *consts = glevo_gp_programs_constants(out->best);
    uint32_t *c2 = malloc(((size_t)len + 4) * sizeof *c2);
    float *k2 = malloc(((size_t)len + 4) * sizeof *k2);
    glevo_gp_programs *model = NULL, *parts = NULL;
    bool pruned;
    glevo_status st = c2 && k2 ? GLEVO_OK
                               : glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the model");
    if (!st) {
        int n = len;
        if (P->linear_scaling == 1) {
            double a, b;
            gp_fit_scaling(codes, len, consts, d, &a, &b);
            n = gp_scaled_program(codes, len, consts, (float)a, (float)b, c2, k2);
        } else {
            gp_own_constants(codes, len, consts, c2, k2);
        }
        st = printed_form(P, d, c2, k2, n, false, &model, &parts, &pruned);
    }
    free(c2);
    free(k2);
    if (!st && layer) return last_steps(P, d, model, parts, out);
    glevo_gp_sums sums;
    if (!st) st = glevo_gp_evaluate_cpu(model, d, 1, &sums);
    if (!st) st = publish(P, d, model, parts, &sums, out), model = parts = NULL;
    glevo_gp_programs_destroy(model);
    glevo_gp_programs_destroy(parts);
    return st;
}
