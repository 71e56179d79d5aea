// GP evaluation pass (Augusto & Barbosa 2012, §3.2.1 interpreter and §3.4 strategies): each
// fragment interprets one program, walking its prefix codes backwards with a value stack, over
// a strided subset of the fitness cases, four cases at a time (one RGBA texel of the
// transposed dataset), and writes its partial sums (|e|, e^2, hits with |e| < 0.5, 0).
// Fragment (x, y) serves program p = (x / u_group) * u_prog_rows + y and case-quads
// q = x % u_group, + u_group, ...: u_group = 1 is PPPE (one fragment per program, every case);
// u_group > 1 is PPCU (neighbouring fragments share a program) or, drawn one program at a
// time, FP; those two are followed by gp/rowsum.glsl. C twin: src/gp/interp_cpu.c.
// Injected at build (§5.4): GP_STACK (footnote 7's stack size), GP_USE_<OP> for each operator
// present in the population, so the switch holds only the cases in use, and GP_LANES: quads
// interpreted together per program walk, so that fetching and decoding a code and the switch
// are paid once per 4 * GP_LANES cases (lane l takes quad q0 + l * u_group).
uniform usampler2D t_programs; // R32UI, 4096 wide: per program [length, codes...]
uniform usampler2D t_index;    // R32UI, 4096 wide: program p's offset into t_programs
uniform sampler2D t_consts;    // R32F, 4096 wide
uniform sampler2D t_data;      // RGBA32F: quad q of variable v at (q % w, v * rows + q / w)
uniform sampler2D t_target;    // RGBA32F: quad q at (q % w, q / w)
uniform int u_pop;
uniform int u_group;
uniform int u_prog_rows;
uniform int u_cases;
uniform int u_quads;
uniform ivec2 u_quad_range;    // this draw's quads [begin, end): long evaluations are split
                               // into several draws added by blending (no multi-second draws)
uniform int u_data_width;
uniform int u_data_rows;       // rows per variable
layout(location = 0) out vec4 o_sums;

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }

vec4 fetch_var(uint v, int q)
{
    return texelFetch(t_data, ivec2(q % u_data_width, int(v) * u_data_rows + q / u_data_width), 0);
}

// sin/cos after reducing the argument by 2*pi in three exact parts (Cody & Waite): GPU sin()
// loses accuracy far from zero, and the CPU twin's sinf() does not (exact for |x| < ~1e5).
vec4 reduce_2pi(vec4 x)
{
    precise vec4 k = round(x * 0.159154943);
    precise vec4 r = ((x - k * 6.28125) - k * 0.001934051513671875) - k * 1.25566589e-06;
    return r;
}

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

// Division refined by one residual step: GPU a / b may be 2 ulp off, and programs that feed a
// quotient to sin() amplify that; this keeps the GPU within the CPU twin's rounding.
vec4 divide(vec4 a, vec4 b)
{
    precise vec4 q = a / b;
    precise vec4 r = fma(-q, b, a);
    return q + r / b;
}

void main()
{
    ivec2 f = ivec2(gl_FragCoord.xy);
    int p = (f.x / u_group) * u_prog_rows + f.y;
    int block = f.x % u_group;
    if (p >= u_pop) {
        o_sums = vec4(0.0);
        return;
    }
    uint offset = texelFetch(t_index, at4096(uint(p)), 0).r;
    int length = int(texelFetch(t_programs, at4096(offset), 0).r);
    vec4 abs_sum = vec4(0.0), sq_sum = vec4(0.0), hits = vec4(0.0);
    vec4 st[(GP_STACK + 1) * GP_LANES];
    vec4 top[GP_LANES];
    for (int q0 = u_quad_range.x + block; q0 < u_quad_range.y; q0 += u_group * GP_LANES) {
        int qs[GP_LANES];
        for (int l = 0; l < GP_LANES; ++l) {
            qs[l] = min(q0 + l * u_group, u_quads - 1);
            top[l] = vec4(0.0);
        }
        int sp = 0;
        for (int i = length; i >= 1; --i) {
            uint code = texelFetch(t_programs, at4096(offset + uint(i)), 0).r;
            uint idx = code >> 8u;
            switch (code & 255u) {
            case 0u:
                for (int l = 0; l < GP_LANES; ++l) {
                    S(sp, l) = top[l];
                    top[l] = fetch_var(idx, qs[l]);
                }
                sp++;
                break;
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
            // Protected division: 1 where |b| < 1e-6. mix() with a bvec selects, so the
            // discarded a / 0 never leaks a NaN.
            case 5u: BINARY(mix(divide(a, b), vec4(1.0), lessThan(abs(b), vec4(1e-6))));
#endif
#ifdef GP_USE_NEG
            case 6u: UNARY(-a);
#endif
#ifdef GP_USE_SIN
            case 7u: UNARY(sin(reduce_2pi(a)));
#endif
#ifdef GP_USE_COS
            case 8u: UNARY(cos(reduce_2pi(a)));
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
            vec4 y = texelFetch(t_target, ivec2(qs[l] % u_data_width, qs[l] / u_data_width), 0);
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
                  (hits.x + hits.y) + (hits.z + hits.w), 0.0);
}
