// The uniform block of the GP passes (C side: gp_uniforms in src/gp/fragment.c).
layout(std140) uniform pass_uniforms {
    ivec2 u_tile;        // a program's tile of fragments (u_group = u_tile.x * u_tile.y)
    ivec2 u_quad_range;  // this draw's quads [begin, end): long evaluations are split into
                         // several draws added by blending (no multi-second draws)
    int u_pop;
    int u_group;
    int u_prog_rows;
    int u_cases;
    int u_quads;
    int u_data_width;
    int u_data_rows;     // rows per variable
    int u_pad0;
};
