// Constant fitting on the GPU (issue 26): Levenberg-Marquardt on the constants of the resident
// population's chosen programs, written back in place (Lamarckian), before the generation is
// evaluated. GP_FIT_LANES invocations per program (a work-group, or a subgroup of one where
// GP_FIT_WARPS > 1; with GP_FIT_CLAIM they claim program after program): the lanes walk the
// program over a batch of GP_FIT_LANES cases at a time in dual numbers (a stack value and its
// derivatives by GP_FIT_DERIVS of the first GP_FIT_THETA constants: a walk per GP_FIT_DERIVS
// constants, so that more fits share a multiprocessor, see fit_state), their Jacobian rows
// meet in shared memory, and each invocation sums the entries of J^T J and J^T r it owns over
// the cases in case order, in double; invocation 0 solves them (LDL^T of J^T J + lambda diag
// J^T J) and proposes the step; the lanes score it (values four cases a code: the squared
// error of a + b f, case c summed in lane c % GP_FIT_LANES, the lanes added in order) and it
// is kept only where the error went down. Nothing lives in local memory (NVIDIA's dispatches
// of a kernel with local memory cost ~0.5 ms however few programs they fit):
// GLEVO_DUMP_PROGRAMS shows what a build takes. C twin: src/gp/sr/const_opt.c, arithmetic for
// arithmetic (every float and double step precise, values by the interpreter's own operators
// of gp/math.glsl): on llvmpipe the fitted constants are the CPU's bits; on the H100 some
// differ in the last float bits (one operation not found yet; test_gp_const_opt says what is
// asserted).
//
// Slots as gp/breed.glsl has them (src/gp/breed/resident.c): [length, codes...] at slot_offset(p)
// of t_codes, a constant's value at the word its code names, in i_consts (read, and the
// fitted ones written back). The data in gp_fit_data: y[c], then x[v] at (v + 1) * cases + c.
// Injected (src/gp/sr/const_fit_gpu.c): GP_FIT_LANES, GP_FIT_THETA (the constants a program
// has fitted, 8), GP_FIT_DERIVS (3 or 7: the derivatives a walk carries), GP_FIT_TRIES, GP_CAP (codes a slot), GP_FIT_STACK (the deepest walk fitted: deeper
// programs are left alone, as the twin leaves them), GP_FIT_CASES (the most cases a fit walks),
// GP_SCALING_MIN_VAR, GP_FIT_WARPS (programs a work-group), GP_FIT_CLAIM, GP_ARITY0/1, and
// GP_USE_<OP> for the operators of the function set.
// Subgroups of GP_FIT_LANES that wait for each other on their own (FIT_SYNC below).
#if GP_FIT_WARPS > 1
#extension GL_KHR_shader_subgroup_basic : require
#endif
// NVIDIA's compiler (driver 580) took 20-28 s to build this program with every call inlined
// (the dual-number walk's operators above all) and ~1 s with calls kept as calls (H200,
// 2026-11-28; docs/performance.md, "First run and shader compile times"). Other drivers ignore the pragma.
#pragma optionNV(inline none)
#include "gp/math.glsl"
#include "rng/philox.glsl"

#define NP (GP_FIT_THETA + 2)          // theta, a, b
#define NE (NP * (NP + 1) / 2 + NP)    // J^T J's lower triangle, then J^T r
#define CHUNK 5                        // per-lane sums reduced at once: the 5 moments at most

layout(std140) uniform pass_uniforms {
    double u_fraction;  // programs chosen (gp_const_fit_chosen)
    double u_one;       // 1.0, as u_onef: see RND
    int u_pop, u_cap, u_spr, u_cases;
    int u_iters, u_scaling, u_generation;
    uint u_seed;
    float u_onef;
    int u_theta_from;   // this dispatch fits programs of u_theta_from.. constants (a build
                        // with derivatives by 4 takes those of 1 to 4, the full one the rest)
    uint u_claim_base;  // GP_FIT_CLAIM: next_claim when this dispatch began
};

// A product rounded on its own before the sum that takes it, as C rounds it: a compiler that
// contracts x * y + z into one fma (precise notwithstanding) meets (x * y) * 1 + z, whose fma
// is (x * y) + z rounded once, the twin's sum.
#define RND(p) ((p) * u_one)
#define RNDF(p) ((p) * u_onef)
#include "gp/scaling.glsl"

