/* The library's parameter contracts (issue 23, items 3 and 6): what the CLI refuses, the
 * library refuses too, by the same validation at create and at checkpoint load (a CRC-valid
 * file holding a NaN parameter is refused at load); sizes that overflow or cannot fit are
 * refused before any allocation, quickly; glevo_last_error() is "" after a call that
 * succeeded. CPU backends only: nothing here needs the GPU. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "glevo/cga.h"
#include "glevo/de.h"
#include "glevo/dsmga.h"
#include "glevo/gp.h"
#include "testutil.h"

static void expect_invalid(glevo_status st, const char *words)
{
    ck_assert_msg(st == GLEVO_ERR_INVALID, "status %d, not GLEVO_ERR_INVALID (%s)", (int)st,
                  glevo_last_error());
    ck_assert_msg(strstr(glevo_last_error(), words), "\"%s\" does not name '%s'",
                  glevo_last_error(), words);
}

static glevo_gp_data *gp_data(void)
{
    static const float x[2][7] = {{0, 1, 2, 3, 4, 5, 6}, {1, 0, 1, 0, 1, 0, 1}};
    static const float y[7] = {1, 2, 5, 10, 17, 26, 37};
    glevo_gp_data *d = NULL;
    ck_assert(glevo_gp_data_create(2, 7, &x[0][0], y, &d) == GLEVO_OK);
    return d;
}

static glevo_gp_params gp_params(void)
{
    return (glevo_gp_params){.pop = 12, .generations = 3, .max_size = 15, .init_max_depth = 3,
                             .backend = GLEVO_BACKEND_CPU, .seed = 9, .eval.threads = 1};
}

START_TEST(gp_params_refused)
{
    glevo_gp_data *d = gp_data();
    glevo_gp *gp = NULL;
    glevo_gp_params p = gp_params();
    p.function_set = (glevo_gp_function_set)9;
    expect_invalid(glevo_gp_create(&p, d, &gp), "function_set 9");
    p = gp_params();
    p.metric = (glevo_gp_metric)9;
    expect_invalid(glevo_gp_create(&p, d, &gp), "metric 9");
    p = gp_params();
    p.pc = NAN;
    expect_invalid(glevo_gp_create(&p, d, &gp), "pc nan");
    p = gp_params();
    p.const_min = NAN;
    expect_invalid(glevo_gp_create(&p, d, &gp), "const_min..const_max");
    p = gp_params();
    p.const_min = 2, p.const_max = -2;
    expect_invalid(glevo_gp_create(&p, d, &gp), "const_min..const_max 2..-2");
    p = gp_params();
    p.eval.max_draw_steps = NAN;
    expect_invalid(glevo_gp_create(&p, d, &gp), "max_draw_steps");
    ck_assert_ptr_null(gp);
    /* A valid run still steps; negative generations are refused. */
    p = gp_params();
    ck_assert_msg(glevo_gp_create(&p, d, &gp) == GLEVO_OK, "%s", glevo_last_error());
    expect_invalid(glevo_gp_step(gp, -5), "generations -5");
    glevo_gp_destroy(gp);
    glevo_gp_data_destroy(d);
}
END_TEST

START_TEST(de_and_cga_params_refused)
{
    glevo_de *de = NULL;
    glevo_de_params dp = {.dim = 2, .pop = 6, .max_evals = 60, .backend = GLEVO_BACKEND_CPU,
                          .target_efv = NAN};
    expect_invalid(glevo_de_create(&dp, &de), "target_efv nan");
    dp.target_efv = -3;
    expect_invalid(glevo_de_create(&dp, &de), "target_efv -3");
    const double shift[2] = {0, INFINITY};
    dp.target_efv = 0, dp.shift = shift;
    expect_invalid(glevo_de_create(&dp, &de), "shift[1]");
    dp.shift = NULL;
    ck_assert_msg(glevo_de_create(&dp, &de) == GLEVO_OK, "%s", glevo_last_error());
    expect_invalid(glevo_de_step(de, -1), "generations -1");
    glevo_de_destroy(de);

    glevo_cga *cga = NULL;
    glevo_cga_params cp = {.problem = glevo_problem_find("sphere"), .dim = 2, .width = 6,
                           .height = 4, .backend = GLEVO_BACKEND_CPU, .pc = NAN};
    expect_invalid(glevo_cga_create(&cp, &cga), "pc nan");
    cp.pc = 0;
    ck_assert_msg(glevo_cga_create(&cp, &cga) == GLEVO_OK, "%s", glevo_last_error());
    expect_invalid(glevo_cga_step(cga, -5), "generations -5");
    glevo_cga_destroy(cga);

    glevo_dsmga_problem *prob = NULL;
    ck_assert(glevo_dsmga_problem_create("onemax", 10, NULL, 1, &prob) == GLEVO_OK);
    glevo_dsmga *e = NULL;
    glevo_dsmga_params mp = {.pop = 8, .backend = GLEVO_BACKEND_CPU,
                             .model = (glevo_dsmga_model)7};
    expect_invalid(glevo_dsmga_create(prob, &mp, &e), "model 7");
    glevo_dsmga_problem_destroy(prob);
}
END_TEST

