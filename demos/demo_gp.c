/* glevo-demo's GP view (Augusto & Barbosa 2012 engine, GPU evaluation): symbolic regression of
 * a 1-D curve, one generation per step through glevo_gp_step; the data points and the best
 * program's curve on the left, the program's text on the right (wrapped at token boundaries).
 * A finished run starts again with the next seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define CASES 48 /* data points */
#define GRID 200 /* samples of the best program's curve */
#define X0 (-1.5)
#define X1 1.5

typedef struct gp_view {
    glevo_gp_data *train, *grid;
    glevo_gp *gp;
    float tx[CASES], ty[CASES];
    float curve_y[GRID];
    char text[8192];
} gp_view;

static float target(float x) { return x * x * x - 0.5f * x + 0.3f * sinf(4.0f * x); }

/* The best program of the last generation: its curve over the grid and its text. */
static void take_best(gp_view *v)
{
    int best = 0;
    const glevo_gp_programs *p = glevo_gp_population(v->gp, &best);
    int length = 0;
    const uint32_t *codes = glevo_gp_programs_codes(p, best, &length);
    for (int i = 0; i < GRID; ++i)
        v->curve_y[i] = glevo_gp_interpret(codes, length, glevo_gp_programs_constants(p), v->grid, i);
    int n = snprintf(v->text, sizeof v->text, "best program, y = f(x1):\n");
    glevo_gp_program_infix(p, best, v->text + n, sizeof v->text - (size_t)n);
    n = (int)strlen(v->text);
    n += snprintf(v->text + n, sizeof v->text - (size_t)n, "\n\nas an S-expression:\n");
    glevo_gp_program_sexpr(p, best, v->text + n, sizeof v->text - (size_t)n);
}

static glevo_status restart(gp_view *v, demo_shared *s)
{
    glevo_gp_destroy(v->gp);
    v->gp = NULL;
    demo_curve_clear(&s->curve);
    glevo_gp_params p = {.pop = 400, .generations = 60, .max_size = 40, .seed = s->seed,
                         .backend = GLEVO_BACKEND_FRAGMENT, /* the demo shows the 2008 way */
                         .eval = {.strategy = GLEVO_GP_PPPE}};
    glevo_status st = glevo_gp_create(&p, v->train, &v->gp);
    if (!st) take_best(v);
    return st;
}

static void destroy(void *p)
{
    gp_view *v = p;
    if (!v) return;
    glevo_gp_destroy(v->gp);
    glevo_gp_data_destroy(v->train);
    glevo_gp_data_destroy(v->grid);
    free(v);
}

static void *create(demo_shared *s)
{
    gp_view *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    float gx[GRID], gy[GRID] = {0};
    for (int i = 0; i < CASES; ++i) {
        v->tx[i] = (float)(X0 + (X1 - X0) * i / (CASES - 1));
        v->ty[i] = target(v->tx[i]);
    }
    for (int i = 0; i < GRID; ++i) gx[i] = (float)(X0 + (X1 - X0) * i / (GRID - 1));
    if (glevo_gp_data_create(1, CASES, v->tx, v->ty, &v->train) ||
        glevo_gp_data_create(1, GRID, gx, gy, &v->grid) || restart(v, s)) {
        destroy(v);
        return NULL;
    }
    return v;
}

static glevo_status step(void *p, demo_shared *s, int generations)
{
    gp_view *v = p;
    glevo_status st;
    if (glevo_gp_done(v->gp)) {
        s->seed = s->seed * 1664525u + 1013904223u;
        if ((st = restart(v, s))) return st;
    }
    if ((st = glevo_gp_step(v->gp, generations))) return st;
    take_best(v);
    double e = glevo_gp_best_error(v->gp);
    demo_curve_add(&s->curve, glevo_gp_generation(v->gp), e > 1e-9 ? e : 1e-9);
    return GLEVO_OK;
}

static void draw(void *p, demo_shared *s, int fb_w, int fb_h, demo_text *t)
{
    gp_view *v = p;
    demo_rect left, right, strip;
    demo_layout(fb_w, fb_h, &left, &right, &strip);
    demo_draw_clear(fb_w, fb_h, s->paused);
    demo_draw_box(left, 0.12f);
    demo_draw_box(right, 0.12f);
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < CASES; ++i) lo = fminf(lo, v->ty[i]), hi = fmaxf(hi, v->ty[i]);
    float pad = 0.15f * (hi - lo);
    lo -= pad, hi += pad;
    /* The data first, the program's curve over it: a good fit would otherwise hide under the
     * points. */
    float xy[2 * GRID];
    for (int i = 0; i < CASES; ++i) {
        xy[2 * i] = (float)i / (CASES - 1) * 1.9f - 0.95f;
        xy[2 * i + 1] = (v->ty[i] - lo) / (hi - lo) * 1.8f - 0.9f;
    }
    demo_draw_points(s->draw, left, xy, CASES);
    for (int i = 0; i < GRID; ++i) {
        xy[2 * i] = (float)i / (GRID - 1) * 1.9f - 0.95f;
        float y = (v->curve_y[i] - lo) / (hi - lo) * 1.8f - 0.9f;
        xy[2 * i + 1] = isfinite(y) ? fmaxf(-2.0f, fminf(2.0f, y)) : 0.0f;
    }
    static const float orange[3] = {1.0f, 0.55f, 0.1f};
    demo_draw_strip(s->draw, left, xy, GRID, orange);
    snprintf(t->label[0], sizeof t->label[0], "data (white) and best program (orange), x1 in [%g, %g]", X0, X1);
    snprintf(t->label[1], sizeof t->label[1], "the best program");
    t->panel_text = v->text;
    snprintf(t->readout, sizeof t->readout, "GP symbolic regression, pop 400   gen %d   best error (SAE) %.6g%s",
             glevo_gp_generation(v->gp), glevo_gp_best_error(v->gp), s->paused ? "   PAUSED" : "");
    snprintf(t->title, sizeof t->title, "glevo GP symbolic regression | gen %d | best error %.6g | g: back to the cGA",
             glevo_gp_generation(v->gp), glevo_gp_best_error(v->gp));
    t->curve_y = "error (SAE)";
    t->generation = glevo_gp_generation(v->gp);
    t->curve_log = true;
}

static bool key(void *p, demo_shared *s, int k)
{
    (void)p, (void)s, (void)k;
    return false;
}

const demo_view demo_gp_view = {"gp", create, step, draw, key, destroy};