uniform usampler2D t_codes;
layout(r32f) uniform image2D i_consts;
layout(std430) readonly buffer gp_fit_data { float xy[]; };
layout(std430) coherent buffer gp_fit_claims { uint next_claim; };
layout(local_size_x = GP_FIT_LANES, local_size_y = GP_FIT_WARPS) in;

// A program's invocations wait for each other: a work-group's barrier where it fits one
// program, its subgroup's where GP_FIT_WARPS subgroups of GP_FIT_LANES fit one each (with
// GL_KHR_shader_subgroup_basic, above).
#if GP_FIT_WARPS > 1
#define FIT_SYNC() { subgroupMemoryBarrierShared(); subgroupBarrier(); }
#else
#define FIT_SYNC() barrier()
#endif

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }
// glevo_gp_op_arity, from the table the driver injects (2 bits an operator).
int gp_arity(uint op) { return int((op < 16u ? GP_ARITY0 : GP_ARITY1) >> (2u * (op & 15u)) & 3u); }

// What one program's fit keeps in shared memory: GP_FIT_WARPS programs a work-group, each
// fitted by one subgroup of GP_FIT_LANES invocations (gl_LocalInvocationID.y picks it).
// Every accumulation below goes through a precise scalar, and its products through RND: a
// compiler that fused a product into a sum would leave the twin's rounding.
// The stack below its top (the top lives in registers) is here too, lane-minor: private
// arrays of every lane of every resident work-group outgrew L1 on the H100 (memory-bound);
// GP_FIT_WALK_STACK bounds it: GP_FIT_STACK (src/gp/sr/const_opt.h says why 16), or, where
// the walk is reordered (gp/const_fit_order.glsl), the most a reordered walk of GP_CAP codes
// can need. A stack value carries the
// derivatives by GP_FIT_DERIVS constants (a Jacobian walk per GP_FIT_DERIVS of a program's
// constants), not all GP_FIT_THETA: NVIDIA's GL driver gives a compute dispatch ~48 KB of
// shared memory a multiprocessor, so a fit's bytes decide how many fit at once there (H200,
// 2026-11-29, docs/performance.md): with 3, one vec4 a slot (14.3 KB a fit with 16 slots,
// three at once; 8.7 KB with the 6 a reordered walk of 64 codes needs); with 7, a second vec4
// (one walk for nearly every program: for generations that fit fewer programs than the GPU
// holds at once).
#if GP_FIT_DERIVS > 3
#define HI(x) x
#else
#define HI(x)
#endif
#define OWNED ((NE + 1 + GP_FIT_LANES - 1) / GP_FIT_LANES)
struct fit_state {
    uint claim;                 // the program claimed next (GP_FIT_CLAIM)
    int len, nconst, nt;
    uint word[GP_FIT_THETA];    // where the fitted constants live
    float theta[GP_FIT_THETA];  // the constants accepted so far
    float cand[GP_FIT_THETA];   // the step's
    // A batch's rows (ROW: the Jacobian row of a + b f, the residual in column NP, 1 where f
    // is not finite in NP + 1; OWNED sums an invocation owns), and at other times the lanes'
    // partial sums (RED: reduce_chunk's): never in use together.
    double scratch[GP_FIT_LANES * (NP + 2)];
    double sum[NE + 2];         // the reduced sums; [NE + 1]: a squared error
    double step[NP];            // solve's step (its x)
    double lc[NP * (NP + 1) / 2]; // solve's L (and D on its diagonal), row by row
    int ok;
    // The program, read once, in the order it is walked (gp/const_fit_order.glsl): its codes
    // (a constant's theta slot + 1 above the operator, 0 where it is not fitted and its value
    // is in value; FIT_SWAP on a binary operator whose first operand is walked first), and
    // the constants' values.
    uint code[GP_CAP + 1];
    float value[GP_CAP + 1];
    // A stack value's derivatives and the value in w (fit_walk), or four cases' values
    // (fit_values4): 16 bytes a slot (a vec3 array would take 16 bytes an element too).
    vec4 st[GP_FIT_WALK_STACK * GP_FIT_LANES];
    HI(vec4 st_hi[GP_FIT_WALK_STACK * GP_FIT_LANES];) // derivatives by k0 + 3 .. k0 + 6
    // The last value walk's values, case by case (values_into_walked): the first walk's are
    // kept for the squared error that follows it with linear scaling (the same f, so the same
    // sums).
    float walked[GP_FIT_CASES];
};
shared fit_state fit[GP_FIT_WARPS];
#define F fit[gl_LocalInvocationID.y]
#define LANE gl_LocalInvocationID.x
#define AT(i) ((i) * GP_FIT_LANES + int(LANE))
#define ROW(t, k) F.scratch[(t) * (NP + 2) + (k)]
#define RED(e, l) F.scratch[(e) * GP_FIT_LANES + (l)]
#define FIT_SWAP 256u

