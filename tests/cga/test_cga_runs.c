/* The cellular GA as users meet it: it finds the paper's optima on small grids, the standard
 * GA baseline runs, and the glevo cga command keeps its contract (JSON, trace, snapshots, user
 * GLSL fitness, one-line errors with exit 2, nothing half-written). */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/cga.h"
#include "glevo/sheet.h"
#include "glevo/snapshot.h"
#include "testutil.h"

static double best_after(const char *problem, int w, int h, int generations,
                         uint32_t seed, glevo_backend backend, glevo_cga_algorithm alg)
{
    glevo_cga_params p = {.problem = glevo_problem_find(problem), .width = w, .height = h,
                          .seed = seed, .backend = backend, .algorithm = alg};
    glevo_cga *cga;
    ck_assert_msg(glevo_cga_create(&p, &cga) == GLEVO_OK, "%s", glevo_last_error());
    ck_assert(glevo_cga_step(cga, generations) == GLEVO_OK);
    glevo_cga_best best;
    ck_assert(glevo_cga_best_get(cga, &best) == GLEVO_OK);
    ck_assert_int_eq(glevo_cga_evaluations(cga), (long long)w * h * generations);
    glevo_cga_destroy(cga);
    return best.fitness;
}

START_TEST(finds_camel_and_schaffer_optima_on_gpu)
{
    testutil_context();
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        double camel = best_after("camel", 64, 64, 250, seed, GLEVO_BACKEND_FRAGMENT, 0);
        ck_assert_msg(fabs(camel - -1.0316284534898774) < 1e-4, "seed %u camel best %.9g", seed, camel);
        double schaffer = best_after("schaffer", 64, 64, 250, seed, GLEVO_BACKEND_FRAGMENT, 0);
        ck_assert_msg(fabs(schaffer - 1.0) < 1e-4, "seed %u schaffer best %.9g", seed, schaffer);
    }
}
END_TEST

START_TEST(standard_ga_baseline_improves)
{
    double first = best_after("camel", 64, 64, 1, 9, GLEVO_BACKEND_CPU, GLEVO_CGA_STANDARD);
    double later = best_after("camel", 64, 64, 80, 9, GLEVO_BACKEND_CPU, GLEVO_CGA_STANDARD);
    ck_assert_msg(later < first && later < -0.95, "sga: %.6g after 1, %.6g after 80", first, later);
}
END_TEST

static int cli(const char *args, char *out, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s cga %s", testutil_cli(), args);
    return testutil_run(cmd, out, size);
}

static int one_line(const char *s) { return strchr(s, '\n') == s + strlen(s) - 1; }

START_TEST(bad_parameters_exit_2_with_one_line)
{
    static const struct { const char *args, *names; } bad[] = {
        {"--pc 1.5", "1.5"},          {"--pc -0.1", "-0.1"},      {"--pm 2", "2"},
        {"--grid 63x64", "63x64"},    {"--grid 64", "64"},        {"--problem nope", "nope"},
        {"--bits 25", "25"},          {"--bits 0", "0"},          {"--dim 3 --problem camel", "3"},
        {"--generations 0", "0"},     {"--backend gpu", "gpu"},   {"--neighbourhood hex", "hex"},
        {"--rng mt", "mt"},           {"--algorithm sga", "sga"}, {"--fitness /no/such.glsl", "/no/such.glsl"},
    };
    char out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char args[256];
        snprintf(args, sizeof args, "%s --generations 1 2>&1 >/dev/null", bad[i].args);
        if (!strcmp(bad[i].args, "--generations 0")) snprintf(args, sizeof args, "--generations 0 2>&1 >/dev/null");
        ck_assert_msg(cli(args, out, sizeof out) == 2, "'%s' did not exit 2: %s", bad[i].args, out);
        ck_assert_msg(strstr(out, bad[i].names), "'%s': error does not name the value: %s", bad[i].args, out);
        ck_assert_msg(one_line(out), "'%s': not one line: %s", bad[i].args, out);
    }
}
END_TEST

