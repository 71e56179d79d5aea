/* glevo-demo's cellular GA view (Li, Chi, Wan 2008) and pass inspector: left, the population
 * after any pass (genes as colour) or its fitness; right, the fitness heat map, or the genes
 * while the left shows fitness; the curve is the error to the optimum (or the best). Keys:
 * v cycles the passes, + - and ] [ change pm and pc, carrying the population over. */
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"
#include "glevo/problem.h"

static const char *const STAGES[4] = {"population", "fitness", "after selection", "after crossover"};

typedef struct cga_view {
    glevo_cga *cga;
    long long gen_base;    /* generations run by engines replaced after a pc/pm change */
    double best;           /* best so far over the whole run (across pc/pm changes) */
    bool have_best, have_stats;
    glevo_cga_stats stats;
    int stage;             /* glevo_cga_stage shown on the left */
    char hover[160];
} cga_view;

/* (Re)creates the engine. keep: carry the population over (a pc/pm change). */
static glevo_status build(cga_view *v, demo_shared *s, bool keep)
{
    float *genes = NULL;
    glevo_status st = GLEVO_OK;
    if (keep && v->cga) {
        genes = malloc(glevo_cga_gene_floats(v->cga) * sizeof(float));
        if (genes && (st = glevo_cga_read_population(v->cga, genes, NULL))) free(genes), genes = NULL;
        v->gen_base += glevo_cga_generation(v->cga);
    } else {
        v->gen_base = 0, v->have_best = false;
        demo_curve_clear(&s->curve);
    }
    glevo_cga_destroy(v->cga);
    v->cga = NULL;
    glevo_cga_params p = {.problem = s->problem, .dim = s->dim, .width = s->opt->width,
                          .height = s->opt->height, .pc = GLEVO_LITERAL(s->pc),
                          .pm = GLEVO_LITERAL(s->pm), .seed = s->seed, .report_every = 1000000,
                          .backend = GLEVO_BACKEND_FRAGMENT}; /* the demo shows the 2008 way */
    st = glevo_cga_create(&p, &v->cga);
    if (!st && genes) st = glevo_cga_write_population(v->cga, genes);
    free(genes);
    v->have_stats = false;
    return st;
}

static void *create(demo_shared *s)
{
    cga_view *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->stage = s->opt->view;
    if (build(v, s, false)) {
        glevo_cga_destroy(v->cga);
        free(v);
        return NULL;
    }
    return v;
}

static void destroy(void *p)
{
    cga_view *v = p;
    if (v) glevo_cga_destroy(v->cga);
    free(v);
}

/* Improvement, for the curve: the error to the optimum where it is known, else the best. */
static double curve_value(const demo_shared *s, double best)
{
    if (!s->problem->has_optimum) return best;
    double err = fabs(best - glevo_problem_optimum(s->problem, s->dim));
    return err > 1e-12 ? err : 1e-12;
}

/* Best and statistics: readbacks, so not every frame (every 4th, and the last of --frames). */
static void observe(cga_view *v, demo_shared *s)
{
    glevo_cga_best b;
    if (glevo_cga_generation(v->cga) == 0) return;
    if (!glevo_cga_best_get(v->cga, &b) && !isnan(b.fitness) &&
        (!v->have_best || glevo_problem_better(s->problem, b.fitness, v->best)))
        v->best = b.fitness, v->have_best = true;
    if (!glevo_cga_stats_get(v->cga, &v->stats)) {
        v->have_stats = true;
        if (v->have_best)
            demo_curve_add(&s->curve, (double)(v->gen_base + glevo_cga_generation(v->cga)),
                           curve_value(s, v->best));
    }
}

static glevo_status step(void *p, demo_shared *s, int generations)
{
    cga_view *v = p;
    glevo_status st = glevo_cga_step(v->cga, generations);
    if (!st && (s->step_once || s->frame % 4 == 0 || s->frame + 1 == s->opt->frames)) observe(v, s);
    return st;
}

/* Which individual is under the cursor: a readback of one texel per gene texture. */
static void hover(cga_view *v, demo_shared *s, demo_draw *d, const demo_rect panels[2])
{
    v->hover[0] = '\0';
    const glevo_cga_params *p = glevo_cga_params_of(v->cga);
    for (int k = 0; k < 2; ++k) {
        demo_rect r = panels[k];
        double fx = s->cursor_x, fy = s->cursor_y;
        if (fx < r.x || fx >= r.x + r.w || fy < r.y || fy >= r.y + r.h) continue;
        int x = (int)((fx - r.x) / r.w * p->width), y = (int)((fy - r.y) / r.h * p->height);
        float genes[GLEVO_CGA_MAX_DIM + 4], fit = 0;
        glevo_cga_stage stage = k == 0 ? (glevo_cga_stage)v->stage : GLEVO_CGA_STAGE_POPULATION;
        if (!demo_read_texel(d, v->cga, stage, x, y, genes, &fit)) return;
        if (glevo_cga_generation(v->cga) == 0) {
            snprintf(v->hover, sizeof v->hover, "cell (%d,%d): step once to evaluate", x, y);
            return;
        }
        /* The fitness texture belongs to the population before selection. */
        int n = snprintf(v->hover, sizeof v->hover, "cell (%d,%d) %s=%.6g x=(", x, y,
                         stage >= GLEVO_CGA_STAGE_SELECTED ? "f(before selection)" : "f", fit);
        for (int j = 0; j < p->dim && j < 4 && n < (int)sizeof v->hover - 24; ++j)
            n += snprintf(v->hover + n, sizeof v->hover - n, "%s%.4g", j ? ", " : "",
                          glevo_cga_decode(v->cga, genes[j]));
        snprintf(v->hover + n, sizeof v->hover - n, "%s)", p->dim > 4 ? ", ..." : "");
        return;
    }
}

