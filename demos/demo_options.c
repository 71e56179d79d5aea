/* glevo-demo's command line: the window's options, and --sheet, which only hands PNG files to
 * the library's contact-sheet code (glevo_png_sheet) without opening a window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "glevo/problem.h"

const char *const DEMO_HELP =
    "glevo-demo keys:\n"
    "  space  pause / run          n      one generation (paused)\n"
    "  r      reset, new seed      v      view: population / fitness / selected / crossed\n"
    "  + -    pm x2 / x0.5         ] [    pc +0.1 / -0.1\n"
    "  . ,    generations per frame x2 / /2\n"
    "  1-8    problem (see --help)  h      this help\n"
    "  d      DE on the 2-D problem: points over the landscape (and back)\n"
    "  g      GP symbolic regression: data and the best program's curve (and back)\n"
    "  mouse  hover a texel: its genes and fitness\n"
    "  Esc    quit\n";

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
            "(e.g. glevo cga --snapshot files) into one labelled contact sheet, no window.\n"
            "Problems:");
    int i = 1;
    for (const glevo_problem *p = glevo_problems(); p->name; ++p, ++i) fprintf(f, " %d=%s", i, p->name);
    fprintf(f, "\n\n%s", DEMO_HELP);
}

static int bad(const char *what, const char *value)
{
    fprintf(stderr, "glevo-demo: %s '%s' is not valid (try --help)\n", what, value);
    return 2;
}

static int parse_int(const char *a, const char *v, int lo, int hi, int *out)
{
    char *end = NULL;
    long x = strtol(v, &end, 10);
    if (*end || end == v || x < lo || x > hi) return bad(a, v);
    *out = (int)x;
    return 0;
}

static int parse_value(const char *a, const char *v, demo_options *o)
{
    static const char *const views[4] = {"population", "fitness", "selected", "crossed"};
    char *end = NULL;
    if (!strcmp(a, "--problem")) o->problem = v;
    else if (!strcmp(a, "--screenshot")) o->screenshot = v;
    else if (!strcmp(a, "--columns")) return parse_int(a, v, 1, 1000, &o->columns);
    else if (!strcmp(a, "--dim")) return parse_int(a, v, 1, GLEVO_CGA_MAX_DIM, &o->dim);
    else if (!strcmp(a, "--frames")) return parse_int(a, v, 1, 1 << 30, &o->frames);
    else if (!strcmp(a, "--gens-per-frame")) return parse_int(a, v, 1, 4096, &o->gens_per_frame);
    else if (!strcmp(a, "--view")) {
        int k = 0;
        while (k < 4 && strcmp(v, views[k])) ++k;
        if (k == 4) return bad(a, v);
        o->view = k;
    } else if (!strcmp(a, "--seed")) {
        o->seed = (unsigned)strtoul(v, &end, 10);
        if (*end || end == v) return bad(a, v);
    } else if (!strcmp(a, "--pc") || !strcmp(a, "--pm")) {
        double x = strtod(v, &end);
        if (*end || end == v || !(x >= 0 && x <= 1)) return bad(a, v);
        *(a[4] == 'c' ? &o->pc : &o->pm) = x;
    } else if (!strcmp(a, "--grid") || !strcmp(a, "--size")) {
        int w = 0, h = 0;
        char tail = 0;
        if (sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 2 || h < 1 || w > 8192 || h > 8192)
            return bad(a, v);
        if (a[2] == 'g') o->width = w, o->height = h;
        else o->win_w = w, o->win_h = h;
    } else
        return bad("option", a);
    return 0;
}

int demo_options_parse(int argc, char **argv, demo_options *o, bool *done)
{
    *done = false;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            *done = true;
            return 0;
        }
        if (!strcmp(a, "--hidden")) o->hidden = true;
        else if (!strcmp(a, "--de")) o->de = true;
        else if (!strcmp(a, "--gp")) o->gp = true;
        else if (o->sheet && a[0] != '-') o->sheet_inputs[o->sheet_count++] = a;
        else if (!v) return bad("option without a value", a);
        else if (!strcmp(a, "--sheet")) {
            o->sheet = v, ++i;
            o->sheet_inputs = calloc((size_t)argc, sizeof *o->sheet_inputs);
            if (!o->sheet_inputs) return 1;
        } else {
            int rc = parse_value(a, v, o);
            if (rc) return rc;
            ++i;
        }
    }
    if (o->screenshot && !o->frames) return bad("--screenshot without --frames", o->screenshot);
    if (o->de && o->gp) return bad("--de with", "--gp");
    return 0;
}
