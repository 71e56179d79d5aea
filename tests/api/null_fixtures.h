/* Valid-looking arguments for the generated NULL-argument test (scripts/gen-null-test.py):
 * one fx_NAME() per type the public headers take by pointer. The generator calls fx_T() for a
 * pointer to T when this file defines it, and refuses to generate a test for an opaque handle
 * (typedef struct T T;) without one, so a new public type needs a fixture here. Fixtures are
 * built lazily, on the CPU backends (fast under the sanitizers, no GL work), in the forked
 * child that runs one function's checks; the GL context is made only where a function needs
 * it. */
#ifndef GLEVO_NULL_FIXTURES_H
#define GLEVO_NULL_FIXTURES_H

#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/glevo.h"
#include "glevo/backend.h"
#include "glevo/bits.h"
#include "glevo/cga.h"
#include "glevo/chart.h"
#include "glevo/checkpoint.h"
#include "glevo/context.h"
#include "glevo/de.h"
#include "glevo/dsmga.h"
#include "glevo/gp.h"
#include "glevo/output.h"
#include "glevo/problem.h"
#include "glevo/rng.h"
#include "glevo/rng_source.h"
#include "glevo/shader.h"
#include "glevo/sheet.h"
#include "glevo/snapshot.h"
#include "glevo/status.h"
#ifdef GLEVO_HAVE_MPI
#include "glevo/islands.h"
#endif
#include "testutil.h"

/* Zeroed scratch for output arrays and buffers (fixtures are tiny: 8x8 grids, 8 individuals). */
static _Alignas(64) unsigned char fx_scratch[1 << 20];
static inline void *fx_buf(void) { return fx_scratch; }
static inline void *fx_out_slot(void)
{
    static void *slot[4];
    return slot;
}

/* A folder for the paths the calls get, made by fx_begin before the forked tests and
 * removed with what they wrote by fx_end. */
static char fx_dir_path[64];
static inline const char *fx_dir(void) { return fx_dir_path; }
static inline int fx_begin(void)
{
    snprintf(fx_dir_path, sizeof fx_dir_path, "/tmp/glevo-null-XXXXXX");
    return mkdtemp(fx_dir_path) ? 0 : -1;
}
static inline void fx_end(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx_dir_path);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", fx_dir_path);
}
/* Any const char *: a path in that folder (names, texts and formats read it as text). */
static inline const char *fx_text(void)
{
    static char path[96];
    snprintf(path, sizeof path, "%s/file", fx_dir());
    return path;
}
static inline const char *const *fx_texts(void)
{
    static const char *list[2];
    list[0] = list[1] = fx_text();
    return list;
}

static inline const glevo_problem *fx_glevo_problem(void) { return glevo_problem_find("sphere"); }
static inline const glevo_checkpoint_extra *fx_glevo_checkpoint_extra(void)
{
    static const glevo_checkpoint_extra extra = {0, 1};
    return &extra;
}

static inline glevo_cga_params *fx_glevo_cga_params(void)
{
    static glevo_cga_params p;
    p = (glevo_cga_params){.problem = fx_glevo_problem(), .dim = 2, .width = 8, .height = 8,
                           .backend = GLEVO_BACKEND_CPU, .seed = 3};
    return &p;
}
static inline glevo_cga *fx_glevo_cga(void)
{
    static glevo_cga *cga;
    if (!cga) ck_assert_msg(glevo_cga_create(fx_glevo_cga_params(), &cga) == GLEVO_OK, "%s",
                            glevo_last_error());
    return cga;
}

static inline glevo_de_params *fx_glevo_de_params(void)
{
    static glevo_de_params p;
    p = (glevo_de_params){.dim = 2, .pop = 8, .max_evals = 80, .backend = GLEVO_BACKEND_CPU,
                          .seed = 3};
    return &p;
}
static inline glevo_de *fx_glevo_de(void)
{
    static glevo_de *de;
    if (!de) ck_assert_msg(glevo_de_create(fx_glevo_de_params(), &de) == GLEVO_OK, "%s",
                           glevo_last_error());
    return de;
}
static inline glevo_de_result *fx_glevo_de_result(void)
{
    static glevo_de_result r;
    return &r;
}

static inline glevo_gp_data *fx_glevo_gp_data(void)
{
    static glevo_gp_data *d;
    static const float x[2][5] = {{0, 1, 2, 3, 4}, {1, 1, 2, 2, 3}};
    static const float y[5] = {1, 2, 4, 5, 7};
    if (!d) ck_assert(glevo_gp_data_create(2, 5, &x[0][0], y, &d) == GLEVO_OK);
    return d;
}
static inline glevo_gp_programs *fx_glevo_gp_programs(void)
{
    static glevo_gp_programs *p;
    if (!p) {
        ck_assert(glevo_gp_programs_create(&p) == GLEVO_OK);
        ck_assert(glevo_gp_programs_parse(p, "(+ x1 x2)\n(* x1 0.5)\n", "fixture", 2) == GLEVO_OK);
    }
    return p;
}
static inline glevo_gp_eval_params *fx_glevo_gp_eval_params(void)
{
    static glevo_gp_eval_params e;
    e = (glevo_gp_eval_params){.backend = GLEVO_BACKEND_CPU, .threads = 1};
    return &e;
}
static inline glevo_gp_evaluator *fx_glevo_gp_evaluator(void)
{
    static glevo_gp_evaluator *e;
    if (!e)
        ck_assert(glevo_gp_evaluator_create(fx_glevo_gp_eval_params(), fx_glevo_gp_data(), &e) ==
                  GLEVO_OK);
    return e;
}
static inline glevo_gp_params *fx_glevo_gp_params(void)
{
    static glevo_gp_params p;
    p = (glevo_gp_params){.pop = 8, .generations = 2, .max_size = 8, .init_max_depth = 3,
                          .backend = GLEVO_BACKEND_CPU, .seed = 3};
    p.eval.threads = 1;
    return &p;
}
static inline glevo_gp *fx_glevo_gp(void)
{
    static glevo_gp *gp;
    if (!gp) ck_assert_msg(glevo_gp_create(fx_glevo_gp_params(), fx_glevo_gp_data(), &gp) ==
                           GLEVO_OK, "%s", glevo_last_error());
    return gp;
}
static inline glevo_gp_sums *fx_glevo_gp_sums(void)
{
    static glevo_gp_sums s[4];
    return s;
}

