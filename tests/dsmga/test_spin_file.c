/* Spin-glass instance files (issue 12, defect 2): one size per file, strict integers, a
 * checked ground line, and an endless input that ends in an error instead of a hang. */
#include <stdio.h>
#include <string.h>

#include "glevo/dsmga.h"
#include "testutil.h"

/* L = 2 ferromagnet: all couplings +1, ground state -8 (every one of the 8 bonds satisfied). */
#define FERRO2 "right\n1 1\n1 1\ndown\n1 1\n1 1\n"

static glevo_status load_text(const char *text, glevo_spin_instance *s)
{
    const char *path = testutil_write_tmp(text);
    glevo_status st = glevo_spin_load(path, s);
    remove(path);
    if (st == GLEVO_OK) glevo_spin_free(s);
    return st;
}

START_TEST(second_size_line_is_an_error)
{
    /* The arrays are sized by the first L; a later L used to be kept and read past them. */
    glevo_spin_instance s;
    ck_assert_int_eq(load_text("L 2\n" FERRO2 "L 4\n", &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "second 'L'"), "%s", glevo_last_error());
    ck_assert_int_eq(load_text("L 2\n" FERRO2 "right\n1 1\n1 1\n", &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "second 'right'"), "%s", glevo_last_error());
}
END_TEST

START_TEST(size_is_a_whole_integer_in_range)
{
    glevo_spin_instance s;
    ck_assert_int_eq(load_text("L 2\n" FERRO2, &s), GLEVO_OK);
    /* 4294967300 = 2^32 + 4 used to load as 4 (atoi); 2abc as 2. */
    ck_assert_int_eq(load_text("L 4294967298\n" FERRO2, &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "4294967298"), "%s", glevo_last_error());
    ck_assert_int_eq(load_text("L 2abc\n" FERRO2, &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "2abc"), "%s", glevo_last_error());
    ck_assert_int_eq(load_text("L 65\n", &s), GLEVO_ERR_INVALID);
    ck_assert_int_eq(load_text(FERRO2, &s), GLEVO_ERR_INVALID);
    ck_assert_int_eq(load_text("L 2\nground -8\nground -8\n" FERRO2, &s), GLEVO_ERR_INVALID);
}
END_TEST

START_TEST(impossible_ground_is_rejected)
{
    glevo_spin_instance s;
    ck_assert_int_eq(load_text("L 2\nground -8\n" FERRO2, &s), GLEVO_OK);
    /* Energies of 2L² = 8 bonds are even and at most 0 in the ground state. */
    ck_assert_int_eq(load_text("L 2\nground 4\n" FERRO2, &s), GLEVO_ERR_INVALID);
    ck_assert_int_eq(load_text("L 2\nground -7\n" FERRO2, &s), GLEVO_ERR_INVALID);
    ck_assert_int_eq(load_text("L 2\nground -10\n" FERRO2, &s), GLEVO_ERR_INVALID);
}
END_TEST

START_TEST(wrong_ground_does_not_solve_a_run)
{
    /* "ground -4" is possible in range but not this instance's: a run would be "solved" as soon
     * as any individual reached -4. The problem checks it against the transfer matrix. */
    const char *path = testutil_write_tmp("L 2\nground -4\n" FERRO2);
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 0, path, 1, &p), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "-8"), "%s", glevo_last_error());
    remove(path);
    path = testutil_write_tmp("L 2\nground -8\n" FERRO2);
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 0, path, 1, &p), GLEVO_OK);
    ck_assert_double_eq(glevo_dsmga_problem_optimum(p), 8.0);
    glevo_dsmga_problem_destroy(p);
    remove(path);
}
END_TEST

START_TEST(wrong_ground_on_a_large_instance)
{
    /* L = 12 is beyond the exact check; a claimed ground above what a descent reaches is still
     * caught. The ferromagnet's ground is -2L² = -288; a descent finds it or close. */
    char text[8192] = "L 12\nground -100\nright\n";
    for (int k = 0; k < 2; ++k) {
        if (k) strcat(text, "down\n");
        for (int i = 0; i < 12; ++i) strcat(text, "1 1 1 1 1 1 1 1 1 1 1 1\n");
    }
    const char *path = testutil_write_tmp(text);
    glevo_dsmga_problem *p = NULL;
    ck_assert_int_eq(glevo_dsmga_problem_create("spin", 0, path, 1, &p), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "-100"), "%s", glevo_last_error());
    remove(path);
}
END_TEST

START_TEST(endless_input_ends)
{
    /* /dev/zero used to loop forever in the tokenizer. */
    glevo_spin_instance s;
    ck_assert_int_eq(glevo_spin_load("/dev/zero", &s), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "/dev/zero"), "%s", glevo_last_error());
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spin_file");
    TCase *tc = tcase_create("spin_file");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, second_size_line_is_an_error);
    tcase_add_test(tc, size_is_a_whole_integer_in_range);
    tcase_add_test(tc, impossible_ground_is_rejected);
    tcase_add_test(tc, wrong_ground_does_not_solve_a_run);
    tcase_add_test(tc, wrong_ground_on_a_large_instance);
    tcase_add_test(tc, endless_input_ends);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
