/* glevo-demo: watch the evolutionary algorithms run on the GPU. One view at a time from a
 * table of {create, step, draw, key, destroy} (demo_cga.c, demo_de.c, demo_gp.c); this loop
 * polls events, steps and draws the current view, lays the text over it and swaps. */
#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "glevo/problem.h"
#include "glevo/sheet.h"

typedef struct demo {
    demo_shared s;
    const demo_view *view;
    void *state;
    demo_overlay *overlay;
    GLFWwindow *win;
    int gens_per_frame, rc;
    bool help;
    double t_title, t_prev, gps;
    long long g_prev;
} demo;

static volatile sig_atomic_t interrupted;
static demo *the_demo; /* for GLFW's key callback */

static void on_signal(int sig) { (void)sig, interrupted = 1; }

/* Replaces the current view (or restarts it: v == d->view); false when it cannot start. */
static bool switch_view(demo *d, const demo_view *v)
{
    if (d->view) d->view->destroy(d->state);
    d->view = v, d->state = v->create(&d->s);
    if (!d->state) fprintf(stderr, "glevo-demo: %s view: %s\n", v->name, glevo_last_error());
    return d->state != NULL;
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode, (void)mods;
    demo *d = the_demo;
    if (action == GLFW_RELEASE || !d || !d->state) return;
    demo_shared *s = &d->s;
    const demo_view *next = NULL;
    if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(w, GLFW_TRUE);
    else if (key == GLFW_KEY_SPACE) s->paused = !s->paused;
    else if (key == GLFW_KEY_N) s->paused = s->step_once = true;
    else if (key == GLFW_KEY_PERIOD) d->gens_per_frame = d->gens_per_frame < 4096 ? 2 * d->gens_per_frame : 4096;
    else if (key == GLFW_KEY_COMMA) d->gens_per_frame = d->gens_per_frame > 1 ? d->gens_per_frame / 2 : 1;
    else if (key == GLFW_KEY_H && (d->help = !d->help)) fputs(DEMO_HELP, stdout), fflush(stdout);
    else if (key == GLFW_KEY_D) next = d->view == &demo_de_view ? &demo_cga_view : &demo_de_view;
    else if (key == GLFW_KEY_G) next = d->view == &demo_gp_view ? &demo_cga_view : &demo_gp_view;
    else if (key == GLFW_KEY_R) s->seed = s->seed * 1664525u + 1013904223u, next = d->view;
    else if (key >= GLFW_KEY_1 && key <= GLFW_KEY_8) {
        const glevo_problem *p = glevo_problems();
        for (int i = 0; i < key - GLFW_KEY_1 && p->name; ++i) ++p;
        if (!p->name) return;
        s->problem = p, s->dim = p->fixed_dim ? p->fixed_dim : (s->opt->dim ? s->opt->dim : 3);
        next = d->view;
    } else
        d->view->key(d->state, s, key);
    if (next && !switch_view(d, next)) s->failed = true;
}

static int screenshot(const char *path, int fb_w, int fb_h)
{
    unsigned char *rgb = malloc((size_t)fb_w * fb_h * 3);
    if (!rgb) return 1;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fb_w, fb_h, GL_RGB, GL_UNSIGNED_BYTE, rgb);
    glevo_status st = glGetError() == GL_NO_ERROR ? glevo_png_write_rgb(path, rgb, fb_w, fb_h)
                                                  : glevo_fail(GLEVO_ERR_GL, "glReadPixels of the window failed");
    free(rgb);
    if (st) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
    return st ? 1 : 0;
}

/* The window title, a few times a second (with generations per second outside --frames). */
static void title(demo *d, const demo_text *t)
{
    double now = glfwGetTime();
    if (now - d->t_title < 0.25 && d->s.frame > 1) return;
    double dt = now - d->t_prev;
    if (dt > 0 && t->generation >= d->g_prev) d->gps = 0.5 * d->gps + 0.5 * (double)(t->generation - d->g_prev) / dt;
    d->t_prev = d->t_title = now, d->g_prev = t->generation;
    char text[700];
    snprintf(text, sizeof text, "%s | %.0f gen/s%s", t->title, d->gps, d->s.paused ? " | PAUSED" : "");
    glfwSetWindowTitle(d->win, text);
}

/* One frame: events, a step unless paused, the view, the text, then swap (or the screenshot
 * that ends --frames). False when the demo should end. */
