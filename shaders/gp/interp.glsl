// The GP stack interpreter and the summed errors of one lane (Augusto & Barbosa 2012, §3.2.1),
// the one body that the fragment pass (gp/eval.glsl) and the compute kernel
// (gp/eval_compute.glsl) both call. C twin: src/gp/eval/interp_cpu.c (node values bit for bit:
// glevo's own sin, cos and division, gp/math.glsl; the sums in the order eval_internal.h
// defines, so they are the same bits too).
// A walk interprets one program backwards over GP_LANES case-quads at a time (lane quads
// q, q + 64, ...: fetching and decoding a code and the switch are paid once per 4 * GP_LANES
// cases). The includer defines GP_CODE(i), code i (1..length) of the program being walked,
// and includes gp/uniforms.glsl first. Injected at build (§5.4): GP_STACK (the population's
// deepest walk), GP_USE_<OP> for the operators present (the switch holds only those),
// GP_LANES, GP_SUM_LANES, GP_SEG_WALKS, GP_SEG_QUADS, and GP_STACK_SHARED (compute only).
uniform sampler2D t_consts;    // R32F, 4096 wide
uniform sampler2D t_data;      // RGBA32F: quad q of variable v at (q % w, v * rows + q / w)
uniform sampler2D t_target;    // RGBA32F: quad q at (q % w, q / w)

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }

#include "gp/math.glsl"

// The top of the stack lives in a register (top[l]); only the values below it go through
// S(slot, l): a binary operator then costs one stack load instead of two loads and a store.
// Slot 0 receives the empty register at the first push and is never read.
#ifdef GP_STACK_SHARED
// Compute: the values below the top in shared memory, invocation-major so that the 32
// invocations of a warp (same sp: they walk the same program) hit 32 different banks.
shared vec4 gp_stack[(GP_STACK + 1) * GP_LANES * GP_SUM_LANES];
#define S(slot, l) gp_stack[((slot) * GP_LANES + (l)) * GP_SUM_LANES + int(gl_LocalInvocationIndex)]
#define GP_STACK_DECL
#else
// A private array: the compiler keeps it in local memory (L1-cached on NVIDIA).
#define S(slot, l) st[(slot) * GP_LANES + (l)]
#define GP_STACK_DECL vec4 st[(GP_STACK + 1) * GP_LANES]
#endif
// Binary operators: the first argument a is on top, the second b below it.
#define BINARY(expr)                                                                          \
    sp--;                                                                                     \
    for (int l = 0; l < GP_LANES; ++l) {                                                      \
        vec4 a = top[l], b = S(sp, l);                                                        \
        top[l] = (expr);                                                                      \
    }                                                                                         \
    break
#define UNARY(expr)                                                                           \
    for (int l = 0; l < GP_LANES; ++l) {                                                      \
        vec4 a = top[l];                                                                      \
        top[l] = (expr);                                                                      \
    }                                                                                         \
    break

