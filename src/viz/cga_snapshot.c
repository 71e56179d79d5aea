/* A cellular GA population as a picture (glevo_cga_snapshot_png): left, genes 1-3 as RGB (each
 * channel the gene's place in the domain, as the texture holds it); right, fitness as the heat
 * ramp by rank in the population, best bright. A rank scale because fitness values span many
 * decades (a converged camel population sits at -1.03 beside mutants at 1e11): on a linear or
 * log scale one colour would fill the panel. Labelled for people by default; raw (a texture
 * dump) with a scale. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cga/engine_internal.h"
#include "glevo/snapshot.h"
#include "viz/viz.h"
#include "core/args.h"

enum { MARGIN = 16, GAP = 28, TITLE_PX = 16, TEXT_PX = 13, SMALL_PX = 12, BAR_H = 14 };

typedef struct snapshot_data {
    const cga_layout *l;
    float *genes, *fitness;
    float *rank;         /* per cell: rank of sign * fitness in [0, 1], 1 = best; ties share */
    double at_rank[3];   /* raw fitness of the worst, the median and the best finite cell */
    int finite;          /* cells with a finite fitness */
} snapshot_data;

static const float *sort_values;
static int by_value(const void *a, const void *b)
{
    float x = sort_values[*(const int *)a], y = sort_values[*(const int *)b];
    return (x > y) - (x < y);
}

/* Ranks of sign * fitness; non-finite cells get -1 (drawn black). */
static glevo_status rank_cells(snapshot_data *d)
{
    const cga_layout *l = d->l;
    int cells = l->width * l->height, n = 0;
    int *order = malloc((size_t)cells * sizeof *order);
    float *key = malloc((size_t)cells * sizeof *key);
    if (!order || !key) {
        free(order), free(key);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < cells; ++i) {
        key[i] = l->sign * d->fitness[i];
        d->rank[i] = -1;
        if (isfinite(key[i])) order[n++] = i;
    }
    sort_values = key; /* qsort has no user pointer; snapshots are drawn one at a time */
    qsort(order, (size_t)n, sizeof *order, by_value);
    for (int a = 0; a < n;) {
        int b = a;
        while (b + 1 < n && key[order[b + 1]] == key[order[a]]) ++b;
        float r = n > 1 ? (float)(0.5 * (a + b) / (n - 1)) : 1.0f;
        for (int k = a; k <= b; ++k) d->rank[order[k]] = r;
        a = b + 1;
    }
    d->finite = n;
    if (n > 0) {
        d->at_rank[0] = d->fitness[order[0]];
        d->at_rank[1] = d->fitness[order[(n - 1) / 2]];
        d->at_rank[2] = d->fitness[order[n - 1]];
    }
    free(order), free(key);
    return GLEVO_OK;
}

/* The two W x H panels as image surfaces (row 0 at the top: the grid's row H-1). */
static void panels_paint(const snapshot_data *d, cairo_surface_t *genes, cairo_surface_t *fit)
{
    const cga_layout *l = d->l;
    double scale = (double)((1u << l->bits) - 1u);
    cairo_surface_flush(genes), cairo_surface_flush(fit);
    unsigned char *gp = cairo_image_surface_get_data(genes), *fp = cairo_image_surface_get_data(fit);
    int gs = cairo_image_surface_get_stride(genes), fs = cairo_image_surface_get_stride(fit);
    for (int y = 0; y < l->height; ++y)
        for (int x = 0; x < l->width; ++x) {
            int row = l->height - 1 - y;
            const float *g = d->genes + cga_texel(l, 0, x, y);
            uint32_t rgb = 0;
            for (int c = 0; c < 3; ++c)
                rgb = rgb << 8 | (c < l->dim ? (uint32_t)(g[c] / scale * 255.0 + 0.5) : 0u);
            ((uint32_t *)(gp + (size_t)row * gs))[x] = rgb;
            float r = d->rank[(size_t)y * l->width + x];
            unsigned char h[3] = {0, 0, 0};
            if (r >= 0) viz_heat(r, h);
            ((uint32_t *)(fp + (size_t)row * fs))[x] = (uint32_t)h[0] << 16 | h[1] << 8 | h[2];
        }
    cairo_surface_mark_dirty(genes), cairo_surface_mark_dirty(fit);
}