static bool frame(demo *d)
{
    demo_shared *s = &d->s;
    glfwPollEvents();
    if (interrupted || glfwWindowShouldClose(d->win) || s->failed || !d->state) return false;
    int fb_w, fb_h, ww, wh;
    glfwGetFramebufferSize(d->win, &fb_w, &fb_h);
    glfwGetWindowSize(d->win, &ww, &wh);
    glfwGetCursorPos(d->win, &s->cursor_x, &s->cursor_y);
    s->cursor_x = ww > 0 ? s->cursor_x * fb_w / ww : -1, s->cursor_y = wh > 0 ? fb_h - s->cursor_y * fb_h / wh : -1;
    if ((!s->paused || s->step_once) && d->view->step(d->state, s, s->step_once ? 1 : d->gens_per_frame)) {
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
        s->failed = true;
        return false;
    }
    s->step_once = false;
    demo_text t = {.curve_y = ""};
    d->view->draw(d->state, s, fb_w, fb_h, &t);
    demo_overlay_draw(d->overlay, s->draw, &t, &s->curve, fb_w, fb_h, d->help);
    if (s->opt->frames && ++s->frame >= s->opt->frames) {
        if (s->opt->screenshot) d->rc = screenshot(s->opt->screenshot, fb_w, fb_h);
        return false;
    }
    if (!s->opt->frames) ++s->frame;
    glevo_context_swap(s->ctx);
    title(d, &t);
    return true;
}

/* --sheet: the library's contact sheet of the PNG arguments, no window. */
static int sheet(const demo_options *o)
{
    glevo_status st = o->sheet_count ? glevo_png_sheet(o->sheet_inputs, NULL, o->sheet_count,
                                                       o->columns ? o->columns : 4, o->sheet)
                                     : glevo_fail(GLEVO_ERR_INVALID, "--sheet needs input PNG files");
    if (st) fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
    return st == GLEVO_OK ? 0 : st == GLEVO_ERR_INVALID ? 2 : 1;
}

int main(int argc, char **argv)
{
    demo_options o = {.problem = "rastrigin", .width = 128, .height = 96, .gens_per_frame = 1,
                      .pc = 0.8, .pm = 0.005, .seed = 1, .win_w = 1024, .win_h = 576};
    bool done = false;
    int rc = demo_options_parse(argc, argv, &o, &done);
    if (rc || done || o.sheet) {
        if (!rc && o.sheet) rc = sheet(&o);
        free(o.sheet_inputs);
        return rc;
    }
    demo d = {.s = {.opt = &o, .problem = glevo_problem_find(o.problem), .pc = o.pc, .pm = o.pm,
                    .seed = o.seed},
              .gens_per_frame = o.gens_per_frame};
    if (!d.s.problem) return fprintf(stderr, "glevo-demo: %s\n", glevo_last_error()), 2;
    d.s.dim = d.s.problem->fixed_dim ? d.s.problem->fixed_dim : (o.dim ? o.dim : 3);
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL), sigaction(SIGTERM, &sa, NULL);
    glevo_context_params cp = {.window = true, .width = o.win_w, .height = o.win_h, .title = "glevo",
                               .hidden = o.hidden};
    if (glevo_context_create(&cp, &d.s.ctx)) return fprintf(stderr, "glevo-demo: %s\n", glevo_last_error()), 1;
    d.win = glevo_context_window(d.s.ctx);
    d.s.draw = demo_draw_create();
    d.overlay = demo_overlay_create();
    d.rc = 1;
    if (d.s.draw && d.overlay && switch_view(&d, o.de ? &demo_de_view : o.gp ? &demo_gp_view : &demo_cga_view)) {
        the_demo = &d, d.rc = 0;
        glfwSetKeyCallback(d.win, on_key);
        glfwSwapInterval(o.frames ? 0 : 1);
        if (!o.frames) fputs(DEMO_HELP, stdout);
        printf("renderer: %s\n", glevo_context_renderer(d.s.ctx));
        fflush(stdout);
        d.t_prev = glfwGetTime();
        while (frame(&d)) {}
        if (d.s.failed || !d.state) d.rc = 1;
    }
    the_demo = NULL;
    if (d.view) d.view->destroy(d.state);
    demo_overlay_destroy(d.overlay);
    demo_draw_destroy(d.s.draw);
    free(d.s.curve.gen), free(d.s.curve.value);
    glevo_context_destroy(d.s.ctx);
    return d.rc;
}
