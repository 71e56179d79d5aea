/* glevo-demo's DE view (Qin et al. 2012 engine, 2-D problems): the population as points over
 * the function's landscape (a heat map evaluated on the host in double), and beside it the
 * same around the current best, zoomed to the population's spread. Restarts with a new seed
 * when the evaluation budget is spent. */
#include <GL/glew.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "glevo/problem.h"

#define LAND 192 /* landscape texels per side */
#define POP 60

typedef struct de_view {
    glevo_de *de;
    const glevo_problem *problem;
    double x[POP * 2];
    float xy[POP * 2];
    GLuint land[2];
    double box[2][4];   /* x0, x1, y0, y1 of each panel's landscape */
    double range[2][2]; /* worst, best value in each landscape */
    float values[LAND * LAND];
    long long generation;
    double best;
    bool have_best;
} de_view;

static void landscape(de_view *v, int k)
{
    const double *b = v->box[k];
    double worst = NAN, best = NAN;
    for (int j = 0; j < LAND; ++j)
        for (int i = 0; i < LAND; ++i) {
            double x[2] = {b[0] + (i + 0.5) / LAND * (b[1] - b[0]),
                           b[2] + (j + 0.5) / LAND * (b[3] - b[2])};
            double f = glevo_problem_eval_double(v->problem, x, NULL, 2);
            v->values[j * LAND + i] = (float)f;
            if (isfinite(f)) {
                if (isnan(best) || glevo_problem_better(v->problem, f, best)) best = f;
                if (isnan(worst) || glevo_problem_better(v->problem, worst, f)) worst = f;
            }
        }
    v->range[k][0] = worst, v->range[k][1] = best;
    glBindTexture(GL_TEXTURE_2D, v->land[k]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, LAND, LAND, 0, GL_RED, GL_FLOAT, v->values);
}

/* A fresh run on the shared problem and seed; the curve starts over. */
static glevo_status restart(de_view *v, demo_shared *s)
{
    if (v->de) glevo_de_destroy(v->de);
    v->de = NULL;
    v->problem = s->problem, v->generation = 0, v->have_best = false;
    demo_curve_clear(&s->curve);
    glevo_de_params p = {.problem = s->problem, .dim = 2, .pop = POP, .seed = s->seed,
                         .no_shift = true, .check_every = 1, .max_evals = POP * 400,
                         .backend = GLEVO_BACKEND_FRAGMENT}; /* the demo shows the 2008 way */
    glevo_status st = glevo_de_create(&p, &v->de);
    for (int k = 0; k < 2 && !st; ++k) {
        v->box[k][0] = v->box[k][2] = s->problem->lower;
        v->box[k][1] = v->box[k][3] = s->problem->upper;
        landscape(v, k);
    }
    return st ? st : glevo_de_population(v->de, v->x, NULL);
}

static void destroy(void *p)
{
    de_view *v = p;
    if (!v) return;
    if (v->de) glevo_de_destroy(v->de);
    if (v->land[0]) glDeleteTextures(2, v->land);
    free(v);
}

static void *create(demo_shared *s)
{
    de_view *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    glGenTextures(2, v->land);
    for (int k = 0; k < 2; ++k) {
        glBindTexture(GL_TEXTURE_2D, v->land[k]);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    if (restart(v, s)) {
        destroy(v);
        return NULL;
    }
    return v;
}

static glevo_status step(void *p, demo_shared *s, int generations)
{
    de_view *v = p;
    glevo_status st;
    if (glevo_de_done(v->de)) {
        s->seed = s->seed * 1664525u + 1013904223u;
        if ((st = restart(v, s))) return st;
    }
    if ((st = glevo_de_step(v->de, generations))) return st;
    glevo_de_result r;
    if ((st = glevo_de_result_get(v->de, &r))) return st;
    v->generation = r.generations;
    if (!isnan(r.best_fitness) && (!v->have_best || glevo_problem_better(s->problem, r.best_fitness, v->best)))
        v->best = r.best_fitness, v->have_best = true;
    if (v->have_best) {
        double err = s->problem->has_optimum ? fabs(v->best - glevo_problem_optimum(s->problem, 2)) : v->best;
        demo_curve_add(&s->curve, (double)v->generation, s->problem->has_optimum ? fmax(err, 1e-12) : err);
    }
    /* The right panel follows the best, as wide as the population's spread. */
    if ((st = glevo_de_population(v->de, v->x, NULL)) == GLEVO_OK) {
        double spread = 0;
        for (int i = 0; i < POP; ++i)
            for (int j = 0; j < 2; ++j) spread = fmax(spread, fabs(v->x[2 * i + j] - r.best_x[j]));
        double w = fmax(spread * 1.2, (s->problem->upper - s->problem->lower) * 1e-6);
        double *b = v->box[1];
        b[0] = r.best_x[0] - w, b[1] = r.best_x[0] + w, b[2] = r.best_x[1] - w, b[3] = r.best_x[1] + w;
        landscape(v, 1);
    }
    glevo_de_result_free(&r);
    return st;
}

static void draw(void *p, demo_shared *s, int fb_w, int fb_h, demo_text *t)
{
    de_view *v = p;
    demo_rect panel[2], strip;
    demo_layout(fb_w, fb_h, &panel[0], &panel[1], &strip);
    demo_draw_clear(fb_w, fb_h, s->paused);
    for (int k = 0; k < 2; ++k) {
        demo_draw_heat(s->draw, v->land[k], panel[k], v->range[k][0], v->range[k][1]);
        const double *b = v->box[k];
        for (int i = 0; i < POP; ++i) {
            v->xy[2 * i] = (float)((v->x[2 * i] - b[0]) / (b[1] - b[0]) * 2 - 1);
            v->xy[2 * i + 1] = (float)((v->x[2 * i + 1] - b[2]) / (b[3] - b[2]) * 2 - 1);
        }
        demo_draw_points(s->draw, panel[k], v->xy, POP);
    }
    snprintf(t->label[0], sizeof t->label[0], "DE: the whole domain [%g, %g]^2 (brighter is better)",
             s->problem->lower, s->problem->upper);
    snprintf(t->label[1], sizeof t->label[1], "around the best, %.3g wide", v->box[1][1] - v->box[1][0]);
    char best[32] = "-";
    if (v->have_best) snprintf(best, sizeof best, "%.6g", v->best);
    snprintf(t->readout, sizeof t->readout, "DE/rand/1/bin %s 2-D, NP %d   gen %lld   best %s%s",
             s->problem->name, POP, v->generation, best, s->paused ? "   PAUSED" : "");
    snprintf(t->title, sizeof t->title, "glevo DE/rand/1/bin %s 2-D | gen %lld | best %s | d: back to the cGA",
             s->problem->name, v->generation, best);
    t->curve_y = s->problem->has_optimum ? "error" : "best f";
    t->generation = v->generation;
    t->curve_log = s->problem->has_optimum;
}

static bool key(void *p, demo_shared *s, int k)
{
    (void)p, (void)s, (void)k;
    return false;
}

const demo_view demo_de_view = {"de", create, step, draw, key, destroy};
