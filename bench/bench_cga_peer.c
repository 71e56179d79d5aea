/* glevo bench cga --peer FILE: the cellular GA's compute backend beside a peer's timings, grid
 * by grid. FILE holds one JSON object a line as ../shared/peers/cga_jax.py prints them
 * (width, height, generations, seconds); for each line glevo runs the same job (camel, per-bit,
 * Moore, 24-bit genes, pc 0.8, pm 0.005) with the blocked kernel's rule and with one
 * generation a dispatch (--block-depth 0), best of --runs, in this run. Writes cga_peer.md,
 * cga_peer.csv (long format: series, individuals, microseconds a generation) and the picture
 * cga_peer.png drawn from that CSV under --out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli.h"
#include "bench.h"
#include "bench_cga_peer.h"
#include "glevo/cga.h"

#define MAX_ROWS 32

typedef struct peer_row { int width, height, generations; double seconds; } peer_row;

static bool peer_number(const char *line, const char *key, double *out)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(line, pattern);
    if (!p) return false;
    char *end;
    *out = strtod(p + strlen(pattern), &end);
    return end != p + strlen(pattern);
}

static int read_peer(const char *path, peer_row *rows, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) return cli_bad_input("bench cga", "--peer '%s' cannot be read", path);
    char line[1024];
    int n = 0, number = 0;
    while (fgets(line, sizeof line, f)) {
        ++number;
        if (!strchr(line, '{')) continue;
        double w, h, g, s;
        if (!peer_number(line, "width", &w) || !peer_number(line, "height", &h) ||
            !peer_number(line, "generations", &g) || !peer_number(line, "seconds", &s) ||
            w < 2 || h < 1 || g < 1 || (int)w % 2 || !(s > 0)) {
            fclose(f);
            return cli_bad_input("bench cga", "--peer '%s' line %d: expected width (even), "
                                 "height, generations and seconds > 0", path, number);
        }
        if (n == MAX_ROWS) {
            fclose(f);
            return cli_bad_input("bench cga", "--peer '%s': more than %d grids", path, MAX_ROWS);
        }
        rows[n++] = (peer_row){(int)w, (int)h, (int)g, s};
    }
    fclose(f);
    if (!n) return cli_bad_input("bench cga", "--peer '%s' holds no timing", path);
    *count = n;
    return 0;
}

/* The fastest of `runs` runs of the job (after one warm-up generation each). */
static int time_glevo(glevo_context *ctx, const peer_row *r, int block_depth, int runs,
                      double *best)
{
    *best = 0;
    for (int k = 0; k < runs; ++k) {
        glevo_cga_params p = {.problem = glevo_problem_find("camel"), .width = r->width,
                              .height = r->height, .backend = GLEVO_BACKEND_COMPUTE,
                              .seed = 1u + (uint32_t)k, .block_depth = block_depth,
                              .report_every = r->generations};
        glevo_cga *cga;
        glevo_status st = glevo_cga_create(&p, &cga);
        if (st) return cli_fail("bench cga", st);
        st = glevo_cga_step(cga, 1);
        glevo_context_finish(ctx);
        double t0 = cli_seconds_now();
        if (!st) st = glevo_cga_step(cga, r->generations);
        glevo_context_finish(ctx);
        double s = cli_seconds_now() - t0;
        glevo_cga_destroy(cga);
        if (st) return cli_fail("bench cga", st);
        if (k == 0 || s < *best) *best = s;
    }
    return 0;
}

int bench_cga_peer(glevo_context *ctx, const char *peer, const char *out, int runs, bool quiet)
{
    peer_row rows[MAX_ROWS];
    int n = 0, rc = read_peer(peer, rows, &n);
    if (rc) return rc;
    FILE *md = NULL, *csv = NULL;
    if ((rc = bench_open_tables("bench cga", out, "cga_peer", &md, &csv))) return rc;
    const char *renderer = glevo_context_renderer(ctx);
    printf("\n### The peer beside glevo compute (camel, per-bit, Moore; best of %d; %s)\n\n"
           "| grid x generations | peer | glevo blocked (rule) | glevo one a dispatch | peer / blocked |\n"
           "|---|---:|---:|---:|---:|\n", runs, renderer);
    if (md) fprintf(md, "| grid x generations | peer s | glevo blocked s | glevo one a dispatch s | "
                    "peer / blocked |\n|---|---:|---:|---:|---:|\n");
    if (csv) fprintf(csv, "series,x,y\n");
    for (int i = 0; i < n && !rc; ++i) {
        const peer_row *r = &rows[i];
        double blocked = 0, one = 0;
        if (!(rc = time_glevo(ctx, r, 0, runs, &blocked)))
            rc = time_glevo(ctx, r, -1 /* GLEVO_ZERO: one generation a dispatch */, runs, &one);
        if (rc) break;
        char row[256];
        snprintf(row, sizeof row, "| %dx%d x %d | %.4f | %.4f | %.4f | %.2fx |\n", r->width,
                 r->height, r->generations, r->seconds, blocked, one, r->seconds / blocked);
        fputs(row, stdout);
        if (md) fputs(row, md);
        double cells = (double)r->width * r->height, us = 1e6 / r->generations;
        if (csv)
            fprintf(csv, "glevo compute blocked,%.0f,%.3f\nglevo compute one a dispatch,%.0f,%.3f\n"
                    "peer,%.0f,%.3f\n", cells, blocked * us, cells, one * us, cells,
                    r->seconds * us);
        if (!quiet) fprintf(stderr, "glevo bench cga: peer grid %dx%d done\n", r->width, r->height);
    }
    if (md) fprintf(md, "\nRenderer: %s; the peer's times from %s.\n", renderer, peer);
    if (bench_close_table(md, rc == 0) || bench_close_table(csv, rc == 0))
        return rc ? rc : cli_fail("bench cga", GLEVO_ERR_IO);
    if (rc || !out) return rc;
    char data[4096], png[4096], caption[512];
    snprintf(data, sizeof data, "%s/cga_peer.csv", out);
    snprintf(png, sizeof png, "%s/cga_peer.png", out);
    snprintf(caption, sizeof caption, "%s; peer: %s", renderer, peer);
    char *argv[] = {"plot", "--data", data, "--out", png, "--title",
                    "Cellular GA: glevo compute beside the peer",
                    "--x-label", "individuals", "--y-label", "microseconds a generation",
                    "--caption", caption, NULL};
    return bench_plot((int)(sizeof argv / sizeof argv[0]) - 1, argv);
}
