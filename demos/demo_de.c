/* glevo-demo's DE view (Qin et al. 2012 engine, 2-D problems): the population as points over
 * the function's landscape (a heat map evaluated on the host in double), and beside it the
 * same around the current best, zoomed to the population's spread. Restarts with a new seed
 * when the evaluation budget is spent. */
#include <GL/glew.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define LAND 192 /* landscape texels per side */

struct demo_de {
    glevo_de *de;
    const glevo_problem *problem;
    int pop;
    double *x;
    float *xy;
    GLuint land[2];
    double box[2][4];   /* x0, x1, y0, y1 of each panel's landscape */
    double range[2][2]; /* worst, best value in each landscape */
    float *values;
};

static void landscape(demo_de *s, int k)
{
    const double *b = s->box[k];
    double worst = NAN, best = NAN;
    for (int j = 0; j < LAND; ++j)
        for (int i = 0; i < LAND; ++i) {
            double x[2] = {b[0] + (i + 0.5) / LAND * (b[1] - b[0]),
                           b[2] + (j + 0.5) / LAND * (b[3] - b[2])};
            double f = glevo_problem_eval_double(s->problem, x, NULL, 2);
            s->values[j * LAND + i] = (float)f;
            if (isfinite(f)) {
                if (isnan(best) || glevo_problem_better(s->problem, f, best)) best = f;
                if (isnan(worst) || glevo_problem_better(s->problem, worst, f)) worst = f;
            }
        }
    s->range[k][0] = worst, s->range[k][1] = best;
    glBindTexture(GL_TEXTURE_2D, s->land[k]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, LAND, LAND, 0, GL_RED, GL_FLOAT, s->values);
}

demo_de *demo_de_create(const glevo_problem *problem, unsigned seed)
{
    demo_de *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->problem = problem, s->pop = 60;
    glevo_de_params p = {.problem = problem, .dim = 2, .pop = s->pop, .seed = seed,
                         .no_shift = true, .check_every = 1, .max_evals = 60 * 400};
    s->x = malloc((size_t)s->pop * 2 * sizeof *s->x);
    s->xy = malloc((size_t)s->pop * 2 * sizeof *s->xy);
    s->values = malloc((size_t)LAND * LAND * sizeof *s->values);
    if (!s->x || !s->xy || !s->values || glevo_de_create(&p, &s->de)) {
        demo_de_destroy(s);
        return NULL;
    }
    glGenTextures(2, s->land);
    for (int k = 0; k < 2; ++k) {
        glBindTexture(GL_TEXTURE_2D, s->land[k]);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        s->box[k][0] = s->box[k][2] = problem->lower;
        s->box[k][1] = s->box[k][3] = problem->upper;
    }
    landscape(s, 0);
    landscape(s, 1);
    if (glevo_de_population(s->de, s->x, NULL)) {
        demo_de_destroy(s);
        return NULL;
    }
    return s;
}

void demo_de_destroy(demo_de *s)
{
    if (!s) return;
    if (s->de) glevo_de_destroy(s->de);
    if (s->land[0]) glDeleteTextures(2, s->land);
    free(s->x), free(s->xy), free(s->values);
    free(s);
}

bool demo_de_done(const demo_de *s) { return glevo_de_done(s->de); }

glevo_status demo_de_step(demo_de *s, int generations, double *best, long long *generation)
{
    glevo_status st = glevo_de_step(s->de, generations);
    if (st) return st;
    glevo_de_result r;
    if ((st = glevo_de_result_get(s->de, &r))) return st;
    *best = r.best_fitness, *generation = r.generations;
    /* The right panel follows the best, as wide as the population's spread. */
    if ((st = glevo_de_population(s->de, s->x, NULL)) == GLEVO_OK) {
        double spread = 0;
        for (int i = 0; i < s->pop; ++i)
            for (int j = 0; j < 2; ++j) spread = fmax(spread, fabs(s->x[2 * i + j] - r.best_x[j]));
        double w = fmax(spread * 1.2, (s->problem->upper - s->problem->lower) * 1e-6);
        double *b = s->box[1];
        b[0] = r.best_x[0] - w, b[1] = r.best_x[0] + w, b[2] = r.best_x[1] - w,
        b[3] = r.best_x[1] + w;
        landscape(s, 1);
    }
    glevo_de_result_free(&r);
    return st;
}

void demo_de_draw(demo_de *s, demo_draw *d, int fb_w, int fb_h, const demo_curve *curve,
                  bool paused)
{
    demo_rect panel[2], rc;
    demo_layout(fb_w, fb_h, &panel[0], &panel[1], &rc);
    demo_draw_clear(fb_w, fb_h, paused);
    for (int k = 0; k < 2; ++k) {
        demo_draw_heat(d, s->land[k], panel[k], s->range[k][0], s->range[k][1]);
        const double *b = s->box[k];
        for (int i = 0; i < s->pop; ++i) {
            s->xy[2 * i] = (float)((s->x[2 * i] - b[0]) / (b[1] - b[0]) * 2 - 1);
            s->xy[2 * i + 1] = (float)((s->x[2 * i + 1] - b[2]) / (b[3] - b[2]) * 2 - 1);
        }
        demo_draw_points(d, panel[k], s->xy, s->pop);
    }
    demo_draw_curve(d, rc, curve);
}
