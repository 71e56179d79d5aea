// Tile-sum reduction after the PPCU and FP evaluation passes (the paper's ErrorReduction of
// Algorithms 3 and 5): output texel (X, Y) adds the 64 lane sums of tile (X, Y) of t_partial
// (which holds the columns from u_tile_base / u_prog_rows on) in
// lane order (row by row of the tile), in float, precise: the segment sum of the summation
// every backend shares (src/gp/eval/eval_internal.h; the compute kernel adds its lanes in shared
// memory in the same order; C twin src/gp/eval/interp_cpu.c). The marks add up with them.
#include "gp/uniforms.glsl"
uniform sampler2D t_partial;
layout(location = 0) out vec4 o_sums;

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    precise vec4 s = vec4(0.0);
    ivec2 o = (f - ivec2(u_tile_base / u_prog_rows, 0)) * u_tile;
    for (int y = 0; y < u_tile.y; ++y)
        for (int x = 0; x < u_tile.x; ++x) s += texelFetch(t_partial, o + ivec2(x, y), 0);
    o_sums = s;
}
