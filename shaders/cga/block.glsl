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
// (and its interior's best), the mutation masks (per-bit mutation splits each gene's bits
// among BLOCK_SPLIT invocations: the Philox words are most of the work, and a small grid has
// few cells to spread over the GPU), then selection, crossover and the masks applied, pair by
// pair.
//
// Every generation each group also writes its interior's best texel (value, x, y, present)
// and that individual's genes to `best_entry`; the group that finishes last folds them into
// the best-so-far record in generation order (the one-generation drivers' rule,
// cga_record_takes), so the history equals theirs: the same total order
// (reduce/better.glsl) over the same cells. The fitness store ends with the last
// generation's fitness before variation, as the one-generation driver leaves it.
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
layout(rgba32f) writeonly uniform image2D i_genes[GENE_TEXTURES];
layout(r32f) writeonly uniform image2D i_fitness;
layout(rgba32f) coherent uniform image2D i_record; // read and written by the last group only
// done: groups finished (the last one resets it); then per generation k and group j, the
// group's best texel and its genes.
layout(std430) coherent buffer block_bests { uint done; vec4 best_entry[]; };
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
const int SLOTS = 64; // invocations of the best-texel reductions
shared vec4 s_genes[GENE_TEXTURES * RR];
shared float s_fit[RR];
shared uint s_mask[RR * GENE_TEXTURES * 4]; // the next flips, per cell, texture and channel
shared vec4 s_best[SLOTS];
shared vec4 s_record[1 + GENE_TEXTURES];
shared bool s_last;

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

// The best of the SLOTS invocations' texels (better()'s total order); the result is valid in
// every invocation. All invocations call it (barriers).
vec4 best_of_slots(vec4 mine, int lid)
{
    if (lid < SLOTS) s_best[lid] = mine;
    memoryBarrierShared();
    barrier();
    for (int h = SLOTS / 2; h > 0; h /= 2) {
        if (lid < h && better(s_best[lid + h], s_best[lid])) s_best[lid] = s_best[lid + h];
        memoryBarrierShared();
        barrier();
    }
    vec4 best = s_best[0];
    barrier();
    return best;
}

