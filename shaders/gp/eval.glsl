// GP evaluation pass, the fragment driver's (Augusto & Barbosa 2012, §3.4 strategies): each
// fragment runs the interpreter of gp/interp.glsl for one tile = (program, case segment) and
// writes its sums (|e|, e*e, hits) and a run mark (.w): 1 when every loop ran to its end, a
// large negative number when one was cut short (llvmpipe stops loops after 65535 iterations
// per invocation), nothing when the draw did not run; the host checks the marks, so neither
// reads as a small error.
// Tile T = p * u_nseg + k sits at (T / u_prog_rows, T % u_prog_rows) in units of u_tile, less
// u_tile_base (draws split into ranges of columns write a target of their columns only).
//   PPCU, FP (u_group = 64): the fragment at offset (ox, oy) of the tile is lane
//     oy * u_tile.x + ox; it sums its quads over the walks u_walk_range; gp/rowsum.glsl then
//     adds the 64 lanes in order. 8 x 8 tiles keep the 32 fragments of an NVIDIA warp (a 2-D
//     block of 2 x 2 quads) on one program, so its walk does not diverge.
//   PPPE (u_group = 1): the one fragment sums the lanes u_lane_range one after another.
// Long evaluations continue across draws from t_state (u_continue), the last draw's output,
// in the same order. C twin: src/gp/eval/interp_cpu.c.
#include "gp/uniforms.glsl"
uniform usampler2D t_programs; // R32UI, 4096 wide: per program [length, codes...]
uniform usampler2D t_index;    // R32UI, 4096 wide: program p's offset into t_programs
uniform sampler2D t_state;     // the previous draw's o_sums (u_continue = 1)
layout(location = 0) out vec4 o_sums;

// Programs do not cross a row of t_programs (the host pads) unless GP_LONG_PROGRAMS, so code i
// of the program is at base + (i, 0): one add per node instead of a split of offset + i.
uint gp_offset;
ivec2 gp_base;
#ifdef GP_LONG_PROGRAMS
#define GP_CODE(i) texelFetch(t_programs, at4096(gp_offset + uint(i)), 0).r
#else
#define GP_CODE(i) texelFetch(t_programs, ivec2(gp_base.x + (i), gp_base.y), 0).r
#endif
// NVIDIA's compiler (driver 580) inlines every call of glevo's exact math, four copies a vec4
// operator, and spent 2.5-3 s on this pass cold; with calls kept as calls, 0.3 s (H200,
// 2026-11-28; docs/performance.md, "First run and shader compile times"), but evaluation at
// 10^5 programs took twice as long. So large runs (GP_INLINE_ALL, gp_build_inline_all) are
// built inlined. Fragment pass only: the compute kernels built so gave wrong sums on the
// H200. Other drivers ignore the pragma.
#ifndef GP_INLINE_ALL
#pragma optionNV(inline none)
#endif
#include "gp/interp.glsl"

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    ivec2 t = f / u_tile;
    ivec2 o = f - t * u_tile;
    int tile = u_tile_base + t.x * u_prog_rows + t.y;
    vec4 prev = u_continue != 0 ? texelFetch(t_state, f, 0) : vec4(0.0);
    if (tile >= u_tiles) {
        o_sums = prev;
        return;
    }
    int p = tile / u_nseg, k = tile - p * u_nseg;
    gp_offset = texelFetch(t_index, at4096(uint(p)), 0).r;
    gp_base = at4096(gp_offset);
    int length = int(texelFetch(t_programs, gp_base, 0).r);
    int seg_q0 = k * GP_SEG_QUADS, seg_len = min(GP_SEG_QUADS, u_quads - seg_q0);
    int walks = 0, steps = 0, expected = 0;
    precise vec3 acc = prev.xyz;
    if (u_group == 1) {
        expected = gp_lanes_walks(u_lane_range.x, u_lane_range.y, seg_len);
        for (int lane = u_lane_range.x; lane < min(u_lane_range.y, seg_len); ++lane)
            acc += gp_lane(length, seg_q0, seg_len, lane, 0, GP_SEG_WALKS, vec3(0.0), walks, steps);
    } else {
        int lane = o.y * u_tile.x + o.x;
        expected = gp_lane_walks(lane, seg_len, u_walk_range.x, u_walk_range.y);
        acc = gp_lane(length, seg_q0, seg_len, lane, u_walk_range.x, u_walk_range.y, acc, walks,
                      steps);
    }
    bool whole = walks == expected && steps == walks * length;
    o_sums = vec4(acc, prev.w + (whole ? 1.0 : GP_CUT_MARK));
}
