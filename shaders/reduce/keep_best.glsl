// History best: the better of this generation's reduction result and the previous history
// texel (both (value, x, y, present)), written to the other history texture (ping-pong).
// Equal values keep the history (the earlier find). Define REDUCE_MAX for maximisation.
// C twin: src/reduce/reduce_cpu.c (cpu_reduce_keep_best).
uniform sampler2D t_current;
uniform sampler2D t_history;
layout(location = 0) out vec4 o_best;

bool is_nan(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }

void main()
{
    vec4 cur = texelFetch(t_current, ivec2(0), 0);
    vec4 old = texelFetch(t_history, ivec2(0), 0);
    bool take = old.w == 0.0 || (is_nan(old.x) && !is_nan(cur.x));
    if (!take && cur.w != 0.0 && !is_nan(cur.x)) {
#ifdef REDUCE_MAX
        take = cur.x > old.x;
#else
        take = cur.x < old.x;
#endif
    }
    o_best = take ? cur : old;
}