#include "gp/const_fit_order.glsl"

// The program's value on case c, the fitted constants from F.theta, and its derivatives by
// thetas k0 .. k0 + 2 in g (k0 + 3 .. k0 + 6 in gh where GP_FIT_DERIVS is 7): a walk in dual
// numbers (each derivative its own arithmetic, so that walks of some of a program's constants
// at a time give the bits of one walk of all).
float fit_walk(int c, int k0, out vec3 g, out vec4 gh)
{
    float tv = 0.0;                       // the top: value,
    vec3 t0 = vec3(0.0);                  // derivatives
    vec4 t1 = vec4(0.0);
    int sp = 0; // entries below the top (slot 0 takes the empty top at the first push)
    for (int i = F.len; i >= 1; --i) {
        uint code = F.code[i];
        uint op = code & 255u;
        if (op <= 1u) {
            F.st[AT(sp)] = vec4(t0, tv);
            HI(F.st_hi[AT(sp)] = t1;)
            sp++;
            t0 = vec3(0.0), t1 = vec4(0.0);
            int k = int(code >> 8u) - 1;
            if (op == 0u) {
                tv = xy[(int(code >> 8u) + 1) * u_cases + c];
            } else if (k >= 0) {
                tv = F.theta[k];
                t0 = vec3(equal(ivec3(k), k0 + ivec3(0, 1, 2)));
                HI(t1 = vec4(equal(ivec4(k), k0 + ivec4(3, 4, 5, 6)));)
            } else {
                tv = F.value[i];
            }
            continue;
        }
        // The operands: a (the first) on top, b below it, or swapped (FIT_SWAP).
        vec4 below = F.st[AT(max(sp - 1, 0))];
        bool swap = GP_FIT_REORDER != 0 && (code & FIT_SWAP) != 0u;
        float a = swap ? below.w : tv, b = swap ? tv : below.w;
        precise float v = 0.0;
        precise float ga = 0.0, gb = 0.0;
        int ar = 2;
        bool logic = false;
        switch (op) {
#ifdef GP_USE_ADD
        case 2u: v = a + b; ga = 1.0; gb = 1.0; break;
#endif
#ifdef GP_USE_SUB
        case 3u: v = a - b; ga = 1.0; gb = -1.0; break;
#endif
#ifdef GP_USE_MUL
        case 4u: v = a * b; ga = b; gb = a; break;
#endif
#ifdef GP_USE_DIV
        case 5u:
            v = gp_div1(a, b);
            if (!(abs(b) < GP_DIV_EPS)) { ga = gp_quot1(1.0, b); gb = -gp_quot1(v, b); }
            break;
#endif
#ifdef GP_USE_NEG
        case 6u: ar = 1; v = -a; ga = -1.0; break;
#endif
#if defined(GP_USE_SIN) || defined(GP_USE_COS)
        case 7u: case 8u: {
            // sin (7) and cos (8) and their derivatives from one range reduction (one inlined
            // copy of gp_trig1's where there were four), the same bits as its calls.
            ar = 1;
            uint n;
            float rr = gp_reduce(a, n);
            bool is_sin = op == 7u;
            v = gp_quadrant(rr, is_sin ? n : n + 1u);
            ga = is_sin ? gp_quadrant(rr, n + 1u) : -gp_quadrant(rr, n);
            break;
        }
#endif
#ifdef GP_USE_IF
        case 9u: ar = 3; break; // below
#endif
#ifdef GP_USE_LT
        case 10u: logic = true; v = a < b ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_GT
        case 11u: logic = true; v = a > b ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_EQ
        case 12u: logic = true; v = a == b ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_AND
        case 13u: logic = true; v = (a != 0.0 && b != 0.0) ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_OR
        case 14u: logic = true; v = (a != 0.0 || b != 0.0) ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_NOT
        case 15u: ar = 1; logic = true; v = a == 0.0 ? 1.0 : 0.0; break;
#endif
#ifdef GP_USE_EXP
        case 16u: ar = 1; v = gp_exp1(a); ga = v; break;
#endif
#ifdef GP_USE_LOG
        case 17u:
            ar = 1;
            v = gp_log1(a);
            if (abs(a) >= GP_DIV_EPS) ga = gp_quot1(1.0, a);
            break;
#endif
#ifdef GP_USE_SQRT
        case 18u:
            ar = 1;
            v = gp_sqrt1(a);
            if (v >= GP_DIV_EPS) ga = gp_quot1(a < 0.0 ? -0.5 : 0.5, v);
            break;
#endif
#ifdef GP_USE_SQUARE
        case 19u: ar = 1; v = a * a; ga = a + a; break;
#endif
#ifdef GP_USE_CUBE
        case 20u: ar = 1; v = (a * a) * a; ga = 3.0 * (a * a); break;
#endif
#ifdef GP_USE_POW
        case 21u:
            v = gp_pow1(a, b);
            if (abs(a) >= GP_DIV_EPS) { ga = gp_quot1(v * b, a); gb = v * gp_log1(a); }
            break;
#endif
#ifdef GP_USE_TANH
        case 22u: ar = 1; v = gp_tanh1(a); ga = 1.0 - v * v; break;
#endif
#ifdef GP_USE_ABS
        case 23u: ar = 1; v = abs(a); ga = a < 0.0 ? -1.0 : 1.0; break;
#endif
#ifdef GP_USE_AQ
        case 24u: {
            precise float t = 1.0 + b * b;
            float s = gp_sqrt1(t);
            v = gp_quot1(a, s);
            ga = gp_quot1(1.0, s);
            gb = -gp_quot1(v * b, t);
            break;
        }
#endif
        default: break;
        }
        if (ar == 3) { // (if c a b): c on top, a and b below it
            bool yes = a != 0.0;
            vec4 chosen = yes ? F.st[AT(sp - 1)] : F.st[AT(sp - 2)];
            tv = chosen.w, t0 = chosen.xyz;
            HI(t1 = yes ? F.st_hi[AT(sp - 1)] : F.st_hi[AT(sp - 2)];)
        } else {
            precise vec3 d0;
            precise vec4 d1 = vec4(0.0);
            if (logic) {
                d0 = vec3(0.0);
            } else if (ar == 2) {
                vec3 da = swap ? below.xyz : t0, db = swap ? t0 : below.xyz;
                d0 = RNDF(ga * da) + RNDF(gb * db);
                HI(vec4 lo = F.st_hi[AT(sp - 1)];)
                HI(d1 = RNDF(ga * (swap ? lo : t1)) + RNDF(gb * (swap ? t1 : lo));)
            } else {
                d0 = ga * t0;
                HI(d1 = ga * t1;)
            }
            t0 = d0, t1 = d1;
            tv = v;
        }
        sp -= ar - 1;
    }
    g = t0, gh = t1;
    return tv;
}

