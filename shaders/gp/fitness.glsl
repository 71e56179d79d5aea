// A resident generation's fitness, best and elites on the GPU (issue 24), so that the host
// reads nothing between generations: one work-group of FIT_LANES invocations turns the
// evaluator's results (gp/combine.glsl's or gp/seg_out.glsl's) into each program's error and
// minimised fitness, checks its run marks, then finds the best program and the elites by
// reductions in shared memory. C twins, which it must equal bit for bit and choice for choice:
// glevo_gp_metric_value and gp_fitness_of (errors, fitness), gp_find_best (the best: least
// fitness, then the shorter program, then the first), gp_breed_elites (elite e: the least
// fitness among the others, then the first). Compute only (src/gp/breed/fitness_gpu.c).
// With linear scaling (u_scaled) in two passes around the evaluator's second look, as
// src/gp/eval/evaluator.c's finish and refine_scaled do on the host: pass 1 turns each
// program's moments into the error of its least-squares a + b f (gp/scaling.glsl) and, for
// the nearly exact ones (a squared error at most u_limit), writes a and b for the second look
// (gp_affine_ab; NaN for the others, which the evaluation then skips); pass 2 takes the second
// look's error for those, then fitness, best and elites as without scaling.
layout(std140) uniform pass_uniforms {
    double u_cases, u_rcases; // the case count and 1 / cases rounded once (by the host)
    double u_sy, u_syy;       // the target's sums (linear scaling)
    double u_limit;           // the second look's bound on the scaled squared error
    double u_one;             // 1.0: RND's
    int u_pop, u_metric, u_elites, u_nseg;
    float u_marks, u_stamp1;  // what every result's run marks and 1 + stamp must be
    int u_slot;               // in_best_fit's for this generation
    int u_scaled;             // 0: no linear scaling; 1, 2: its passes (above)
};
#define RND(p) ((p) * u_one)
#include "gp/scaling.glsl"
layout(local_size_x = FIT_LANES) in;

struct gp_result { uvec4 bits; vec4 counts; };
layout(std430) readonly buffer gp_results { gp_result results[]; };
layout(std430) readonly buffer gp_breed_stats {
    uint s_max_depth, s_total, s_max_len, s_ops;
    int s_len[];
};
// What gp/breed.glsl's compute driver reads: the elites, the fitness its tournaments compare.
layout(std430) buffer gp_breed_in {
    int in_elite[GP_ELITE_MAX];
    int in_best, in_bad;   // in_bad: a program whose marks were wrong in some generation
                           // since the run began, or -1 (a failed run stays failed)
    double in_codes;       // codes evaluated by this pass's generations, summed (the host's
                           // nodes_evaluated, read when it reports)
    double in_best_fit[GP_BEST_HISTORY]; // the best's fitness, a generation a slot (a
                           // portfolio's restart count reads several at once: src/gp/engine.c)
    double fit[];
};
layout(std430) buffer gp_errors { double err[]; };
layout(std430) buffer gp_affine_ab { vec2 affine_ab[]; }; // u_scaled: the second look's a, b

bool finite_d(double x) { return (unpackDouble2x32(x).y & 0x7FF00000u) != 0x7FF00000u; }

// a / cases as C divides it (correctly rounded), whatever this driver's double division
// does, and without fma (llvmpipe does not fuse it): q = a * (1 / cases) is within an ulp;
// r = a - q * cases exactly (q split into 26 and 27 significant bits, whose products with a
// case count below 2^26 are exact, and the subtractions exact by Sterbenz and because r is
// representable); q + r * (1 / cases) then errs by ~2^-52 ulp, while a / cases lies at least
// ulp / (2 cases) from a rounding midpoint, so it rounds as a / cases does.
double div_cases(double a)
{
    precise double q = a * u_rcases;
    if (!finite_d(q)) return q;
    uvec2 w = unpackDouble2x32(q);
    precise double qh = packDouble2x32(uvec2(w.x & 0xF8000000u, w.y));
    precise double ql = q - qh;
    precise double r = (a - qh * u_cases) - ql * u_cases;
    precise double q1 = q + r * u_rcases;
    return q1;
}

