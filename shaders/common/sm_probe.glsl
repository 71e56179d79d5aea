// Which of the GPU's multiprocessors ran each invocation (GL_NV_shader_thread_group's
// gl_SMIDNV), the same body as a render pass and as a compute dispatch, so that glevo info can
// say where each kind of pass runs (src/gl/sm_probe.c). A data-centre GPU need not shade
// pixels on all of them: on the H200 render passes ran on 4 of its 132 multiprocessors
// (docs/performance.md, "Where render passes run").
#extension GL_NV_shader_thread_group : require

// A little work per invocation (SM_PROBE_WORK steps, injected), so that invocations stay
// resident long enough for the hardware to spread them as it spreads a long pass.
uvec4 sm_probe(uint seed)
{
    float x = float(seed & 1023u) * 1e-3;
    for (int i = 0; i < SM_PROBE_WORK; ++i) x = x * 0.999 + 1e-3;
    return uvec4(gl_SMIDNV, gl_SMCountNV, floatBitsToUint(x), 0u);
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out uvec4 o_sm;

void main() { o_sm = sm_probe(uint(gl_FragCoord.x)); }
#endif

#ifdef GLEVO_COMPUTE
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba32ui) writeonly uniform uimage2D i_sm;

void main()
{
    imageStore(i_sm, ivec2(gl_GlobalInvocationID.xy), sm_probe(gl_GlobalInvocationID.x));
}
#endif