/* ---- checkpoints whose CRC is right but whose parameters are not ---- */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*n);
    ck_assert(fread(b, 1, *n, f) == *n);
    fclose(f);
    return b;
}

/* Sets the F64 entry `name` (type byte 2, name length, name, 8-byte payload size, payload) to
 * v and seals the file again (header and file CRC-32, docs/checkpoint.md), as a hand-made or
 * hostile file would be. */
static void patch_f64(const char *path, const char *name, double v)
{
    size_t n, len = strlen(name);
    unsigned char *b = slurp(path, &n);
    unsigned char *at = NULL;
    for (size_t i = 24; i + 2 + len + 16 <= n && !at; ++i)
        if (b[i] == 2 && b[i + 1] == len && !memcmp(b + i + 2, name, len)) at = b + i + 2 + len + 8;
    ck_assert_msg(at != NULL, "no F64 entry %s in %s", name, path);
    memcpy(at, &v, 8); /* little-endian host, as the format */
    uint32_t crc = (uint32_t)crc32(0L, b, (uInt)(n - 4));
    for (int i = 0; i < 4; ++i) b[n - 4 + i] = (unsigned char)(crc >> (8 * i));
    FILE *f = fopen(path, "wb");
    ck_assert(fwrite(b, 1, n, f) == n);
    fclose(f);
    free(b);
}

static const char *tmp_path(const char *name)
{
    static char path[4][128];
    static int k;
    char *p = path[k++ % 4];
    const char *dir = getenv("TMPDIR");
    snprintf(p, sizeof path[0], "%s/glevo-contracts-%d-%s", dir && *dir ? dir : "/tmp",
             (int)getpid(), name);
    return p;
}

START_TEST(checkpoint_with_nan_refused)
{
    glevo_gp_data *d = gp_data();
    glevo_gp *gp = NULL;
    glevo_gp_params p = gp_params();
    ck_assert_msg(glevo_gp_create(&p, d, &gp) == GLEVO_OK, "%s", glevo_last_error());
    const char *gpath = tmp_path("gp.ckpt");
    ck_assert_msg(glevo_gp_save(gp, gpath, NULL) == GLEVO_OK, "%s", glevo_last_error());
    glevo_gp_destroy(gp);
    ck_assert_msg(glevo_gp_load(gpath, NULL, d, &gp) == GLEVO_OK, "%s", glevo_last_error());
    glevo_gp_destroy(gp);
    gp = NULL;
    patch_f64(gpath, "param.pc", NAN);
    expect_invalid(glevo_gp_load(gpath, NULL, d, &gp), "pc nan");
    ck_assert_ptr_null(gp);
    unlink(gpath);
    glevo_gp_data_destroy(d);

    glevo_de *de = NULL;
    glevo_de_params dp = {.dim = 2, .pop = 6, .max_evals = 60, .backend = GLEVO_BACKEND_CPU};
    ck_assert(glevo_de_create(&dp, &de) == GLEVO_OK);
    const char *dpath = tmp_path("de.ckpt");
    ck_assert_msg(glevo_de_save(de, dpath, NULL) == GLEVO_OK, "%s", glevo_last_error());
    glevo_de_destroy(de);
    de = NULL;
    patch_f64(dpath, "param.target_efv", NAN);
    expect_invalid(glevo_de_load(dpath, NULL, &de), "target_efv nan");
    ck_assert_ptr_null(de);
    unlink(dpath);
}
END_TEST

START_TEST(sizes_refused_before_allocation)
{
    static const float one[1] = {1};
    glevo_gp_data *d = NULL;
    /* (INT_MAX + 1) * INT_MAX floats: 2^64 bytes, which wraps a size_t product to 0. */
    expect_invalid(glevo_gp_data_create(INT_MAX, INT_MAX, one, one, &d), "limit");
    ck_assert_ptr_null(d);
    glevo_gp_programs *progs = NULL;
    ck_assert(glevo_gp_programs_create(&progs) == GLEVO_OK);
    expect_invalid(glevo_gp_programs_random(progs, INT_MAX, glevo_gp_function_set_ops(
                       GLEVO_GP_REGRESSION), 2, 7, 1), "limit");
    /* Refused up front, not after filling memory: nothing was appended. */
    ck_assert_int_eq(glevo_gp_programs_count(progs), 0);
    /* Indices outside the set or the data: a neutral value and a message, no read. */
    ck_assert(glevo_gp_programs_parse(progs, "(+ x1 1.5)\n", "t", 2) == GLEVO_OK);
    int len = -7;
    ck_assert_ptr_null(glevo_gp_programs_codes(progs, 1, &len));
    ck_assert_msg(strstr(glevo_last_error(), "i 1 is outside 0..0"), "%s", glevo_last_error());
    ck_assert_int_eq(glevo_gp_program_sexpr(progs, -1, NULL, 0), -1);
    ck_assert_int_eq(glevo_gp_program_infix(progs, 5, NULL, 0), -1);
    glevo_gp_data *gd = gp_data();
    ck_assert_ptr_null(glevo_gp_data_row(gd, 2));
    ck_assert_ptr_null(glevo_gp_data_var_name(gd, -1));
    ck_assert_str_eq(glevo_gp_data_var_name(gd, 1), "x2");
    glevo_gp_data_destroy(gd);
    glevo_gp_programs_clear(progs);
    /* A constant code without constants. */
    const uint32_t codes[1] = {GLEVO_GP_CODE(GLEVO_GP_CONST, 0)};
    expect_invalid(glevo_gp_programs_add(progs, codes, 1, NULL), "consts is NULL");
    glevo_gp_programs_destroy(progs);
}
END_TEST

