/* glevo-demo's program wrapping (demos/demo_wrap.c, compiled in here: the demo is a front end
 * and not part of the library): lines fit, break only at spaces, and lose no token. */
#include <string.h>

#include "../../demos/demo_wrap.c"
#include "testutil.h"

START_TEST(breaks_only_between_tokens)
{
    const char *text = "(+ (* (sin (+ x2 x2)) 0.815856814) (- (- x1 0.999599934) (* x2 -0.588472724)))";
    for (int cols = 15; cols <= 43; cols += 7) { /* the longest token is 15 */
        char out[512];
        int lines = demo_wrap(text, cols, out, sizeof out);
        int counted = 1;
        for (char *p = out; *p; ++p) counted += *p == '\n';
        ck_assert_int_eq(lines, counted);
        /* Every line fits, none starts or ends with a space. */
        for (char *line = out; line;) {
            char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            ck_assert_msg((int)len <= cols, "cols %d: line '%.*s' is %zu long", cols, (int)len, line, len);
            ck_assert_msg(len > 0 && line[0] != ' ' && line[len - 1] != ' ', "cols %d: line '%.*s'", cols, (int)len, line);
            line = nl ? nl + 1 : NULL;
        }
        /* Joining the lines with spaces gives the text back: no token was cut or lost. */
        char joined[512];
        strcpy(joined, out);
        for (char *p = joined; *p; ++p)
            if (*p == '\n') *p = ' ';
        ck_assert_msg(!strcmp(joined, text), "cols %d: '%s'", cols, joined);
    }
}
END_TEST

START_TEST(keeps_explicit_newlines_and_cuts_only_giants)
{
    char out[256];
    ck_assert_int_eq(demo_wrap("best:\n(+ x1 x2)", 40, out, sizeof out), 2);
    ck_assert_str_eq(out, "best:\n(+ x1 x2)");
    /* A token longer than a line is the one thing that may be cut. */
    ck_assert_int_eq(demo_wrap("abcdefghij", 4, out, sizeof out), 3);
    ck_assert_str_eq(out, "abcd\nefgh\nij");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("viz_wrap");
    TCase *tc = tcase_create("wrap");
    tcase_add_test(tc, breaks_only_between_tokens);
    tcase_add_test(tc, keeps_explicit_newlines_and_cuts_only_giants);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
