/* glevo-demo: watch the cellular GA (Li, Chi, Wan 2008) evolve. The engine's own textures are
 * drawn each frame: the population (or any pass's output: the pass inspector) beside the
 * fitness heat map, with the best-so-far curve below. Keys: see HELP. */
#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo.h"
#include "glevo/cga.h"
#include "glevo/context.h"
#include "glevo/problem.h"
#include "glevo/sheet.h"
#include "glevo/snapshot.h"

static const char *HELP =
    "glevo-demo keys:\n"
    "  space  pause / run          n      one generation (paused)\n"
    "  r      reset, new seed      v      view: population / fitness / selected / crossed\n"
    "  + -    pm x2 / x0.5         ] [    pc +0.1 / -0.1\n"
    "  . ,    generations per frame x2 / /2\n"
    "  1-8    problem (see --help)  h      this help\n"
    "  d      DE on the 2-D problem: points over the landscape (and back)\n"
    "  g      GP symbolic regression: data and the best program's curve (and back)\n"
    "  mouse  hover a texel: its genes and fitness in the title\n"
    "  Esc    quit\n";

static const char *VIEW_NAMES[4] = {"population", "fitness", "after selection",
                                    "after crossover"};

typedef struct options {
    const char *problem, *screenshot;
    int dim, width, height, frames, gens_per_frame, win_w, win_h;
    double pc, pm;
    unsigned seed;
    int hidden, view, columns, de, gp;
    const char *sheet;          /* --sheet OUT: tile the remaining PNG arguments, no window */
    const char **sheet_inputs;
    int sheet_count;
} options;

typedef struct app {
    options opt;
    glevo_context *ctx;
    glevo_cga *cga;
    demo_draw *draw;
    demo_curve curve;
    const glevo_problem *problem;
    int dim;
    double pc, pm;
    unsigned seed;
    int gens_per_frame;
    long long gen_base;     /* generations run by engines replaced after a pc/pm change */
    bool paused, step_once, help;
    int view;
    double best;            /* best so far over the whole run (across pc/pm changes) */
    bool have_best;
    glevo_cga_stats stats;
    bool have_stats;
    double gps;             /* generations per second, smoothed */
    char hover[256];
    demo_de *de;            /* non-NULL: the DE view is on (key d) */
    long long de_generation;
    demo_gp *gp;            /* the GP view's state while gp_on (key g) */
    bool gp_on;
    GLFWwindow *win;
    int frame, rc;          /* frames shown so far; exit status */
    bool finished;          /* --frames reached, window closed or SIGINT */
    double t_prev, t_title;
    long long g_prev;
} app;

static volatile sig_atomic_t interrupted;
static app *the_app; /* for GLFW's key callback */

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: glevo-demo [--problem NAME] [--dim D] [--grid WxH] [--seed S] [--pc P]\n"
            "                  [--pm P] [--gens-per-frame K] [--size WxH] [--hidden]\n"
            "                  [--view population|fitness|selected|crossed] [--de | --gp]\n"
            "                  [--frames N [--screenshot FILE.png]]\n"
            "       glevo-demo --sheet OUT.png [--columns C] IN.png...\n"
            "Watches the cellular GA's textures evolve. --frames N renders N frames and exits\n"
            "(0), saving the window to FILE.png when --screenshot is given. --sheet tiles PNGs\n"
            "(e.g. glevo cga --snapshot files) into one contact sheet, no window.\nProblems:");
    int i = 1;
    for (const glevo_problem *p = glevo_problems(); p->name; ++p, ++i)
        fprintf(f, " %d=%s", i, p->name);
    fprintf(f, "\n\n%s", HELP);
}

