// The uniform block of the GP passes and dispatches (C side: gp_uniforms in src/gp/eval/gpu.h).
layout(std140) uniform pass_uniforms {
    ivec2 u_tile;        // a tile's fragments (PPCU/FP: 64 lanes; PPPE: 1 x 1)
    ivec2 u_walk_range;  // PPCU/FP/compute: the walks [begin, end) of each lane in this draw
    ivec2 u_lane_range;  // PPPE: the lanes [begin, end) each fragment sums in this draw
    int u_tiles;         // programs x segments
    int u_nseg;          // case segments (GP_SEG_QUADS quads) per program
    int u_pop;
    int u_group;         // fragments per tile: GP_SUM_LANES, or 1 (PPPE)
    int u_prog_rows;     // rows of the tile grid (tile T at (T / rows, T % rows))
    int u_cases;
    int u_quads;
    int u_data_width;
    int u_data_rows;     // rows per variable
    int u_continue;      // 1: start from t_state / the state buffer (the last draw's sums)
    int u_tile_base;     // compute: the first tile of this dispatch
    int u_stamp;         // compute: this evaluation's stamp, in every result (the host checks it)
    int u_moments;       // 1: linear scaling's moments, not the errors; 2: the errors of a + b f
                         // (its second look, compute only; gp/interp.glsl)
    int u_pad2;
};