// The program's values on the four cases c, the fitted constants from F.cand (cand) or
// F.theta: fit_walk's without derivatives, by the interpreter's vec4 operators (gp/math.glsl,
// the same bits a component), so that a code is read and decoded once for four cases (as
// gp/interp.glsl's walk does). The values below the top go in F.st, which only the
// derivative walks use otherwise.
#define ST4(i) F.st[AT(i)]
vec4 fit_values4(ivec4 c, bool cand)
{
    vec4 tv = vec4(0.0);
    int sp = 0;
    for (int i = F.len; i >= 1; --i) {
        uint code = F.code[i];
        uint op = code & 255u;
        if (op <= 1u) {
            F.st[AT(sp)] = tv;
            sp++;
            if (op == 0u) {
                int row = (int(code >> 8u) + 1) * u_cases;
                tv = vec4(xy[row + c.x], xy[row + c.y], xy[row + c.z], xy[row + c.w]);
            } else {
                int k = int(code >> 8u) - 1;
                tv = vec4(k < 0 ? F.value[i] : cand ? F.cand[k] : F.theta[k]);
            }
            continue;
        }
        vec4 below = ST4(max(sp - 1, 0));
        bool swap = GP_FIT_REORDER != 0 && (code & FIT_SWAP) != 0u;
        vec4 a = swap ? below : tv, b = swap ? tv : below;
        precise vec4 v = vec4(0.0);
        int ar = 2;
        switch (op) {
#ifdef GP_USE_ADD
        case 2u: v = a + b; break;
#endif
#ifdef GP_USE_SUB
        case 3u: v = a - b; break;
#endif
#ifdef GP_USE_MUL
        case 4u: v = a * b; break;
#endif
#ifdef GP_USE_DIV
        case 5u: v = gp_div(a, b); break;
#endif
#ifdef GP_USE_NEG
        case 6u: ar = 1; v = -a; break;
#endif
#if defined(GP_USE_SIN) || defined(GP_USE_COS)
        case 7u: case 8u: ar = 1; v = gp_trig(a, op - 7u); break;
#endif
#ifdef GP_USE_IF
        case 9u: ar = 3; v = mix(ST4(sp - 2), ST4(sp - 1), notEqual(a, vec4(0.0))); break;
#endif
#ifdef GP_USE_LT
        case 10u: v = vec4(lessThan(a, b)); break;
#endif
#ifdef GP_USE_GT
        case 11u: v = vec4(greaterThan(a, b)); break;
#endif
#ifdef GP_USE_EQ
        case 12u: v = vec4(equal(a, b)); break;
#endif
#ifdef GP_USE_AND
        case 13u: v = vec4(notEqual(a, vec4(0.0))) * vec4(notEqual(b, vec4(0.0))); break;
#endif
#ifdef GP_USE_OR
        case 14u: v = max(vec4(notEqual(a, vec4(0.0))), vec4(notEqual(b, vec4(0.0)))); break;
#endif
#ifdef GP_USE_NOT
        case 15u: ar = 1; v = vec4(equal(a, vec4(0.0))); break;
#endif
#ifdef GP_USE_EXP
        case 16u: ar = 1; v = gp_exp(a); break;
#endif
#ifdef GP_USE_LOG
        case 17u: ar = 1; v = gp_log(a); break;
#endif
#ifdef GP_USE_SQRT
        case 18u: ar = 1; v = gp_sqrt(a); break;
#endif
#ifdef GP_USE_SQUARE
        case 19u: ar = 1; v = gp_square(a); break;
#endif
#ifdef GP_USE_CUBE
        case 20u: ar = 1; v = gp_cube(a); break;
#endif
#ifdef GP_USE_POW
        case 21u: v = gp_pow(a, b); break;
#endif
#ifdef GP_USE_TANH
        case 22u: ar = 1; v = gp_tanh(a); break;
#endif
#ifdef GP_USE_ABS
        case 23u: ar = 1; v = abs(a); break;
#endif
#ifdef GP_USE_AQ
        case 24u: v = gp_aq(a, b); break;
#endif
        default: break;
        }
        tv = v;
        sp -= ar - 1;
    }
    return tv;
}

