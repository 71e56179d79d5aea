// The last step of GP evaluation, both drivers: program p's sums are its segments' sums added
// in order in double (the summation every backend shares, src/gp/eval/eval_internal.h; C twin
// src/gp/eval/interp_cpu.c), written as the bits of two doubles (|e| and e*e sums) beside the hits
// and the run marks. One invocation per program; the fragment main reads the segment sums
// from the tile grid t_seg, the compute main from the eval kernel's buffer.
#include "gp/uniforms.glsl"

// Sums of program p; marks also counts the loop's own iterations, so a cut loop shows.
void gp_combine(int p, out uvec4 bits, out vec4 counts);

#ifdef GLEVO_FRAGMENT
uniform sampler2D t_seg;
vec4 gp_seg(int tile) { return texelFetch(t_seg, ivec2(tile / u_prog_rows, tile % u_prog_rows), 0); }
#endif
#ifdef GLEVO_COMPUTE
layout(std430) readonly buffer gp_seg_sums { vec4 seg_sums[]; };
vec4 gp_seg(int tile) { return seg_sums[tile]; }
#endif

void gp_combine(int p, out uvec4 bits, out vec4 counts)
{
    precise double a = 0.0lf, s = 0.0lf, h = 0.0lf, m = 0.0lf;
    int k = 0;
    for (; k < u_nseg; ++k) {
        vec4 v = gp_seg(p * u_nseg + k);
        a += double(v.x);
        s += double(v.y);
        h += double(v.z);
        m += double(v.w);
    }
    bits = uvec4(unpackDouble2x32(a), unpackDouble2x32(s));
    counts = vec4(float(h), float(m), float(k), 1.0 + float(u_stamp));
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out uvec4 o_bits;
layout(location = 1) out vec4 o_counts;
void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    int p = f.y * 4096 + f.x;
    o_bits = uvec4(0u);
    o_counts = vec4(0.0);
    if (p < u_pop) gp_combine(p, o_bits, o_counts);
}
#endif
#ifdef GLEVO_COMPUTE
layout(local_size_x = 64) in;
struct gp_result { uvec4 bits; vec4 counts; };
layout(std430) writeonly buffer gp_results { gp_result results[]; };
void main()
{
    int p = int(gl_GlobalInvocationID.x);
    if (p >= u_pop) return;
    uvec4 bits;
    vec4 counts;
    gp_combine(p, bits, counts);
    results[p] = gp_result(bits, counts);
}
#endif
