// Rosenbrock sum 100 (z_j^2 - z_{j+1})^2 + (z_j - 1)^2 (CEC 2005 F6: z = x - o + 1); the
// previous gene rides in acc.y. C twin: src/problems/rosenbrock.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    if (j > 0) {
        float p = acc.y;
        precise float a = p * p - z;
        precise float b = p - 1.0;
        precise float sum = acc.x + (100.0 * (a * a) + b * b);
        acc.x = sum;
    }
    acc.y = z;
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x; }
