// Sphere f = sum z^2 (CEC 2005 F1 shifted). C twin: src/problems/sphere.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    acc.x = acc.x + z * z;
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x; }
