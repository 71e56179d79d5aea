// One GP generation on the GPU (issue 24): child c's plan (tournaments, Koza's crossover
// points with the size limit checked first, point or subtree mutation with a fresh subtree
// grown here, elites copied) from Philox words keyed by (seed, generation, child, purpose),
// then a gather: node k of the child is read from a parent or the fresh subtree at an offset
// the plan gives, and written once. C twin: src/gp/breed/breed.c, line for line.
//
// The resident population (src/gp/breed/resident.c): slot s holds [length, codes...] in t_codes at
// slot_offset(s) (the evaluator's t_programs layout: slots never cross a 4096-word row), the
// constant and subtree size of code k at the same place, slot_offset(s) + 1 + k, of t_consts
// and t_sizes (a constant's code names that index, as the evaluator reads it). Drivers: the
// compute main, a work-group per child; the fragment main, a fragment per word of the slots
// (each fragment makes its child's plan and writes one node, the 2008 way).
#include "rng/philox.glsl"

layout(std140) uniform pass_uniforms {
    double u_cmin, u_cmax;
    uvec4 u_arity;     // 2 bits per op: glevo_gp_op_arity of ops 0..63
    uvec4 u_funcs[2];  // the function set's ops, a byte each, u_nfuncs of them
    int u_nfuncs, u_pop, u_tournament, u_elites;
    int u_max_size, u_vars, u_cap, u_spr; // u_spr: slots per 4096-word row of t_codes
    uint u_seed, u_generation;
    float u_pc, u_pm;
    float u_const_prob;
    int u_pad0;
    double u_parsimony; // lexicographic parsimony's relative band (0: fitness alone)
    ivec4 u_elite[GP_ELITE_MAX / 4]; // the best parents, copied unchanged
};

uniform usampler2D t_codes;  // the parents
uniform sampler2D t_consts;
uniform usampler2D t_sizes;

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }
uint slot_offset(int s) { return uint(s / u_spr) * 4096u + uint(s % u_spr) * uint(u_cap + 1); }
uint CODE(int s, int k) { return texelFetch(t_codes, at4096(slot_offset(s) + 1u + uint(k)), 0).r; }
int LEN(int s) { return int(texelFetch(t_codes, at4096(slot_offset(s)), 0).r); }
int SIZE(int s, int k) { return int(texelFetch(t_sizes, at4096(slot_offset(s) + 1u + uint(k)), 0).r); }
float CONSTV(int s, int k) { return texelFetch(t_consts, at4096(slot_offset(s) + 1u + uint(k)), 0).r; }

#ifdef GLEVO_COMPUTE
// The compute driver's inputs and outputs: fitness (doubles, as the host compares them) in a
// buffer, the children as images, statistics for the evaluator's build; the plan in shared
// memory, made by one invocation and read by all.
#define PLAN_VAR shared
// The head is gp/fitness.glsl's (the elites and best it chose; the host's after a resume).
layout(std430) readonly buffer gp_breed_in {
    int in_elite[GP_ELITE_MAX];
    int in_best, in_bad;
    double in_codes;
    double in_best_fit[GP_BEST_HISTORY];
    double fit[];
};
layout(std430) buffer gp_breed_stats {
    uint s_max_depth, s_total, s_max_len, s_ops;
    int s_len[]; // the children's lengths
};
layout(r32ui) writeonly uniform uimage2D i_codes;
layout(r32f) writeonly uniform image2D i_consts;
layout(r32ui) writeonly uniform uimage2D i_sizes;
#define BREED_FIT(s) fit[(s)]
#define BREED_ELITE(e) in_elite[(e)]
#endif
#ifdef GLEVO_FRAGMENT
// The fragment driver's: fitness as the bits of a double (x low, y high) a texel; the plan in
// each fragment's own variables, made by the plan pass (a fragment per child) into t_plan and
// read back by every fragment of the child in the gather pass.
#define PLAN_VAR
uniform usampler2D t_fit;
uniform usampler2D t_plan[4];
#define BREED_FIT(s) packDouble2x32(texelFetch(t_fit, at4096(uint(s)), 0).xy)
#define BREED_ELITE(e) u_elite[(e) / 4][(e) % 4]
#endif

int arity_of(uint code)
{
    uint op = code & 63u;
    return int(u_arity[op / 16u] >> (2u * (op % 16u)) & 3u);
}
int func_at(int f) { return int(u_funcs[f / 16][(f / 4) % 4] >> (8 * (f % 4)) & 255u); }

