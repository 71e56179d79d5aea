/* glevo bench islands --redraw: scripts/device/islands-multigpu.sh's tables become one
 * speed-up picture and its points (each family and backend over its best 1-island row; DE by
 * time, the others by throughput; FAILED rows and missed targets left out); a table that is
 * not one of them, or a row that is not numbers, gives one line, exit 2 and no files. No GL
 * context is made, so this runs anywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], dir[64];

/* cGA: two 1-island rows (the better counts), a renderer with a comma, a FAILED run. */
#define CGA "backend,islands,gpus,total_population,island_grid,generations,seconds,evals_per_s,"   \
            "speedup_evals,migration_share,devices,renderer\n"                                   \
            "compute,1,1,64,8x8,10,1.0,100,1.000,0.01,0,\"llvmpipe (LLVM 15, 256 bits)\"\n"     \
            "compute,1,1,64,8x8,10,1.0,200,2.000,0.01,0,\"llvmpipe (LLVM 15, 256 bits)\"\n"     \
            "compute,2,2,64,8x4,10,1.0,300,3.000,0.01,0 1,\"llvmpipe (LLVM 15, 256 bits)\"\n"   \
            "compute,4,,,,,,,,,,FAILED\n"
/* DE: seconds to target; the 4-island run missed it. */
#define DE "backend,islands,gpus,pop_per_island,seconds,evaluations,reached,migration_share,"      \
           "devices,renderer\n"                                                                  \
           "compute,1,1,100,2.0,1000,True,0.01,0,\"x\"\n"                                          \
           "compute,2,2,50,0.5,1000,True,0.01,0 1,\"x\"\n"                                         \
           "compute,4,2,25,0.1,1000,False,0.01,0 1,\"x\"\n"

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static int redraw(const char *files)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s bench islands --redraw %s --out pics 2>&1", dir,
             testutil_cli(), files);
    return testutil_run(cmd, out, sizeof out);
}

static bool exists(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/pics/%s", dir, name);
    return access(path, F_OK) == 0;
}

START_TEST(tables_become_one_picture_and_its_points)
{
    write_file("cga.csv", CGA);
    write_file("de.csv", DE);
    int rc = redraw("cga.csv,de.csv");
    ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
    char path[128];
    snprintf(path, sizeof path, "%s/pics/islands_speedup.png", dir);
    int w = 0, h = 0;
    unsigned char *rgb = testutil_png_load(path, &w, &h);
    ck_assert_msg(rgb && w > 0 && h > 0, "%s is not a PNG", path);
    free(rgb);
    snprintf(path, sizeof path, "%s/pics/islands_speedup.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    ck_assert_str_eq(out, "series,x,y,dash,colour\n"
                          "cGA compute,1,1,0,0\n"
                          "cGA compute,2,1.5,0,0\n"
                          "DE compute,1,1,0,1\n"
                          "DE compute,2,4,0,1\n");
}
END_TEST

START_TEST(a_table_that_is_not_the_scripts_exits_2_in_one_line)
{
    static const struct { const char *text, *says; } bad[] = {
        {"series,x,y\na,1,2\n", "bad.csv line 1: not a table"},
        {CGA "compute,2,2,64,8x4,10,1.0,fast,3.000,0.01,0 1,\"r\"\n", "bad.csv line 6: islands '2', evals_per_s 'fast'"},
        {CGA "compute,2,2\n", "bad.csv line 6: 3 fields, the header has 12"},
        {"backend,islands,programs_per_s\ncompute,2,5\n", "series 'GP compute' has no 1-island row"},
    };
    char clean[128];
    snprintf(clean, sizeof clean, "rm -rf %s/pics", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_assert_int_eq(system(clean), 0); /* the other test's pictures */
        write_file("bad.csv", bad[i].text);
        int rc = redraw("bad.csv");
        ck_assert_msg(rc == 2, "case %zu: exit %d: %s", i, rc, out);
        ck_assert_msg(strstr(out, bad[i].says) && !strchr(out, '\n')[1], "case %zu: %s", i, out);
        ck_assert_msg(!exists("islands_speedup.png") && !exists("islands_speedup.csv"),
                      "case %zu left files", i);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bench_islands_redraw");
    TCase *tc = tcase_create("redraw");
    tcase_add_test(tc, tables_become_one_picture_and_its_points);
    tcase_add_test(tc, a_table_that_is_not_the_scripts_exits_2_in_one_line);
    suite_add_tcase(s, tc);
    return testutil_run_suite_in_tmp(s, dir, sizeof dir, "islands-redraw");
}
