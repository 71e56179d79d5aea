/* Lexicographic parsimony pressure (src/gp/parsimony.c): the tournament's comparison, and a
 * run with it keeps its programs smaller than the same run without. */
#include <math.h>
#include <stdlib.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "gp/breed/parsimony.h"
#include "testutil.h"

START_TEST(test_comparison)
{
    /* Off: strictly lower fitness wins, size never matters. */
    ck_assert(gp_tournament_beats(0, 1.0, 50, 2.0, 3));
    ck_assert(!gp_tournament_beats(0, 2.0, 3, 1.0, 50));
    ck_assert(!gp_tournament_beats(0, 1.0, 3, 1.0, 50));
    /* On: within the band the shorter wins, outside it fitness decides. */
    ck_assert(gp_tournament_beats(0.01, 1.005, 3, 1.0, 50));
    ck_assert(!gp_tournament_beats(0.01, 1.0, 50, 1.005, 3));
    ck_assert(!gp_tournament_beats(0.01, 1.02, 3, 1.0, 50));
    ck_assert(gp_tournament_beats(0.01, 0.0, 3, 0.0, 5));
    ck_assert(gp_tournament_beats(0.01, INFINITY, 3, INFINITY, 5));
    ck_assert(!gp_tournament_beats(0.01, INFINITY, 3, 1e300, 5));
    ck_assert(!gp_tournament_beats(0.01, 1.0, 5, 1.0, 5)); /* equal sizes: the winner stays */
}
END_TEST

static double mean_size(double parsimony, const glevo_gp_data *d)
{
    glevo_gp_params P = {.pop = 200, .generations = 15, .metric = GLEVO_GP_MSE, .seed = 11,
                         .backend = GLEVO_BACKEND_CPU, .parsimony = parsimony,
                         .const_opt_iters = GLEVO_ZERO};
    glevo_gp *gp = NULL;
    ck_assert_int_eq(glevo_gp_create(&P, d, &gp), GLEVO_OK);
    while (!glevo_gp_done(gp)) ck_assert_int_eq(glevo_gp_step(gp, 1), GLEVO_OK);
    const glevo_gp_programs *p = glevo_gp_population(gp, NULL);
    double m = (double)glevo_gp_programs_nodes(p) / glevo_gp_programs_count(p);
    glevo_gp_destroy(gp);
    return m;
}

START_TEST(test_smaller_programs)
{
    enum { N = 71 };
    float x[2 * N], y[N];
    for (int c = 0; c < N; ++c) {
        x[c] = -2.0f + 4.0f * glevo_rng_u01(glevo_philox4x32((uint32_t)c, 1, 0, 0, 3, 27).v[0]);
        x[N + c] = -2.0f + 4.0f * glevo_rng_u01(glevo_philox4x32((uint32_t)c, 2, 0, 0, 3, 27).v[0]);
        float noise = glevo_rng_u01(glevo_philox4x32((uint32_t)c, 3, 0, 0, 3, 27).v[0]) - 0.5f;
        y[c] = x[c] * x[N + c] + sinf(x[c]) + 0.3f * noise;
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, N, x, y, &d), GLEVO_OK);
    double off = mean_size(0, d), on = mean_size(0.05, d);
    ck_assert_msg(on < 0.8 * off, "mean size %g with parsimony, %g without", on, off);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_parsimony");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_comparison);
    tcase_add_test(tc, test_smaller_programs);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
