// DE as compute, one dispatch a generation: cudaDE_i's kernel(MCER) (Qin et al. 2012,
// section 4). A work-group holds DE_GROUP individuals and gives each DE_SPAN invocations, one
// per gene (an invocation loops over genes j, j + DE_SPAN, ... when D exceeds the work-group).
// Fused: mutation, crossover and bound repair (de_trial_gene, the fragment passes' bodies from
// the same counters), evaluation and selection. The fragment driver needs two passes and a
// choice texture for this; here the trial genes live only in shared memory and the next
// population and fitness are written once (images, ping-pong: other work-groups still read
// this generation's genes as donors).
//
// The fitness is an ordered fold, not a shared-memory tree: one invocation per individual
// folds the D trial genes from shared memory in gene order (de_fold_gene), as the C twin and
// the fragment pass do, so the fitness is bit-identical to both wherever they agree. A tree
// would change the rounding of every sum (Rosenbrock and Griewank also carry state from gene
// to gene), and fitness ties decide selection, so populations would drift from the CPU
// engine's. The fold is D dependent adds on values already in shared memory (~1 us at D 100
// on the H100), below a dispatch's cost. Images rather than shader-storage buffers: the
// textures are the fragment driver's (gpu.c), so readbacks and the min/max reducer (best/1
// strategies) serve both drivers unchanged, and an R32F texel fetch costs what a buffer load
// does at these sizes.
#include "de/common.glsl"
#include "de/fold.glsl"

layout(local_size_x = DE_LOCAL) in;
layout(r32f) writeonly uniform image2D i_population;
layout(rg32f) writeonly uniform image2D i_fitness;

shared float s_trial[DE_GROUP * DE_DIM];
shared uint s_accept[DE_GROUP];

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint slot = t / uint(DE_SPAN);
    int j0 = int(t % uint(DE_SPAN));
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint i = group * uint(DE_GROUP) + slot;
    bool live = slot < uint(DE_GROUP) && i < uint(u_np);
    uint g = u_generation;
    if (live) {
        // Every invocation of an individual derives its choices: one Philox call, cheaper
        // than a barrier to share them.
        uvec4 c = de_choose(i, g);
        uvec4 r = de_choice_indices(c);
        int L = de_choice_length(c);
        uint best = de_best_index();
        for (int j = j0; j < DE_DIM; j += DE_SPAN) {
#if DE_STRATEGY == 3
            float u = 0.0;
#else
            float u = de_u01(i, g, DE_PASS_CROSS, uint(j));
#endif
            s_trial[slot * uint(DE_DIM) + uint(j)] = de_trial_gene(i, g, r, best, L, j, u);
        }
    }
    barrier();
    if (live && j0 == 0) {
        vec4 acc = problem_init();
        // DE_DIM (= u_dim) as the bound: a constant trip count lets the compiler unroll the
        // fold and issue its shared-memory loads ahead of the dependent adds.
        for (int j = 0; j < DE_DIM; ++j)
            acc = de_fold_gene(acc, j, s_trial[slot * uint(DE_DIM) + uint(j)]);
        float ft = problem_finish(acc, u_dim);
        ivec2 p = de_fitness_texel(i);
        float fi = texelFetch(t_fitness, p, 0).r;
        bool a = de_accept(ft, fi);
        imageStore(i_fitness, p, vec4(a ? ft : fi, a ? 1.0 : 0.0, 0.0, 0.0));
        s_accept[slot] = a ? 1u : 0u;
    }
    barrier();
    if (!live) return;
    bool a = s_accept[slot] != 0u;
    for (int j = j0; j < DE_DIM; j += DE_SPAN)
        imageStore(i_population, de_texel(i, j),
                   vec4(a ? s_trial[slot * uint(DE_DIM) + uint(j)] : de_gene(i, j), 0.0, 0.0, 0.0));
}
