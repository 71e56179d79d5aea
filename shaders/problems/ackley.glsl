// Ackley as 20 (1 - exp(-u)) + e (1 - exp(-v)), u = 0.2 sqrt(sum z^2 / D),
// v = sum 2 sin^2(pi z) / D: keeps its digits near the optimum. C twin: src/problems/ackley.c.
// precise throughout: no fused multiply-add, so every kernel that inlines this rounds alike
// (NVIDIA's compiler fuses by context otherwise: docs/performance-history.md, temporal blocking).
float problem_one_minus_exp(float t)
{
    precise float r;
    if (t < 0.0078125) r = t * (1.0 - t * (0.5 - t * (1.0 / 6.0)));
    else r = 1.0 - exp(-t);
    return r;
}
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    float s = sin(3.14159265358979 * z);
    precise float x = acc.x + z * z;
    precise float y = acc.y + 2.0 * (s * s);
    acc.x = x;
    acc.y = y;
    return acc;
}
float problem_finish(vec4 acc, int D)
{
    precise float u = 0.2 * sqrt(acc.x / float(D));
    precise float v = acc.y / float(D);
    precise float f = 20.0 * problem_one_minus_exp(u) + 2.71828182845905 * problem_one_minus_exp(v);
    return f;
}