static int bad(const char *what, const char *value)
{
    fprintf(stderr, "glevo-demo: %s '%s' is not valid (try --help)\n", what, value);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--hidden")) {
            o->hidden = 1;
            continue;
        } else if (!strcmp(a, "--de")) {
            o->de = 1;
            continue;
        } else if (!strcmp(a, "--gp")) {
            o->gp = 1;
            continue;
        }
        if (o->sheet && a[0] != '-') {
            o->sheet_inputs[o->sheet_count++] = a;
            continue;
        }
        if (!v) return bad("option without a value", a);
        ++i;
        if (!strcmp(a, "--problem")) o->problem = v;
        else if (!strcmp(a, "--sheet")) {
            o->sheet = v;
            o->sheet_inputs = calloc((size_t)argc, sizeof *o->sheet_inputs);
            if (!o->sheet_inputs) return 1;
        } else if (!strcmp(a, "--columns")) {
            o->columns = (int)strtol(v, &end, 10);
            if (*end || o->columns < 1) return bad("--columns", v);
        } else if (!strcmp(a, "--view")) {
            int k = 0;
            static const char *names[4] = {"population", "fitness", "selected", "crossed"};
            while (k < 4 && strcmp(v, names[k])) ++k;
            if (k == 4) return bad("--view", v);
            o->view = k;
        }
        else if (!strcmp(a, "--screenshot")) o->screenshot = v;
        else if (!strcmp(a, "--dim")) {
            o->dim = (int)strtol(v, &end, 10);
            if (*end || o->dim < 1 || o->dim > GLEVO_CGA_MAX_DIM) return bad("--dim", v);
        } else if (!strcmp(a, "--frames")) {
            o->frames = (int)strtol(v, &end, 10);
            if (*end || o->frames < 1) return bad("--frames", v);
        } else if (!strcmp(a, "--gens-per-frame")) {
            o->gens_per_frame = (int)strtol(v, &end, 10);
            if (*end || o->gens_per_frame < 1) return bad("--gens-per-frame", v);
        } else if (!strcmp(a, "--seed")) {
            o->seed = (unsigned)strtoul(v, &end, 10);
            if (*end) return bad("--seed", v);
        } else if (!strcmp(a, "--pc")) {
            o->pc = strtod(v, &end);
            if (*end || !(o->pc >= 0 && o->pc <= 1)) return bad("--pc", v);
        } else if (!strcmp(a, "--pm")) {
            o->pm = strtod(v, &end);
            if (*end || !(o->pm >= 0 && o->pm <= 1)) return bad("--pm", v);
        } else if (!strcmp(a, "--grid") || !strcmp(a, "--size")) {
            int w = 0, h = 0;
            char tail = 0;
            if (sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 2 || h < 1 || w > 8192 || h > 8192)
                return bad(a, v);
            if (a[2] == 'g') o->width = w, o->height = h;
            else o->win_w = w, o->win_h = h;
        } else
            return bad("option", a);
    }
    if (o->screenshot && !o->frames) return bad("--screenshot without --frames", o->screenshot);
    return 0;
}

/* (Re)creates the engine. keep: carry the population over (a pc/pm change). */
static glevo_status app_build(app *a, bool keep)
{
    float *genes = NULL;
    glevo_status st = GLEVO_OK;
    if (keep && a->cga) {
        genes = malloc(glevo_cga_gene_floats(a->cga) * sizeof(float));
        if (genes && (st = glevo_cga_read_population(a->cga, genes, NULL))) {
            free(genes);
            genes = NULL;
        }
        a->gen_base += glevo_cga_generation(a->cga);
    } else {
        a->gen_base = 0;
        a->have_best = false;
        demo_curve_clear(&a->curve);
    }
    if (a->cga) glevo_cga_destroy(a->cga);
    a->cga = NULL;
    glevo_cga_params p = {.problem = a->problem, .dim = a->dim, .width = a->opt.width,
                          .height = a->opt.height, .pc = a->pc, .pm = a->pm, .pc_set = true,
                          .pm_set = true, .seed = a->seed, .report_every = 1000000};
    st = glevo_cga_create(a->ctx, &p, &a->cga);
    if (!st && genes) st = glevo_cga_write_population(a->cga, genes);
    free(genes);
    a->have_stats = false;
    return st;
}

