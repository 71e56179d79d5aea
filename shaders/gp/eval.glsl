// GP evaluation pass (Augusto & Barbosa 2012, §3.2.1 interpreter and §3.4 strategies): each
// fragment interprets one program, walking its prefix codes backwards with a value stack, over
// a strided subset of the fitness cases, four cases at a time (one RGBA texel of the
// transposed dataset), and writes its partial sums (|e|, e^2, hits with |e| < 0.5, 1). The
// last channel marks that the fragment ran: the host checks the sum of the marks, so a draw
// that a lost context or a driver skipped fails loudly instead of reading as zero error.
// Program p owns a tile of u_tile.x x u_tile.y fragments (u_group in all); tile (tx, ty) serves
// p = tx * u_prog_rows + ty, and the fragment at offset (ox, oy) in it takes case-quads
// b = oy * u_tile.x + ox, + u_group, ... Square-ish tiles (8 x 8 for PPCU) keep the 32
// fragments of a warp (a small 2-D block of 2 x 2 quads on NVIDIA) on one program, so its walk
// does not diverge: with the former rows-of-groups mapping a warp held 4 or more programs and
// ran each node's switch once per program. u_group = 1 is PPPE (one fragment per program,
// every case); u_group > 1 is PPCU, or, drawn one program (one tile) at a time, FP; those two
// are followed by gp/rowsum.glsl. C twin: src/gp/interp_cpu.c.
// Injected at build (§5.4): GP_STACK (the population's deepest walk, at most footnote 7's
// size), GP_USE_<OP> for each operator present in the population, so the switch holds only
// the cases in use, GP_LANES: quads interpreted together per program walk, so that fetching
// and decoding a code and the switch are paid once per 4 * GP_LANES cases (lane l takes quad
// q0 + l * u_group), and GP_LONG_PROGRAMS when a program may cross a row of t_programs.
#include "gp/uniforms.glsl"
uniform usampler2D t_programs; // R32UI, 4096 wide: per program [length, codes...]
uniform usampler2D t_index;    // R32UI, 4096 wide: program p's offset into t_programs
uniform sampler2D t_consts;    // R32F, 4096 wide
uniform sampler2D t_data;      // RGBA32F: quad q of variable v at (q % w, v * rows + q / w)
uniform sampler2D t_target;    // RGBA32F: quad q at (q % w, q / w)
layout(location = 0) out vec4 o_sums;

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }

#include "gp/math.glsl"

// The top of the stack lives in a register (top[l]); only the values below it go through the
// array, which the compiler keeps in local memory: a binary operator then costs one array load
// instead of two loads and a store.
// Slot 0 of the array receives the empty register at the first push and is never read.
#define S(slot, l) st[(slot) * GP_LANES + (l)]
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

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    ivec2 t = f / u_tile;
    ivec2 o = f - t * u_tile;
    int p = t.x * u_prog_rows + t.y;
    int block = o.y * u_tile.x + o.x;
    if (p >= u_pop) {
        o_sums = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    uint offset = texelFetch(t_index, at4096(uint(p)), 0).r;
    // Programs do not cross a row of t_programs (the host pads), so code i of the program is
    // at base + (i, 0): one add per node instead of a split of offset + i.
    ivec2 base = at4096(offset);
    int length = int(texelFetch(t_programs, base, 0).r);
    vec4 abs_sum = vec4(0.0), sq_sum = vec4(0.0), hits = vec4(0.0);
    vec4 st[(GP_STACK + 1) * GP_LANES];
    vec4 top[GP_LANES];
    for (int q0 = u_quad_range.x + block; q0 < u_quad_range.y; q0 += u_group * GP_LANES) {
        // Texel of each lane's quad in variable 0's rows, computed once per walk: a variable
        // node then costs one multiply-add and a fetch.
        ivec2 qc[GP_LANES];
        for (int l = 0; l < GP_LANES; ++l) {
            int q = min(q0 + l * u_group, u_quads - 1);
            qc[l] = ivec2(q % u_data_width, q / u_data_width);
            top[l] = vec4(0.0);
        }
        int sp = 0;
        for (int i = length; i >= 1; --i) {
#ifdef GP_LONG_PROGRAMS
            uint code = texelFetch(t_programs, at4096(offset + uint(i)), 0).r;
#else
            uint code = texelFetch(t_programs, ivec2(base.x + i, base.y), 0).r;
#endif
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
            default: break;
            }
        }
        for (int l = 0; l < GP_LANES; ++l) {
            int q = q0 + l * u_group;
            vec4 y = texelFetch(t_target, qc[l], 0);
            vec4 e = abs(top[l] - y);
            // Lanes past the last quad, and the last quad's missing cases, count nothing.
            bvec4 valid = lessThan(ivec4(q * 4) + ivec4(0, 1, 2, 3), ivec4(u_cases));
            if (q >= u_quad_range.y) valid = bvec4(false);
            abs_sum += mix(vec4(0.0), e, valid);
            sq_sum += mix(vec4(0.0), e * e, valid);
            hits += vec4(lessThan(e, vec4(0.5))) * vec4(valid);
        }
    }
    o_sums = vec4((abs_sum.x + abs_sum.y) + (abs_sum.z + abs_sum.w),
                  (sq_sum.x + sq_sum.y) + (sq_sum.z + sq_sum.w),
                  (hits.x + hits.y) + (hits.z + hits.w), 1.0);
}