// Interprets codes length..1 on the lanes' quads (qc[l]: the quad's texel in variable 0's
// rows); top[l] receives the value on top of the stack. Returns the codes walked: counted in
// the loop, so that a driver cutting loops short (llvmpipe's loop limiter) shows in the run
// marks instead of as a wrong error.
int gp_walk(int length, ivec2 qc[GP_LANES], out vec4 top[GP_LANES])
{
    GP_STACK_DECL;
    for (int l = 0; l < GP_LANES; ++l) top[l] = vec4(0.0);
    int sp = 0, walked = 0;
    // The next code is fetched while this one runs, so its latency (a texture fetch in the
    // fragment pass, a shared-memory load in the compute kernel) hides behind the node's
    // work; code 0 is the program's length, a valid read.
    uint next = GP_CODE(length);
    for (int i = length; i >= 1; --i) {
        walked++;
        uint code = next;
        next = GP_CODE(i - 1);
        uint idx = code >> 8u;
        switch (code & 255u) {
        case 0u: {
            int row = int(idx) * u_data_rows;
            for (int l = 0; l < GP_LANES; ++l) {
                S(sp, l) = top[l];
                top[l] = texelFetch(t_data, ivec2(qc[l].x, qc[l].y + row), 0);
            }
            sp++;
            break;
        }
        case 1u: {
            vec4 k = vec4(texelFetch(t_consts, at4096(idx), 0).r);
            for (int l = 0; l < GP_LANES; ++l) {
                S(sp, l) = top[l];
                top[l] = k;
            }
            sp++;
            break;
        }
#ifdef GP_USE_ADD
        case 2u: BINARY(a + b);
#endif
#ifdef GP_USE_SUB
        case 3u: BINARY(a - b);
#endif
#ifdef GP_USE_MUL
        case 4u: BINARY(a * b);
#endif
#ifdef GP_USE_DIV
        case 5u: BINARY(gp_div(a, b)); // protected: 1 where |b| < 1e-6
#endif
#ifdef GP_USE_NEG
        case 6u: UNARY(-a);
#endif
#if defined(GP_USE_SIN) || defined(GP_USE_COS)
        // sin (7) and cos (8) share one inlined copy of glevo's sine: cos x = sin(x + pi/2).
#ifdef GP_USE_SIN
        case 7u:
#endif
#ifdef GP_USE_COS
        case 8u:
#endif
            UNARY(gp_trig(a, (code + 1u) & 1u));
#endif
#ifdef GP_USE_IF
        case 9u: // (if c a b): c on top, then a, then b
            sp -= 2;
            for (int l = 0; l < GP_LANES; ++l)
                top[l] = mix(S(sp, l), S(sp + 1, l), notEqual(top[l], vec4(0.0)));
            break;
#endif
#ifdef GP_USE_LT
        case 10u: BINARY(vec4(lessThan(a, b)));
#endif
#ifdef GP_USE_GT
        case 11u: BINARY(vec4(greaterThan(a, b)));
#endif
#ifdef GP_USE_EQ
        case 12u: BINARY(vec4(equal(a, b)));
#endif
#ifdef GP_USE_AND
        case 13u: BINARY(vec4(notEqual(a, vec4(0.0))) * vec4(notEqual(b, vec4(0.0))));
#endif
#ifdef GP_USE_OR
        case 14u: BINARY(max(vec4(notEqual(a, vec4(0.0))), vec4(notEqual(b, vec4(0.0)))));
#endif
#ifdef GP_USE_NOT
        case 15u: UNARY(vec4(equal(a, vec4(0.0))));
#endif
#ifdef GP_USE_EXP
        case 16u: UNARY(gp_exp(a));
#endif
#ifdef GP_USE_LOG
        case 17u: UNARY(gp_log(a)); // protected: ln|a|, 0 where |a| < 1e-6
#endif
#ifdef GP_USE_SQRT
        case 18u: UNARY(gp_sqrt(a)); // sqrt|a|
#endif
#ifdef GP_USE_SQUARE
        case 19u: UNARY(gp_square(a));
#endif
#ifdef GP_USE_CUBE
        case 20u: UNARY(gp_cube(a));
#endif
#ifdef GP_USE_POW
        case 21u: BINARY(gp_pow(a, b));
#endif
#ifdef GP_USE_TANH
        case 22u: UNARY(gp_tanh(a));
#endif
#ifdef GP_USE_ABS
        case 23u: UNARY(abs(a));
#endif
#ifdef GP_USE_AQ
        case 24u: BINARY(gp_aq(a, b));
#endif
        default: break;
        }
    }
    return walked;
}

// Linear scaling's second look on the GPU (u_moments 2): the walk's f scored as a + b f with
// this program's a and b, which the compute kernels set from their gp_affine buffer (the
// fragment pass never asks for it). Rounded as the interpreted program (+ a (* b f)) rounds
// it: the product, then the sum, no fused multiply-add.
vec2 gp_affine = vec2(0.0, 1.0);