static void draw(void *p, demo_shared *s, int fb_w, int fb_h, demo_text *t)
{
    cga_view *v = p;
    if (!v->have_stats && s->paused) observe(v, s);
    demo_rect left, right, strip;
    demo_layout(fb_w, fb_h, &left, &right, &strip);
    demo_draw_clear(fb_w, fb_h, s->paused);
    const glevo_cga_params *cp = glevo_cga_params_of(v->cga);
    float g = (float)(1.0 / (double)((1u << cp->bits) - 1u));
    float scale[3] = {g, cp->dim > 1 ? g : 0.0f, cp->dim > 2 ? g : 0.0f};
    double worst = v->have_stats ? v->stats.worst : 0, best = v->have_stats ? v->stats.best : 1;
    unsigned fit = glevo_cga_texture(v->cga, GLEVO_CGA_STAGE_FITNESS, 0);
    unsigned pop = glevo_cga_texture(v->cga, GLEVO_CGA_STAGE_POPULATION, 0);
    static const char *const genes_rgb[4] = {"", "RGB = x1", "RGB = x1, x2", "RGB = x1, x2, x3"};
    const char *rgb = genes_rgb[cp->dim < 3 ? cp->dim : 3];
    if (v->stage == GLEVO_CGA_STAGE_FITNESS) { /* the inspector's fitness view: genes beside it */
        demo_draw_heat(s->draw, fit, left, worst, best);
        demo_draw_genes(s->draw, pop, right, scale);
        snprintf(t->label[0], sizeof t->label[0], "fitness (brighter is better)");
        snprintf(t->label[1], sizeof t->label[1], "population, %s", rgb);
    } else {
        demo_draw_genes(s->draw, glevo_cga_texture(v->cga, (glevo_cga_stage)v->stage, 0), left, scale);
        demo_draw_heat(s->draw, fit, right, worst, best);
        snprintf(t->label[0], sizeof t->label[0], "%s, %s", STAGES[v->stage], rgb);
        snprintf(t->label[1], sizeof t->label[1], "fitness (brighter is better)");
    }
    if (!s->opt->frames && s->frame % 15 == 0) {
        demo_rect panels[2] = {left, right};
        hover(v, s, s->draw, panels);
    }
    char bs[32] = "-", mean[32] = "-";
    if (v->have_best) snprintf(bs, sizeof bs, "%.6g", v->best);
    if (v->have_stats) snprintf(mean, sizeof mean, "%.6g", v->stats.mean);
    long long gen = v->gen_base + glevo_cga_generation(v->cga);
    snprintf(t->readout, sizeof t->readout, "cGA %s d=%d   gen %lld   best %s   mean %s   pm %.4g   pc %.2g%s",
             s->problem->name, s->dim, gen, bs, mean, s->pm, s->pc, s->paused ? "   PAUSED" : "");
    snprintf(t->title, sizeof t->title, "glevo cGA %s d=%d | gen %lld | best %s | view: %s%s%s",
             s->problem->name, s->dim, gen, bs, STAGES[v->stage], v->hover[0] ? " | " : "", v->hover);
    t->curve_y = s->problem->has_optimum ? "error" : "best f";
    t->generation = gen;
    t->curve_log = s->problem->has_optimum;
}

static bool key(void *p, demo_shared *s, int k)
{
    cga_view *v = p;
    if (k == GLFW_KEY_V) v->stage = (v->stage + 1) % 4;
    else if (k == GLFW_KEY_EQUAL || k == GLFW_KEY_KP_ADD) s->pm = fmin(s->pm > 0 ? s->pm * 2 : 0.0005, 0.5);
    else if (k == GLFW_KEY_MINUS || k == GLFW_KEY_KP_SUBTRACT) s->pm = s->pm < 1e-5 ? 0 : s->pm / 2;
    else if (k == GLFW_KEY_RIGHT_BRACKET) s->pc = fmin(s->pc + 0.1, 1.0);
    else if (k == GLFW_KEY_LEFT_BRACKET) s->pc = fmax(s->pc - 0.1, 0.0);
    else return false;
    if (k != GLFW_KEY_V && build(v, s, true)) {
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        s->failed = true;
    }
    return true;
}

const demo_view demo_cga_view = {"cga", create, step, draw, key, destroy};
