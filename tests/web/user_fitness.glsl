// Your fitness: problem_step sees gene j decoded to z, one gene at a time; problem_finish
// returns f. This one minimises the distance to (1, 1, ..., 1).
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z)
{
    acc.x += abs(z - 1.0);
    return acc;
}
float problem_finish(vec4 acc, int D) { return acc.x / float(D); }
