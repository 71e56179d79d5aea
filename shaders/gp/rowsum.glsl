// Row-sum reduction after the PPCU and FP evaluation passes (the paper's ErrorReduction of
// Algorithms 3 and 5): output texel (X, y) adds the u_group partial sums of program group X in
// row y of t_partial. One fragment per program: u_group is at most a few thousand texels.
uniform sampler2D t_partial;
uniform int u_group;
layout(location = 0) out vec4 o_sums;

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    vec4 s = vec4(0.0);
    int x0 = f.x * u_group;
    for (int j = 0; j < u_group; ++j) s += texelFetch(t_partial, ivec2(x0 + j, f.y), 0);
    o_sums = s;
}
