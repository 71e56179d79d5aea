// GP evaluation for small data sets, the compute driver's second layout (issue 24): where a
// case segment has few quads, a 64-lane work-group per program (gp/eval_compute.glsl) leaves
// most lanes idle and pays a 64-step lane sum for a handful of quads. Here GP_PROG_LANES
// invocations share a tile = (program, case segment), so 64 / GP_PROG_LANES tiles share a
// work-group; with GP_PROG_LANES 1 an invocation loops over all of its program's cases.
// Which layout a population gets is src/gp/eval/plan.c's rule (measured on the H100,
// docs/performance.md).
// The summation is the one every backend shares (src/gp/eval/eval_internal.h), bit for bit: the
// segment's 64 lanes are virtual here. Invocation r of a tile takes the virtual lanes
// t = r, r + GP_PROG_LANES, ... in order and, within each, its quads t, t + 64, ... in
// order; it walks them GP_LANES at a time regardless of where one lane ends and the next
// begins (a lane of one quad, the usual case, does not waste a walk), and adds each quad to
// its lane's running sum L_t, as the 64-lane kernel's lane t does. The segment sum is then
// ((0 + L_0) + L_1) + ...: a single invocation adds its lanes as it finishes them (they come
// in order); otherwise the L_t meet in shared memory and the tile's first invocation adds them
// in order. Lanes without quads are skipped: their L_t is +0, and x + 0 == x for every sum
// here (all are >= +0 or NaN).
// The interpreter is gp/interp.glsl's gp_walk, called, not copied. Run marks: every tile
// reports 64 (one per virtual lane, as the 64-lane kernel does) if each invocation's loops
// ran whole, so the host's check is the same for both layouts.
#include "gp/uniforms.glsl"
uniform usampler2D t_programs; // R32UI, 4096 wide: per program [length, codes...]
uniform usampler2D t_index;    // R32UI, 4096 wide: program p's offset into t_programs
#include "gp/seg_out.glsl"
layout(std430) readonly buffer gp_affine_ab { vec2 affine_ab[]; }; // u_moments 2: a, b a program
layout(local_size_x = GP_SUM_LANES) in;

#define GP_TILES_PER_GROUP (GP_SUM_LANES / GP_PROG_LANES)

#ifdef GP_CODES_SHARED
// Each tile's codes at its own GP_CODES_SHARED slots, loaded by the tile's invocations; one
// word of padding a tile, so that tiles at the same code hit different banks.
#define GP_CODES_STRIDE (GP_CODES_SHARED + 1)
shared uint gp_codes[GP_TILES_PER_GROUP * GP_CODES_STRIDE];
int gp_code_base;
#define GP_CODE(i) gp_codes[gp_code_base + (i)]
#else
uint gp_offset;
#define GP_CODE(i) texelFetch(t_programs, at4096(gp_offset + uint(i)), 0).r
#endif
#include "gp/interp.glsl"

#if GP_PROG_LANES > 1
// L_t of each tile's lanes holding quads (GP_LANE_SLOTS >= min(segment quads, 64)), and each
// invocation's run marks (padded a slot a tile: the tiles' first invocations read their slot
// n together).
#define GP_LANE_STRIDE (GP_LANE_SLOTS + 1)
shared vec4 gp_lane_sums[GP_TILES_PER_GROUP * GP_LANE_STRIDE];
shared float gp_marks[GP_SUM_LANES];
#endif

// Quads of virtual lane t in a segment of seg_len quads (t < 64).
int gp_lane_quads(int t, int seg_len) { return (seg_len - t + GP_SUM_LANES - 1) / GP_SUM_LANES; }

