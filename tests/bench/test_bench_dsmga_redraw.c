/* glevo bench dsmga --redraw: tables of two runs become one picture (SVG and PNG, a line per
 * problem and measure; per problem and backend where the table names backends) and one
 * merged table; malformed tables give one line naming the
 * file, line and value, exit 2, and no output. No GL context is made, so this runs anywhere. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16];

/* Columns reordered and one extra, as the redraw finds them by name. */
#define HEADER "ell,pop,problem,speedup_ils_lossy,speedup_dsm,speedup_ils_lossless\n"
/* Rows out of ell order within and across files; 0.9 is a GPU slower than the CPU. */
#define ROWS_A "600,120,trap,210.4,18.6,18.1\n120,104,trap,3.9,0.9,1.8\n120,80,ftrap,11.4,9.4,3.4\n"
#define ROWS_B "300,120,trap,32.8,5.7,9.3\n1000,192,trap,148.5,24.8,21.0\n300,136,ftrap,72.8,18.6,11.0\n"

static char *make_out_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/glevo-redraw-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

static int redraw(const char *list, const char *dir, const char *extra)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s bench dsmga --redraw %s --out %s --name t %s 2>&1", testutil_cli(), list, dir, extra);
    return testutil_run(cmd, out, sizeof out);
}

static char *slurp(const char *dir, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s was not written", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static unsigned char *png_load(const char *dir, const char *file, int *w, int *h)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    unsigned char *rgb = testutil_png_load(path, w, h);
    ck_assert_msg(rgb, "%s is not a PNG", path);
    return rgb;
}

static int count_colour(const unsigned char *rgb, int w, int h, unsigned c)
{
    int n = 0;
    for (int i = 0; i < w * h; ++i)
        n += rgb[3 * i] == (c >> 16 & 255) && rgb[3 * i + 1] == (c >> 8 & 255) && rgb[3 * i + 2] == (c & 255);
    return n;
}

static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(redraw_merges_two_tables)
{
    const char *a = testutil_write_tmp(HEADER ROWS_A), *b = testutil_write_tmp(HEADER ROWS_B);
    char list[256];
    snprintf(list, sizeof list, "%s,%s", a, b);
    char *dir = make_out_dir();
    ck_assert_msg(redraw(list, dir, "--caption 'GPU & co'") == 0, "%s", out);
    ck_assert_str_eq(slurp(dir, "t.csv"), HEADER ROWS_A ROWS_B);

    /* The picture comes from the chart module (tests/viz/test_chart.c checks its axes and
     * point placement): here, that both files are written, that colour = problem (two problems,
     * the first two palette colours, no third), and that the caption is drawn. */
    const char *svg = slurp(dir, "t_speedup.svg");
    ck_assert_msg(!strncmp(svg, "<?xml", 5) && strstr(svg, "<svg"), "not an SVG: %.60s", svg);
    int w, h, dark_caption = 0;
    unsigned char *rgb = png_load(dir, "t_speedup.png", &w, &h);
    ck_assert_int_eq(w, 800);
    ck_assert_int_eq(h, 480);
    ck_assert_msg(count_colour(rgb, w, h, 0x1f77b4) > 100, "no trap line (first palette colour)");
    ck_assert_msg(count_colour(rgb, w, h, 0xd62728) > 100, "no ftrap line (second palette colour)");
    ck_assert_msg(count_colour(rgb, w, h, 0x2ca02c) == 0, "a third problem colour appears");
    for (int y = h - 22; y < h; ++y)
        for (int x = 0; x < w / 2; ++x) dark_caption += rgb[((size_t)y * w + x) * 3] < 160;
    ck_assert_msg(dark_caption > 30, "the caption 'GPU & co' is not drawn");
    free(rgb);
    remove_dir(dir);
    remove(a);
    remove(b);
}
END_TEST

/* Tables of `bench dsmga --backend fragment,compute` carry a backend column: a line each. */
START_TEST(redraw_names_backends)
{
    const char *a = testutil_write_tmp("problem,ell,backend,speedup_dsm,speedup_ils_lossless,speedup_ils_lossy\n"
                                       "ftrap,600,fragment,27.3,22.1,215.3\nftrap,600,compute,90.5,300.2,500.1\n"
                                       "ftrap,300,compute,40.5,100.2,200.1\n");
    char *dir = make_out_dir();
    ck_assert_msg(redraw(a, dir, "") == 0, "%s", out);
    /* one colour per (problem, backend): "ftrap compute" and "ftrap fragment" */
    int w, h;
    unsigned char *rgb = png_load(dir, "t_speedup.png", &w, &h);
    ck_assert_msg(count_colour(rgb, w, h, 0x1f77b4) > 100 && count_colour(rgb, w, h, 0xd62728) > 100,
                  "no line per backend (two palette colours)");
    ck_assert_msg(count_colour(rgb, w, h, 0x2ca02c) == 0, "a third line colour appears");
    free(rgb);
    remove_dir(dir);
    remove(a);
}
END_TEST

/* The good file comes first, so a redraw that wrote as it read would leave output behind. */
static void expect_bad(const char *text, const char *needle)
{
    const char *good = testutil_write_tmp(HEADER ROWS_A), *bad = text ? testutil_write_tmp(text) : "/nonexistent/t.csv";
    char list[256];
    snprintf(list, sizeof list, "%s,%s", good, bad);
    char *dir = make_out_dir();
    int rc = redraw(list, dir, "");
    ck_assert_msg(rc == 2, "exit %d for '%s': %s", rc, needle, out);
    ck_assert_msg(strstr(out, bad) && strstr(out, needle), "'%s' lacks the file or '%s'", out, needle);
    ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "not one line: %s", out);
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        ck_assert_msg(e->d_name[0] == '.', "%s left behind after '%s'", e->d_name, needle);
    closedir(d);
    remove_dir(dir);
    remove(good);
    if (text) remove(bad);
}

START_TEST(redraw_rejects_malformed_tables)
{
    expect_bad(HEADER "300,120,trap,32.8,5.7\n", "line 2: 5 fields, the header has 6");
    expect_bad(HEADER "300,120,trap,32.8,5.7,9.3\n300,136,ftrap,72.8,fast,11.0\n", "line 3: speedup_dsm 'fast'");
    expect_bad(HEADER "300,120,trap,nan,5.7,9.3\n", "line 2: speedup_ils_lossy 'nan'");
    expect_bad(HEADER "3x0,120,trap,32.8,5.7,9.3\n", "line 2: ell '3x0'");
    expect_bad("ell,pop,problem,speedup_ils_lossy,speedup_dsm\n300,120,trap,32.8,5.7\n", "header lacks column 'speedup_ils_lossless'");
    expect_bad("problem,ell,speedup_dsm,speedup_ils_lossless,speedup_ils_lossy\ntrap,300,5.7,9.3,32.8\n", "line 1: header differs");
    expect_bad("", "empty");
    expect_bad(NULL, "No such file");
}
END_TEST

START_TEST(redraw_needs_out_and_is_in_help)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s bench dsmga --redraw a.csv 2>&1", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--out") && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    snprintf(cmd, sizeof cmd, "%s bench dsmga --help", testutil_cli());
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "--redraw") && strstr(out, "--caption"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bench_dsmga_redraw");
    TCase *tc = tcase_create("redraw");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, redraw_merges_two_tables);
    tcase_add_test(tc, redraw_names_backends);
    tcase_add_test(tc, redraw_rejects_malformed_tables);
    tcase_add_test(tc, redraw_needs_out_and_is_in_help);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