void fitness_of(int i, out double e, out double f)
{
    gp_result r = results[i];
    double a = packDouble2x32(r.bits.xy), s = packDouble2x32(r.bits.zw);
    if (u_metric == GP_METRIC_MSE) e = div_cases(s);
    else if (u_metric == GP_METRIC_ACCURACY) e = div_cases(double(r.counts.x));
    else e = a;
    precise double g = u_metric == GP_METRIC_ACCURACY ? 1.0lf - e : e;
    f = finite_d(g) ? g : packDouble2x32(uvec2(0u, 0x7FF00000u));
}

// (f, l, i) before (g, m, j), where j < 0 is no candidate.
bool before(double f, int l, int i, double g, int m, int j)
{
    if (i < 0) return false;
    if (j < 0) return true;
    return f < g || (f == g && (l < m || (l == m && i < j)));
}

shared double r_fit[FIT_LANES];
shared int r_len[FIT_LANES], r_idx[FIT_LANES];
shared int r_bad;
shared int r_taken[GP_ELITE_MAX];

// The least of the lanes' candidates into lane 0's.
void reduce(int lane, double f, int l, int i)
{
    r_fit[lane] = f;
    r_len[lane] = l;
    r_idx[lane] = i;
    for (int w = FIT_LANES / 2; w > 0; w >>= 1) {
        memoryBarrierShared();
        barrier();
        if (lane < w && before(r_fit[lane + w], r_len[lane + w], r_idx[lane + w], r_fit[lane],
                               r_len[lane], r_idx[lane])) {
            r_fit[lane] = r_fit[lane + w];
            r_len[lane] = r_len[lane + w];
            r_idx[lane] = r_idx[lane + w];
        }
    }
    memoryBarrierShared();
    barrier();
}

// Pass 1 of linear scaling: program i's scaled error (mse: the squared error over the cases;
// the host's errors[i] = sse / n) and, where it is nearly exact, a and b for the second look.
void scaled_of(int i)
{
    gp_result r = results[i];
    double sfy = packDouble2x32(r.bits.xy), sff = packDouble2x32(r.bits.zw);
    double a, b, sse;
    gp_closed_form(double(r.counts.x), sff, sfy, u_sy, u_syy, u_cases, a, b, sse);
    err[i] = div_cases(sse);
    affine_ab[i] = sse <= u_limit ? vec2(float(a), float(b)) : vec2(uintBitsToFloat(0x7FC00000u), 1.0);
}

void main()
{
    int lane = int(gl_LocalInvocationIndex);
    if (lane == 0) r_bad = 0x7FFFFFFF;
    memoryBarrierShared();
    barrier();
    double bf = 0.0lf;
    int bl = 0, bi = -1;
    for (int i = lane; i < u_pop; i += FIT_LANES) {
        vec4 c = results[i].counts;
        if (c.y != u_marks || c.z != float(u_nseg) || c.w != u_stamp1) atomicMin(r_bad, i);
        if (u_scaled == 1) {
            scaled_of(i);
            continue;
        }
        double e, f;
        fitness_of(i, e, f);
        // The second look's error where there was one, else pass 1's.
        if (u_scaled == 2 && isnan(affine_ab[i].x)) {
            e = err[i];
            f = finite_d(e) ? e : packDouble2x32(uvec2(0u, 0x7FF00000u));
        }
        err[i] = e;
        fit[i] = f;
        if (before(f, s_len[i], i, bf, bl, bi)) bf = f, bl = s_len[i], bi = i;
    }
    memoryBarrierShared();
    barrier();
    if (u_scaled == 1) { // pass 1 ends here: a wrong mark is kept, the rest is pass 2's
        if (lane == 0 && r_bad != 0x7FFFFFFF && in_bad < 0) in_bad = r_bad;
        return;
    }
    reduce(lane, bf, bl, bi);
    if (lane == 0) {
        in_best = r_idx[0];
        in_best_fit[u_slot] = r_fit[0];
        if (r_bad != 0x7FFFFFFF && in_bad < 0) in_bad = r_bad; // kept until the host reads it
        in_codes += double(s_total);
    }
    for (int k = 0; k < u_elites; ++k) {
        bi = -1;
        for (int i = lane; i < u_pop; i += FIT_LANES) {
            bool taken = false;
            for (int t = 0; t < k; ++t) taken = taken || r_taken[t] == i;
            if (!taken && before(fit[i], 0, i, bf, 0, bi)) bf = fit[i], bi = i;
        }
        reduce(lane, bf, 0, bi);
        if (lane == 0) {
            r_taken[k] = r_idx[0];
            in_elite[k] = r_idx[0];
        }
        memoryBarrierShared();
        barrier();
    }
}
