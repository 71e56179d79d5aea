// A user fitness for glevo cga --fitness: the sum of (x_j - 1)^2, minimised (optimum 0 at
// x = (1, ..., 1)). The fitness pass calls problem_step once per gene j with its value z.
vec4 problem_init() { return vec4(0.0); }
vec4 problem_step(vec4 acc, int j, float z) { return acc + vec4((z - 1.0) * (z - 1.0)); }
float problem_finish(vec4 acc, int D) { return acc.x; }
