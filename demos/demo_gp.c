/* glevo-demo's GP view (Augusto & Barbosa 2012 engine, GPU evaluation): symbolic regression of
 * a 1-D curve; the data points and the best program's curve, redrawn after every generation
 * from the run's progress callback, with the program's text beside them. */
#include <GL/glew.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define CASES 48 /* data points */
#define GRID 200 /* samples of the best program's curve */
#define X0 (-1.5)
#define X1 1.5

struct demo_gp {
    glevo_gp_data *train, *grid;
    float tx[CASES], ty[CASES];
    float curve_y[GRID];
    bool have_curve;
    char best[2048], infix[2048];
    double best_error;
    int generation;
    demo_curve history;
    demo_gp_frame_fn frame;
    void *user;
};

static float target(float x) { return x * x * x - 0.5f * x + 0.3f * sinf(4.0f * x); }

demo_gp *demo_gp_create(void)
{
    demo_gp *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    float gx[GRID], gy[GRID] = {0};
    for (int i = 0; i < CASES; ++i) {
        g->tx[i] = (float)(X0 + (X1 - X0) * i / (CASES - 1));
        g->ty[i] = target(g->tx[i]);
    }
    for (int i = 0; i < GRID; ++i) gx[i] = (float)(X0 + (X1 - X0) * i / (GRID - 1));
    if (glevo_gp_data_create(1, CASES, g->tx, g->ty, &g->train) ||
        glevo_gp_data_create(1, GRID, gx, gy, &g->grid)) {
        demo_gp_destroy(g);
        return NULL;
    }
    return g;
}

void demo_gp_destroy(demo_gp *g)
{
    if (!g) return;
    if (g->train) glevo_gp_data_destroy(g->train);
    if (g->grid) glevo_gp_data_destroy(g->grid);
    free(g->history.gen), free(g->history.value);
    free(g);
}

static void on_progress(void *user, int generation, double best_error, const char *best_sexpr)
{
    demo_gp *g = user;
    g->generation = generation, g->best_error = best_error;
    snprintf(g->best, sizeof g->best, "%s", best_sexpr ? best_sexpr : "");
    glevo_gp_programs *p = NULL;
    g->have_curve = false;
    g->infix[0] = '\0';
    if (best_sexpr && !glevo_gp_programs_create(&p) &&
        !glevo_gp_programs_parse(p, best_sexpr, "best", 1) && glevo_gp_programs_count(p) == 1) {
        int length = 0;
        const uint32_t *codes = glevo_gp_programs_codes(p, 0, &length);
        for (int i = 0; i < GRID; ++i)
            g->curve_y[i] = glevo_gp_interpret(codes, length, glevo_gp_programs_constants(p),
                                               g->grid, i);
        g->have_curve = true;
        glevo_gp_program_infix(p, 0, g->infix, sizeof g->infix);
    }
    if (p) glevo_gp_programs_destroy(p);
    demo_curve_add(&g->history, generation, -log10(best_error > 1e-9 ? best_error : 1e-9));
    g->frame(g->user);
}

glevo_status demo_gp_run(demo_gp *g, uint32_t seed, demo_gp_frame_fn frame, void *user)
{
    g->frame = frame, g->user = user;
    g->best[0] = '\0', g->have_curve = false, g->generation = 0;
    demo_curve_clear(&g->history);
    glevo_gp_params p = {.pop = 400, .generations = 60, .max_size = 40, .seed = seed,
                         .eval = {.strategy = GLEVO_GP_PPPE},
                         .progress = on_progress, .progress_user = g};
    glevo_gp_result r;
    memset(&r, 0, sizeof r);
    glevo_status st = glevo_gp_run(&p, g->train, &r);
    if (!st) glevo_gp_result_free(&r);
    return st;
}

int demo_gp_generation(const demo_gp *g) { return g->generation; }
double demo_gp_best_error(const demo_gp *g) { return g->best_error; }

void demo_gp_draw(demo_gp *g, demo_draw *d, int fb_w, int fb_h, bool paused)
{
    demo_rect left, right, rc;
    demo_layout(fb_w, fb_h, &left, &right, &rc);
    demo_draw_clear(fb_w, fb_h, paused);
    demo_draw_box(left, 0.12f);
    demo_draw_box(right, 0.12f);
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < CASES; ++i) lo = fminf(lo, g->ty[i]), hi = fmaxf(hi, g->ty[i]);
    float pad = 0.15f * (hi - lo);
    lo -= pad, hi += pad;
    float xy[2 * (GRID > CASES ? GRID : CASES)];
    if (g->have_curve) {
        for (int i = 0; i < GRID; ++i) {
            xy[2 * i] = (float)i / (GRID - 1) * 1.9f - 0.95f;
            float v = (g->curve_y[i] - lo) / (hi - lo) * 1.8f - 0.9f;
            xy[2 * i + 1] = isfinite(v) ? fmaxf(-2.0f, fminf(2.0f, v)) : 0.0f;
        }
        static const float orange[3] = {1.0f, 0.55f, 0.1f};
        demo_draw_strip(d, left, xy, GRID, orange);
    }
    for (int i = 0; i < CASES; ++i) {
        xy[2 * i] = (float)i / (CASES - 1) * 1.9f - 0.95f;
        xy[2 * i + 1] = (g->ty[i] - lo) / (hi - lo) * 1.8f - 0.9f;
    }
    demo_draw_points(d, left, xy, CASES);
    /* The program, wrapped to the panel's width. */
    int sc = fb_h >= 500 ? 2 : 1, cols = (right.w - 8 * sc) / (6 * sc);
    char text[4096];
    size_t n = 0;
    int col = 0;
    const char *parts[4] = {"best program, y = f(x1):\n", g->infix,
                            "\n\nas an S-expression:\n", g->best};
    for (int k = 0; k < 4; ++k)
        for (const char *s = parts[k]; *s && n < sizeof text - 2; ++s) {
            if (*s == '\n') col = -1;
            else if (cols > 0 && col == cols) text[n++] = '\n', col = 0;
            text[n++] = *s, ++col;
        }
    text[n] = '\0';
    static const float white[3] = {0.95f, 0.95f, 0.95f};
    demo_draw_text(d, fb_w, fb_h, right.x + 4 * sc, right.y + right.h - 16 * sc, sc, text,
                   white);
    demo_draw_curve(d, rc, &g->history);
}
