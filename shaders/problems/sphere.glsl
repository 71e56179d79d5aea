// Sphere f = sum z^2 (CEC 2005 F1 shifted). C twin: src/problems/sphere.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    precise float sum = acc.x + z * z;
    acc.x = sum;
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x; }
