// Rastrigin in the stable form sum z^2 + 20 sin^2(pi z) (= z^2 - 10 cos 2 pi z + 10).
// C twin: src/problems/rastrigin.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    float s = sin(3.14159265358979 * z);
    precise float sum = acc.x + (z * z + 20.0 * (s * s));
    acc.x = sum;
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x; }