START_TEST(json_trace_and_snapshots)
{
    char dir[] = "/tmp/glevo-cga-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[1024], out[8192];
    snprintf(args, sizeof args,
             "--grid 16x8 --generations 40 --report-every 10 --json --trace %s/t.csv "
             "--snapshot %s/snaps --every 20 --snapshot-scale 1 --snapshot-final %s/final.png --sheet %s/sheet.png --sheet-columns 1",
             dir, dir, dir, dir);
    ck_assert_int_eq(cli(args, out, sizeof out), 0);
    static const char *keys[] = {"\"algorithm\":\"cga\"", "\"problem\":\"camel\"", "\"backend\":",
                                 "\"renderer\":", "\"seed\":1", "\"best_fitness\":", "\"evaluations\":5120",
                                 "\"generations\":40", "\"seconds\":", "\"best_x\":["};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        ck_assert_msg(strstr(out, keys[i]), "JSON lacks %s: %s", keys[i], out);
    char path[1200];
    snprintf(path, sizeof path, "%s/t.csv", dir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    int lines = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) ++lines;
    fclose(f);
    ck_assert_int_eq(lines, 1 + 4); /* header + one row per report */
    static const char *pngs[] = {"snaps/generation-000020.png", "snaps/generation-000040.png", "final.png", "sheet.png"};
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, pngs[i]);
        png_image img;
        memset(&img, 0, sizeof img);
        img.version = PNG_IMAGE_VERSION;
        ck_assert_msg(png_image_begin_read_from_file(&img, path), "%s is not a PNG", path);
        if (i < 3) {
            ck_assert_int_eq(img.width, 32); /* genes beside fitness */
            ck_assert_int_eq(img.height, 8);
        } else { /* two 32x8 tiles in one column, each under a label strip (which may be wider) */
            ck_assert_msg(img.width >= 32 + 2 * GLEVO_SHEET_GAP && img.width < 300 &&
                              img.height == 2 * (GLEVO_SHEET_LABEL_HEIGHT + 8) + 3 * GLEVO_SHEET_GAP,
                          "sheet of two 32x8 snapshots in one column is %ux%u", img.width, img.height);
        }
        png_image_free(&img);
    }
}
END_TEST

START_TEST(failed_run_leaves_no_trace_file)
{
    char out[4096];
    ck_assert_int_eq(cli("--grid 8x8 --generations 5 --trace /tmp/glevo-no-such-dir/t.csv 2>&1", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "/tmp/glevo-no-such-dir/t.csv"), "%s", out);
    ck_assert_int_eq(access("/tmp/glevo-no-such-dir", F_OK), -1);
}
END_TEST

START_TEST(user_glsl_fitness_runs_and_reports_its_lines)
{
    char dir[] = "/tmp/glevo-fit-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char good[1100], broken[1100], args[2400], out[8192];
    snprintf(good, sizeof good, "%s/bowl.glsl", dir);
    snprintf(broken, sizeof broken, "%s/broken.glsl", dir);
    FILE *f = fopen(good, "w");
    fputs("// (x - 1)^2 + (y + 2)^2, minimum 0 at (1, -2)\nvec4 problem_init() { return vec4(0.0); }\n"
          "vec4 problem_step(vec4 acc, int j, float z)\n{\n    float c = j == 0 ? 1.0 : -2.0;\n"
          "    return acc + vec4((z - c) * (z - c));\n}\nfloat problem_finish(vec4 acc, int D) { return acc.x; }\n", f);
    fclose(f);
    f = fopen(broken, "w");
    fputs("vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float z)\n{\n"
          "    return acc + z z;\n}\nfloat problem_finish(vec4 acc, int D) { return acc.x; }\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--fitness %s --dim 2 --lower -5 --upper 5 --grid 16x16 --generations 120 --json", good);
    ck_assert_int_eq(cli(args, out, sizeof out), 0);
    char *bf = strstr(out, "\"best_fitness\":");
    ck_assert_ptr_nonnull(bf);
    ck_assert_msg(atof(bf + 15) < 1e-3, "user bowl not minimised: %s", out);
    snprintf(args, sizeof args, "--fitness %s --dim 2 --grid 8x8 --generations 1 2>&1 >/dev/null | tail -n 1", broken);
    cli(args, out, sizeof out);
    char want[1200];
    snprintf(want, sizeof want, "%s:4", broken);
    ck_assert_msg(strstr(out, want), "error does not name %s: %s", want, out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cga_runs");
    TCase *tc = tcase_create("runs");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, finds_camel_and_schaffer_optima_on_gpu);
    tcase_add_test(tc, standard_ga_baseline_improves);
    tcase_add_test(tc, bad_parameters_exit_2_with_one_line);
    tcase_add_test(tc, json_trace_and_snapshots);
    tcase_add_test(tc, failed_run_leaves_no_trace_file);
    tcase_add_test(tc, user_glsl_fitness_runs_and_reports_its_lines);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
