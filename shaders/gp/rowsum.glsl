// Tile-sum reduction after the PPCU and FP evaluation passes (the paper's ErrorReduction of
// Algorithms 3 and 5): output texel (X, Y) adds the u_tile.x x u_tile.y partial sums of the
// program whose tile is (X, Y) in t_partial. One fragment per program: a tile is at most a
// few thousand texels. C twin: the per-program sums of src/gp/interp_cpu.c (in double there, so
// the two differ only by the order and precision of the additions).
#include "gp/uniforms.glsl"
uniform sampler2D t_partial;
layout(location = 0) out vec4 o_sums;

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    vec4 s = vec4(0.0);
    ivec2 o = f * u_tile;
    for (int y = 0; y < u_tile.y; ++y)
        for (int x = 0; x < u_tile.x; ++x) s += texelFetch(t_partial, o + ivec2(x, y), 0);
    o_sums = s;
}