static inline glevo_dsmga_problem *fx_glevo_dsmga_problem(void)
{
    static glevo_dsmga_problem *p;
    if (!p) ck_assert_msg(glevo_dsmga_problem_create("onemax", 10, NULL, 3, &p) == GLEVO_OK, "%s",
                          glevo_last_error());
    return p;
}
static inline glevo_dsmga_params *fx_glevo_dsmga_params(void)
{
    static glevo_dsmga_params p;
    p = (glevo_dsmga_params){.pop = 8, .max_generations = 2, .backend = GLEVO_BACKEND_CPU,
                             .seed = 3};
    return &p;
}
static inline glevo_dsmga *fx_glevo_dsmga(void)
{
    static glevo_dsmga *e;
    if (!e) ck_assert_msg(glevo_dsmga_create(fx_glevo_dsmga_problem(), fx_glevo_dsmga_params(),
                                             &e) == GLEVO_OK, "%s", glevo_last_error());
    return e;
}
static inline glevo_spin_instance *fx_glevo_spin_instance(void)
{
    static glevo_spin_instance s;
    if (!s.L) ck_assert(glevo_spin_random(2, 3, &s) == GLEVO_OK);
    return &s;
}
static inline glevo_clique_params *fx_glevo_clique_params(void)
{
    static glevo_clique_params cp;
    return &cp;
}

static inline glevo_context_params *fx_glevo_context_params(void)
{
    static glevo_context_params p;
    return &p;
}
static inline glevo_context *fx_glevo_context(void) { return testutil_context(); }
static inline glevo_dsm_gpu *fx_glevo_dsm_gpu(void)
{
    static glevo_dsm_gpu *g;
    fx_glevo_context();
    if (!g) ck_assert_msg(glevo_dsm_gpu_create(4, 8, GLEVO_BACKEND_FRAGMENT, &g) == GLEVO_OK, "%s",
                          glevo_last_error());
    return g;
}

static inline glevo_output *fx_glevo_output(void)
{
    static glevo_output *o;
    if (!o) ck_assert(glevo_output_open(fx_text(), &o) == GLEVO_OK);
    return o;
}
static inline glevo_rng_source *fx_glevo_rng_source(void)
{
    static glevo_rng_source s;
    static int ready;
    if (!ready) ck_assert(glevo_rng_source_init(&s, GLEVO_RNG_PHILOX, 3, 0) == GLEVO_OK);
    ready = 1;
    return &s;
}

static inline glevo_chart_lines *fx_glevo_chart_lines(void)
{
    static const double xs[2] = {1, 2}, ys[2] = {1, 4};
    static glevo_chart_series series;
    static glevo_chart_lines c;
    series = (glevo_chart_series){.name = "s", .x = xs, .y = ys, .n = 2};
    c = (glevo_chart_lines){.title = "t", .series = &series, .nseries = 1, .width = 320,
                            .height = 240};
    return &c;
}
static inline glevo_chart_heat *fx_glevo_chart_heat(void)
{
    static const double xs[1] = {1}, ys[1] = {1}, v[1] = {1};
    static glevo_chart_heat c;
    c = (glevo_chart_heat){.title = "t", .nx = 1, .ny = 1, .npanels = 1, .x_values = xs,
                           .y_values = ys, .values = v};
    return &c;
}
static inline glevo_chart_frame *fx_glevo_chart_frame(void)
{
    static glevo_chart_frame f;
    ck_assert_msg(glevo_chart_lines_frame(fx_glevo_chart_lines(), &f) == GLEVO_OK, "%s",
                  glevo_last_error());
    return &f;
}

#ifdef GLEVO_HAVE_MPI
/* Islands need MPI_Init, which a unit test does not do: the generator calls islands'
 * functions only with NULL in the handle's place, and never the MPI set-up functions. */
static inline glevo_islands_params *fx_glevo_islands_params(void)
{
    static glevo_islands_params p;
    return &p;
}
#endif

/* What a status-returning function must give for a NULL it does not accept. */
static inline void fx_expect_invalid(glevo_status st, const char *fn, const char *arg)
{
    ck_assert_msg(st == GLEVO_ERR_INVALID, "%s with %s NULL or out of range returned %d, not "
                  "GLEVO_ERR_INVALID (%s)",
                  fn, arg, (int)st, glevo_last_error());
    const char *m = glevo_last_error(), *at = m;
    size_t n = strlen(arg);
    int named = 0;
    /* the argument as a whole word */
    while (!named && (at = strstr(at, arg)) != NULL) {
        named = (at == m || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
                !(isalnum((unsigned char)at[n]) || at[n] == '_');
        at += n;
    }
    ck_assert_msg(named,
                  "%s with %s NULL or out of range: the message does not name the argument: "
                  "\"%s\"", fn, arg,
                  glevo_last_error());
}

#endif
