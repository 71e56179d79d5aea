// DE initial evaluation: f(y_i + shift_add) per individual into (fitness, 0). C twin:
// src/de/cpu.c (cpu_init).
#include "de/common.glsl"
#include <problem>

layout(location = 0) out vec4 o_fitness;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int k = p.y * u_per_row + p.x;
    if (k >= u_np) {
        o_fitness = vec4(DE_WORST, 0.0, 0.0, 0.0);
        return;
    }
    vec4 acc = problem_init();
    for (int j = 0; j < u_dim; ++j) {
        precise float z = de_gene(uint(k), j) + u_shift_add;
        acc = problem_step(acc, j, z);
    }
    o_fitness = vec4(problem_finish(acc, u_dim), 0.0, 0.0, 0.0);
}
