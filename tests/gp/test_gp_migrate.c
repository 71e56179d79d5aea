/* GP's migration calls (src/gp/migrate.c): a program block decodes to the very program that
 * was encoded (random programs up to max_size, every operator, constants of every float
 * kind), garbage blocks are refused naming what is wrong, and writing programs with their
 * errors into a run replaces them, picks the best again and keeps the run what its
 * checkpoint holds (save after a write, load, step: the same as stepping on). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glevo/gp.h"
#include "glevo/rng.h"
#include "testutil.h"

#define MAX 40

/* One program of p into the engine's form: codes with a constant beside each code. */
static int program_at(const glevo_gp_programs *p, int i, uint32_t *codes, float *consts)
{
    int len;
    const uint32_t *c = glevo_gp_programs_codes(p, i, &len);
    const float *pool = glevo_gp_programs_constants(p);
    for (int k = 0; k < len; ++k) {
        codes[k] = c[k];
        consts[k] = 0;
        if (GLEVO_GP_CODE_OP(c[k]) == GLEVO_GP_CONST) {
            consts[k] = pool[GLEVO_GP_CODE_INDEX(c[k])];
            codes[k] = GLEVO_GP_CODE(GLEVO_GP_CONST, k);
        }
    }
    return len;
}

START_TEST(random_programs_round_trip)
{
    uint32_t all = glevo_gp_function_set_ops(GLEVO_GP_REGRESSION) |
                   glevo_gp_function_set_ops(GLEVO_GP_CLASSIFICATION);
    double block[1 + 2 * MAX];
    ck_assert_int_eq(glevo_gp_block_size(MAX), 1 + 2 * MAX);
    int tried = 0;
    for (int size = 1; size <= MAX; ++size) {
        glevo_gp_programs *p;
        ck_assert_int_eq(glevo_gp_programs_create(&p), GLEVO_OK);
        /* Exact sizes 1..MAX (some sizes have no tree of this arity mix: none drawn). */
        if (glevo_gp_programs_random(p, 20, all, 5, size, 100u + (uint32_t)size) != GLEVO_OK) {
            glevo_gp_programs_destroy(p);
            continue;
        }
        for (int i = 0; i < glevo_gp_programs_count(p); ++i, ++tried) {
            uint32_t codes[MAX], back[MAX];
            float consts[MAX], cback[MAX];
            int len = program_at(p, i, codes, consts), n = -1;
            ck_assert_int_eq(glevo_gp_program_encode(codes, len, consts, MAX, block), GLEVO_OK);
            ck_assert_int_eq(glevo_gp_program_decode(block, MAX, 5, all, back, cback, &n),
                             GLEVO_OK);
            ck_assert_int_eq(n, len);
            ck_assert(!memcmp(back, codes, sizeof(uint32_t) * (size_t)len));
            for (int k = 0; k < len; ++k)
                if (GLEVO_GP_CODE_OP(codes[k]) == GLEVO_GP_CONST)
                    ck_assert(!memcmp(&cback[k], &consts[k], sizeof(float)));
            /* The container's own codes and pool encode to the same block. */
            int plen;
            const uint32_t *pc = glevo_gp_programs_codes(p, i, &plen);
            double again[1 + 2 * MAX];
            ck_assert_int_eq(glevo_gp_program_encode(pc, plen, glevo_gp_programs_constants(p), MAX,
                                                     again), GLEVO_OK);
            ck_assert(!memcmp(again, block, sizeof block));
        }
        glevo_gp_programs_destroy(p);
    }
    ck_assert_int_gt(tried, 500);
    /* Constants of every float kind survive: the smallest subnormal, the largest, -0, inf. */
    const float odd[4] = {1e-45f, 3.4028235e38f, -0.0f, -INFINITY};
    uint32_t codes[3] = {GLEVO_GP_CODE(GLEVO_GP_ADD, 0), GLEVO_GP_CODE(GLEVO_GP_CONST, 1),
                         GLEVO_GP_CODE(GLEVO_GP_CONST, 2)}, back[3];
    for (int a = 0; a < 4; ++a) {
        float consts[3] = {0, odd[a], odd[3 - a]}, cback[3];
        int n;
        ck_assert_int_eq(glevo_gp_program_encode(codes, 3, consts, 3, block), GLEVO_OK);
        ck_assert_int_eq(glevo_gp_program_decode(block, 3, 1, 0, back, cback, &n), GLEVO_OK);
        ck_assert(n == 3 && !memcmp(&cback[1], &consts[1], 2 * sizeof(float)));
    }
}
END_TEST

