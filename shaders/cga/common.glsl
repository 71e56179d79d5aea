// Cellular GA layout and uniforms (C side: src/cga/passes.h, cga_uniforms). Defined by
// the engine at build time: GENE_TEXTURES (= ceil(DIM / 4)), DIM, NEIGHBOURHOOD and the pass
// numbers PASS_SELECT, PASS_XPOINTS, PASS_MUTATE that key the random stream (from the C enum,
// so they cannot drift apart). Gene j of a cell is channel j % 4 of texture j / 4.
layout(std140) uniform pass_uniforms {
    uvec4 u_rng_offset;       // RNG_TEXTURE: this generation's table offsets
    ivec2 u_grid;             // W, H of the population grid (a torus)
    uvec2 u_key;              // (seed, stream) of the random stream
    int u_bits;               // gene length L (<= 24)
    uint u_generation;
    float u_lower;            // x = lower + gene * step
    float u_step;             // (upper - lower) / (2^L - 1)
    float u_sign;             // +1 maximise, -1 minimise
    float u_generation_plus_one;
    float u_pc;
    float u_pm;
    vec4 u_flip_cdf[24];      // skip mutation: 1 - (1 - pm)^k for k = 1..96, four a vec4
    ivec4 u_block;            // blocked kernel (cga/block.glsl): generations, groups x, y
    ivec4 u_fold;             // blocked kernel: tile rows, half written, generations to fold and
                              // their first generation
    ivec4 u_mask;             // blocked kernel: 0, half of the flips written, generations drawn and
                              // their first generation
    ivec4 u_evolve;           // fused evolve (cga/evolve.glsl): fold (0 no, 1 the tiles' bests, 2
                              // the fitness dispatch's; -1: a warm-up, every compute kernel
                              // returns at once), score the children, the half of `bests`
                              // written, entries a half
    vec4 u_skip;              // skip mutation: log2(1 - pm), 0, 0, 0 (cga/mutate.glsl)
};

ivec2 torus(ivec2 p) { return (p + u_grid) % u_grid; }
uint cell_index(ivec2 p) { return uint(p.y * u_grid.x + p.x); }

// Gene texture t's texel g with the channels past DIM 0, as the host holds them: a texel of
// the R32F / RG32F gene textures (dim 1 / 2, src/cga/gpu.c) reads alpha 1. For what leaves
// the population (the record).
vec4 cga_gene_channels(int t, vec4 g)
{
    return mix(vec4(0.0), g, lessThan(ivec4(4 * t) + ivec4(0, 1, 2, 3), ivec4(DIM)));
}

// CGA_EACH_TEXTURE(B) expands to B(0) B(1) ... B(GENE_TEXTURES - 1): one copy of a per-texture
// statement with t a literal. GLSL ES 3.00 (the WebGL2 page, web/) indexes sampler and
// fragment-output arrays with constant expressions only, never a loop index; the desktop
// compilers unroll those loops anyway, so the code they run is the same.
#define CGA_TEXTURES_1(B) B(0)
#define CGA_TEXTURES_2(B) CGA_TEXTURES_1(B) B(1)
#define CGA_TEXTURES_3(B) CGA_TEXTURES_2(B) B(2)
#define CGA_TEXTURES_4(B) CGA_TEXTURES_3(B) B(3)
#define CGA_TEXTURES_5(B) CGA_TEXTURES_4(B) B(4)
#define CGA_TEXTURES_6(B) CGA_TEXTURES_5(B) B(5)
#define CGA_TEXTURES_7(B) CGA_TEXTURES_6(B) B(6)
#define CGA_TEXTURES_8(B) CGA_TEXTURES_7(B) B(7)
#if GENE_TEXTURES == 1
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_1(B)
#elif GENE_TEXTURES == 2
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_2(B)
#elif GENE_TEXTURES == 3
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_3(B)
#elif GENE_TEXTURES == 4
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_4(B)
#elif GENE_TEXTURES == 5
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_5(B)
#elif GENE_TEXTURES == 6
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_6(B)
#elif GENE_TEXTURES == 7
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_7(B)
#else
#define CGA_EACH_TEXTURE(B) CGA_TEXTURES_8(B)
#endif