static long long app_generation(const app *a)
{
    if (a->gp_on && a->gp) return demo_gp_generation(a->gp);
    return a->de ? a->de_generation : a->gen_base + glevo_cga_generation(a->cga);
}

static double curve_value(const app *a, double best)
{
    /* Improvement goes up: -log10(error) where the optimum is known, else signed fitness. */
    if (a->problem->has_optimum) {
        double err = fabs(best - glevo_problem_optimum(a->problem, a->de ? 2 : a->dim));
        return -log10(err > 1e-12 ? err : 1e-12);
    }
    return a->problem->direction == GLEVO_MAXIMIZE ? best : -best;
}

static void app_observe(app *a)
{
    glevo_cga_best b;
    if (glevo_cga_generation(a->cga) > 0 && !glevo_cga_best_get(a->cga, &b) &&
        !isnan(b.fitness)) {
        if (!a->have_best || glevo_problem_better(a->problem, b.fitness, a->best))
            a->best = b.fitness, a->have_best = true;
    }
    if (glevo_cga_generation(a->cga) > 0 && !glevo_cga_stats_get(a->cga, &a->stats)) {
        a->have_stats = true;
        if (a->have_best)
            demo_curve_add(&a->curve, (double)(a->gen_base + glevo_cga_generation(a->cga)),
                           curve_value(a, a->best));
    }
}

static void app_title(app *a, GLFWwindow *w)
{
    char title[512];
    if (!a->help && a->gp_on && a->gp)
        snprintf(title, sizeof title,
                 "glevo GP symbolic regression | gen %lld | best error (SAE) %.6g%s | "
                 "g: back to the cGA",
                 app_generation(a), demo_gp_best_error(a->gp), a->paused ? " | PAUSED" : "");
    else if (!a->help && a->de)
        snprintf(title, sizeof title,
                 "glevo DE/rand/1/bin %s 2-D, NP 60 | gen %lld | best %.6g | %.0f gen/s%s | "
                 "d: back to the cGA",
                 a->problem->name, a->de_generation, a->have_best ? a->best : NAN, a->gps,
                 a->paused ? " | PAUSED" : "");
    else if (a->help)
        snprintf(title, sizeof title, "glevo  |  space pause  n step  r reset  v view  +/- pm  "
                                      "[/] pc  ,/. speed  1-8 problem  Esc quit");
    else
    {
        char best[32] = "-", mean[32] = "-";
        if (a->have_best) snprintf(best, sizeof best, "%.6g", a->best);
        if (a->have_stats) snprintf(mean, sizeof mean, "%.6g", a->stats.mean);
        snprintf(title, sizeof title,
                 "glevo cGA %s d=%d | gen %lld | best %s | mean %s | %.0f gen/s | pm %.4g "
                 "pc %.2g | view: %s%s%s",
                 a->problem->name, a->dim, a->gen_base + glevo_cga_generation(a->cga), best,
                 mean, a->gps, a->pm, a->pc, VIEW_NAMES[a->view], a->paused ? " | PAUSED" : "",
                 a->hover);
    }
    glfwSetWindowTitle(w, title);
}

/* (Re)starts the DE view on the current problem and seed. */
static void de_restart(app *a)
{
    demo_de_destroy(a->de);
    a->de = demo_de_create(a->problem, a->seed);
    if (!a->de) {
        fprintf(stderr, "glevo-demo: DE view: %s\n", glevo_last_error());
        interrupted = 1;
    }
    a->de_generation = 0;
    a->have_best = false;
    demo_curve_clear(&a->curve);
}

