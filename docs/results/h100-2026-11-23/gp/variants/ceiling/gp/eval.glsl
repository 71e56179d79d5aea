// Arithmetic ceiling of the GP pass: same tiles, draws and loop over case-quads, but each of
// the 50 "nodes" is 4 independent vec4 multiply-adds (16 lane-ops per fragment, 4 per case).
uniform int u_pop;
uniform int u_group;
uniform ivec2 u_tile;
uniform int u_prog_rows;
uniform ivec2 u_quad_range;
layout(location = 0) out vec4 o_sums;
void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    ivec2 t = f / u_tile;
    ivec2 o = f - t * u_tile;
    int p = t.x * u_prog_rows + t.y;
    int block = o.y * u_tile.x + o.x;
    if (p >= u_pop) { o_sums = vec4(0.0, 0.0, 0.0, 1.0); return; }
    vec4 a = vec4(f.xyxy) * 1e-3, b = a + 0.5, c = a + 0.25, d = a + 0.125;
    for (int q0 = u_quad_range.x + block; q0 < u_quad_range.y; q0 += u_group) {
        for (int i = 0; i < 50; ++i) {
            a = a * 0.999 + 0.001; b = b * 0.998 + 0.002;
            c = c * 0.997 + 0.003; d = d * 0.996 + 0.004;
        }
    }
    o_sums = vec4(a.x + b.y + c.z + d.w, 0.0, 0.0, 1.0);
}
