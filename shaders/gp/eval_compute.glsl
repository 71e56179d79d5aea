// GP evaluation, the compute driver's kernel (EvoGP's hybrid layout: a work-group per program
// over blocks of cases): one work-group of GP_SUM_LANES invocations per tile = (program, case
// segment), invocation t is lane t of the segment and runs the interpreter of gp/interp.glsl
// (the fragment pass's own body) on its quads. What is fused, and why:
//  - the program's codes are loaded into shared memory once per work-group: every invocation
//    walks the same codes (a broadcast read, no divergence), where the fragment pass fetches
//    each code from a texture in every fragment;
//  - the 64 lane sums are added in shared memory, in lane order (the fragment driver's
//    row-sum pass, in the same order: the summation every backend shares), so the partial sums
//    never touch global memory; the segment sum goes to seg_sums[tile] for gp/combine.glsl
//    (or, with one segment, straight into the program's result: gp/seg_out.glsl).
// The stack: the top in a register, the values below it in a private array (local memory) or,
// with GP_STACK_SHARED, in shared memory (interp.glsl). Private is the default: shared memory
// for (GP_STACK + 1) vec4 per invocation (13 KiB a work-group at depth 12) caps residency at
// ~17 work-groups per H100 SM (of 32), while the private array costs no residency and stays in
// L1 for the shallow stacks of GP trees; GLEVO_GP_STACK=shared builds the other for measuring
// (scripts/device/gp.sh runs both).
// Loop limits (llvmpipe): when one invocation would run too many loop iterations, the host
// splits a lane's walks over dispatches (u_walk_range) and the lane sums continue from
// gp_state; every invocation counts its walks and codes into the run marks.
#include "gp/uniforms.glsl"
uniform usampler2D t_programs; // R32UI, 4096 wide: per program [length, codes...]
uniform usampler2D t_index;    // R32UI, 4096 wide: program p's offset into t_programs
#include "gp/seg_out.glsl"
layout(std430) buffer gp_state { vec4 state[]; }; // lane sums between walk ranges
layout(std430) readonly buffer gp_affine_ab { vec2 affine_ab[]; }; // u_moments 2: a, b a program
layout(local_size_x = GP_SUM_LANES) in;

#ifdef GP_CODES_SHARED
shared uint gp_codes[GP_CODES_SHARED];
#define GP_CODE(i) gp_codes[(i)]
#else
// Programs longer than the shared array: codes straight from the texture (a uniform address).
uint gp_offset;
#define GP_CODE(i) texelFetch(t_programs, at4096(gp_offset + uint(i)), 0).r
#endif
#include "gp/interp.glsl"

shared vec4 gp_lanes[GP_SUM_LANES];

void main()
{
    int tile = u_tile_base + int(gl_WorkGroupID.x);
    int lane = int(gl_LocalInvocationIndex);
    int p = tile / u_nseg, k = tile - p * u_nseg;
    if (u_moments == 2) gp_affine = affine_ab[p];
    // A second look's program without a and b (NaN: gp/fitness.glsl's pass 1 did not flag it)
    // is skipped: no walks, the run marks of a whole segment, sums nobody reads.
    bool skip = isnan(gp_affine.x);
    uint offset = texelFetch(t_index, at4096(uint(p)), 0).r;
    int length = skip ? 0 : int(texelFetch(t_programs, at4096(offset), 0).r);
    int loaded = 0;
#ifdef GP_CODES_SHARED
    for (int i = lane; i <= length; i += GP_SUM_LANES, ++loaded)
        gp_codes[i] = texelFetch(t_programs, at4096(offset + uint(i)), 0).r;
    barrier();
#else
    gp_offset = offset;
#endif
    int seg_q0 = k * GP_SEG_QUADS, seg_len = min(GP_SEG_QUADS, u_quads - seg_q0);
    int walks = 0, steps = 0;
    int expected = gp_lane_walks(lane, seg_len, u_walk_range.x, u_walk_range.y);
    vec4 prev = u_continue != 0 ? state[tile * GP_SUM_LANES + lane] : vec4(0.0);
    vec3 acc = prev.xyz;
    if (skip)
        walks = expected;
    else
        acc = gp_lane(length, seg_q0, seg_len, lane, u_walk_range.x, u_walk_range.y, prev.xyz,
                      walks, steps);
    bool whole = walks == expected && steps == walks * length;
#ifdef GP_CODES_SHARED
    whole = whole && loaded == (length - lane + GP_SUM_LANES) / GP_SUM_LANES;
#endif
    vec4 mine = vec4(acc, prev.w + (whole ? 1.0 : GP_CUT_MARK));
    if (u_walk_range.y < GP_SEG_WALKS) {
        // More walks follow in a later dispatch: keep the lane's running sums.
        state[tile * GP_SUM_LANES + lane] = mine;
        return;
    }
    gp_lanes[lane] = mine;
    barrier();
    if (lane == 0) {
        precise vec4 s = vec4(0.0);
        int t = 0;
        for (; t < GP_SUM_LANES; ++t) s += gp_lanes[t];
        // The loop's own count: a cut-short sum must not pass as a smaller error.
        gp_seg_out(tile, t == GP_SUM_LANES ? s : vec4(s.xyz, GP_CUT_MARK));
    }
}
