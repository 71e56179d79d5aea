/* glevo-demo internals: the display side (small shaders drawing the engine's own textures,
 * the best-so-far curve, single-texel hover readback) used by the main loop in glevo_demo.c. */
#ifndef GLEVO_DEMO_H
#define GLEVO_DEMO_H

#include <stdbool.h>

#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/gp.h"

typedef struct demo_rect { int x, y, w, h; } demo_rect; /* GL window pixels, y up */

typedef struct demo_draw demo_draw;

typedef struct demo_curve {
    double *gen, *value; /* samples of (generation, best so far) */
    int count, capacity;
} demo_curve;

demo_draw *demo_draw_create(void);
void demo_draw_destroy(demo_draw *d);
/* Clears the window (fb_w x fb_h) and draws: left, `stage` of the population (gene colours,
 * or a heat map when stage is fitness); right, the fitness heat map (worst..best mapped dark to
 * bright); bottom, the curve. Leaves the library's vertex array bound. */
void demo_draw_frame(demo_draw *d, const glevo_cga *cga, glevo_cga_stage stage, int fb_w,
                     int fb_h, double worst, double best, const demo_curve *curve, bool paused);
/* Panel layout shared by drawing and hover picking. */
void demo_layout(int fb_w, int fb_h, demo_rect *left, demo_rect *right, demo_rect *curve);
/* Reads one texel of the population stage and the fitness: genes[4 * textures] floats. */
bool demo_read_texel(demo_draw *d, const glevo_cga *cga, glevo_cga_stage stage, int x, int y,
                     float *genes, float *fitness);

/* Building blocks (also used by the DE view). */
void demo_draw_clear(int fb_w, int fb_h, bool paused);
void demo_draw_heat(demo_draw *d, unsigned tex, demo_rect r, double worst, double best);
void demo_draw_points(demo_draw *d, demo_rect r, const float *xy, int n);
void demo_draw_curve(demo_draw *d, demo_rect r, const demo_curve *c);
void demo_draw_box(demo_rect r, float grey);
void demo_draw_strip(demo_draw *d, demo_rect r, const float *xy, int n, const float rgb[3]);
/* Triangles in NDC of the whole window, one colour. */
void demo_draw_triangles(demo_draw *d, int fb_w, int fb_h, const float *xy, int n,
                         const float rgb[3]);
/* Text (demo_text.c): 5x7 font, `scale` window pixels per font pixel, '\n' for new lines. */
void demo_draw_text(demo_draw *d, int fb_w, int fb_h, int x, int y_top, int scale,
                    const char *text, const float rgb[3]);
void demo_text_size(const char *text, int scale, int *w, int *h);

/* DE on a 2-D problem: points over the landscape (demo_de.c). */
typedef struct demo_de demo_de;
demo_de *demo_de_create(const glevo_problem *problem, unsigned seed);
void demo_de_destroy(demo_de *s);
bool demo_de_done(const demo_de *s);
/* Steps, then reports the best so far and the generation count. */
glevo_status demo_de_step(demo_de *s, int generations, double *best, long long *generation);
void demo_de_draw(demo_de *s, demo_draw *d, int fb_w, int fb_h, const demo_curve *curve,
                  bool paused);

/* GP symbolic regression of a 1-D curve (demo_gp.c). demo_gp_run runs a whole GP run and
 * calls frame(user) after every generation (the window's frame: events, drawing, swap). */
typedef struct demo_gp demo_gp;
typedef void (*demo_gp_frame_fn)(void *user);
demo_gp *demo_gp_create(void);
void demo_gp_destroy(demo_gp *g);
glevo_status demo_gp_run(demo_gp *g, uint32_t seed, demo_gp_frame_fn frame, void *user);
int demo_gp_generation(const demo_gp *g);
double demo_gp_best_error(const demo_gp *g);
void demo_gp_draw(demo_gp *g, demo_draw *d, int fb_w, int fb_h, bool paused);

void demo_curve_add(demo_curve *c, double gen, double value);
void demo_curve_clear(demo_curve *c);

#endif
