// Where a GP evaluation kernel's segment sum goes (gp/eval_compute.glsl, gp/eval_small.glsl):
// to seg_sums for gp/combine.glsl, or, with GP_FUSED (one case segment: tile == program),
// straight into the program's result as gp/combine.glsl would write it (the same doubles:
// 0 + double(s), its first and only step), saving the combine dispatch on small data.
#ifdef GP_FUSED
struct gp_result { uvec4 bits; vec4 counts; };
layout(std430) writeonly buffer gp_results { gp_result results[]; };
void gp_seg_out(int tile, vec4 s)
{
    precise double a = 0.0lf + double(s.x), q = 0.0lf + double(s.y);
    precise double h = 0.0lf + double(s.z), m = 0.0lf + double(s.w);
    results[tile] = gp_result(uvec4(unpackDouble2x32(a), unpackDouble2x32(q)),
                              vec4(float(h), float(m), 1.0, 1.0 + float(u_stamp)));
}
#else
layout(std430) buffer gp_seg_sums { vec4 seg_sums[]; };
void gp_seg_out(int tile, vec4 s) { seg_sums[tile] = s; }
#endif