// F.walked[c] = the program's value on each case c of this lane (c % GP_FIT_LANES), four at a
// time: cases c, c + 32, c + 64, c + 96, then c + 128, ... (the order the sums read them in).
void values_into_walked(bool cand)
{
    for (int c0 = int(LANE); c0 < u_cases; c0 += 4 * GP_FIT_LANES) {
        ivec4 c = c0 + ivec4(0, 1, 2, 3) * GP_FIT_LANES;
        vec4 f = fit_values4(min(c, ivec4(u_cases - 1)), cand);
        for (int k = 0; k < 4; ++k)
            if (c[k] < u_cases) F.walked[c[k]] = f[k];
    }
}

// F.sum[first + e] = the lanes' mine[e], e < n <= CHUNK, added in lane order.
void reduce_chunk(int first, int n, double mine[CHUNK])
{
    uint lane = LANE;
    for (int e = 0; e < CHUNK; ++e) RED(e, lane) = mine[e];
    FIT_SYNC();
    if (int(lane) < n) {
        precise double s = 0.0lf;
        for (int t = 0; t < GP_FIT_LANES; ++t) s += RED(lane, t);
        F.sum[first + int(lane)] = s;
    }
    FIT_SYNC();
}

// F.sum[SSE] = sum over the cases of (y - (a + b f))^2 for F.cand (cand) or F.theta (a slot
// of its own: the normal equations in F.sum are solved again after a rejected step).
#define SSE (NE + 1)
// walked: f is in F.walked already (the walk before, of the same constants).
void sse_into_sum(bool cand, bool walked, double a, double b)
{
    if (!walked) values_into_walked(cand);
    double mine[CHUNK];
    for (int e = 0; e < CHUNK; ++e) mine[e] = 0.0lf;
    for (int c = int(LANE); c < u_cases; c += GP_FIT_LANES) {
        double f = double(F.walked[c]);
        precise double r = double(xy[c]) - (a + RND(b * f));
        precise double t = mine[0] + RND(r * r);
        mine[0] = t;
    }
    reduce_chunk(SSE, 1, mine);
}

