/* glevo bench cga --peer FILE (bench_cga_peer.c): the compute backend beside a peer's timings. */
#ifndef GLEVO_BENCH_CGA_PEER_H
#define GLEVO_BENCH_CGA_PEER_H

#include <stdbool.h>

#include "glevo/context.h"

/* Times glevo on every grid of the peer's JSON lines (best of runs) and prints the table;
 * with out, also cga_peer.md, cga_peer.csv and cga_peer.png there. 0, or the exit code. */
int bench_cga_peer(glevo_context *ctx, const char *peer, const char *out, int runs, bool quiet);

#endif
