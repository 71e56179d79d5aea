// BuildDSM (Li & Yu 2017 §4.3): one fragment per gene pair (x = j, y = i). n11 from popcounts
// of ANDed FastCounting rows; n10, n01, n00 from the ones counts; mutual information in fp32,
// natural log, 0·log0 = 0, diagonal 0. C twin: glevo_dsm_mi_cpu in src/dsmga/dsm.c; both
// compute bit for bit the same value (dsmga/mi_log.glsl says how). dsm_pair_mi is the pair's
// body, which the compute kernel dsmga/build_dsm_tiles.glsl calls too.
#include "dsmga/common.glsl"
#include "dsmga/mi_log.glsl"

// p(x,y) ln(p(x,y) / (p(x) p(y))) = (nxy/n) (ln(nxy n) - ln(nx ny)). The products are counts
// (exact in float below n = 4096, IEEE-rounded above), so no division enters the log.
float mi_term(float nxy, float nx, float ny, float n)
{
    if (nxy == 0.0) return 0.0;
    precise float t = (nxy * u_inv_n) * (dsm_log(nxy * n) - dsm_log(nx * ny));
    return t;
}

// Mutual information of genes a < b from their ones counts oa, ob and n11 = |a AND b|: the
// operands are ordered so that entries (i, j) and (j, i) run the same float operations.
float dsm_pair_mi(int oa, int ob, int n11)
{
    float fn = float(u_n), fa = float(oa), fb = float(ob), f11 = float(n11);
    float za = fn - fa, zb = fn - fb;
    precise float v = mi_term(f11, fa, fb, fn) + mi_term(fa - f11, fa, zb, fn) +
                      mi_term(fb - f11, za, fb, fn) + mi_term(fn - fa - fb + f11, za, zb, fn);
    return max(v, 0.0);
}

#ifdef GLEVO_FRAGMENT
layout(location = 0) out float o_mi;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (p.x == p.y) { o_mi = 0.0; return; }
    int a = min(p.x, p.y), b = max(p.x, p.y);
    int oa = 0, ob = 0, n11 = 0;
    for (int w = 0; w < u_words; ++w) {
        uint ra = texelFetch(t_rows, ivec2(w, a), 0).r;
        uint rb = texelFetch(t_rows, ivec2(w, b), 0).r;
        oa += bitCount(ra);
        ob += bitCount(rb);
        n11 += bitCount(ra & rb);
    }
    o_mi = dsm_pair_mi(oa, ob, n11);
}
#endif