// Linear scaling's a and b from f's moments (gp/scaling.glsl's closed form; its error unused).
void closed_form(double sf, double sff, double sfy, double sy, double n, out double a, out double b)
{
    double sse;
    gp_closed_form(sf, sff, sfy, sy, 0.0lf, n, a, b, sse);
}

// (A + lambda diag A) x = g by LDL^T, A and g from F.sum, into F.step; false when not
// positive definite. Every invocation of the program's subgroup calls it: the twin's solve,
// entry for entry (each L, D and x the twin's operations in the twin's order), with what does
// not depend on each other done by the lanes at once: column j of L below the diagonal once
// D_j is known, and the back substitution's divisions. Invocation 0 alone made the solve a
// chain of ~55 correctly rounded divisions, a third of the kernel's time at 10^5 programs
// (H200, 2026-11-29, docs/results/h200-2026-11-29-gp-time-split/). L and x live in shared
// memory (F.lc, F.step as X): arrays in a function's registers spill to local memory, which NVIDIA
// 580 made cost ~0.5 ms a dispatch however few programs it fitted.
#define A_AT(i, j) F.sum[(i) * ((i) + 1) / 2 + (j)]
#define LC(r, c) F.lc[(r) * ((r) + 1) / 2 + (c)]
#define X F.step
bool solve(int n, int ne, double lambda)
{
    int i = int(LANE);
    for (int j = 0; j < n; ++j) {
        if (i == 0) {
            precise double s = A_AT(j, j) + (RND(lambda * A_AT(j, j)) + 1e-12lf);
            for (int k = 0; k < j; ++k) s -= RND(LC(j, k) * LC(j, k) * LC(k, k));
            F.ok = s > 0.0lf ? 1 : 0;
            LC(j, j) = s;
        }
        FIT_SYNC();
        bool failed = F.ok == 0;
        FIT_SYNC(); // everyone has read F.ok before invocation 0 writes it again
        if (failed) return false;
        if (i > j && i < n) {
            precise double s = A_AT(i, j);
            for (int k = 0; k < j; ++k) s -= RND(LC(i, k) * LC(j, k) * LC(k, k));
            LC(i, j) = gp_ddiv(s, LC(j, j));
        }
        FIT_SYNC();
    }
    if (i == 0)
        for (int r = 0; r < n; ++r) {
            precise double s = F.sum[ne + r];
            for (int k = 0; k < r; ++k) s -= RND(LC(r, k) * X[k]);
            X[r] = s;
        }
    FIT_SYNC();
    if (i < n) X[i] = gp_ddiv(X[i], LC(i, i));
    FIT_SYNC();
    if (i == 0)
        for (int r = n - 1; r >= 0; --r) {
            precise double s = X[r];
            for (int k = r + 1; k < n; ++k) s -= RND(LC(k, r) * X[k]);
            X[r] = s;
        }
    FIT_SYNC();
    return true;
}
#undef A_AT
#undef LC
#undef X