// ---- the stream (gp_stream) ----
struct gp_stream {
    uvec4 ctr; // (index, generation, purpose, block)
    uvec4 words;
    int used;
};
gp_stream stream_init(int index, uint purpose)
{
    return gp_stream(uvec4(uint(index), u_generation, purpose, 0u), uvec4(0u), 4);
}
uint stream_u32(inout gp_stream s)
{
    if (s.used == 4) {
        s.words = philox4x32(s.ctr, uvec2(u_seed, GP_BREED_TAG));
        s.ctr.w += 1u;
        s.used = 0;
    }
    uint w = s.words[s.used];
    s.used += 1;
    return w;
}
int stream_below(inout gp_stream s, int n) { return int(rng_below(stream_u32(s), uint(n))); }
float stream_u01(inout gp_stream s) { return rng_u01(stream_u32(s)); }

// Whether contender c beats the tournament's winner w: gp_tournament_beats
// (src/gp/breed/parsimony.c), the same comparisons in double on the same fitness and lengths.
bool tournament_beats(double fc, int len_c, double fw, int len_w)
{
    if (u_parsimony > 0.0lf) {
        precise double band = u_parsimony * max(abs(fc), abs(fw));
        precise double gap = abs(fc - fw);
        bool band_finite = (unpackDouble2x32(band).y & 0x7FF00000u) != 0x7FF00000u;
        if (fc == fw || (band_finite && gap <= band)) return len_c < len_w;
    }
    return fc < fw;
}

// ---- the plan (gp_child_plan) ----
PLAN_VAR int P_a, P_i, P_sa, P_b, P_j, P_sb, P_m, P_old, P_t, P_pk, P_len;
PLAN_VAR int P_depth; // the fresh subtree's depth (the fragment gather grows it again)
PLAN_VAR uint P_pcode;
PLAN_VAR float P_pconst;
PLAN_VAR uint F_code[GP_FRESH_MAX];
PLAN_VAR float F_const[GP_FRESH_MAX];
PLAN_VAR int F_size[GP_FRESH_MAX];

int pick_point(inout gp_stream x, int s)
{
    float u = stream_u01(x);
    uint r = stream_u32(x);
    int len = LEN(s), nf = 0;
    for (int k = 0; k < len; ++k) nf += arity_of(CODE(s, k)) > 0 ? 1 : 0;
    if (u < 0.9 && nf > 0) {
        int want = int(rng_below(r, uint(nf)));
        for (int k = 0; k < len; ++k)
            if (arity_of(CODE(s, k)) > 0) {
                if (want == 0) return k;
                want--;
            }
    }
    return int(rng_below(r, uint(len)));
}

void random_terminal(inout gp_stream r, out uint code, out float cval)
{
    if (stream_u01(r) < u_const_prob) {
        precise double u = double(stream_u01(r));
        precise double v = u_cmin + (u_cmax - u_cmin) * u;
        cval = float(v);
        code = GP_CODE_CONST;
    } else {
        cval = 0.0;
        code = GP_CODE_VAR | (uint(stream_below(r, u_vars)) << 8u);
    }
}

int grow_tree(inout gp_stream g, int depth)
{
    int rem[GP_MUTATE_DEPTH + 2];
    int n = 0, level = 0, nf = u_nfuncs;
    for (;;) {
        int open = 0;
        uint code;
        float cval;
        if (level >= depth || nf == 0 || stream_below(g, nf + 1) < 1) {
            random_terminal(g, code, cval);
        } else {
            code = uint(func_at(stream_below(g, nf)));
            cval = 0.0;
            open = arity_of(code);
        }
        F_code[n] = code;
        F_const[n] = cval;
        n++;
        if (open > 0) {
            level++;
            rem[level] = open;
            continue;
        }
        while (level > 0) {
            rem[level]--;
            if (rem[level] != 0) break;
            level--;
        }
        if (level == 0) break;
    }
    for (int k = n - 1; k >= 0; --k) {
        int s = 1, ch = k + 1;
        for (int a = 0; a < arity_of(F_code[k]); ++a) {
            s += F_size[ch];
            ch += F_size[ch];
        }
        F_size[k] = s;
    }
    return n;
}

void cross_source(int q, out int slot, out int pos, out int delta)
{
    delta = 0;
    if (q < P_i) {
        slot = P_a;
        pos = q;
        if (q + SIZE(P_a, q) > P_i) delta = P_sb - P_sa;
    } else if (q < P_i + P_sb) {
        slot = P_b;
        pos = P_j + q - P_i;
    } else {
        slot = P_a;
        pos = q - P_sb + P_sa;
    }
}

void plan_copy(int a)
{
    P_a = a;
    P_b = a;
    P_i = 0;
    P_j = 0;
    P_sa = LEN(a);
    P_sb = P_sa;
}

