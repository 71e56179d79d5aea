// The uniform block and texture units every DSMGA-II model pass shares (C side: dsm_uniforms
// and the slot table in src/dsmga/model_internal.h). A pass that does not read a sampler
// leaves it inactive. CLIQUE_PASS_TIE and CLIQUE_PASS_REP (the random stream's pass words)
// are injected from src/dsmga/dsmga_internal.h.
layout(std140) uniform pass_uniforms {
    uvec2 u_key;          // (seed, CLIQUE_STREAM)
    uint u_generation;
    int u_n;              // population size
    int u_words;          // FastCounting words per gene, ceil(n / 32)
    int u_ell;
    int u_block;          // genes per pick_partial fragment
    int u_blocks;
    int u_step;           // FindClique step (column of the ILS)
    int u_lossy;
    float u_inv_n;        // 1/n rounded on the host: GPU division is not IEEE-rounded
    int u_bits_width;     // texels a row of t_bits
};
uniform usampler2D t_rows;  // FastCounting rows: width = words, height = ell genes
uniform sampler2D t_dsm;    // ell x ell mutual information
uniform usampler2D t_pop;   // FastCounting rows of the population (lossy)
uniform usampler2D t_mask;  // lossy: individuals complementary on the set so far
uniform usampler2D t_ils;
uniform usampler2D t_conn;
uniform usampler2D t_prio;
uniform usampler2D t_part;  // per-block winners of pick_partial
uniform usampler2D t_bits;  // the population's n x ell bytes, 4 a texel (dsmga/pack.glsl)