static void rebuild(app *a, bool keep)
{
    glevo_status st = app_build(a, keep);
    if (st) {
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        interrupted = 1;
    }
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    app *a = the_app;
    if (action == GLFW_RELEASE || !a) return;
    switch (key) {
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    case GLFW_KEY_SPACE: a->paused = !a->paused; break;
    case GLFW_KEY_N: a->paused = true, a->step_once = true; break;
    case GLFW_KEY_R:
        a->seed = a->seed * 1664525u + 1013904223u;
        if (a->de) de_restart(a);
        else rebuild(a, false);
        break;
    case GLFW_KEY_G:
        a->gp_on = !a->gp_on;
        if (a->gp_on && a->de) demo_de_destroy(a->de), a->de = NULL;
        if (!a->gp_on) rebuild(a, false);
        break;
    case GLFW_KEY_D:
        a->gp_on = false;
        if (a->de) {
            demo_de_destroy(a->de);
            a->de = NULL;
            rebuild(a, false);
        } else
            de_restart(a);
        break;
    case GLFW_KEY_V: a->view = (a->view + 1) % 4; break;
    case GLFW_KEY_H:
        a->help = !a->help;
        if (a->help) fputs(HELP, stdout), fflush(stdout);
        break;
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD:
        a->pm = fmin(a->pm > 0 ? a->pm * 2 : 0.0005, 0.5), rebuild(a, true);
        break;
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT:
        a->pm = a->pm < 1e-5 ? 0 : a->pm / 2, rebuild(a, true);
        break;
    case GLFW_KEY_RIGHT_BRACKET: a->pc = fmin(a->pc + 0.1, 1.0), rebuild(a, true); break;
    case GLFW_KEY_LEFT_BRACKET: a->pc = fmax(a->pc - 0.1, 0.0), rebuild(a, true); break;
    case GLFW_KEY_PERIOD: a->gens_per_frame = a->gens_per_frame < 4096 ? 2 * a->gens_per_frame : 4096; break;
    case GLFW_KEY_COMMA: a->gens_per_frame = a->gens_per_frame > 1 ? a->gens_per_frame / 2 : 1; break;
    default:
        if (key >= GLFW_KEY_1 && key <= GLFW_KEY_8) {
            int k = key - GLFW_KEY_1, i = 0;
            const glevo_problem *p = glevo_problems();
            while (i < k && p[i].name) ++i;
            if (p[i].name) {
                a->problem = &p[i];
                a->dim = p[i].fixed_dim ? p[i].fixed_dim : (a->opt.dim ? a->opt.dim : 3);
                rebuild(a, false);
                if (a->de) de_restart(a);
            }
        }
    }
}

/* Text in the window: panel labels, the readout over the curve strip, the help box. Under
 * --frames the readout leaves out gen/s and the hover line so screenshots repeat exactly. */
