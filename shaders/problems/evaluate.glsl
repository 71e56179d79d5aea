// Evaluates a batch of already-shifted points: row i of t_z (R32F, D texels wide) is one z;
// the target is 1 x N, texel (0, i) gets f(z_i). Used to test every problem snippet against its
// C twin (tests/problems/test_problems.c); the problem comes in as #include <problem>.
#include <problem>

layout(std140) uniform pass_uniforms {
    int u_dim;
    int u_pad0, u_pad1, u_pad2;
};
uniform sampler2D t_z;
layout(location = 0) out vec4 o_fitness;

void main()
{
    int row = int(gl_FragCoord.y);
    vec4 acc = problem_init();
    for (int j = 0; j < u_dim; ++j) acc = problem_step(acc, j, texelFetch(t_z, ivec2(j, row), 0).r);
    o_fitness = vec4(problem_finish(acc, u_dim), 0.0, 0.0, 0.0);
}
