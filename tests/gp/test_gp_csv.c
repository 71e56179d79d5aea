/* CSV datasets (issue 12): a first row of numbers is not silently taken as the header. */
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

int main(void)
{
    Suite *s = suite_create("gp_csv");
    TCase *tc = tcase_create("gp_csv");
    tcase_add_test(tc, numeric_first_row_is_an_error);
    tcase_add_test(tc, names_that_look_partly_numeric_are_a_header);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