static void paint_scaled(cairo_t *cr, cairo_surface_t *s, double x, double y, int scale)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, scale, scale);
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_paint(cr);
    cairo_restore(cr);
}

static void genes_label(const cga_layout *l, char *buf, size_t size)
{
    if (l->dim == 1) snprintf(buf, size, "genes as RGB: x1 (red)");
    else if (l->dim == 2) snprintf(buf, size, "genes as RGB: x1, x2 (blue unused)");
    else if (l->dim == 3) snprintf(buf, size, "genes as RGB: x1, x2, x3");
    else snprintf(buf, size, "genes as RGB: x1, x2, x3 (of %d)", l->dim);
}

/* The fitness colour bar under the right panel: worst at the left, best at the right. */
static void colour_bar(cairo_t *cr, const snapshot_data *d, double x, double y, double w)
{
    viz_heat_bar(cr, x, 0, x + w, 0, x, y, w, BAR_H);
    viz_rgb(cr, 0x222222);
    viz_font_set(cr, VIZ_SANS, SMALL_PX);
    static const char *const names[3] = {"worst", "median", "best"};
    for (int k = 0; k < 3; ++k) {
        char text[32];
        snprintf(text, sizeof text, "%.4g", d->finite ? d->at_rank[k] : NAN);
        cairo_rectangle(cr, x + w * k / 2 - (k == 2), y + BAR_H, 1, 4);
        cairo_fill(cr);
        viz_text(cr, x + w * k / 2, y + BAR_H + 16, k / 2.0, text);
        viz_text(cr, x + w * k / 2, y + BAR_H + 31, k / 2.0, names[k]);
    }
    viz_text(cr, x, y + BAR_H + 47, 0,
             d->l->sign > 0 ? "colour = rank; brighter is better (maximise)"
                            : "colour = rank; brighter is better (minimise)");
}

static glevo_status labelled(glevo_cga *cga, const snapshot_data *d, cairo_surface_t *genes,
                             cairo_surface_t *fit, const char *path)
{
    const cga_layout *l = d->l;
    const glevo_cga_params *p = glevo_cga_params_of(cga);
    long long gen = glevo_cga_generation(cga);
    char title[256], sub[256], best[64] = "-", glabel[96];
    glevo_cga_best b;
    if (gen > 0 && glevo_cga_best_get(cga, &b) == GLEVO_OK && !isnan(b.fitness))
        snprintf(best, sizeof best, "%.8g", b.fitness);
    snprintf(title, sizeof title, "%s (d=%d), generation %lld, best so far %s", p->problem->name,
             l->dim, gen, best);
    snprintf(sub, sizeof sub, "%s GA, %dx%d grid = %d individuals, %d-bit genes, domain [%g, %g]",
             p->algorithm == GLEVO_CGA_STANDARD ? "standard" : "cellular", l->width, l->height,
             l->width * l->height, l->bits, p->problem->lower, p->problem->upper);
    genes_label(l, glabel, sizeof glabel);

    int longest = 2 * l->width > l->height ? 2 * l->width : l->height;
    int s = (GLEVO_SNAPSHOT_MIN_SIDE + longest - 1) / longest;
    if (s < 1) s = 1;
    int pw = l->width * s, ph = l->height * s;
    /* Measure the text so that a narrow grid still gets a readable title. */
    cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *m = cairo_create(probe);
    viz_font_set(m, VIZ_SANS_BOLD, TITLE_PX);
    double text_w = viz_text_width(m, title);
    viz_font_set(m, VIZ_SANS, SMALL_PX);
    text_w = fmax(text_w, viz_text_width(m, sub));
    cairo_destroy(m);
    cairo_surface_destroy(probe);
    int content_w = 2 * pw + GAP > (int)ceil(text_w) ? 2 * pw + GAP : (int)ceil(text_w);
    int top = MARGIN + 58, W = content_w + 2 * MARGIN, H = top + ph + 72 + MARGIN;
    int x0 = MARGIN + (content_w - (2 * pw + GAP)) / 2, x1 = x0 + pw + GAP;

    /* The extension decides: .png an image, .svg cairo's SVG surface (text as vectors). */
    viz_canvas canvas;
    glevo_status st = viz_canvas_open(&canvas, path, W, H);
    if (st) return st;
    cairo_t *cr = canvas.cr;
    viz_rgb(cr, 0x111111);
    viz_font_set(cr, VIZ_SANS_BOLD, TITLE_PX);
    viz_text(cr, MARGIN, MARGIN + TITLE_PX, 0, title);
    viz_rgb(cr, 0x555555);
    viz_font_set(cr, VIZ_SANS, SMALL_PX);
    viz_text(cr, MARGIN, MARGIN + TITLE_PX + 18, 0, sub);
    viz_rgb(cr, 0x111111);
    viz_font_set(cr, VIZ_SANS_BOLD, TEXT_PX);
    viz_text(cr, x0, top - 7, 0, glabel);
    viz_text(cr, x1, top - 7, 0, "fitness");
    paint_scaled(cr, genes, x0, top, s);
    paint_scaled(cr, fit, x1, top, s);
    viz_rgb(cr, 0x555555);
    viz_font_set(cr, VIZ_SANS, SMALL_PX);
    char note[96];
    snprintf(note, sizeof note, "channel 0..255: gene from %g to %g", p->problem->lower,
             p->problem->upper);
    viz_text(cr, x0, top + ph + 20, 0, note);
    viz_text(cr, x0, top + ph + 36, 0, "one square per individual");
    colour_bar(cr, d, x1, top + ph + 8, pw);
    return viz_canvas_close(&canvas);
}