// Fits program p's constants, if it is chosen and of this dispatch's kind; every invocation
// of its subgroup calls it.
void fit_program(int p)
{
    uint lane = LANE;
    uint r = philox4x32(uvec4(uint(p), uint(u_generation), 0x434f4e53u, 0u), uvec2(u_seed, 26u)).x;
    if (!(double(rng_u01(r)) < u_fraction)) return; // the whole subgroup returns
    // The codes and the constants' values, read by the lanes together; then invocation 0
    // finds the walk's depth, numbers the fitted constants and orders the walk.
    uint base = uint(p / u_spr) * 4096u + uint(p % u_spr) * uint(u_cap + 1);
    int len = int(texelFetch(t_codes, at4096(base), 0).r);
    for (int i = 1 + int(lane); i <= len; i += GP_FIT_LANES) {
        uint code = texelFetch(t_codes, at4096(base + uint(i)), 0).r;
        F.code[i] = code;
        if ((code & 255u) == 1u) F.value[i] = imageLoad(i_consts, at4096(code >> 8u)).r;
    }
    FIT_SYNC();
    if (lane == 0u) {
        int n = 0, sp = 0, deepest = 0;
        for (int i = len; i >= 1; --i) { // the walk's depth (gp_walk_depth)
            uint op = F.code[i] & 255u;
            sp += op <= 1u ? 1 : 1 - gp_arity(op);
            deepest = max(deepest, sp);
        }
        if (deepest > GP_FIT_STACK) len = 0; // not fitted: nt stays 0
        for (int i = 1; i <= len; ++i) { // in program order: the twin's first GP_FIT_THETA
            uint code = F.code[i];
            if ((code & 255u) != 1u) continue;
            F.code[i] = 1u; // not fitted
            if (n < GP_FIT_THETA) {
                F.code[i] = 1u | uint(n + 1) << 8u;
                F.word[n] = code >> 8u;
                F.theta[n] = F.value[i];
            }
            n++;
        }
        // Reordered only where the written order needs more slots than the walks have.
        if (len > 0 && deepest > GP_FIT_WALK_STACK && fit_order(len) > GP_FIT_WALK_STACK)
            len = 0, n = 0; // (cannot happen)
        F.len = len, F.nconst = n, F.nt = min(n, GP_FIT_THETA);
    }
    FIT_SYNC();
    int nt = F.nt;
    // Nothing to fit (with scaling a and b are already optimal), or the other dispatch's.
    if (nt == 0 || F.nconst < u_theta_from || (GP_FIT_THETA == 4 && F.nconst > 4)) return;
    bool scaling = u_scaling != 0;
    int np = nt + (scaling ? 2 : 0), ne = np * (np + 1) / 2;
    double a = 0.0lf, b = 1.0lf;
    double mine[CHUNK];
    if (scaling) {
        for (int e = 0; e < CHUNK; ++e) mine[e] = 0.0lf;
        values_into_walked(false);
        for (int c = int(lane); c < u_cases; c += GP_FIT_LANES) {
            double f = double(F.walked[c]), y = double(xy[c]);
            precise double m0 = mine[0] + f, m1 = mine[1] + RND(f * f), m2 = mine[2] + RND(f * y);
            precise double m3 = mine[3] + y, m4 = mine[4] + RND(y * y);
            mine[0] = m0, mine[1] = m1, mine[2] = m2, mine[3] = m3, mine[4] = m4;
        }
        reduce_chunk(0, 5, mine);
        closed_form(F.sum[0], F.sum[1], F.sum[2], F.sum[3], double(u_cases), a, b);
    }
    sse_into_sum(false, scaling, a, b);
    double best = F.sum[SSE], lambda = 1e-3lf;
    // The sums this invocation owns: entry e = lane + q GP_FIT_LANES is J^T J's (i, j) for
    // e < ne, J^T r's i (row i times the residual, column NP) for e < ne + np, and the
    // non-finite count (column NP + 1 times 1) for e = ne + np.
    int own_i[OWNED], own_j[OWNED];
    for (int q = 0; q < OWNED; ++q) {
        int e = int(lane) + q * GP_FIT_LANES, i = 0;
        own_i[q] = -1, own_j[q] = -1;
        if (e < ne) {
            while ((i + 1) * (i + 2) / 2 <= e) i++;
            own_i[q] = i, own_j[q] = e - i * (i + 1) / 2;
        } else if (e < ne + np) {
            own_i[q] = e - ne, own_j[q] = NP;
        } else if (e == ne + np) {
            own_i[q] = NP + 1;
        }
    }
    if (isnan(best)) best = packDouble2x32(uvec2(0u, 0x7ff00000u)); // +inf, as the twin
    for (int it = 0; it < u_iters && !isinf(best); ++it) {
        // J^T J's lower triangle, J^T r, and the count of cases whose f is not finite, each
        // summed over the cases in case order by the invocation that owns it: a batch of
        // GP_FIT_LANES cases walks at once, and their rows meet in shared memory.
        double acc[OWNED];
        for (int q = 0; q < OWNED; ++q) acc[q] = 0.0lf;
        for (int base = 0; base < u_cases; base += GP_FIT_LANES) {
            int c = base + int(lane);
            if (c < u_cases) {
                vec3 g;
                vec4 gh;
                float fv = fit_walk(c, 0, g, gh);
                for (int k0 = 0; k0 < nt; k0 += GP_FIT_DERIVS) {
                    if (k0 > 0) fit_walk(c, k0, g, gh);
                    // Constant bounds (the compiler unrolls them): g and gh indexed by
                    // constants stay in registers, not local memory.
                    for (int q = 0; q < 3; ++q)
                        if (k0 + q < nt) ROW(lane, k0 + q) = b * double(g[q]);
                    HI(for (int q = 0; q < 4; ++q)
                        if (k0 + 3 + q < nt) ROW(lane, k0 + 3 + q) = b * double(gh[q]);)
                }
                double f = double(fv);
                if (scaling) ROW(lane, nt) = 1.0lf, ROW(lane, nt + 1) = f;
                precise double res = double(xy[c]) - (a + RND(b * f));
                ROW(lane, NP) = res;
                ROW(lane, NP + 1) = isinf(fv) || isnan(fv) ? 1.0lf : 0.0lf;
            }
            FIT_SYNC();
            int n = min(GP_FIT_LANES, u_cases - base);
            for (int t = 0; t < n; ++t)
                for (int q = 0; q < OWNED; ++q) {
                    if (own_i[q] < 0) continue;
                    double x = ROW(t, own_i[q]), y = own_j[q] < 0 ? 1.0lf : ROW(t, own_j[q]);
                    precise double s = acc[q] + RND(x * y);
                    acc[q] = s;
                }
            FIT_SYNC();
        }
        for (int q = 0; q < OWNED; ++q)
            if (own_i[q] >= 0) F.sum[int(lane) + q * GP_FIT_LANES] = acc[q];
        FIT_SYNC();
        if (F.sum[ne + np] > 0.0lf) break;
        for (int tries = 0; tries < GP_FIT_TRIES; ++tries) {
            bool ok = solve(np, ne, lambda);
            if (ok && lane == 0u)
                for (int k = 0; k < nt; ++k) F.cand[k] = float(double(F.theta[k]) + F.step[k]);
            FIT_SYNC(); // the candidate, for every lane's walk
            if (!ok) {
                lambda *= 10.0lf;
                continue;
            }
            double na = scaling ? a + F.step[nt] : a, nb = scaling ? b + F.step[nt + 1] : b;
            sse_into_sum(true, false, na, nb);
            double s = F.sum[SSE];
            if (s < best) {
                best = s, a = na, b = nb;
                if (lane == 0u)
                    for (int k = 0; k < nt; ++k) F.theta[k] = F.cand[k];
                lambda = lambda * 0.1lf > 1e-9lf ? lambda * 0.1lf : 1e-9lf;
                break;
            }
            lambda *= 10.0lf;
        }
        FIT_SYNC(); // F.theta as accepted, for the next iteration's walks
    }
    FIT_SYNC();
    if (int(lane) < nt) imageStore(i_consts, at4096(F.word[lane]), vec4(F.theta[lane]));
}

void main()
{
#if GP_FIT_CLAIM
    // Subgroups stay and claim programs one after another from a counter that only grows (a
    // dispatch's claims are u_claim_base on: u_pop programs, then one more a subgroup, which
    // finds the end; the driver keeps the count), so that the fitted programs, a few in ten,
    // keep every resident subgroup busy rather than a work-group each.
    for (;;) {
        if (LANE == 0u) F.claim = atomicAdd(next_claim, 1u) - u_claim_base;
        FIT_SYNC();
        uint p = F.claim;
        FIT_SYNC(); // every lane has read it before invocation 0 claims again
        if (p >= uint(u_pop)) return;
        fit_program(int(p));
    }
#else
    // A work-group a program (drivers that cut an invocation's loops short count them all).
    int p = int(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x);
    if (p < u_pop) fit_program(p);
#endif
}
