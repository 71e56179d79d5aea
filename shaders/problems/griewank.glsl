// Griewank sum z^2/4000 + (1 - prod cos(z_j / sqrt(j+1))), the product part accumulated as
// q <- q + a - q a with a = 2 sin^2(z / (2 sqrt(j+1))) = 1 - cos: stable in fp32 near the
// optimum, where 1 - prod cos would cancel to nothing. C twin: src/problems/griewank.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    float s = sin(z / (2.0 * sqrt(float(j + 1))));
    precise float a = 2.0 * (s * s);
    precise float x = acc.x + z * z;
    precise float y = acc.y + a - acc.y * a;
    acc.x = x;
    acc.y = y;
    return acc;
}
// precise: every kernel that inlines this rounds alike (docs/performance-history.md, temporal blocking)
float problem_finish(vec4 acc, int D)
{
    precise float f = acc.x / 4000.0 + acc.y;
    return f;
}