START_TEST(last_error_cleared_by_success)
{
    glevo_cga *cga = NULL;
    glevo_cga_params cp = {.problem = glevo_problem_find("sphere"), .dim = 2, .width = 6,
                           .height = 4, .backend = GLEVO_BACKEND_CPU, .bits = 99};
    expect_invalid(glevo_cga_create(&cp, &cga), "bits 99");
    cp.bits = 0;
    ck_assert(glevo_cga_create(&cp, &cga) == GLEVO_OK);
    ck_assert_str_eq(glevo_last_error(), "");
    expect_invalid(glevo_cga_step(cga, -1), "-1");
    ck_assert(glevo_cga_step(cga, 2) == GLEVO_OK);
    ck_assert_str_eq(glevo_last_error(), "");
    glevo_cga_best best;
    expect_invalid(glevo_cga_best_get(NULL, &best), "cga");
    ck_assert(glevo_cga_best_get(cga, &best) == GLEVO_OK);
    ck_assert_str_eq(glevo_last_error(), "");
    glevo_cga_destroy(cga);
}
END_TEST

/* glevo_interrupt (a signal handler's call) stops steps before their next generation and
 * creation while it initialises; the engine stays at its last whole generation. */
START_TEST(interrupt_stops_long_calls)
{
    glevo_cga *cga = NULL;
    glevo_cga_params cp = {.problem = glevo_problem_find("sphere"), .dim = 2, .width = 8,
                           .height = 6, .backend = GLEVO_BACKEND_CPU};
    ck_assert(glevo_cga_create(&cp, &cga) == GLEVO_OK);
    ck_assert(glevo_cga_step(cga, 2) == GLEVO_OK);
    glevo_interrupt();
    ck_assert_int_eq(glevo_cga_step(cga, 5), GLEVO_ERR_INTERRUPTED);
    ck_assert_int_eq(glevo_cga_generation(cga), 2);
    glevo_cga *other = NULL;
    ck_assert_int_eq(glevo_cga_create(&cp, &other), GLEVO_ERR_INTERRUPTED);
    ck_assert_ptr_null(other);
    glevo_de *de = NULL;
    glevo_de_params dp = {.dim = 2, .pop = 6, .max_evals = 600, .backend = GLEVO_BACKEND_CPU};
    glevo_interrupt_clear();
    ck_assert(glevo_de_create(&dp, &de) == GLEVO_OK);
    glevo_interrupt();
    ck_assert_int_eq(glevo_de_step(de, 3), GLEVO_ERR_INTERRUPTED);
    ck_assert_int_eq(glevo_de_generation(de), 0);
    glevo_gp_data *d = gp_data();
    glevo_gp *gp = NULL;
    glevo_gp_params gpp = gp_params();
    ck_assert_int_eq(glevo_gp_create(&gpp, d, &gp), GLEVO_ERR_INTERRUPTED);
    ck_assert_ptr_null(gp);
    glevo_interrupt_clear();
    ck_assert(glevo_gp_create(&gpp, d, &gp) == GLEVO_OK);
    glevo_interrupt();
    ck_assert_int_eq(glevo_gp_step(gp, 2), GLEVO_ERR_INTERRUPTED);
    ck_assert_int_eq(glevo_gp_generation(gp), 0);
    glevo_interrupt_clear();
    ck_assert(glevo_cga_step(cga, 1) == GLEVO_OK);
    ck_assert_int_eq(glevo_cga_generation(cga), 3);
    glevo_gp_destroy(gp);
    glevo_gp_data_destroy(d);
    glevo_de_destroy(de);
    glevo_cga_destroy(cga);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api_contracts");
    TCase *tc = tcase_create("contracts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gp_params_refused);
    tcase_add_test(tc, de_and_cga_params_refused);
    tcase_add_test(tc, checkpoint_with_nan_refused);
    tcase_add_test(tc, sizes_refused_before_allocation);
    tcase_add_test(tc, last_error_cleared_by_success);
    tcase_add_test(tc, interrupt_stops_long_calls);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
