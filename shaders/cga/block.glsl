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
// Every generation each group also writes its interior's best texel (value, x, y, present)
// and that individual's genes to `bests`; cga/block_fold.glsl folds them into the best-so-far
// record in generation order, so the history equals the one-generation driver's (the same
// total order, reduce/better.glsl, over the same cells). The fitness store ends with the last
// generation's fitness before variation, as the one-generation driver leaves it.
//
// The passes' bodies are the one-generation drivers' (cga_fitness, cga_roulette, cga_cut,
// cga_crossover, cga_mutate): only where the inputs live differs. Host side: src/cga/block.c.
#define CGA_BODIES_ONLY 1
#define CGA_BLOCK 1
// The generation the random words are keyed by: this kernel's own counter (rng/source.glsl).
#define RNG_GENERATION g_generation
uint g_generation = 0u;
// First: fitness.glsl names it too, in a section this kernel leaves out, and a file is
// included once.
#define REDUCE_GROUP BLOCK_LOCAL
#include "reduce/better.glsl"
#include "cga/fitness.glsl"
#include "cga/select.glsl"
#include "cga/crossover_points.glsl"
#include "cga/crossover.glsl"
#include "cga/mutate.glsl"

uniform sampler2D t_genes[GENE_TEXTURES];
layout(rgba32f) writeonly uniform image2D i_genes[GENE_TEXTURES];
layout(r32f) writeonly uniform image2D i_fitness;
layout(std430) writeonly buffer block_bests { vec4 best_entry[]; };
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
shared vec4 s_genes[GENE_TEXTURES * RR];
shared float s_fit[RR];

#ifdef BLOCK_RESIDENT
int at(ivec2 q) { q = (q + ivec2(RX, RY) * 2) % ivec2(RX, RY); return q.y * RX + q.x; }
#else
int at(ivec2 q) { return q.y * RX + q.x; }
#endif
// The torus position of region coordinates, which are >= -(HX, HY) (the halo may wrap more
// than once on grids smaller than the region); shifted to be non-negative first, as GLSL's %
// is undefined for negative operands.
ivec2 wrap(ivec2 p) { return (p + (ivec2(HX, HY) / u_grid + 1) * u_grid) % u_grid; }

// The local index of the cell whose genes replace the one at q (global p).
int winner(ivec2 q, ivec2 p)
{
    float f[N];
    for (int i = 0; i < N; ++i) f[i] = s_fit[at(q + offset(i))];
    return at(q + offset(cga_roulette(p, f)));
}

void main()
{
    int lid = int(gl_LocalInvocationIndex);
    int steps = u_block.x, groups = u_block.y * u_block.z;
    int gid = int(gl_WorkGroupID.y) * u_block.y + int(gl_WorkGroupID.x);
    ivec2 tile = ivec2(gl_WorkGroupID.xy) * ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
    ivec2 origin = tile - ivec2(HX, HY); // local (0, 0) in unwrapped grid coordinates
    ivec2 inner = ivec2(HX, HY);
    // Interior cells that lie on the grid (the last tiles of a row or column may overhang it:
    // their overhang repeats cells that other groups own).
    ivec2 inner_end = inner + min(ivec2(BLOCK_TILE_X, BLOCK_TILE_Y), u_grid - tile);

    // The population at the block's start: the interior and `steps` halos.
    ivec2 lo = inner - steps * HALO;
    ivec2 size = ivec2(BLOCK_TILE_X, BLOCK_TILE_Y) + 2 * steps * HALO;
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
        lo = inner - h * HALO;
        size = ivec2(BLOCK_TILE_X, BLOCK_TILE_Y) + 2 * h * HALO;
        vec4 mine = vec4(0.0);
        for (int i = lid; i < size.x * size.y; i += BLOCK_LOCAL) {
            ivec2 q = lo + ivec2(i % size.x, i / size.x);
            vec4 g[GENE_TEXTURES];
            for (int t = 0; t < GENE_TEXTURES; ++t) g[t] = s_genes[t * RR + at(q)];
            float f = cga_fitness(g);
            s_fit[at(q)] = f;
            if (all(greaterThanEqual(q, inner)) && all(lessThan(q, inner_end))) {
                ivec2 p = origin + q; // on the grid: no wrap
                vec4 c = vec4(f, vec2(p), 1.0);
                if (better(c, mine)) mine = c;
                if (last) imageStore(i_fitness, p, vec4(f));
            }
        }
        memoryBarrierShared();
        vec4 best = reduce_group(mine, uint(lid)); // barriers: s_fit is complete after it
        int entry = (k * groups + gid) * (1 + GENE_TEXTURES);
        if (lid == 0) best_entry[entry] = best;
        else if (lid <= GENE_TEXTURES)
            best_entry[entry + lid] = s_genes[(lid - 1) * RR + at(ivec2(best.yz) - origin)];

        // Selection, crossover and mutation for the pairs of the interior and h - 1 halos; the
        // last generation writes the interior's children to the images, the others keep them
        // in registers until every invocation has read this generation's genes.
        int hp = h - 1;
        lo = inner - hp * HALO;
        ivec2 pairs = ivec2(BLOCK_TILE_X / 2, BLOCK_TILE_Y) + 2 * hp * ivec2(HALO.x / 2, HALO.y);
        vec4 kids[BLOCK_PAIRS * 2 * GENE_TEXTURES];
        for (int j = 0; j < BLOCK_PAIRS; ++j) {
            int i = lid + j * BLOCK_LOCAL;
            if (i >= pairs.x * pairs.y) break;
            ivec2 qa = lo + ivec2(2 * (i % pairs.x), i / pairs.x), qb = qa + ivec2(1, 0);
            ivec2 pa = wrap(origin + qa), pb = ivec2(pa.x + 1, pa.y);
            int wa = winner(qa, pa), wb = winner(qb, pb);
            bool store = last && all(lessThan(qa, inner_end));
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                vec4 ga = s_genes[t * RR + wa], gb = s_genes[t * RR + wb];
                vec4 cut = cga_cut(ivec2(pa.x / 2, pa.y), t);
                vec4 ka = cga_mutate(pa, t, cga_crossover(ga, gb, cut));
                vec4 kb = cga_mutate(pb, t, cga_crossover(gb, ga, cut));
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
            if (i >= pairs.x * pairs.y) break;
            ivec2 qa = lo + ivec2(2 * (i % pairs.x), i / pairs.x);
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                s_genes[t * RR + at(qa)] = kids[(2 * j) * GENE_TEXTURES + t];
                s_genes[t * RR + at(qa) + 1] = kids[(2 * j + 1) * GENE_TEXTURES + t];
            }
        }
        memoryBarrierShared();
        barrier();
    }
}