static void app_overlay(app *a, int fb_w, int fb_h)
{
    static const float white[3] = {0.95f, 0.95f, 0.95f}, yellow[3] = {0.99f, 0.9f, 0.15f};
    int sc = fb_h >= 500 ? 2 : 1, tw, th;
    demo_rect left, right, rc;
    demo_layout(fb_w, fb_h, &left, &right, &rc);
    bool gp = a->gp_on && a->gp;
    const char *labels[2] = {gp ? "GP: data (white), best program (orange)"
                             : a->de ? "DE: WHOLE DOMAIN" : VIEW_NAMES[a->view],
                             gp ? "GP" : a->de ? "DE: AROUND THE BEST" : "fitness (bright = best)"};
    demo_rect panels[2] = {left, right};
    for (int k = 0; k < 2; ++k) {
        demo_text_size(labels[k], sc, &tw, &th);
        demo_draw_box((demo_rect){panels[k].x, panels[k].y + panels[k].h - th - 4 * sc,
                                  tw + 4 * sc, th + 4 * sc}, 0.0f);
        demo_draw_text(a->draw, fb_w, fb_h, panels[k].x + 2 * sc,
                       panels[k].y + panels[k].h - 2 * sc, sc, labels[k], white);
    }
    char text[512], best[32] = "-", mean[32] = "-", speed[32] = "";
    if (a->have_best) snprintf(best, sizeof best, "%.6g", a->best);
    if (a->have_stats && !a->de) snprintf(mean, sizeof mean, "%.6g", a->stats.mean);
    if (!a->opt.frames) snprintf(speed, sizeof speed, "  %.0f gen/s", a->gps);
    int n;
    if (gp)
        n = snprintf(text, sizeof text, "GP regression, pop 400  gen %lld  best error %.6g%s",
                     app_generation(a), demo_gp_best_error(a->gp), a->paused ? "  PAUSED" : "");
    else if (a->de)
        n = snprintf(text, sizeof text, "DE/rand/1/bin %s 2-D  gen %lld  best %s%s%s", a->problem->name,
                     app_generation(a), best, speed, a->paused ? "  PAUSED" : "");
    else
        n = snprintf(text, sizeof text, "cGA %s d=%d  gen %lld  best %s  mean %s%s  pm %.4g  pc %.2g%s",
                     a->problem->name, a->dim, app_generation(a), best, mean, speed, a->pm, a->pc,
                     a->paused ? "  PAUSED" : "");
    if (!a->opt.frames && a->hover[0] && n < (int)sizeof text)
        snprintf(text + n, sizeof text - (size_t)n, "\n%s", a->hover + 3);
    demo_text_size(text, sc, &tw, &th);
    demo_draw_box((demo_rect){rc.x, rc.y + rc.h - th - 4 * sc, tw + 4 * sc, th + 4 * sc}, 0.0f);
    demo_draw_text(a->draw, fb_w, fb_h, rc.x + 2 * sc, rc.y + rc.h - 2 * sc, sc, text, yellow);
    const char *hint = "h: help";
    demo_text_size(hint, sc, &tw, &th);
    demo_draw_text(a->draw, fb_w, fb_h, rc.x + rc.w - tw - 2 * sc, rc.y + th + 2 * sc, sc, hint,
                   white);
    if (a->help) {
        demo_text_size(HELP, sc, &tw, &th);
        demo_rect box = {(fb_w - tw) / 2 - 8 * sc, (fb_h - th) / 2 - 8 * sc, tw + 16 * sc,
                         th + 16 * sc};
        demo_draw_box(box, 0.08f);
        demo_draw_text(a->draw, fb_w, fb_h, box.x + 8 * sc, box.y + box.h - 8 * sc, sc, HELP,
                       white);
    }
}

/* Which individual is under the cursor: a readback of one texel per gene texture. */
static void app_hover(app *a, GLFWwindow *w, int fb_w, int fb_h)
{
    a->hover[0] = '\0';
    double cx, cy;
    int ww, wh;
    glfwGetCursorPos(w, &cx, &cy);
    glfwGetWindowSize(w, &ww, &wh);
    if (ww <= 0 || wh <= 0) return;
    double fx = cx * fb_w / ww, fy = fb_h - cy * fb_h / wh;
    demo_rect panels[2], rc;
    demo_layout(fb_w, fb_h, &panels[0], &panels[1], &rc);
    const glevo_cga_params *p = glevo_cga_params_of(a->cga);
    for (int k = 0; k < 2; ++k) {
        demo_rect r = panels[k];
        if (fx < r.x || fx >= r.x + r.w || fy < r.y || fy >= r.y + r.h) continue;
        int x = (int)((fx - r.x) / r.w * p->width), y = (int)((fy - r.y) / r.h * p->height);
        float genes[GLEVO_CGA_MAX_DIM + 4], fit = 0;
        glevo_cga_stage stage = k == 0 ? (glevo_cga_stage)a->view : GLEVO_CGA_STAGE_POPULATION;
        if (!demo_read_texel(a->draw, a->cga, stage, x, y, genes, &fit)) return;
        /* The fitness texture belongs to the population before selection. */
        const char *f = stage == GLEVO_CGA_STAGE_SELECTED || stage == GLEVO_CGA_STAGE_CROSSED
                            ? "f(before selection)" : "f";
        if (glevo_cga_generation(a->cga) == 0) {
            snprintf(a->hover, sizeof a->hover, " | cell (%d,%d): step once to evaluate", x, y);
            return;
        }
        int n = snprintf(a->hover, sizeof a->hover, " | cell (%d,%d) %s=%.6g x=(", x, y, f, fit);
        for (int j = 0; j < p->dim && j < 4 && n < (int)sizeof a->hover - 24; ++j)
            n += snprintf(a->hover + n, sizeof a->hover - n, "%s%.4g", j ? ", " : "",
                          glevo_cga_decode(a->cga, genes[j]));
        snprintf(a->hover + n, sizeof a->hover - n, "%s)", p->dim > 4 ? ", ..." : "");
        return;
    }
}

