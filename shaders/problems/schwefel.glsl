// Schwefel -sum x sin(sqrt|x|) (Li, Chi, Wan 2008). C twin: src/problems/schwefel.c.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    precise float sum = acc.x - z * sin(sqrt(abs(z)));
    acc.x = sum;
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x; }
