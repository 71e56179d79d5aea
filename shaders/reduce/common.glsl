// Shared by the reduction passes: the pass block, fetch with bounds (odd sizes: a missing texel
// is "empty"), and the first level's conversion of raw data into (value, x, y, present).
// C side: src/reduce/reduce.h (reduce_uniforms).
layout(std140) uniform pass_uniforms {
    ivec2 u_size;    // size of t_input actually holding data
    int u_first;     // 1: t_input is raw data; 0: it holds partial results
    int u_channel;   // which channel of raw data to reduce (min/max)
};
uniform sampler2D t_input;

vec4 reduce_fetch(ivec2 p)
{
    if (p.x >= u_size.x || p.y >= u_size.y) return vec4(0.0);
    vec4 t = texelFetch(t_input, p, 0);
    if (u_first == 1) return vec4(t[u_channel], float(p.x), float(p.y), 1.0);
    return t;
}