void breed_plan(int c)
{
    P_m = 0;
    P_old = 0;
    P_t = 0;
    P_pk = -1;
    P_pcode = 0u;
    P_pconst = 0.0;
    if (c < u_elites) {
        plan_copy(BREED_ELITE(c));
        P_len = LEN(P_a);
        return;
    }
    int q = c - u_elites, pair = q >> 1, role = q & 1;
    gp_stream s = stream_init(pair, GP_DRAW_SELECT);
    int parent[2];
    for (int k = 0; k < 2; ++k) {
        int w = stream_below(s, u_pop);
        for (int t = 1; t < u_tournament; ++t) {
            int x = stream_below(s, u_pop);
            if (tournament_beats(BREED_FIT(x), LEN(x), BREED_FIT(w), LEN(w))) w = x;
        }
        parent[k] = w;
    }
    gp_stream x = stream_init(pair, GP_DRAW_CROSS);
    bool cross = stream_u01(x) < u_pc;
    int point[2];
    point[0] = pick_point(x, parent[0]);
    point[1] = pick_point(x, parent[1]);
    int a = parent[role], b = parent[1 - role], i = point[role], j = point[1 - role];
    plan_copy(a);
    if (cross) {
        int sa = SIZE(a, i), sb = SIZE(b, j);
        if (LEN(a) - sa + sb <= u_max_size) {
            P_b = b;
            P_i = i;
            P_j = j;
            P_sa = sa;
            P_sb = sb;
        }
    }
    P_len = LEN(a) - P_sa + P_sb;
    gp_stream m = stream_init(c, GP_DRAW_MUTATE);
    if (!(stream_u01(m) < u_pm)) return;
    int slot, pos, delta;
    if (stream_u01(m) < 0.5) {
        int k = stream_below(m, P_len);
        cross_source(k, slot, pos, delta);
        int arity = arity_of(CODE(slot, pos));
        P_pk = k;
        if (arity == 0) {
            uint code;
            float cval;
            random_terminal(m, code, cval);
            P_pcode = code;
            P_pconst = cval;
            return;
        }
        int ns = 0;
        for (int f = 0; f < u_nfuncs; ++f) ns += arity_of(uint(func_at(f))) == arity ? 1 : 0;
        int want = stream_below(m, ns);
        for (int f = 0; f < u_nfuncs; ++f)
            if (arity_of(uint(func_at(f))) == arity) {
                if (want == 0) P_pcode = uint(func_at(f));
                want--;
            }
        return;
    }
    int at = stream_below(m, P_len);
    int depth = stream_below(m, GP_MUTATE_DEPTH + 1);
    gp_stream g = stream_init(c, GP_DRAW_GROW);
    int t = grow_tree(g, depth);
    P_depth = depth;
    cross_source(at, slot, pos, delta);
    int old = SIZE(slot, pos) + delta;
    if (P_len - old + t > u_max_size) return;
    P_m = at;
    P_old = old;
    P_t = t;
    P_len += t - old;
}

void breed_node(int k, uint cbase, out uint code, out float cval, out int size)
{
    int slot, pos, delta;
    if (k >= P_m && k < P_m + P_t) {
        code = F_code[k - P_m];
        cval = F_const[k - P_m];
        size = F_size[k - P_m];
    } else {
        int q = k < P_m ? k : k - P_t + P_old;
        cross_source(q, slot, pos, delta);
        code = CODE(slot, pos);
        cval = CONSTV(slot, pos);
        size = SIZE(slot, pos) + delta;
        if (k < P_m && k + size > P_m) size += P_t - P_old;
    }
    if (k == P_pk) {
        code = P_pcode;
        cval = P_pconst;
    }
    if ((code & 255u) == GP_CODE_CONST)
        code = GP_CODE_CONST | ((cbase + uint(k)) << 8u);
    else
        cval = 0.0;
}

#ifdef GLEVO_COMPUTE
// The compute driver: a work-group per child; invocation 0 makes the plan, then every
// invocation writes nodes k = lane, lane + BREED_LANES, ... The child's walk depth, length
// and operators go to gp_breed_stats for the evaluator's build (src/gp/breed/resident.c).
layout(local_size_x = BREED_LANES) in;
shared int D_arity[GP_CAP];
shared uint D_ops;

