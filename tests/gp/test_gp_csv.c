/* CSV datasets (issue 12): a first row of numbers is not silently taken as the header. */
#include <math.h>
#include <string.h>

#include "glevo/gp.h"
#include "testutil.h"

START_TEST(numeric_first_row_is_an_error)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("1,2,3\n4,5,6\n", "t.csv", NULL, &d), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(d);
    ck_assert_msg(strstr(glevo_last_error(), "t.csv:1:1") && strstr(glevo_last_error(), "header"),
                  "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_data_parse_csv(" -1.5 , 2e3,0x10\n4,5,6\n", "t.csv", NULL, &d),
                     GLEVO_ERR_INVALID);
}
END_TEST

START_TEST(names_that_look_partly_numeric_are_a_header)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("x1,2,y\n4,5,6\n", "t.csv", NULL, &d), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_data_cases(d), 1);
    ck_assert_str_eq(glevo_gp_data_target_name(d), "y");
    glevo_gp_data_destroy(d);
}
END_TEST

/* The one check at the float32 boundary: a value beyond float's range, and a target whose
 * squared errors would overflow float sums, are refused with the place they stand, by the CSV
 * reader and by glevo_gp_data_create alike; a target of 1e15 and inputs near float's edge
 * still load. */
START_TEST(values_at_floats_edge)
{
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_parse_csv("a,y\n1,2\n2,3e38\n", "t.csv", NULL, &d),
                     GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "t.csv:3:3") && strstr(glevo_last_error(), "'y'") &&
                      strstr(glevo_last_error(), "1e15"), "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_data_parse_csv("a,y\n3.5e38,2\n", "t.csv", NULL, &d),
                     GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "t.csv:2:1") && strstr(glevo_last_error(), "'a'"),
                  "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_data_parse_csv("a,y\n3e38,1e15\n", "t.csv", NULL, &d), GLEVO_OK);
    glevo_gp_data_destroy(d);
    float x[3] = {1, 2, 3}, y[3] = {1, 2, 3};
    y[2] = 2e15f;
    ck_assert_int_eq(glevo_gp_data_create(1, 3, x, y, &d), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(d);
    ck_assert_msg(strstr(glevo_last_error(), "target at case 2"), "%s", glevo_last_error());
    y[2] = 3;
    x[1] = (float)INFINITY;
    ck_assert_int_eq(glevo_gp_data_create(1, 3, x, y, &d), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "x1 at case 1"), "%s", glevo_last_error());
    x[1] = NAN;
    ck_assert_int_eq(glevo_gp_data_create(1, 3, x, y, &d), GLEVO_ERR_INVALID);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_csv");
    TCase *tc = tcase_create("gp_csv");
    tcase_add_test(tc, numeric_first_row_is_an_error);
    tcase_add_test(tc, names_that_look_partly_numeric_are_a_header);
    tcase_add_test(tc, values_at_floats_edge);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
