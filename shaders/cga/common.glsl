// Cellular GA layout (C side: src/cga/cga_internal.h). Defined by the engine at build time:
// GENE_TEXTURES (= ceil(DIM / 4)), DIM. Gene j of a cell is channel j % 4 of texture j / 4.
uniform ivec2 u_grid;  // W, H of the population grid (a torus)
uniform int u_bits;    // gene length L (<= 24)

const uint PASS_SELECT = 1u;
const uint PASS_XPOINTS = 2u;
const uint PASS_MUTATE = 3u;

ivec2 torus(ivec2 p) { return (p + u_grid) % u_grid; }
uint cell_index(ivec2 p) { return uint(p.y * u_grid.x + p.x); }
