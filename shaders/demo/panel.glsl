// glevo-demo display pass: one engine texture drawn into a window panel by texelFetch.
// u_mode 0: genes 1-3 (24-bit integers as floats) scaled to [0,1] as RGB. u_mode 1: fitness
// (R) as the heat ramp of glevo_heat_colour, best bright, on a log scale of the distance
// d = |f - best| (t = 1 - log(1 + d/e) / log(1 + dmax/e), e = dmax / 100): a linear scale lets
// a few fresh mutants turn the whole converged grid one colour.
uniform sampler2D t_view;
uniform int u_mode;
uniform vec3 u_gene_scale;
uniform vec2 u_range;
uniform vec4 u_rect;
out vec4 o_colour;
vec3 heat(float t) {
    vec3 s[5] = vec3[5](vec3(68, 1, 84), vec3(59, 82, 139), vec3(33, 145, 140),
                        vec3(94, 201, 98), vec3(253, 231, 37));
    float u = clamp(t, 0.0, 1.0) * 4.0;
    int i = min(int(u), 3);
    return mix(s[i], s[i + 1], u - float(i)) / 255.0;
}
void main() {
    ivec2 size = textureSize(t_view, 0);
    vec2 uv = (gl_FragCoord.xy - u_rect.xy) / u_rect.zw;
    ivec2 p = clamp(ivec2(uv * vec2(size)), ivec2(0), size - 1);
    vec4 v = texelFetch(t_view, p, 0);
    if (u_mode == 0) {
        o_colour = vec4(v.rgb * u_gene_scale, 1.0);
    } else {
        float dmax = abs(u_range.y - u_range.x), e = dmax * 0.01;
        float t = dmax > 0.0 ? 1.0 - log(1.0 + abs(v.r - u_range.y) / e)
                                   / log(1.0 + dmax / e) : 1.0;
        o_colour = vec4(isnan(v.r) || isinf(v.r) ? vec3(0.0) : heat(t), 1.0);
    }
}
