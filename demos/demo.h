/* glevo-demo internals. The window shows one view at a time (the cellular GA with its pass
 * inspector, DE over a landscape, GP symbolic regression); a view is a table of
 * {create, step, draw, key, destroy} like sokol_app's init/frame/event/cleanup, and the main
 * loop in glevo_demo.c only steps, draws and swaps the current one. GL drawing is in
 * demo_draw.c; text and the curve chart (cairo, through the library's chart module) are in
 * demo_overlay.c, drawn into a texture over the panels. */
#ifndef GLEVO_DEMO_H
#define GLEVO_DEMO_H

#include <stdbool.h>

#include "glevo/cga.h"
#include "glevo/context.h"
#include "glevo/de.h"
#include "glevo/gp.h"

typedef struct demo_rect { int x, y, w, h; } demo_rect; /* GL window pixels, y up */

typedef struct demo_curve {
    double *gen, *value; /* samples of (generation, best so far) */
    int count, capacity;
} demo_curve;
void demo_curve_add(demo_curve *c, double gen, double value);
void demo_curve_clear(demo_curve *c);

typedef struct demo_draw demo_draw;

/* Options from the command line (demo_options.c). */
typedef struct demo_options {
    const char *problem, *screenshot, *sheet, **sheet_inputs;
    int dim, width, height, frames, gens_per_frame, win_w, win_h, view, columns, sheet_count;
    double pc, pm;
    unsigned seed;
    bool hidden, de, gp;
} demo_options;
/* 0 to run, 2 after a one-line error; --help prints and sets *done. */
int demo_options_parse(int argc, char **argv, demo_options *o, bool *done);
extern const char *const DEMO_HELP;

/* What every view shares: the context, the drawing state and the run's settings. */
typedef struct demo_shared {
    glevo_context *ctx;
    demo_draw *draw;
    const demo_options *opt;
    const glevo_problem *problem;
    int dim;
    double pc, pm;
    unsigned seed;
    bool paused, step_once;
    bool failed;            /* a view could not go on (its message printed): exit 1 */
    int frame;              /* frames shown so far */
    double cursor_x, cursor_y; /* framebuffer pixels, y up; < 0: outside */
    demo_curve curve;       /* the view's progress: (generation, best or error) */
} demo_shared;

/* The text a view puts on screen; drawn by demo_overlay_draw. */
typedef struct demo_text {
    char label[2][128];     /* over the left and right panels */
    char readout[512];      /* the curve's title: generation, best, ... */
    char title[512];        /* the window's title */
    const char *curve_y;    /* the curve's y axis label, with its unit */
    bool curve_log;         /* the curve's y values on a log axis */
    const char *panel_text; /* text filling the right panel instead of a picture, or NULL */
    long long generation;   /* for the generations-per-second figure in the window title */
} demo_text;

typedef struct demo_view {
    const char *name;
    /* NULL (with glevo_last_error set) when the view cannot start. */
    void *(*create)(demo_shared *s);
    glevo_status (*step)(void *v, demo_shared *s, int generations);
    void (*draw)(void *v, demo_shared *s, int fb_w, int fb_h, demo_text *t);
    bool (*key)(void *v, demo_shared *s, int key); /* true when the view used the key */
    void (*destroy)(void *v);
} demo_view;
extern const demo_view demo_cga_view, demo_de_view, demo_gp_view;

/* ---- drawing (demo_draw.c) ---- */
demo_draw *demo_draw_create(void);
void demo_draw_destroy(demo_draw *d);
/* Panel layout shared by drawing, text and hover picking: two panels over the curve strip. */
void demo_layout(int fb_w, int fb_h, demo_rect *left, demo_rect *right, demo_rect *curve);
void demo_draw_clear(int fb_w, int fb_h, bool paused);
void demo_draw_box(demo_rect r, float grey);
/* Gene texture as RGB: genes 1-3 (24-bit integers as floats) times scale. */
void demo_draw_genes(demo_draw *d, unsigned tex, demo_rect r, const float scale[3]);
/* A fitness-like R32F texture as the heat ramp, best bright (log distance to best). */
void demo_draw_heat(demo_draw *d, unsigned tex, demo_rect r, double worst, double best);
void demo_draw_points(demo_draw *d, demo_rect r, const float *xy, int n);
void demo_draw_strip(demo_draw *d, demo_rect r, const float *xy, int n, const float rgb[3]);
/* Reads one texel of the population stage and the fitness: genes[4 * textures] floats. */
bool demo_read_texel(demo_draw *d, const glevo_cga *cga, glevo_cga_stage stage, int x, int y,
                     float *genes, float *fitness);
/* Uploads w x h premultiplied BGRA pixels (top row first) and blends them over the window. */
void demo_draw_overlay(demo_draw *d, const unsigned char *bgra, int w, int h);

/* ---- text and the curve chart (demo_overlay.c) ---- */
typedef struct demo_overlay demo_overlay;
demo_overlay *demo_overlay_create(void);
void demo_overlay_destroy(demo_overlay *o);
/* Draws the view's text, the curve strip and (help) the key help over the window. */
void demo_overlay_draw(demo_overlay *o, demo_draw *d, const demo_text *t, const demo_curve *c,
                       int fb_w, int fb_h, bool help);
/* Wraps text into lines of at most cols characters, breaking after spaces and before '('
 * (never inside a number or a name); '\n' in text starts a new line. Returns the lines. */
int demo_wrap(const char *text, int cols, char *out, size_t size);

#endif