static void expect_refused(const double *block, int max_size, const char *needle)
{
    uint32_t codes[8];
    float consts[8];
    int n = -7;
    glevo_status st = glevo_gp_program_decode(block, max_size, 2,
                                              glevo_gp_function_set_ops(GLEVO_GP_REGRESSION),
                                              codes, consts, &n);
    ck_assert_msg(st == GLEVO_ERR_INVALID, "'%s' was not refused", needle);
    ck_assert_msg(strstr(glevo_last_error(), needle), "'%s' not in: %s", needle,
                  glevo_last_error());
    ck_assert_int_eq(n, -7);
}

START_TEST(garbage_blocks_are_refused_naming_what)
{
    /* (+ x1 0.5) in a block of 4: [3, codes.., consts..]. */
    uint32_t codes[3] = {GLEVO_GP_CODE(GLEVO_GP_ADD, 0), GLEVO_GP_CODE(GLEVO_GP_VAR, 0),
                         GLEVO_GP_CODE(GLEVO_GP_CONST, 2)};
    float consts[3] = {0, 0, 0.5f};
    double good[9], b[9];
    ck_assert_int_eq(glevo_gp_program_encode(codes, 3, consts, 4, good), GLEVO_OK);
    ck_assert(good[0] == 3 && good[4] == 0 && good[5 + 2] == 0.5);
    /* encode refuses what cannot fit or is not a tree. */
    ck_assert_int_eq(glevo_gp_program_encode(codes, 3, consts, 2, b), GLEVO_ERR_INVALID);
    ck_assert_int_eq(glevo_gp_program_encode(codes, 2, consts, 4, b), GLEVO_ERR_INVALID);
#define BAD(slot, value, needle)                                                               \
    do {                                                                                       \
        memcpy(b, good, sizeof b);                                                             \
        b[slot] = (value);                                                                     \
        expect_refused(b, 4, needle);                                                          \
    } while (0)
    BAD(0, 0, "length 0 is not");
    BAD(0, 5, "length 5 is not");
    BAD(0, 2.5, "length 2.5");
    BAD(0, NAN, "length nan");
    BAD(0, 2, "slot 2 after the program's 2 codes is not 0");   /* the constant's code */
    BAD(4, 1, "slot 3 after");                                  /* a code in the pad */
    BAD(5 + 3, 1, "slot 3 after");                              /* a constant in the pad */
    BAD(1, -1, "code 0, -1, is not a 32-bit code");
    BAD(1, 4294967296.0, "is not a 32-bit code");
    BAD(1, 0.5, "code 0, 0.5");
    BAD(1, GLEVO_GP_CODE(GLEVO_GP_IF, 0), "is not an operator of the run");
    BAD(1, 200, "is not an operator of the run");
    BAD(2, GLEVO_GP_CODE(GLEVO_GP_VAR, 2), "names x3, the data has 2 variables");
    BAD(3, GLEVO_GP_CODE(GLEVO_GP_CONST, 1), "constant code 2 refers to position 1");
    BAD(5 + 2, 0.1, "the constant slot 2, 0.10000000000000001, is not a float");
    BAD(5 + 2, 1e300, "is not a float");
    BAD(5 + 1, 1, "the constant slot 1, 1, is not 0");
    BAD(1, GLEVO_GP_CODE(GLEVO_GP_NEG, 0), "not one tree");
#undef BAD
}
END_TEST

static glevo_gp_data *dataset(int cases)
{
    float *x = malloc(2 * (size_t)cases * sizeof *x), *y = malloc((size_t)cases * sizeof *y);
    for (int c = 0; c < cases; ++c) {
        glevo_u32x4 r = glevo_philox4x32((uint32_t)c, 0, 0, 0, 9, 1);
        x[c] = 2.0f * glevo_rng_u01(r.v[0]) - 1.0f;
        x[cases + c] = 2.0f * glevo_rng_u01(r.v[1]) - 1.0f;
        y[c] = x[c] * x[cases + c] + x[c];
    }
    glevo_gp_data *d = NULL;
    ck_assert_int_eq(glevo_gp_data_create(2, cases, x, y, &d), GLEVO_OK);
    free(x), free(y);
    return d;
}

static void sexpr(const glevo_gp *gp, int i, char *buf, size_t size)
{
    glevo_gp_program_sexpr(glevo_gp_population(gp, NULL), i, buf, size);
}

