// History best (paper Step 4) with the individual's genes: a (1 + GENE_TEXTURES) x 1 record,
// texel 0 = (value, x, y, generation + 1), then the genes. Reads this generation's reduction
// result and the previous record, writes the other record texture (ping-pong).
// C twin: src/cga/keep_best.c.
#include "cga/common.glsl"
uniform sampler2D t_reduced;
uniform sampler2D t_record;
uniform sampler2D t_genes[GENE_TEXTURES];

bool is_nan(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }

vec4 cga_record_texel(int i)
{
    vec4 cur = texelFetch(t_reduced, ivec2(0), 0);
    vec4 old = texelFetch(t_record, ivec2(0), 0);
    bool take = old.w == 0.0 || (is_nan(old.x) && !is_nan(cur.x));
    if (!take && cur.w != 0.0 && !is_nan(cur.x)) take = u_sign * cur.x > u_sign * old.x;
    if (!take) return texelFetch(t_record, ivec2(i, 0), 0);
    if (i == 0) return vec4(cur.xyz, u_generation_plus_one);
    vec4 g = vec4(0.0);
    for (int t = 0; t < GENE_TEXTURES; ++t)
        if (t == i - 1) g = texelFetch(t_genes[t], ivec2(cur.yz), 0);
    return g;
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out vec4 o_record;
void main() { o_record = cga_record_texel(int(gl_FragCoord.x)); }
#endif
#ifdef GLEVO_COMPUTE
layout(local_size_x = 16) in;
layout(rgba32f) writeonly uniform image2D i_record;
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i <= GENE_TEXTURES) imageStore(i_record, ivec2(i, 0), cga_record_texel(i));
}
#endif
