// The compute driver's blocked kernel (temporal blocking, the stencil codes' technique): one
// dispatch runs u_block.x <= BLOCK_DEPTH generations. A work-group owns a tile of
// BLOCK_TILE_X x BLOCK_TILE_Y cells; it loads the tile with a halo of 2 cells (one pair) a
// generation left and right and BLOCK_RADIUS rows a generation above and below into shared
// memory, then runs the generations there, recomputing its part of the halo instead of
// synchronising with its neighbours: a cell of generation g + 1 depends only on the pairs
// within one pair and the rows within the radius at g (selection reads the neighbourhood,
// crossover the pair's partner), and every random word is Philox keyed by (cell, generation),
// so a halo cell recomputed here is the cell its owner computes. The region shrinks by one
// halo a generation; the interior is written back at the end.
//
// A generation's steps, each over all the group's invocations with a barrier between: fitness
// (the interior's into the history below), then selection, crossover and the flips applied,
// pair by pair. The flips are not drawn here: they depend only on (cell, generation), and the
// Philox words of per-bit mutation are most of a generation's work, which a tile's halo would
// repeat (3.4x at 8x4 tiles and depth 4). More groups of the dispatch before (rows past the
// fold's) drew them for every cell of the grid once, into one half of `flips`, alongside its
// tiles: a tile's group is bound by its barriers' latency, and the GPU runs the drawing groups
// in the issue slots it leaves. A stretch's first block has them drawn by a dispatch of its own.
//
// The generations' bests are found once, at the block's end: each generation's fitness of the
// interior stays in shared memory (s_hist) and its genes go to `history` (global: only the
// best's are read back), then a segmented reduction finds every generation's best at once
// (GEN_SLOTS invocations a generation) and writes its texel (value, x, y, present) to
// `best_entry`. They are folded into the best-so-far record by one more group of the NEXT
// dispatch, while its tiles run (or by a dispatch of that group alone where a stretch of
// generations ends: src/cga/block.c): every generation's best over the groups at once, then
// the record generation by generation with the one-generation drivers' rule
// (cga_record_takes), so the history equals theirs: the same total order (reduce/better.glsl)
// over the same cells. Bests and history have two halves, one written while the other is
// folded. (A reduction with barriers every generation, and a fold generation by generation
// by the group that finished last, took about a third of a 64x64 block's time on the H100.)
// The fitness store ends with the last generation's fitness before variation, as the
// one-generation driver leaves it.
//
// The passes' bodies are the one-generation drivers' (cga_fitness, cga_roulette, cga_cut,
// cga_crossover, cga_mutate): only where the inputs live differs. Host side: src/cga/block.c.
#define CGA_BODIES_ONLY 1
#define CGA_BLOCK 1
// The generation the random words are keyed by: this kernel's own counter (rng/source.glsl).
#define RNG_GENERATION g_generation
uint g_generation = 0u;
// First: fitness.glsl includes it too, in a section this kernel leaves out, and a file is
// included once.
#include "reduce/better.glsl"
#include "cga/fitness.glsl"
#include "cga/select.glsl"
#include "cga/crossover_points.glsl"
#include "cga/crossover.glsl"
#include "cga/mutate.glsl"
#include "cga/keep_best.glsl"

uniform sampler2D t_genes[GENE_TEXTURES];
layout(GENE_IMAGE_FORMAT) writeonly uniform image2D i_genes[GENE_TEXTURES];
layout(r32f) writeonly uniform image2D i_fitness;
layout(rgba32f) uniform image2D i_record; // read and written by the folding group only
// Per half, generation of the block and group: the group's best texel.
layout(std430) buffer block_bests { vec4 best_entry[]; };
// Per half, group, generation of the block and interior cell: its genes (textures in a row).
layout(std430) buffer block_history { vec4 history[]; };
// Per half, generation of the block and cell of the grid: its flips, a mask a gene texture.
layout(std430) buffer block_flips { uvec4 flips[]; };
layout(local_size_x = BLOCK_LOCAL) in;