static int screenshot(const char *path, int fb_w, int fb_h)
{
    unsigned char *rgb = malloc((size_t)fb_w * fb_h * 3);
    if (!rgb) return 1;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fb_w, fb_h, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    glevo_status st = glGetError() == GL_NO_ERROR
                          ? glevo_png_write_rgb(path, rgb, fb_w, fb_h)
                          : glevo_fail(GLEVO_ERR_GL, "glReadPixels of the window failed");
    free(rgb);
    if (st) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
    return st ? 1 : 0;
}

/* Overlay, --frames/--screenshot, swap, readout refresh. False when the demo should end. */
static bool app_end_frame(app *a, int fb_w, int fb_h)
{
    app_overlay(a, fb_w, fb_h);
    if (a->opt.frames && ++a->frame >= a->opt.frames) {
        if (a->opt.screenshot) a->rc = screenshot(a->opt.screenshot, fb_w, fb_h);
        a->finished = true;
        return false;
    }
    if (!a->opt.frames) ++a->frame;
    glevo_context_swap(a->ctx);
    double now = glfwGetTime();
    if (now - a->t_title > 0.25) {
        long long g = app_generation(a);
        double dt = now - a->t_prev;
        if (dt > 0 && g >= a->g_prev) a->gps = 0.5 * a->gps + 0.5 * (double)(g - a->g_prev) / dt;
        a->t_prev = now, a->g_prev = g;
        if (a->de || a->gp_on) a->hover[0] = '\0';
        else app_hover(a, a->win, fb_w, fb_h);
        app_title(a, a->win);
        a->t_title = now;
    }
    return true;
}

/* Called by the GP run after each generation: one frame, or several while paused. */
static void gp_frame(void *user)
{
    app *a = user;
    if (a->finished || !a->gp_on) return; /* quitting or switched away: let the run end */
    a->step_once = false;
    do {
        glfwPollEvents();
        if (interrupted || glfwWindowShouldClose(a->win)) {
            a->finished = true;
            return;
        }
        if (!a->gp_on) return;
        int fb_w, fb_h;
        glfwGetFramebufferSize(a->win, &fb_w, &fb_h);
        demo_gp_draw(a->gp, a->draw, fb_w, fb_h, a->paused);
        if (!app_end_frame(a, fb_w, fb_h)) return;
    } while (a->paused && !a->step_once);
}

