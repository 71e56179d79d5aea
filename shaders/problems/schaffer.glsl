// Schaffer F6, maximisation form of the 2008 paper: 0.5 - (sin^2 r - 0.5) / (1 + 0.001 r^2)^2.
// C twin: src/problems/schaffer.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    precise float sum = acc.x + z * z;
    acc.x = sum;
    return acc;
}
float problem_finish(vec4 acc, int D)
{
    // precise: every kernel that inlines this rounds alike (no context-dependent fused
    // multiply-add; docs/performance-history.md, temporal blocking)
    precise float s = sin(sqrt(acc.x));
    precise float d = 1.0 + 0.001 * acc.x;
    precise float f = 0.5 - (s * s - 0.5) / (d * d);
    return f;
}