#ifdef BLOCK_RESIDENT
// One group holds the whole torus (BLOCK_TILE = the grid): no halo, neighbours wrap here.
const ivec2 HALO = ivec2(0);
#else
const ivec2 HALO = ivec2(2, BLOCK_RADIUS); // a generation's halo: one pair, the radius's rows
#endif
const int HX = HALO.x * BLOCK_DEPTH, HY = HALO.y * BLOCK_DEPTH; // the halo at full depth
const int RX = BLOCK_TILE_X + 2 * HX, RY = BLOCK_TILE_Y + 2 * HY;   // the region in shared
const int RR = RX * RY;
const int TILE = BLOCK_TILE_X * BLOCK_TILE_Y;
shared vec4 s_genes[GENE_TEXTURES * RR];
shared float s_fit[RR];
shared float s_hist[BLOCK_DEPTH * TILE];     // each generation's fitness of the interior
shared vec4 s_red[BLOCK_DEPTH * GEN_SLOTS];  // the generations' segmented reductions
shared vec4 s_win[BLOCK_DEPTH * GENE_TEXTURES]; // the fold: each generation's best's genes

#ifdef BLOCK_RESIDENT
int at(ivec2 q) { q = (q + ivec2(RX, RY) * 2) % ivec2(RX, RY); return q.y * RX + q.x; }
#else
int at(ivec2 q) { return q.y * RX + q.x; }
#endif
// The torus position of region coordinates, which are >= -(HX, HY) (the halo may wrap more
// than once on grids smaller than the region); shifted to be non-negative first, as GLSL's %
// is undefined for negative operands.
ivec2 wrap(ivec2 p) { return (p + (ivec2(HX, HY) / u_grid + 1) * u_grid) % u_grid; }

float cga_neighbour_fitness(ivec2 q, int i) { return s_fit[at(q + offset(i))]; }

// The local index of the cell whose genes replace the one at q (global p).
int winner(ivec2 q, ivec2 p) { return at(q + offset(cga_roulette(p, q))); }

// Every generation's best at once: invocation lid holds generation lid / GEN_SLOTS's
// candidate `mine`; after the call s_red[k * GEN_SLOTS] is generation k's best (better()'s
// total order, so any tree finds the same texel). All invocations call it (barriers).
void best_of_generations(vec4 mine, int lid)
{
    if (lid < BLOCK_DEPTH * GEN_SLOTS) s_red[lid] = mine;
    memoryBarrierShared();
    barrier();
    int slot = lid % GEN_SLOTS;
    for (int h = GEN_SLOTS / 2; h > 0; h /= 2) {
        if (lid < BLOCK_DEPTH * GEN_SLOTS && slot < h && better(s_red[lid + h], s_red[lid]))
            s_red[lid] = s_red[lid + h];
        memoryBarrierShared();
        barrier();
    }
}

// The region's rectangle around the interior with h halos: origin and size.
ivec2 ring_lo(int h) { return ivec2(HX, HY) - h * HALO; }
ivec2 ring_size(int h) { return ivec2(BLOCK_TILE_X, BLOCK_TILE_Y) + 2 * h * HALO; }

int flips_at(int half_, int k, ivec2 p, int t)
{
    return ((half_ * BLOCK_DEPTH + k) * u_grid.x * u_grid.y + int(cell_index(p))) * GENE_TEXTURES + t;
}

// The rows past the fold's: the flips of every cell for u_mask.z generations from u_mask.w
// (the next block's) into half u_mask.y, an item (generation, cell, gene texture) at a time.
void draw_flips(int lid)
{
    int rows = int(gl_NumWorkGroups.y) - u_fold.x - 1;
    int row = int(gl_WorkGroupID.y) - u_fold.x - 1;
    int per_generation = u_grid.x * u_grid.y * GENE_TEXTURES, items = per_generation * u_mask.z;
    int stride = rows * int(gl_NumWorkGroups.x) * BLOCK_LOCAL;
    cga_flip_cdf_share(uint(lid), uint(BLOCK_LOCAL));
    for (int i = (row * int(gl_NumWorkGroups.x) + int(gl_WorkGroupID.x)) * BLOCK_LOCAL + lid;
         i < items; i += stride) {
        int k = i / per_generation, cell = (i % per_generation) / GENE_TEXTURES, t = i % GENE_TEXTURES;
        ivec2 p = ivec2(cell % u_grid.x, cell / u_grid.x);
        g_generation = uint(u_mask.w) + uint(k);
        flips[flips_at(u_mask.y, k, p, t)] = cga_mutation_mask(p, t, 0, u_bits);
    }
}

