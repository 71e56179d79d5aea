/* Problem fitness at known points, spin-glass energies, exact ground states (transfer matrix)
 * against brute force, and the shipped data/spin instances. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glevo/dsmga.h"
#include "testutil.h"

static glevo_dsmga_problem *make(const char *name, int ell)
{
    glevo_dsmga_problem *p = NULL;
    glevo_status st = glevo_dsmga_problem_create(name, ell, NULL, 1, &p);
    ck_assert_msg(st == GLEVO_OK, "%s ell %d: %s", name, ell, glevo_last_error());
    return p;
}

static void set_bits(uint8_t *x, const char *s)
{
    for (size_t i = 0; s[i]; ++i) x[i] = (uint8_t)(s[i] - '0');
}

static double eval_str(const glevo_dsmga_problem *p, const char *s)
{
    uint8_t x[64];
    set_bits(x, s);
    return glevo_dsmga_problem_eval(p, x);
}

START_TEST(onemax_points)
{
    glevo_dsmga_problem *p = make("onemax", 7);
    ck_assert_double_eq(eval_str(p, "1111111"), 7.0);
    ck_assert_double_eq(eval_str(p, "1010100"), 3.0);
    ck_assert_double_eq(glevo_dsmga_problem_optimum(p), 7.0);
    glevo_dsmga_problem_destroy(p);
}
END_TEST

START_TEST(trap_points)
{
    glevo_dsmga_problem *p = make("trap", 10);
    ck_assert_double_eq_tol(eval_str(p, "1111111111"), 2.0, 1e-12);
    ck_assert_double_eq_tol(eval_str(p, "0000000000"), 1.6, 1e-12);
    ck_assert_double_eq_tol(eval_str(p, "1111110000"), 1.6, 1e-12);  /* 1 + 0.6 */
    ck_assert_double_eq_tol(eval_str(p, "1111011110"), 0.0, 1e-12);  /* u = 4 twice */
    ck_assert_double_eq_tol(eval_str(p, "0011000110"), 0.8, 1e-12);  /* 0.4 + 0.4 */
    ck_assert_double_eq_tol(glevo_dsmga_problem_optimum(p), 2.0, 1e-12);
    glevo_dsmga_problem_destroy(p);
    glevo_dsmga_problem *bad = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("trap", 12, NULL, 1, &bad), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(bad);
    ck_assert_ptr_nonnull(strstr(glevo_last_error(), "12"));
}
END_TEST

START_TEST(ftrap_points)
{
    glevo_dsmga_problem *p = make("ftrap", 12);
    ck_assert_double_eq_tol(eval_str(p, "111111000000"), 2.0, 1e-12);  /* both optima */
    ck_assert_double_eq_tol(eval_str(p, "111000110000"), 1.2, 1e-12);  /* u=3: 0.8, u=2: 0.4 */
    ck_assert_double_eq_tol(eval_str(p, "100000111100"), 0.4, 1e-12);  /* u=1: 0, u=4: 0.4 */
    ck_assert_double_eq_tol(eval_str(p, "110000110110"), 0.8, 1e-12);  /* u=2: 0.4, u=4: 0.4 */
    ck_assert_double_eq_tol(glevo_dsmga_problem_optimum(p), 2.0, 1e-12);
    glevo_dsmga_problem_destroy(p);
}
END_TEST

START_TEST(cyctrap_points)
{
    /* ell 8: trap 0 on bits 0..4, trap 1 on bits 4..7 and 0 (wraparound). */
    glevo_dsmga_problem *p = make("cyctrap", 8);
    ck_assert_double_eq_tol(eval_str(p, "11111111"), 2.0, 1e-12);
    ck_assert_double_eq_tol(eval_str(p, "00000000"), 1.6, 1e-12);
    ck_assert_double_eq_tol(eval_str(p, "11111000"), 1.4, 1e-12);  /* 1 + u=2: 0.4 */
    ck_assert_double_eq_tol(eval_str(p, "10011111"), 1.2, 1e-12);  /* u=3: 0.2, u=5: 1 */
    glevo_dsmga_problem_destroy(p);
}
END_TEST