void main()
{
    int inv = int(gl_LocalInvocationIndex);
    int g = inv / GP_PROG_LANES, r = inv - g * GP_PROG_LANES;
    int tile = u_tile_base + int(gl_WorkGroupID.x) * GP_TILES_PER_GROUP + g;
    bool live = tile < u_tiles;
    int p = live ? tile / u_nseg : 0, k = live ? tile - p * u_nseg : 0;
    if (u_moments == 2) gp_affine = affine_ab[p];
    // A second look's program without a and b (NaN: gp/fitness.glsl's pass 1 did not flag it)
    // is skipped: no walks, the run marks of a whole tile, sums nobody reads.
    bool skip = isnan(gp_affine.x);
    uint offset = texelFetch(t_index, at4096(uint(p)), 0).r;
    int length = skip ? 0 : int(texelFetch(t_programs, at4096(offset), 0).r);
    int loaded = 0;
#ifdef GP_CODES_SHARED
    gp_code_base = g * GP_CODES_STRIDE;
    for (int i = r; i <= length; i += GP_PROG_LANES, ++loaded)
        gp_codes[gp_code_base + i] = texelFetch(t_programs, at4096(offset + uint(i)), 0).r;
#if GP_PROG_LANES > 1
    barrier();
#endif
#else
    gp_offset = offset;
#endif
    int seg_q0 = k * GP_SEG_QUADS, seg_len = min(GP_SEG_QUADS, u_quads - seg_q0);
    int nl = min(seg_len, GP_SUM_LANES); // lanes holding quads
    // This invocation's quads (closed form, for the run marks): with seg_len = 64 a + b, its
    // lanes t = r + GP_PROG_LANES m below b hold a + 1 quads, the others a.
    int a = seg_len / GP_SUM_LANES, b = seg_len - a * GP_SUM_LANES;
    int items = live && !skip
                    ? GP_TILES_PER_GROUP * a + max(0, (b - r + GP_PROG_LANES - 1) / GP_PROG_LANES)
                    : 0;
    int expected = (items + GP_LANES - 1) / GP_LANES;
    int t = r, j = 0, nt = t < nl ? gp_lane_quads(t, seg_len) : 0; // the next quad: lane t's j-th
    int cur = r, done = 0, walks = 0, steps = 0;
    precise vec3 lane_sum = vec3(0.0);
#if GP_PROG_LANES == 1
    precise vec3 seg_sum = vec3(0.0);
#endif
    for (int w = 0; w < expected; ++w) {
        ivec2 qc[GP_LANES];
        int lt[GP_LANES], qq[GP_LANES];
        for (int l = 0; l < GP_LANES; ++l) {
            lt[l] = t;
            qq[l] = seg_q0 + t + j * GP_SUM_LANES;
            int q = min(qq[l], u_quads - 1);
            qc[l] = ivec2(q % u_data_width, q / u_data_width);
            if (t < nl && ++j == nt) {
                j = 0;
                t += GP_PROG_LANES;
                nt = t < nl ? gp_lane_quads(t, seg_len) : 0;
            }
        }
        vec4 top[GP_LANES];
        steps += gp_walk(length, qc, top);
        walks++;
        for (int l = 0; l < GP_LANES; ++l) {
            if (lt[l] >= nl) break; // past this invocation's last quad
            if (lt[l] != cur) {
                // Lane cur is complete: it joins the segment sum (or shared memory) in order.
#if GP_PROG_LANES == 1
                seg_sum = seg_sum + lane_sum;
#else
                gp_lane_sums[g * GP_LANE_STRIDE + cur] = vec4(lane_sum, 0.0);
#endif
                lane_sum = vec3(0.0);
                cur = lt[l];
            }
            lane_sum = gp_quad_add(lane_sum, top[l], qc[l], qq[l]);
            done++;
        }
    }
    if (cur < nl && done > 0) {
#if GP_PROG_LANES == 1
        seg_sum = seg_sum + lane_sum;
#else
        gp_lane_sums[g * GP_LANE_STRIDE + cur] = vec4(lane_sum, 0.0);
#endif
    }
    bool whole = walks == expected && steps == walks * length && done == items;
#ifdef GP_CODES_SHARED
    whole = whole && loaded == (length - r + GP_PROG_LANES) / GP_PROG_LANES;
#endif
#if GP_PROG_LANES == 1
    if (live) gp_seg_out(tile, vec4(seg_sum, whole ? float(GP_SUM_LANES) : GP_CUT_MARK));
#else
    gp_marks[inv] = whole ? float(GP_TILES_PER_GROUP) : GP_CUT_MARK;
    barrier();
    if (r == 0 && live) {
        precise vec3 s = vec3(0.0);
        int n = 0;
        for (; n < nl; ++n) s += gp_lane_sums[g * GP_LANE_STRIDE + n].xyz;
        float marks = 0.0;
        for (int i = 0; i < GP_PROG_LANES; ++i) marks += gp_marks[inv + i];
        // The loop's own count: a cut-short sum must not pass as a smaller error.
        gp_seg_out(tile, vec4(s, n == nl ? marks : GP_CUT_MARK));
    }
#endif
}