int history_at(int half_, int group, int k, int cell, int t)
{
    return (((half_ * u_block.y * u_block.z + group) * BLOCK_DEPTH + k) * TILE + cell) *
           GENE_TEXTURES + t;
}

// The fold of the dispatch before (u_fold.z generations from u_fold.w, in the half this
// dispatch does not write) into the record, by one group.
void fold(int lid)
{
    int steps = u_fold.z, groups = u_block.y * u_block.z, from = 1 - u_fold.y;
    // Every generation's best over the groups at once, then their genes.
    int gk = lid / GEN_SLOTS, slot = lid % GEN_SLOTS;
    vec4 mine = vec4(0.0);
    for (int j = slot; gk < steps && j < groups; j += GEN_SLOTS) {
        vec4 c = best_entry[(from * BLOCK_DEPTH + gk) * groups + j];
        if (better(c, mine)) mine = c;
    }
    best_of_generations(mine, lid);
    for (int i = lid; i < steps * GENE_TEXTURES; i += BLOCK_LOCAL) {
        int k = i / GENE_TEXTURES, t = i % GENE_TEXTURES;
        // The group that owns the best cell saved its genes.
        ivec2 p = ivec2(s_red[k * GEN_SLOTS].yz), owner = p / ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
        ivec2 d = p - owner * ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
        s_win[i] = history[history_at(from, owner.y * u_block.y + owner.x, k,
                                      d.y * BLOCK_TILE_X + d.x, t)];
    }
    memoryBarrierShared();
    barrier();
    // The record, generation by generation: invocation t keeps texel t of it.
    if (lid <= GENE_TEXTURES) {
        vec4 head = imageLoad(i_record, ivec2(0, 0)), mine_t = imageLoad(i_record, ivec2(lid, 0));
        for (int k = 0; k < steps; ++k) {
            vec4 best = s_red[k * GEN_SLOTS];
            if (cga_record_takes(head, best)) {
                head = vec4(best.xyz, float(uint(u_fold.w) + uint(k) + 1u));
                mine_t = lid == 0 ? head
                                  : cga_gene_channels(lid - 1, s_win[k * GENE_TEXTURES + lid - 1]);
            }
        }
        imageStore(i_record, ivec2(lid, 0), mine_t);
    }
}