int main(int argc, char **argv)
{
    app a = {.opt = {.problem = "rastrigin", .width = 128, .height = 96, .gens_per_frame = 1,
                     .pc = 0.8, .pm = 0.005, .seed = 1, .win_w = 1024, .win_h = 576}};
    int rc = parse(argc, argv, &a.opt);
    if (rc) return rc;
    if (a.opt.sheet) {
        glevo_status st = a.opt.sheet_count
                              ? glevo_png_sheet(a.opt.sheet_inputs, NULL, a.opt.sheet_count,
                                                a.opt.columns ? a.opt.columns : 4, a.opt.sheet)
                              : glevo_fail(GLEVO_ERR_INVALID, "--sheet needs input PNG files");
        free(a.opt.sheet_inputs);
        if (st) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        return st == GLEVO_OK ? 0 : st == GLEVO_ERR_INVALID ? 2 : 1;
    }
    a.problem = glevo_problem_find(a.opt.problem);
    if (!a.problem) {
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        return 2;
    }
    a.dim = a.problem->fixed_dim ? a.problem->fixed_dim : (a.opt.dim ? a.opt.dim : 3);
    a.pc = a.opt.pc, a.pm = a.opt.pm, a.seed = a.opt.seed, a.gens_per_frame = a.opt.gens_per_frame;
    a.view = a.opt.view;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    glevo_context_params cp = {.window = true, .width = a.opt.win_w, .height = a.opt.win_h,
                               .title = "glevo", .hidden = a.opt.hidden != 0};
    if (glevo_context_create(&cp, &a.ctx)) {
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        return 1;
    }
    GLFWwindow *win = glevo_context_window(a.ctx);
    a.draw = demo_draw_create();
    if (!a.draw || app_build(&a, false)) {
        if (a.draw) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        demo_draw_destroy(a.draw);
        glevo_context_destroy(a.ctx);
        return 1;
    }
    the_app = &a;
    if (a.opt.de) de_restart(&a);
    a.gp_on = a.opt.gp != 0;
    glfwSetKeyCallback(win, on_key);
    glfwSwapInterval(a.opt.frames ? 0 : 1);
    if (!a.opt.frames) printf("%s", HELP), fflush(stdout);
    printf("renderer: %s\n", glevo_context_renderer(a.ctx));
    fflush(stdout);

    a.win = win;
    a.t_prev = glfwGetTime();
    while (!a.finished) {
        if (a.gp_on) { /* the GP run drives its own frames through gp_frame */
            if (!a.gp && !(a.gp = demo_gp_create())) {
                fprintf(stderr, "glevo-demo: GP view: %s\n", glevo_last_error());
                a.rc = 1;
                break;
            }
            if (demo_gp_run(a.gp, a.seed, gp_frame, &a)) {
                fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
                a.rc = 1;
                break;
            }
            a.seed = a.seed * 1664525u + 1013904223u;
            continue;
        }
        if (a.gp) demo_gp_destroy(a.gp), a.gp = NULL;
        glfwPollEvents();
        if (interrupted || glfwWindowShouldClose(win) || !a.cga) break;
        int fb_w, fb_h;
        glfwGetFramebufferSize(win, &fb_w, &fb_h);
        if (a.de) {
            if (!a.paused || a.step_once) {
                if (demo_de_done(a.de)) a.seed = a.seed * 1664525u + 1013904223u, de_restart(&a);
                double b = NAN;
                if (!a.de || demo_de_step(a.de, a.step_once ? 1 : a.gens_per_frame, &b,
                                          &a.de_generation)) {
                    if (a.de) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
                    a.rc = 1;
                    break;
                }
                if (!isnan(b) && (!a.have_best || glevo_problem_better(a.problem, b, a.best)))
                    a.best = b, a.have_best = true;
                if (a.have_best)
                    demo_curve_add(&a.curve, (double)a.de_generation, curve_value(&a, a.best));
                a.step_once = false;
            }
            demo_de_draw(a.de, a.draw, fb_w, fb_h, &a.curve, a.paused);
        } else {
            if (!a.paused || a.step_once) {
                if (glevo_cga_step(a.cga, a.step_once ? 1 : a.gens_per_frame)) {
                    fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
                    a.rc = 1;
                    break;
                }
                if (a.step_once || a.frame % 4 == 0 || a.frame + 1 == a.opt.frames)
                    app_observe(&a);
                a.step_once = false;
            } else if (!a.have_stats)
                app_observe(&a);
            double worst = a.have_stats ? a.stats.worst : 0;
            double best = a.have_stats ? a.stats.best : 1;
            demo_draw_frame(a.draw, a.cga, (glevo_cga_stage)a.view, fb_w, fb_h, worst, best,
                            &a.curve, a.paused);
        }
        if (!app_end_frame(&a, fb_w, fb_h)) break;
    }
    rc = a.rc;
    the_app = NULL;
    demo_gp_destroy(a.gp);
    demo_de_destroy(a.de);
    if (a.cga) glevo_cga_destroy(a.cga);
    demo_draw_destroy(a.draw);
    free(a.curve.gen), free(a.curve.value);
    glevo_context_destroy(a.ctx);
    return rc;
}
