// Test pass for tests/bits/test_fbits.c: applies every float-bit operation to one texel of
// t_values with bit index and splice point from t_args.
#include "bits/fbits.glsl"
uniform sampler2D t_values; // (v, w, -, -)
uniform sampler2D t_args;   // (i, b, p, -)
layout(location = 0) out vec4 o_get_set_flip_low;
layout(location = 1) out vec4 o_splice;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 v = texelFetch(t_values, p, 0);
    vec4 a = texelFetch(t_args, p, 0);
    int i = int(a.x), q = int(a.z);
    o_get_set_flip_low = vec4(fbit_get(v.x, i), fbit_set(v.x, i, a.y), fbit_flip(v.x, i),
                              fbits_low(v.x, q));
    o_splice = vec4(fbits_splice(v.x, v.y, q), fbits_splice(v.y, v.x, q), 0.0, 0.0);
}