void main()
{
    int lid = int(gl_LocalInvocationIndex);
    // The row past the tiles: its first group folds the dispatch before's bests; the rows
    // past it draw the next block's flips.
    if (int(gl_WorkGroupID.y) == u_fold.x) {
        if (gl_WorkGroupID.x == 0u && u_fold.z > 0) fold(lid);
        return;
    }
    if (int(gl_WorkGroupID.y) > u_fold.x) {
        draw_flips(lid);
        return;
    }
    int steps = u_block.x, groups = u_block.y * u_block.z;
    int gid = int(gl_WorkGroupID.y) * u_block.y + int(gl_WorkGroupID.x);
    ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
    ivec2 origin = tile - ivec2(HX, HY); // local (0, 0) in unwrapped grid coordinates
    ivec2 inner = ivec2(HX, HY);
    // Interior cells that lie on the grid (the last tiles of a row or column may overhang it:
    // their overhang repeats cells that other groups own).
    ivec2 inner_size = min(ivec2(BLOCK_TILE_X, BLOCK_TILE_Y), u_grid - tile);

    // The population at the block's start: the interior and `steps` halos.
    ivec2 lo = ring_lo(steps), size = ring_size(steps);
    for (int i = lid; i < size.x * size.y; i += BLOCK_LOCAL) {
        ivec2 q = lo + ivec2(i % size.x, i / size.x);
        ivec2 p = wrap(origin + q);
        for (int t = 0; t < GENE_TEXTURES; ++t) s_genes[t * RR + at(q)] = texelFetch(t_genes[t], p, 0);
    }
    memoryBarrierShared();
    barrier();

    for (int k = 0; k < steps; ++k) {
        g_generation = u_generation + uint(k);
        bool last = k == steps - 1;
        // Fitness where this generation's selection reads it: the interior and h halos.
        int h = steps - k;
        lo = ring_lo(h);
        size = ring_size(h);
        for (int i = lid; i < size.x * size.y; i += BLOCK_LOCAL) {
            ivec2 q = lo + ivec2(i % size.x, i / size.x);
            vec4 g[GENE_TEXTURES];
            for (int t = 0; t < GENE_TEXTURES; ++t) g[t] = s_genes[t * RR + at(q)];
            float f = cga_fitness(g);
            s_fit[at(q)] = f;
            // The interior's (on the grid) into the history, for the bests at the block's end.
            ivec2 d = q - inner;
            if (all(greaterThanEqual(d, ivec2(0))) && all(lessThan(d, inner_size))) {
                int cell = d.y * BLOCK_TILE_X + d.x;
                s_hist[k * TILE + cell] = f;
                for (int t = 0; t < GENE_TEXTURES; ++t) history[history_at(u_fold.y, gid, k, cell, t)] = g[t];
                if (last) imageStore(i_fitness, tile + d, vec4(f));
            }
        }
        memoryBarrierShared();
        barrier();

        // The pairs of the interior and h - 1 halos.
        int hp = h - 1;
        lo = ring_lo(hp);
        size = ring_size(hp);

        // Selection, crossover and the flips for the pairs of the interior and h - 1 halos; the
        // last generation writes the interior's children to the images, the others keep them
        // in registers until every invocation has read this generation's genes (`continue`, not
        // `break`: a loop of constant count unrolls, so kids[] needs no local memory).
        ivec2 pairs = ivec2(size.x / 2, size.y);
        vec4 kids[BLOCK_PAIRS * 2 * GENE_TEXTURES];
        for (int j = 0; j < BLOCK_PAIRS; ++j) {
            int i = lid + j * BLOCK_LOCAL;
            if (i >= pairs.x * pairs.y) continue;
            ivec2 qa = lo + ivec2(2 * (i % pairs.x), i / pairs.x), qb = qa + ivec2(1, 0);
            ivec2 pa = wrap(origin + qa), pb = ivec2(pa.x + 1, pa.y);
            int wa = winner(qa, pa), wb = winner(qb, pb);
            bool store = last && all(lessThan(qa - inner, inner_size));
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                vec4 ga = s_genes[t * RR + wa], gb = s_genes[t * RR + wb];
                vec4 cut = cga_cut(ivec2(pa.x / 2, pa.y), t);
                uvec4 flip_a = flips[flips_at(1 - u_mask.y, k, pa, t)];
                uvec4 flip_b = flips[flips_at(1 - u_mask.y, k, pb, t)];
                vec4 ka = cga_flip(cga_crossover(ga, gb, cut), flip_a);
                vec4 kb = cga_flip(cga_crossover(gb, ga, cut), flip_b);
                kids[(2 * j) * GENE_TEXTURES + t] = ka;
                kids[(2 * j + 1) * GENE_TEXTURES + t] = kb;
                if (store) {
                    imageStore(i_genes[t], pa, ka);
                    imageStore(i_genes[t], pb, kb);
                }
            }
        }
        if (last) break;
        barrier(); // every invocation has read generation k's genes (and the best's)
        for (int j = 0; j < BLOCK_PAIRS; ++j) {
            int i = lid + j * BLOCK_LOCAL;
            if (i >= pairs.x * pairs.y) continue;
            int a = at(lo + ivec2(2 * (i % pairs.x), i / pairs.x));
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                s_genes[t * RR + a] = kids[(2 * j) * GENE_TEXTURES + t];
                s_genes[t * RR + a + 1] = kids[(2 * j + 1) * GENE_TEXTURES + t];
            }
        }
        memoryBarrierShared();
        barrier();
    }

    // Each generation's best of the interior, for the next dispatch's fold.
    memoryBarrierShared();
    barrier();
    int gk = lid / GEN_SLOTS, slot = lid % GEN_SLOTS, cells = inner_size.x * inner_size.y;
    vec4 mine = vec4(0.0);
    for (int i = slot; gk < steps && i < cells; i += GEN_SLOTS) {
        ivec2 d = ivec2(i % inner_size.x, i / inner_size.x);
        vec4 c = vec4(s_hist[gk * TILE + d.y * BLOCK_TILE_X + d.x], vec2(tile + d), 1.0);
        if (better(c, mine)) mine = c;
    }
    best_of_generations(mine, lid);
    if (lid < steps) best_entry[(u_fold.y * BLOCK_DEPTH + lid) * groups + gid] = s_red[lid * GEN_SLOTS];
}
