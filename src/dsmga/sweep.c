/* Population sizing by the sweep of Hsu & Yu (2015) used in Li & Yu (2017) §6.3: the smallest
 * population that finds the optimum in `runs` consecutive runs, by doubling (or halving from
 * a first guess) then bisection to within 10%. */
#include "dsmga_internal.h"
#include "core/args.h"

glevo_status glevo_dsmga_solve(const glevo_dsmga_problem *problem, const glevo_dsmga_params *params,
                               glevo_dsmga_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(problem);
    ARG_NOT_NULL(params);
    ARG_NOT_NULL(out);
    glevo_dsmga *e;
    glevo_status st = glevo_dsmga_create(problem, params, &e);
    if (st != GLEVO_OK) return st;
    st = glevo_dsmga_run(e, out);
    glevo_dsmga_destroy(e);
    return st;
}

static glevo_status all_solve(const glevo_dsmga_problem *problem, const glevo_dsmga_params *base,
                              int pop, int runs, bool *ok, double *mean_nfe)
{
    double nfe = 0.0;
    *ok = true;
    for (int r = 0; r < runs; ++r) {
        glevo_dsmga_params p = *base;
        p.pop = pop;
        p.seed = base->seed + (uint32_t)r;
        glevo_dsmga_result res;
        glevo_status st = glevo_dsmga_solve(problem, &p, &res);
        if (st != GLEVO_OK) return st;
        nfe += (double)res.nfe;
        if (!res.solved) {
            *ok = false;
            return GLEVO_OK;
        }
    }
    *mean_nfe = nfe / runs;
    return GLEVO_OK;
}

glevo_status glevo_dsmga_sweep(const glevo_dsmga_problem *problem, const glevo_dsmga_params *base,
                               int runs, glevo_dsmga_sweep_result *out)
{
    glevo_clear_error();
    ARG_NOT_NULL(problem);
    ARG_NOT_NULL(base);
    ARG_NOT_NULL(out);
    if (runs <= 0) runs = 10;
    int hi = base->pop >= 2 ? base->pop : 8, lo = 0;
    double hi_nfe = 0.0;
    bool ok = false;
    glevo_status st = all_solve(problem, base, hi, runs, &ok, &hi_nfe);
    if (st != GLEVO_OK) return st;
    if (ok && base->pop >= 2) {
        /* the guess solves: halve until a population fails (or 2 is reached) */
        for (;;) {
            int down = hi / 2;
            if (down < 2) break;
            double nfe = 0.0;
            if ((st = all_solve(problem, base, down, runs, &ok, &nfe)) != GLEVO_OK) return st;
            if (!ok) {
                lo = down;
                break;
            }
            hi = down;
            hi_nfe = nfe;
        }
        ok = true; /* hi solves */
    }
    while (!ok) {
        lo = hi;
        if (hi >= 1 << 16)
            return glevo_fail(GLEVO_ERR_INVALID, "sweep: no population up to %d solves %s in %d runs",
                              hi, glevo_dsmga_problem_name(problem), runs);
        hi *= 2;
        if ((st = all_solve(problem, base, hi, runs, &ok, &hi_nfe)) != GLEVO_OK) return st;
    }
    while (hi - lo > 1 && hi - lo > hi / 10) {
        int mid = (lo + hi) / 2;
        double nfe = 0.0;
        st = all_solve(problem, base, mid, runs, &ok, &nfe);
        if (st != GLEVO_OK) return st;
        if (ok) {
            hi = mid;
            hi_nfe = nfe;
        } else {
            lo = mid;
        }
    }
    out->pop = hi;
    out->mean_nfe = hi_nfe;
    out->runs = runs;
    return GLEVO_OK;
}