START_TEST(spin_ferromagnet)
{
    glevo_spin_instance s;
    ck_assert_int_eq(glevo_spin_random(3, 1, &s), GLEVO_OK);
    memset(s.right, 1, 9);
    memset(s.down, 1, 9);
    uint8_t x[9];
    memset(x, 1, 9);
    ck_assert_int_eq(glevo_spin_energy(&s, x), -18);
    x[4] = 0; /* one flipped spin breaks its 4 bonds */
    ck_assert_int_eq(glevo_spin_energy(&s, x), -10);
    int e = 0;
    ck_assert_int_eq(glevo_spin_ground_transfer(&s, &e), GLEVO_OK);
    ck_assert_int_eq(e, -18);
    glevo_spin_free(&s);
}
END_TEST

START_TEST(spin_ground_vs_brute)
{
    for (int L = 2; L <= 4; ++L)
        for (uint32_t seed = 1; seed <= 6; ++seed) {
            glevo_spin_instance s;
            ck_assert_int_eq(glevo_spin_random(L, seed, &s), GLEVO_OK);
            int et = 0, eb = 0;
            ck_assert_int_eq(glevo_spin_ground_transfer(&s, &et), GLEVO_OK);
            ck_assert_int_eq(glevo_spin_ground_brute(&s, &eb), GLEVO_OK);
            ck_assert_msg(et == eb, "L %d seed %u: transfer %d, brute force %d", L, seed, et, eb);
            glevo_spin_free(&s);
        }
}
END_TEST

START_TEST(spin_problem_optimum_reached)
{
    /* The fitness of a brute-force ground state equals the problem's optimum. */
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 16, NULL, 7, &p), GLEVO_OK);
    double best = -1e9;
    uint8_t x[16];
    for (uint32_t m = 0; m < (1u << 16); ++m) {
        for (int i = 0; i < 16; ++i) x[i] = (m >> i) & 1u;
        double f = glevo_dsmga_problem_eval(p, x);
        if (f > best) best = f;
    }
    ck_assert_double_eq(best, glevo_dsmga_problem_optimum(p));
    glevo_dsmga_problem_destroy(p);
}
END_TEST

START_TEST(shipped_instances)
{
    static const char *files[] = {"spin/spin_L4_s1.txt", "spin/spin_L6_s1.txt",
                                  "spin/spin_L8_s1.txt", "spin/spin_L8_s2.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        const char *path = testutil_data_path(files[i]);
        glevo_spin_instance s;
        ck_assert_msg(glevo_spin_load(path, &s) == GLEVO_OK, "%s", glevo_last_error());
        ck_assert(s.has_ground);
        int e = 0;
        ck_assert_int_eq(glevo_spin_ground_transfer(&s, &e), GLEVO_OK);
        ck_assert_msg(e == s.ground, "%s: file says %d, transfer matrix %d", path, s.ground, e);
        if (s.L <= 4) {
            int eb = 0;
            ck_assert_int_eq(glevo_spin_ground_brute(&s, &eb), GLEVO_OK);
            ck_assert_int_eq(eb, s.ground);
        }
        glevo_spin_free(&s);
    }
}
END_TEST

START_TEST(spin_file_errors)
{
    const char *path = testutil_write_tmp("L 2\nright\n1 -1\n1 2\ndown\n1 1\n1 1\n");
    glevo_spin_instance s;
    ck_assert_int_eq(glevo_spin_load(path, &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "line 4") != NULL, "%s", glevo_last_error());
    remove(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dsmga_problems");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, onemax_points);
    tcase_add_test(tc, trap_points);
    tcase_add_test(tc, ftrap_points);
    tcase_add_test(tc, cyctrap_points);
    tcase_add_test(tc, spin_ferromagnet);
    tcase_add_test(tc, spin_ground_vs_brute);
    tcase_add_test(tc, spin_problem_optimum_reached);
    tcase_add_test(tc, shipped_instances);
    tcase_add_test(tc, spin_file_errors);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
