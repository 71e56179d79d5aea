// DE initial evaluation: f(y_i + shift_add) per individual into (fitness, 0), one fragment or
// one invocation per individual (the first evaluation runs once a run, so the compute driver
// keeps it this simple). C twin: src/de/cpu.c (cpu_init).
#include "de/common.glsl"
#include "de/fold.glsl"

float de_evaluate(uint i)
{
    vec4 acc = problem_init();
    for (int j = 0; j < u_dim; ++j) acc = de_fold_gene(acc, j, de_gene(i, j));
    return problem_finish(acc, u_dim);
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out vec4 o_fitness;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int k = p.y * u_per_row + p.x;
    o_fitness = vec4(k < u_np ? de_evaluate(uint(k)) : DE_WORST, 0.0, 0.0, 0.0);
}
#endif

#ifdef GLEVO_COMPUTE
layout(local_size_x = 8, local_size_y = 8) in;
layout(rg32f) writeonly uniform image2D i_fitness;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_per_row || p.y >= (u_np + u_per_row - 1) / u_per_row) return;
    int k = p.y * u_per_row + p.x;
    imageStore(i_fitness, p, vec4(k < u_np ? de_evaluate(uint(k)) : DE_WORST, 0.0, 0.0, 0.0));
}
#endif
