// GP evaluation pass (Augusto & Barbosa 2012, §3.2.1 interpreter and §3.4 strategies): each
// fragment interprets one program, walking its prefix codes backwards with a value stack, over
// a strided subset of the fitness cases, four cases at a time (one RGBA texel of the
// transposed dataset), and writes its partial sums (|e|, e^2, hits with |e| < 0.5, 0).
// Fragment (x, y) serves program p = (x / u_group) * u_prog_rows + y and case-quads
// q = x % u_group, + u_group, ...: u_group = 1 is PPPE (one fragment per program, every case);
// u_group > 1 is PPCU (neighbouring fragments share a program) or, drawn one program at a
// time, FP; those two are followed by gp/rowsum.glsl. C twin: src/gp/interp_cpu.c.
// Injected at build (§5.4): GP_STACK (footnote 7's stack size) and GP_USE_<OP> for each
// operator present in the population, so the switch holds only the cases in use.
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
uniform int u_data_width;
uniform int u_data_rows;       // rows per variable
layout(location = 0) out vec4 o_sums;

ivec2 at4096(uint i) { return ivec2(int(i & 4095u), int(i >> 12u)); }

vec4 fetch_var(uint v, int q)
{
    return texelFetch(t_data, ivec2(q % u_data_width, int(v) * u_data_rows + q / u_data_width), 0);
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
    vec4 st[GP_STACK];
    for (int q = block; q < u_quads; q += u_group) {
        int sp = 0;
        for (int i = length; i >= 1; --i) {
            uint code = texelFetch(t_programs, at4096(offset + uint(i)), 0).r;
            uint idx = code >> 8u;
            switch (code & 255u) {
            case 0u: st[sp++] = fetch_var(idx, q); break;
            case 1u: st[sp++] = vec4(texelFetch(t_consts, at4096(idx), 0).r); break;
            // Binary operators: the first argument is on top (pushed last).
#ifdef GP_USE_ADD
            case 2u: sp--; st[sp - 1] = st[sp] + st[sp - 1]; break;
#endif
#ifdef GP_USE_SUB
            case 3u: sp--; st[sp - 1] = st[sp] - st[sp - 1]; break;
#endif
#ifdef GP_USE_MUL
            case 4u: sp--; st[sp - 1] = st[sp] * st[sp - 1]; break;
#endif
#ifdef GP_USE_DIV
            case 5u: {
                // Protected division: 1 where |b| < 1e-6. mix() with a bvec selects, so the
                // discarded a / 0 never leaks a NaN.
                sp--;
                vec4 b = st[sp - 1];
                st[sp - 1] = mix(st[sp] / b, vec4(1.0), lessThan(abs(b), vec4(1e-6)));
                break;
            }
#endif
#ifdef GP_USE_NEG
            case 6u: st[sp - 1] = -st[sp - 1]; break;
#endif
#ifdef GP_USE_SIN
            case 7u: st[sp - 1] = sin(st[sp - 1]); break;
#endif
#ifdef GP_USE_COS
            case 8u: st[sp - 1] = cos(st[sp - 1]); break;
#endif
#ifdef GP_USE_IF
            case 9u: { // (if c a b): c on top, then a, then b
                sp -= 2;
                st[sp - 1] = mix(st[sp - 1], st[sp], notEqual(st[sp + 1], vec4(0.0)));
                break;
            }
#endif
#ifdef GP_USE_LT
            case 10u: sp--; st[sp - 1] = vec4(lessThan(st[sp], st[sp - 1])); break;
#endif
#ifdef GP_USE_GT
            case 11u: sp--; st[sp - 1] = vec4(greaterThan(st[sp], st[sp - 1])); break;
#endif
#ifdef GP_USE_EQ
            case 12u: sp--; st[sp - 1] = vec4(equal(st[sp], st[sp - 1])); break;
#endif
#ifdef GP_USE_AND
            case 13u:
                sp--;
                st[sp - 1] = vec4(notEqual(st[sp], vec4(0.0))) * vec4(notEqual(st[sp - 1], vec4(0.0)));
                break;
#endif
#ifdef GP_USE_OR
            case 14u:
                sp--;
                st[sp - 1] = max(vec4(notEqual(st[sp], vec4(0.0))), vec4(notEqual(st[sp - 1], vec4(0.0))));
                break;
#endif
#ifdef GP_USE_NOT
            case 15u: st[sp - 1] = vec4(equal(st[sp - 1], vec4(0.0))); break;
#endif
            default: break;
            }
        }
        vec4 y = texelFetch(t_target, ivec2(q % u_data_width, q / u_data_width), 0);
        vec4 e = abs(st[0] - y);
        // The last quad may hold fewer than four cases.
        bvec4 valid = lessThan(ivec4(q * 4) + ivec4(0, 1, 2, 3), ivec4(u_cases));
        abs_sum += mix(vec4(0.0), e, valid);
        sq_sum += mix(vec4(0.0), e * e, valid);
        hits += vec4(lessThan(e, vec4(0.5))) * vec4(valid);
    }
    o_sums = vec4((abs_sum.x + abs_sum.y) + (abs_sum.z + abs_sum.w),
                  (sq_sum.x + sq_sum.y) + (sq_sum.z + sq_sum.w),
                  (hits.x + hits.y) + (hits.z + hits.w), 0.0);
}