/* Two runs on the same data: a's best replaces b's worst with its error, as an island would. */
START_TEST(written_programs_join_the_run_and_its_checkpoint)
{
    glevo_gp_data *d = dataset(50);
    glevo_gp_params p = {.pop = 30, .generations = 12, .max_size = 20, .pm = 0.3,
                         .backend = GLEVO_BACKEND_CPU, .eval = {.threads = 1}};
    glevo_gp *a, *b, *c;
    p.seed = 4; /* a run whose best after 4 generations beats b's after 1 */
    ck_assert_int_eq(glevo_gp_create(&p, d, &a), GLEVO_OK);
    p.seed = 2;
    ck_assert_int_eq(glevo_gp_create(&p, d, &b), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(a, 4), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(b, 1), GLEVO_OK);
    const glevo_gp_params *P = glevo_gp_params_of(b);
    ck_assert_int_eq(P->pop, 30);
    ck_assert_int_eq(glevo_gp_evaluations(b), 60);
    double ea[30], eb[30], block[1 + 2 * 20];
    ck_assert_int_eq(glevo_gp_read_errors(a, ea), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_read_errors(b, eb), GLEVO_OK);
    int best_a, worst_b = 0;
    glevo_gp_population(a, &best_a);
    for (int i = 0; i < 30; ++i)
        if (eb[i] > eb[worst_b]) worst_b = i;
    ck_assert_msg(ea[best_a] < glevo_gp_best_error(b), "a's best %.9g is not better than b's %.9g",
                  ea[best_a], glevo_gp_best_error(b));
    ck_assert_int_eq(glevo_gp_read_programs(a, 1, &best_a, block), GLEVO_OK);
    /* A refused write changes nothing: a bad index, then a bad second block. */
    int bad_index = 30;
    ck_assert_int_eq(glevo_gp_write_programs(b, 1, &bad_index, block, ea), GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "index 30 is outside 0..29"));
    double two[2 * (1 + 2 * 20)];
    memcpy(two, block, sizeof block);
    memcpy(two + 41, block, sizeof block);
    two[41] = 0;
    int pair[2] = {worst_b, (worst_b + 1) % 30};
    char before[4096], after[4096], want[4096];
    sexpr(b, worst_b, before, sizeof before);
    ck_assert_int_eq(glevo_gp_write_programs(b, 2, pair, two, ea), GLEVO_ERR_INVALID);
    ck_assert_msg(strstr(glevo_last_error(), "program 1: program block: length 0"), "%s",
                  glevo_last_error());
    sexpr(b, worst_b, after, sizeof after);
    ck_assert_str_eq(before, after);
    /* The write: b's worst is now a's best, with a's error, and b's best. */
    double err = ea[best_a];
    ck_assert_int_eq(glevo_gp_write_programs(b, 1, &worst_b, block, &err), GLEVO_OK);
    sexpr(a, best_a, want, sizeof want);
    sexpr(b, worst_b, after, sizeof after);
    ck_assert_str_eq(want, after);
    int best_b;
    glevo_gp_population(b, &best_b);
    ck_assert_int_eq(best_b, worst_b);
    ck_assert(glevo_gp_best_error(b) == err);
    ck_assert_int_eq(glevo_gp_evaluations(b), 60); /* nothing evaluated */
    ck_assert_int_eq(glevo_gp_read_errors(b, eb), GLEVO_OK);
    ck_assert(eb[worst_b] == err);
    /* Saved now and loaded, the run goes on as b does. */
    char path[256];
    snprintf(path, sizeof path, "/tmp/glevo-gp-migrate-%ld.ckpt", (long)getpid());
    ck_assert_int_eq(glevo_gp_save(b, path, NULL), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_load(path, NULL, d, &c), GLEVO_OK);
    remove(path);
    ck_assert_int_eq(glevo_gp_step(b, 5), GLEVO_OK);
    ck_assert_int_eq(glevo_gp_step(c, 5), GLEVO_OK);
    double e1[30], e2[30];
    glevo_gp_read_errors(b, e1);
    glevo_gp_read_errors(c, e2);
    ck_assert(!memcmp(e1, e2, sizeof e1));
    for (int i = 0; i < 30; ++i) {
        sexpr(b, i, before, sizeof before);
        sexpr(c, i, after, sizeof after);
        ck_assert_str_eq(before, after);
    }
    glevo_gp_destroy(a), glevo_gp_destroy(b), glevo_gp_destroy(c);
    glevo_gp_data_destroy(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp_migrate");
    TCase *tc = tcase_create("migrate");
    tcase_add_test(tc, random_programs_round_trip);
    tcase_add_test(tc, garbage_blocks_are_refused_naming_what);
    tcase_add_test(tc, written_programs_join_the_run_and_its_checkpoint);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