// acc + quad q's partials (|e|, e*e, hits), each (c0 + c1) + (c2 + c3); missing cases add 0.
// Every step precise: no fused multiply-add, no reordering (the CPU twin rounds the same).
// u_moments (linear scaling, Keijzer 2003): the partials are (f*y, f*f, f) instead, the sums
// the closed-form a + b f needs (src/gp/eval/scaling.c), in the same order. A uniform, not a build
// define: one build serves a run's evaluations and linear scaling's second look.
vec3 gp_quad_add(vec3 acc, vec4 pred, ivec2 qc, int q)
{
    vec4 y = texelFetch(t_target, qc, 0);
    bvec4 valid = lessThan(ivec4(q * 4) + ivec4(0, 1, 2, 3), ivec4(u_cases));
    if (u_moments == 1) {
        precise vec4 f = mix(vec4(0.0), pred, valid);
        precise vec4 fy = f * mix(vec4(0.0), y, valid);
        precise vec4 ff = f * f;
        precise vec3 m = vec3((fy.x + fy.y) + (fy.z + fy.w), (ff.x + ff.y) + (ff.z + ff.w),
                              (f.x + f.y) + (f.z + f.w));
        precise vec3 rm = acc + m;
        return rm;
    }
    if (u_moments == 2) {
        precise vec4 bf = gp_affine.y * pred;
        precise vec4 scaled = gp_affine.x + bf;
        pred = scaled;
    }
    precise vec4 e = mix(vec4(0.0), abs(pred - y), valid);
    precise vec4 s = e * e;
    vec4 h = mix(vec4(0.0), vec4(lessThan(e, vec4(0.5))), valid);
    precise vec3 a = vec3((e.x + e.y) + (e.z + e.w), (s.x + s.y) + (s.z + s.w),
                          (h.x + h.y) + (h.z + h.w));
    precise vec3 r = acc + a;
    return r;
}

// Walks of lane `lane` of a segment of seg_len quads from seg_q0 in [j0, j1): lane quads
// seg_q0 + lane + 64 j below the segment's end, GP_LANES per walk (closed form, so that the
// run marks can compare it with the walks the loops did).
int gp_lane_walks(int lane, int seg_len, int j0, int j1)
{
    int jend = min(j1, (seg_len - lane + GP_SUM_LANES - 1) / GP_SUM_LANES);
    return lane < seg_len && jend > j0 ? (jend - j0 + GP_LANES - 1) / GP_LANES : 0;
}

// Walks of lanes [t0, t1) over a whole segment, in closed form: with seg_len = 64 a + b, lanes
// below b have a + 1 quads, the others a.
int gp_lanes_walks(int t0, int t1, int seg_len)
{
    int a = seg_len / GP_SUM_LANES, b = seg_len - a * GP_SUM_LANES;
    int hi = max(0, min(t1, b) - t0), lo = max(0, t1 - max(t0, b));
    return hi * ((a + GP_LANES) / GP_LANES) + lo * ((a + GP_LANES - 1) / GP_LANES);
}

// acc + the partials of lane `lane`'s quads in walks [j0, j1), in increasing order (the
// lane's running sum of the canonical summation). walks counts the walks done, steps the codes.
vec3 gp_lane(int length, int seg_q0, int seg_len, int lane, int j0, int j1, vec3 acc,
             inout int walks, inout int steps)
{
    int jend = min(j1, (seg_len - lane + GP_SUM_LANES - 1) / GP_SUM_LANES);
    for (int j = j0; j < jend; j += GP_LANES) {
        // Texel of each lane's quad in variable 0's rows, computed once per walk: a variable
        // node then costs one multiply-add and a fetch.
        ivec2 qc[GP_LANES];
        for (int l = 0; l < GP_LANES; ++l) {
            int q = min(seg_q0 + lane + (j + l) * GP_SUM_LANES, u_quads - 1);
            qc[l] = ivec2(q % u_data_width, q / u_data_width);
        }
        vec4 top[GP_LANES];
        steps += gp_walk(length, qc, top);
        walks++;
        for (int l = 0; l < GP_LANES; ++l)
            if (j + l < jend) acc = gp_quad_add(acc, top[l], qc[l], seg_q0 + lane + (j + l) * GP_SUM_LANES);
    }
    return acc;
}
