/* Charts for benchmark results, drawn with cairo as SVG or PNG (chosen by the file name's
 * extension): line charts on linear or log axes, and heat maps. Every chart has a title, axes
 * with ticks and labels (units in the label text), a legend and a caption (the renderer and
 * date the numbers came from). Files are written atomically. bench/ draws all its pictures
 * through this header; nothing here needs a GL context. */
#ifndef GLEVO_CHART_H
#define GLEVO_CHART_H

#include "glevo/export.h"

#include <stdbool.h>

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_chart_scale {
    GLEVO_CHART_LINEAR = 0,
    GLEVO_CHART_LOG = 1 /* base 10; ticks at whole decades, values <= 0 are not drawn */
} glevo_chart_scale;

typedef struct glevo_chart_axis {
    const char *label;       /* with its unit: "time per generation (ms)" */
    glevo_chart_scale scale;
    double min, max;         /* both 0: from the data (log: whole decades; linear: round steps,
                              * from 0 when the data are >= 0) */
    const char *tick_suffix; /* appended to tick labels ("×"); NULL: none */
} glevo_chart_axis;

#define GLEVO_CHART_COLOURS 8 /* palette size; colour indices wrap */

typedef struct glevo_chart_series {
    const char *name;        /* legend text (and the series' name); NULL: not in the legend */
    const double *x, *y;     /* n points, drawn in the order given; points a log axis cannot
                              * show (<= 0) and non-finite ones are left out */
    int n;
    int colour;              /* palette index */
    int dash;                /* 0 solid, 1 dashed, 2 dotted */
    bool no_markers;         /* true: the line alone, no dot per point */
} glevo_chart_series;

/* One legend row. colour < 0 draws black; heading true makes a bold heading with no sample. */
typedef struct glevo_chart_key {
    const char *name;
    int colour, dash;
    bool heading;
} glevo_chart_key;

typedef struct glevo_chart_lines {
    const char *title, *subtitle, *caption; /* caption: renderer and date; NULL: none */
    glevo_chart_axis x, y;
    const glevo_chart_series *series;
    int nseries;
    const glevo_chart_key *legend; /* NULL: one row per named series */
    int nlegend;
    const char *reference_label;   /* non-NULL: a dashed grey line at y = reference_y */
    double reference_y;
    int width, height;             /* pixels (SVG: points); 0: 800 x 480 */
    bool dark;                     /* light text on a dark background (for viewers) */
} glevo_chart_lines;

/* The axes a chart resolves to (data ranges widened to whole decades or round steps), and
 * where a data point lands in the picture (pixels from the top-left): for tests and for
 * callers that annotate. */
typedef struct glevo_chart_frame {
    double x0, y0, x1, y1;                 /* the plot area */
    double xmin, xmax, ymin, ymax;         /* the axes' ranges */
    glevo_chart_scale xscale, yscale;
} glevo_chart_frame;
GLEVO_API glevo_status glevo_chart_lines_frame(const glevo_chart_lines *chart, glevo_chart_frame *out);
GLEVO_API void glevo_chart_point(const glevo_chart_frame *f, double x, double y, double *px, double *py);

GLEVO_API glevo_status glevo_chart_lines_write(const glevo_chart_lines *chart, const char *path);
/* Draws the chart into memory instead, for viewers that upload it as a texture: width x height
 * pixels of premultiplied ARGB, 32 bits each in native byte order (0xAARRGGBB as a uint32_t;
 * bytes B, G, R, A on little-endian machines), rows stride bytes apart (>= 4 * width). */
GLEVO_API glevo_status glevo_chart_lines_render(const glevo_chart_lines *chart, unsigned char *pixels,
                                      int width, int height, int stride);

/* Heat maps: one panel per engine (say), each nx columns by ny rows of cells, row 0 at the
 * bottom; one colour bar for all panels (higher values brighter). */
typedef struct glevo_chart_heat {
    const char *title, *subtitle, *caption;
    const char *x_label, *y_label;  /* with units */
    const char *value_label;        /* the colour bar's, with its unit: "GPop/s" */
    int nx, ny, npanels;
    const double *x_values, *y_values; /* tick labels of the columns and rows */
    const char *const *panel_names;    /* npanels names, or NULL */
    const double *values;           /* [panel][row][column]; <= 0 or NaN: no data (grey) */
    glevo_chart_scale colour_scale; /* LOG: colours by log10 of the value */
    bool print_values;              /* write each cell's value in it */
} glevo_chart_heat;

GLEVO_API glevo_status glevo_chart_heat_write(const glevo_chart_heat *chart, const char *path);

#ifdef __cplusplus
}
#endif
#endif
