// Test pass: the random choices of generation u_generation, one fragment per gene in the
// population layout: (r1, r2, r3, from_mutant) where from_mutant is the crossover mask of
// gene j (jrand included). Lets tests/de/test_stream.c compare the GPU stream with the C twin.
#include "de/common.glsl"

layout(location = 0) out vec4 o_choice;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int slot = p.x / u_dim;
    int j = p.x - slot * u_dim;
    int k = p.y * u_per_row + slot;
    if (k >= u_np) {
        o_choice = vec4(-1.0);
        return;
    }
    uint i = uint(k);
    uvec4 c = de_choose(i, u_generation);
    uvec4 r = de_choice_indices(c);
    int L = de_choice_length(c);
    float u = de_u01(i, u_generation, DE_PASS_CROSS, uint(j));
    o_choice = vec4(float(r.x), float(r.y), float(r.z), de_from_mutant(r, L, j, u) ? 1.0 : 0.0);
}
