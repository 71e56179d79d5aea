// Linear scaling's closed form in double, as src/gp/eval/scaling.c computes it on the host,
// and the correctly rounded division it needs (GLSL's double division may be a * (1 / b)):
// included by gp/const_fit.glsl and gp/fitness.glsl, which define RND(p) (a product rounded on
// its own before the sum that takes it: ((p) * u_one) with a uniform 1.0, so that no compiler
// fuses it into an fma) and GP_SCALING_MIN_VAR.

// b * q - p exactly, p = b * q rounded (Dekker's product by Veltkamp's split: plain double
// products and sums, exact where fma may not be fused, as on llvmpipe).
double gp_dprod_err(double b, double q, double p)
{
    precise double cb = 134217729.0lf * b, cq = 134217729.0lf * q; // 2^27 + 1
    precise double bh = cb - (cb - b), qh = cq - (cq - q);
    precise double bl = b - bh, ql = q - qh;
    precise double e = ((bh * qh - p) + bh * ql + bl * qh) + bl * ql;
    return e;
}

// a / b correctly rounded, as C divides: GLSL's double division may be a * (1 / b) (Mesa
// lowers it so). The reciprocal of b's mantissa from float's and two Newton steps, then the
// quotient corrected twice by its exact residual a - b q.
double gp_ddiv(double a, double b)
{
    if (b == 0.0lf || isinf(b) || isnan(b) || isinf(a) || isnan(a) || a == 0.0lf) return a / b;
    int e;
    double m = frexp(b, e); // b = m 2^e, |m| in [0.5, 1)
    precise double y = double(1.0 / float(m));
    y = y + RND(y * (1.0lf - RND(m * y)));
    y = y + RND(y * (1.0lf - RND(m * y)));
    y = ldexp(y, -e);
    precise double q = a * y;
    for (int k = 0; k < 2; ++k) {
        precise double p = b * q;
        precise double t = (a - p) - gp_dprod_err(b, q, p);
        q = q + RND(t * y);
    }
    return q;
}

// a, b and the squared error of a + b f from f's moments (sum f, sum f^2, sum f y) and the
// target's (sum y, sum y^2) over n cases: scaling.c's closed_form, operation for operation.
void gp_closed_form(double sf, double sff, double sfy, double sy, double syy, double n,
                    out double a, out double b, out double sse)
{
    precise double my = gp_ddiv(sy, n), mf = gp_ddiv(sf, n);
    precise double sff_c = sff - RND(sf * mf), sfy_c = sfy - RND(sf * my);
    precise double syy_c = syy - RND(sy * my);
    a = my, b = 0.0lf;
    if (isinf(sf) || isnan(sf) || isinf(sff) || isnan(sff) || isinf(sfy) || isnan(sfy)) {
        sse = packDouble2x32(uvec2(0u, 0x7FF00000u)); // +inf
        return;
    }
    if (!(sff_c > RND(GP_SCALING_MIN_VAR * sff))) {
        sse = syy_c > 0.0lf ? syy_c : 0.0lf;
        return;
    }
    precise double bb = gp_ddiv(sfy_c, sff_c);
    precise double aa = my - RND(bb * mf);
    precise double e = syy_c - RND(bb * sfy_c);
    a = aa, b = bb;
    sse = e > 0.0lf ? e : 0.0lf;
}