void main()
{
    int c = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
    if (c >= u_pop) return;
    int lane = int(gl_LocalInvocationIndex);
    if (lane == 0) {
        breed_plan(c);
        D_ops = 0u;
    }
    barrier();
    uint base = slot_offset(c);
    uint ops = 0u;
    for (int k = lane; k < P_len; k += BREED_LANES) {
        uint code;
        float cval;
        int size;
        breed_node(k, base + 1u, code, cval, size);
        imageStore(i_codes, at4096(base + 1u + uint(k)), uvec4(code));
        imageStore(i_consts, at4096(base + 1u + uint(k)), vec4(cval));
        imageStore(i_sizes, at4096(base + 1u + uint(k)), uvec4(uint(size)));
        D_arity[k] = arity_of(code);
        ops |= 1u << (code & 31u);
    }
    atomicOr(D_ops, ops);
    barrier();
    if (lane == 0) {
        imageStore(i_codes, at4096(base), uvec4(uint(P_len)));
        s_len[c] = P_len;
        // The interpreter's stack depth over the backward walk (glevo_gp_programs_add's).
        int depth = 0, most = 0;
        for (int k = P_len - 1; k >= 0; --k) {
            depth += 1 - D_arity[k];
            most = max(most, depth);
        }
        atomicMax(s_max_depth, uint(most));
        atomicAdd(s_total, uint(P_len));
        atomicMax(s_max_len, uint(P_len));
        atomicOr(s_ops, D_ops);
    }
}
#endif

#if defined(GLEVO_FRAGMENT) && defined(BREED_PLAN)
// The fragment driver's plan pass: child c = y * 4096 + x makes its plan once (BREED_PLAN).
layout(location = 0) out uvec4 o_plan0;
layout(location = 1) out uvec4 o_plan1;
layout(location = 2) out uvec4 o_plan2;
layout(location = 3) out uvec4 o_plan3;
void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    int c = f.y * 4096 + f.x;
    o_plan0 = o_plan1 = o_plan2 = o_plan3 = uvec4(0u);
    if (c >= u_pop) return;
    P_depth = 0;
    breed_plan(c);
    o_plan0 = uvec4(P_a, P_i, P_sa, P_b);
    o_plan1 = uvec4(P_j, P_sb, P_m, P_old);
    o_plan2 = uvec4(uint(P_t), uint(P_pk + 1), P_pcode, floatBitsToUint(P_pconst));
    o_plan3 = uvec4(uint(P_len), uint(P_depth), 0u, 0u);
}
#endif
#if defined(GLEVO_FRAGMENT) && !defined(BREED_LENS) && !defined(BREED_PLAN)
// The fragment driver's gather: the targets are the children's t_codes, t_consts and t_sizes;
// the fragment at word k1 of slot c reads c's plan and writes c's length (k1 = 0) or node
// k1 - 1, 0 past the end; those inside the fresh subtree grow it again from its words.
layout(location = 0) out uint o_code;
layout(location = 1) out float o_const;
layout(location = 2) out uint o_size;
void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    int in_row = f.x / (u_cap + 1), k1 = f.x - in_row * (u_cap + 1);
    int c = f.y * u_spr + in_row;
    o_code = 0u;
    o_const = 0.0;
    o_size = 0u;
    if (in_row >= u_spr || c >= u_pop) return;
    ivec2 at = ivec2(c % 4096, c / 4096);
    uvec4 p0 = texelFetch(t_plan[0], at, 0), p1 = texelFetch(t_plan[1], at, 0);
    uvec4 p2 = texelFetch(t_plan[2], at, 0), p3 = texelFetch(t_plan[3], at, 0);
    P_a = int(p0.x), P_i = int(p0.y), P_sa = int(p0.z), P_b = int(p0.w);
    P_j = int(p1.x), P_sb = int(p1.y), P_m = int(p1.z), P_old = int(p1.w);
    P_t = int(p2.x), P_pk = int(p2.y) - 1, P_pcode = p2.z, P_pconst = uintBitsToFloat(p2.w);
    P_len = int(p3.x);
    if (k1 == 0) {
        o_code = uint(P_len);
        return;
    }
    int k = k1 - 1;
    if (k >= P_len) return;
    if (k >= P_m && k < P_m + P_t) {
        gp_stream g = stream_init(c, GP_DRAW_GROW);
        grow_tree(g, int(p3.y));
    }
    uint code;
    float cval;
    int size;
    breed_node(k, slot_offset(c) + 1u, code, cval, size);
    o_code = code;
    o_const = cval;
    o_size = uint(size);
}
#endif
#if defined(GLEVO_FRAGMENT) && defined(BREED_LENS)
// The children's lengths and interpreter stack depths (length | depth << 16) in rows of
// texels for the host (BREED_LENS: a second, small pass).
layout(location = 0) out uint o_len;
void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    int s = f.y * 4096 + f.x;
    o_len = 0u;
    if (s >= u_pop) return;
    int len = LEN(s), depth = 0, most = 0;
    for (int k = len - 1; k >= 0; --k) {
        depth += 1 - arity_of(CODE(s, k));
        most = max(most, depth);
    }
    o_len = uint(len) | (uint(most) << 16u);
}
#endif