static glevo_status raw(const snapshot_data *d, cairo_surface_t *genes, cairo_surface_t *fit,
                        int s, const char *path)
{
    int pw = d->l->width * s, ph = d->l->height * s;
    viz_canvas canvas;
    glevo_status st = viz_canvas_open(&canvas, path, 2 * pw, ph);
    if (st) return st;
    paint_scaled(canvas.cr, genes, 0, 0, s);
    paint_scaled(canvas.cr, fit, pw, 0, s);
    return viz_canvas_close(&canvas);
}

glevo_status glevo_cga_snapshot_png(glevo_cga *cga, const char *path,
                                    const glevo_snapshot_params *params)
{
    glevo_clear_error();
    ARG_NOT_NULL(cga);
    glevo_status ready = cga_gl_ready(cga, __func__);
    if (ready) return ready;
    ARG_NOT_NULL(path);
    int scale = params ? params->scale : 0;
    if (scale < 0 || scale > 64)
        return glevo_fail(GLEVO_ERR_INVALID, "glevo_snapshot_params.scale %d is outside 0..64", scale);
    const cga_layout *l = &cga->layout;
    size_t cells = (size_t)l->width * l->height;
    snapshot_data d = {.l = l};
    d.genes = malloc(cga->gene_floats * sizeof(float));
    d.fitness = malloc(cells * sizeof(float));
    d.rank = malloc(cells * sizeof(float));
    cairo_surface_t *genes = cairo_image_surface_create(CAIRO_FORMAT_RGB24, l->width, l->height);
    cairo_surface_t *fit = cairo_image_surface_create(CAIRO_FORMAT_RGB24, l->width, l->height);
    glevo_status st = !d.genes || !d.fitness || !d.rank || cairo_surface_status(genes) ||
                              cairo_surface_status(fit)
                          ? glevo_fail(GLEVO_ERR_NOMEM, "out of memory")
                          : glevo_cga_read_population(cga, d.genes, d.fitness);
    if (!st) st = rank_cells(&d);
    if (!st) {
        panels_paint(&d, genes, fit);
        st = scale ? raw(&d, genes, fit, scale, path) : labelled(cga, &d, genes, fit, path);
    }
    cairo_surface_destroy(genes);
    cairo_surface_destroy(fit);
    free(d.genes), free(d.fitness), free(d.rank);
    return st;
}
