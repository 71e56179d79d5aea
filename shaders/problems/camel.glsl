// Six-hump camel back (2008 paper); x rides in acc.x, y in acc.y. C twin: src/problems/camel.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    if (j == 0) acc.x = z;
    else acc.y = z;
    return acc;
}
float problem_finish(vec4 acc, int D)
{
    float x = acc.x, y = acc.y;
    precise float x2 = x * x, y2 = y * y;
    precise float f = (4.0 - 2.1 * x2 + x2 * x2 / 3.0) * x2 + x * y + (-4.0 + 4.0 * y2) * y2;
    return f;
}