// The region's rectangle around the interior with h halos: origin and size.
ivec2 ring_lo(int h) { return ivec2(HX, HY) - h * HALO; }
ivec2 ring_size(int h) { return ivec2(BLOCK_TILE_X, BLOCK_TILE_Y) + 2 * h * HALO; }

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
    ivec2 inner_size = min(ivec2(BLOCK_TILE_X, BLOCK_TILE_Y), u_grid - tile);

    // The population at the block's start: the interior and `steps` halos.
    ivec2 lo = ring_lo(steps), size = ring_size(steps);
    for (int i = lid; i < size.x * size.y; i += BLOCK_LOCAL) {
        ivec2 q = lo + ivec2(i % size.x, i / size.x);
        ivec2 p = wrap(origin + q);
        for (int t = 0; t < GENE_TEXTURES; ++t) {
            s_genes[t * RR + at(q)] = texelFetch(t_genes[t], p, 0);
            for (int c = 0; c < 4; ++c) s_mask[(at(q) * GENE_TEXTURES + t) * 4 + c] = 0u;
        }
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
            s_fit[at(q)] = cga_fitness(g);
        }
        memoryBarrierShared();
        barrier();

        // The interior's best, with its genes for the record.
        vec4 mine = vec4(0.0);
        for (int i = lid; i < inner_size.x * inner_size.y && lid < SLOTS; i += SLOTS) {
            ivec2 d = ivec2(i % inner_size.x, i / inner_size.x);
            float f = s_fit[at(inner + d)];
            vec4 c = vec4(f, vec2(tile + d), 1.0);
            if (better(c, mine)) mine = c;
            if (last) imageStore(i_fitness, tile + d, vec4(f));
        }
        vec4 best = best_of_slots(mine, lid);
        int entry = (k * groups + gid) * (1 + GENE_TEXTURES);
        if (lid == 0) best_entry[entry] = best;
        else if (lid <= GENE_TEXTURES)
            best_entry[entry + lid] = s_genes[(lid - 1) * RR + at(ivec2(best.yz) - origin)];

        // The next flips of the cells of the interior and h - 1 halos.
        int hp = h - 1;
        lo = ring_lo(hp);
        size = ring_size(hp);
        int items = size.x * size.y * GENE_TEXTURES * BLOCK_SPLIT;
        int chunk = (u_bits + BLOCK_SPLIT - 1) / BLOCK_SPLIT;
        for (int i = lid; i < items; i += BLOCK_LOCAL) {
            int part = i % BLOCK_SPLIT, t = (i / BLOCK_SPLIT) % GENE_TEXTURES;
            int cell = i / (BLOCK_SPLIT * GENE_TEXTURES);
            ivec2 q = lo + ivec2(cell % size.x, cell / size.x);
            uvec4 m = cga_mutation_mask(wrap(origin + q), t, part * chunk, min(u_bits, part * chunk + chunk));
            for (int c = 0; c < 4; ++c)
#if BLOCK_SPLIT > 1
                if (m[c] != 0u) atomicOr(s_mask[(at(q) * GENE_TEXTURES + t) * 4 + c], m[c]);
#else
                s_mask[(at(q) * GENE_TEXTURES + t) * 4 + c] = m[c];
#endif
        }
        memoryBarrierShared();
        barrier();

        // Selection, crossover and the flips for the pairs of the interior and h - 1 halos; the
        // last generation writes the interior's children to the images, the others keep them
        // in registers until every invocation has read this generation's genes.
        ivec2 pairs = ivec2(size.x / 2, size.y);
        vec4 kids[BLOCK_PAIRS * 2 * GENE_TEXTURES];
        for (int j = 0; j < BLOCK_PAIRS; ++j) {
            int i = lid + j * BLOCK_LOCAL;
            if (i >= pairs.x * pairs.y) break;
            ivec2 qa = lo + ivec2(2 * (i % pairs.x), i / pairs.x), qb = qa + ivec2(1, 0);
            ivec2 pa = wrap(origin + qa), pb = ivec2(pa.x + 1, pa.y);
            int wa = winner(qa, pa), wb = winner(qb, pb);
            bool store = last && all(lessThan(qa - inner, inner_size));
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                vec4 ga = s_genes[t * RR + wa], gb = s_genes[t * RR + wb];
                vec4 cut = cga_cut(ivec2(pa.x / 2, pa.y), t);
                int ma = (at(qa) * GENE_TEXTURES + t) * 4, mb = (at(qb) * GENE_TEXTURES + t) * 4;
                uvec4 flip_a = uvec4(s_mask[ma], s_mask[ma + 1], s_mask[ma + 2], s_mask[ma + 3]);
                uvec4 flip_b = uvec4(s_mask[mb], s_mask[mb + 1], s_mask[mb + 2], s_mask[mb + 3]);
                for (int c = 0; c < 4; ++c) s_mask[ma + c] = s_mask[mb + c] = 0u; // for the next
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
            if (i >= pairs.x * pairs.y) break;
            int a = at(lo + ivec2(2 * (i % pairs.x), i / pairs.x));
            for (int t = 0; t < GENE_TEXTURES; ++t) {
                s_genes[t * RR + a] = kids[(2 * j) * GENE_TEXTURES + t];
                s_genes[t * RR + a + 1] = kids[(2 * j + 1) * GENE_TEXTURES + t];
            }
        }
        memoryBarrierShared();
        barrier();
    }

    // The last group to finish folds every group's bests into the record, generation by
    // generation (its entries were made visible before it counted itself done).
    memoryBarrierBuffer();
    barrier();
    if (lid == 0) s_last = atomicAdd(done, 1u) == uint(groups - 1);
    barrier();
    if (!s_last) return;
    memoryBarrier();
    if (lid <= GENE_TEXTURES) s_record[lid] = imageLoad(i_record, ivec2(lid, 0));
    for (int k = 0; k < steps; ++k) {
        vec4 mine = vec4(0.0);
        for (int j = lid; j < groups && lid < SLOTS; j += SLOTS) {
            vec4 c = best_entry[(k * groups + j) * (1 + GENE_TEXTURES)];
            if (better(c, mine)) mine = c;
        }
        vec4 best = best_of_slots(mine, lid); // barriers: s_record is visible after them
        bool take = cga_record_takes(s_record[0], best);
        barrier(); // every invocation has read s_record[0]
        if (take && lid <= GENE_TEXTURES) {
            // The group that owns the best cell saved its genes.
            ivec2 owner = ivec2(best.yz) / ivec2(BLOCK_TILE_X, BLOCK_TILE_Y);
            int j = owner.y * u_block.y + owner.x;
            s_record[lid] = lid == 0 ? vec4(best.xyz, float(u_generation + uint(k) + 1u))
                                     : best_entry[(k * groups + j) * (1 + GENE_TEXTURES) + lid];
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid <= GENE_TEXTURES) imageStore(i_record, ivec2(lid, 0), s_record[lid]);
    if (lid == 0) done = 0u; // for the next dispatch
}
