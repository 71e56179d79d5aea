/* Model building: population files, the MI matrix (CPU twin at known values, GPU == CPU bit for
 * bit), FastCounting packed on the GPU == glevo_dsm_pack bit for bit, FindClique lossless GPU
 * == CPU exactly, lossy GPU == CPU and its donor property; every GPU case on both drivers
 * (fragment passes, compute dispatches). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsmga/mi_log.h"
#include "gl/gpgpu.h"
#include "glevo/dsmga.h"
#include "glevo/rng.h"
#include "testutil.h"

static void random_pop(uint8_t *bits, int n, int ell, uint32_t seed, int linked)
{
    for (int i = 0; i < n; ++i)
        for (int g = 0; g < ell; ++g) {
            uint32_t r = glevo_philox4x32((uint32_t)i, (uint32_t)g, 77u, 0u, seed, 1u).v[0];
            /* linked: genes come in pairs that mostly agree, so the DSM has structure */
            if (linked && g % 2 == 1 && (r >> 28) != 0) bits[i * ell + g] = bits[i * ell + g - 1];
            else bits[i * ell + g] = (uint8_t)(r >> 31);
        }
}

START_TEST(population_file_ok)
{
    const char *path = testutil_write_tmp("0101\n1100\r\n0011\n\n");
    uint8_t *bits;
    int n, ell;
    ck_assert_int_eq(glevo_dsm_population_read(path, &bits, &n, &ell), GLEVO_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(ell, 4);
    ck_assert_int_eq(bits[1], 1);
    ck_assert_int_eq(bits[4], 1);
    ck_assert_int_eq(bits[11], 1);
    ck_assert_int_eq(bits[8], 0);
    free(bits);
    remove(path);
}
END_TEST

static void expect_error(const char *text, const char *needle)
{
    const char *path = testutil_write_tmp(text);
    uint8_t *bits = (uint8_t *)1;
    int n, ell;
    ck_assert_int_eq(glevo_dsm_population_read(path, &bits, &n, &ell), GLEVO_ERR_INVALID);
    ck_assert_ptr_null(bits);
    ck_assert_msg(strstr(glevo_last_error(), needle) != NULL, "'%s' lacks '%s'", glevo_last_error(), needle);
    remove(path);
}

START_TEST(population_file_errors)
{
    expect_error("0101\n0110\n011\n", "line 3");        /* ragged */
    expect_error("0101\n01a0\n", "line 2, column 3");   /* non-binary */
    expect_error("", "empty");                           /* empty */
    expect_error("01\n\n10\n", "line 2");                /* blank line inside */
}
END_TEST

START_TEST(mi_known_values)
{
    /* genes 0,1 independent (all four patterns once), genes 0,2 equal: MI = ln 2 */
    uint8_t bits[] = {0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1};
    uint32_t rows[3];
    float mi[9];
    glevo_dsm_pack(bits, 4, 3, rows);
    ck_assert_uint_eq(rows[0], 0xCu);
    glevo_dsm_mi_cpu(rows, 4, 3, mi);
    ck_assert_float_eq_tol(mi[0 * 3 + 1], 0.0f, 1e-7f);
    ck_assert_float_eq_tol(mi[0 * 3 + 2], logf(2.0f), 1e-6f);
    ck_assert_float_eq_tol(mi[2 * 3 + 0], logf(2.0f), 1e-6f);
    ck_assert_float_eq(mi[1 * 3 + 1], 0.0f);
    /* a constant gene has zero MI with everything (0·log0 = 0, no NaN) */
    uint8_t c[] = {1, 0, 1, 1, 1, 0, 1, 1};
    glevo_dsm_pack(c, 4, 2, rows);
    glevo_dsm_mi_cpu(rows, 4, 2, mi);
    ck_assert_float_eq(mi[1], 0.0f);
}
END_TEST

START_TEST(pack_matches_definition)
{
    /* the blocked pack against bit i%32 of word i/32 set iff individual i has a 1, for n not a
     * multiple of 32 and ell longer than the pack's 256-gene chunk */
    const int sizes[][2] = {{1, 1}, {33, 3}, {70, 300}, {64, 257}};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; ++c) {
        int n = sizes[c][0], ell = sizes[c][1], words = glevo_dsm_words(n);
        uint8_t *bits = malloc((size_t)n * ell);
        uint32_t *rows = malloc((size_t)ell * words * 4);
        for (int k = 0; k < n * ell; ++k) bits[k] = (uint8_t)((k * 2654435761u >> 13) & 1u);
        glevo_dsm_pack(bits, n, ell, rows);
        for (int g = 0; g < ell; ++g)
            for (int w = 0; w < words; ++w) {
                uint32_t want = 0;
                for (int b = 0; b < 32 && w * 32 + b < n; ++b)
                    if (bits[(size_t)(w * 32 + b) * ell + g]) want |= 1u << b;
                ck_assert_uint_eq(rows[(size_t)g * words + w], want);
            }
        free(bits);
        free(rows);
    }
}
END_TEST

static const glevo_backend GPU_BACKENDS[] = {GLEVO_BACKEND_FRAGMENT, GLEVO_BACKEND_COMPUTE};
#define FOR_GPU_BACKENDS(b) for (size_t b##_i = 0; b##_i < 2 && ((b = GPU_BACKENDS[b##_i]), 1); ++b##_i)

static void compare_dsm(glevo_backend backend, int n, int ell, uint32_t seed)
{
    uint8_t *bits = malloc((size_t)n * ell);
    uint32_t *rows = malloc((size_t)ell * glevo_dsm_words(n) * 4);
    float *cpu = malloc((size_t)ell * ell * 4), *gpu = malloc((size_t)ell * ell * 4);
    random_pop(bits, n, ell, seed, 1);
    glevo_dsm_pack(bits, n, ell, rows);
    glevo_dsm_mi_cpu(rows, n, ell, cpu);
    glevo_dsm_gpu *g;
    const char *name = glevo_backend_name(backend);
    /* NaN bits everywhere, so an entry the GPU never wrote cannot pass as a CPU value */
    memset(gpu, 0xFF, (size_t)ell * ell * 4);
    ck_assert_msg(glevo_dsm_gpu_create(ell, n, backend, &g) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    ck_assert_msg(glevo_dsm_gpu_build(g, rows) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    ck_assert_int_eq(glevo_dsm_gpu_read(g, gpu), GLEVO_OK);
    /* Bit for bit: the lossless engine's linkage sets depend on exact MI ties and orderings. */
    for (int i = 0; i < ell * ell; ++i)
        ck_assert_msg(memcmp(&gpu[i], &cpu[i], sizeof(float)) == 0,
                      "%s n %d ell %d seed %u: entry (%d,%d) GPU %a CPU %a", name, n, ell, seed,
                      i / ell, i % ell, gpu[i], cpu[i]);
    glevo_dsm_gpu_destroy(g);
    free(bits); free(rows); free(cpu); free(gpu);
}

/* The log twin is a faithful ln: within 2 ulp of the double-precision log for every count and
 * product of counts BuildDSM can pass (1 .. 2^26, sampled densely, and powers of two). */
START_TEST(mi_log_accuracy)
{
    for (uint32_t k = 1; k < (1u << 26); k += 1 + k / 4096) {
        float x = (float)k, got = dsm_log(x);
        double want = log((double)x), ulp = nextafterf((float)want, INFINITY) - (float)want;
        double err = fabs(got - want) / ulp;
        ck_assert_msg(err <= 2.0, "dsm_log(%u) = %a, ln = %.17g: %.2f ulp", k, got, want, err);
    }
    ck_assert_float_eq(dsm_log(1.0f), 0.0f);
}
END_TEST

START_TEST(dsm_gpu_equals_cpu)
{
    testutil_context();
    glevo_backend b;
    FOR_GPU_BACKENDS(b) {
        compare_dsm(b, 37, 1, 1);
        compare_dsm(b, 37, 2, 2);
        compare_dsm(b, 50, 13, 3);
        compare_dsm(b, 64, 9, 4);
        compare_dsm(b, 101, 31, 5);
        compare_dsm(b, 5003, 5, 7); /* n > 4096: the count products round, identically on both sides */
        if (testutil_large()) compare_dsm(b, 1000, 400, 6);
    }
    /* compute tiles are 16 x 16 genes and stage 16 words a round: ell across several tiles,
     * the last one partial, and n over several rounds, the last one partial */
    compare_dsm(GLEVO_BACKEND_COMPUTE, 70, 37, 8);
    compare_dsm(GLEVO_BACKEND_COMPUTE, 16 * 32 * 2 + 45, 35, 9);
}
END_TEST

static void compare_clique(glevo_backend backend, int n, int ell, uint32_t seed, bool lossy,
                           int *total_len)
{
    uint8_t *bits = malloc((size_t)n * ell);
    int words = glevo_dsm_words(n);
    uint32_t *rows = malloc((size_t)ell * words * 4), *prows = malloc((size_t)ell * words * 4);
    float *mi = malloc((size_t)ell * ell * 4);
    int32_t *ils_c = malloc((size_t)ell * ell * 4), *ils_g = malloc((size_t)ell * ell * 4);
    int32_t *len_c = malloc((size_t)ell * 4), *len_g = malloc((size_t)ell * 4);
    random_pop(bits, n, ell, seed, 1);
    glevo_dsm_pack(bits, n, ell, rows);
    random_pop(bits, n, ell, seed + 100, 1);
    glevo_dsm_pack(bits, n, ell, prows);
    glevo_dsm_gpu *g;
    const char *name = glevo_backend_name(backend);
    ck_assert_msg(glevo_dsm_gpu_create(ell, n, backend, &g) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    ck_assert_int_eq(glevo_dsm_gpu_build(g, rows), GLEVO_OK);
    /* the twin reads the same DSM texels the passes read */
    ck_assert_int_eq(glevo_dsm_gpu_read(g, mi), GLEVO_OK);
    glevo_clique_params cp = {.seed = seed, .generation = 3, .lossy = lossy, .pop_rows = prows, .pop_n = n};
    glevo_find_clique_cpu(mi, ell, &cp, ils_c, len_c);
    /* small cases twice, as the engine calls it a generation after another: what the first
     * call leaves on the GPU (the other mode's ILS, in its own layout) must not
     * leak into the second (llvmpipe runs a long lossless kernel slowly: large ell once) */
    for (int round = ell > 100 ? 1 : 0; round < 2; ++round) {
        cp.lossy = round == 0 ? !lossy : lossy;
        if (round == 1) glevo_find_clique_cpu(mi, ell, &cp, ils_c, len_c);
        ck_assert_msg(glevo_dsm_gpu_clique(g, &cp, ils_g, len_g) == GLEVO_OK, "%s: %s", name,
                      glevo_last_error());
    }
    for (int s = 0; s < ell; ++s) {
        ck_assert_msg(len_g[s] == len_c[s], "%s n %d ell %d seed %u lossy %d: set %d length GPU %d CPU %d",
                      name, n, ell, seed, lossy, s, len_g[s], len_c[s]);
        if (!lossy) ck_assert_int_eq(len_c[s], ell);
        for (int t = 0; t < ell; ++t)
            ck_assert_msg(ils_g[s * ell + t] == ils_c[s * ell + t],
                          "%s n %d ell %d seed %u lossy %d: set %d step %d GPU %d CPU %d", name, n,
                          ell, seed, lossy, s, t, ils_g[s * ell + t], ils_c[s * ell + t]);
        *total_len += len_c[s];
    }
    glevo_dsm_gpu_destroy(g);
    free(bits); free(rows); free(prows); free(mi); free(ils_c); free(ils_g); free(len_c); free(len_g);
}

START_TEST(clique_lossless_gpu_equals_cpu)
{
    testutil_context();
    glevo_backend b;
    FOR_GPU_BACKENDS(b) {
        int total = 0;
        compare_clique(b, 37, 1, 1, false, &total);
        compare_clique(b, 37, 2, 2, false, &total);
        compare_clique(b, 45, 17, 3, false, &total);
        compare_clique(b, 64, 24, 4, false, &total);
        /* a population of identical individuals: all MI are 0, every pick is a tie */
        compare_clique(b, 5, 20, 5, false, &total);
        /* more genes than one pick block (32) or one compute invocation's share (16 of a
         * 32-wide group): the two-level argmax, last block partial */
        compare_clique(b, 50, 70, 6, false, &total);
        compare_clique(b, 3, 65, 7, false, &total);
        compare_clique(b, 99, 37, 11, false, &total);
    }
}
END_TEST

START_TEST(clique_lossy_gpu_equals_cpu)
{
    testutil_context();
    glevo_backend b;
    FOR_GPU_BACKENDS(b) {
        int total = 0;
        compare_clique(b, 37, 2, 1, true, &total);
        compare_clique(b, 45, 17, 2, true, &total);
        compare_clique(b, 70, 25, 3, true, &total);
        compare_clique(b, 80, 67, 4, true, &total);
        compare_clique(b, 101, 70, 5, true, &total);
        /* random populations: sets must stop well before ell somewhere */
        ck_assert_int_lt(total, 2 * 2 + 17 * 17 + 25 * 25 + 67 * 67 + 70 * 70);
        /* sets grow past their start gene: the donor test ORs masks over 2 words (n = 37, 45),
         * 3 (n = 70, 80) and 4 (n = 101) */
        ck_assert_int_gt(total, 2 + 17 + 25 + 67 + 70);
    }
    /* compute: more words (n = 1100: 35) than a 32-wide group's invocations, so an invocation
     * holds two mask words; and a 64-wide group (ell > 512, 9 genes an invocation, the last
     * partly past ell) */
    int total = 0;
    compare_clique(GLEVO_BACKEND_COMPUTE, 1100, 37, 9, true, &total);
    compare_clique(GLEVO_BACKEND_COMPUTE, 97, 530, 10, true, &total);
}
END_TEST

/* Sentinel for entries a call must leave alone. */
#define UNTOUCHED 0x5A5A5A5A

/* The population's bytes packed on the GPU (build_bits for the selection, pop_bits for lossy
 * FindClique) against glevo_dsm_pack bit for bit, and what the model builds from them against
 * the C twins. `offset` shifts the bytes off 4-byte alignment; `wide` makes every 1 a
 * different nonzero byte (glevo_dsm_pack counts any nonzero byte as 1). */
static void compare_bits(glevo_backend backend, int n, int ell, uint32_t seed, int offset, bool wide)
{
    size_t nl = (size_t)n * ell;
    int words = glevo_dsm_words(n);
    size_t nr = (size_t)ell * words;
    uint8_t *sel_buf = malloc(nl + 4), *pop_buf = malloc(nl + 4);
    uint8_t *sel = sel_buf + offset, *pop = pop_buf + offset;
    uint32_t *want = malloc(nr * 4), *pwant = malloc(nr * 4), *got = malloc(nr * 4), *pgot = malloc(nr * 4);
    float *cpu = malloc((size_t)ell * ell * 4), *gpu = malloc((size_t)ell * ell * 4);
    int32_t *ils_c = malloc((size_t)ell * ell * 4), *ils_g = malloc((size_t)ell * ell * 4);
    int32_t *len_c = malloc((size_t)ell * 4), *len_g = malloc((size_t)ell * 4);
    random_pop(sel, n, ell, seed, 1);
    random_pop(pop, n, ell, seed + 100, 1);
    if (wide)
        for (size_t k = 0; k < nl; ++k) {
            sel[k] = sel[k] ? (uint8_t)(1 + k % 255) : 0;
            pop[k] = pop[k] ? (uint8_t)(255 - k % 255) : 0;
        }
    glevo_dsm_pack(sel, n, ell, want);
    glevo_dsm_pack(pop, n, ell, pwant);
    glevo_dsm_mi_cpu(want, n, ell, cpu);
    const char *name = glevo_backend_name(backend);
    glevo_dsm_gpu *g;
    ck_assert_msg(glevo_dsm_gpu_create(ell, n, backend, &g) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    ck_assert_msg(glevo_dsm_gpu_build_bits(g, sel) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    memset(got, 0xA5, nr * 4);
    ck_assert_int_eq(glevo_dsm_gpu_read_rows(g, got, NULL), GLEVO_OK);
    for (size_t k = 0; k < nr; ++k)
        ck_assert_msg(got[k] == want[k], "%s n %d ell %d offset %d wide %d: gene %zu word %zu GPU "
                      "%08x glevo_dsm_pack %08x", name, n, ell, offset, wide, k / words, k % words,
                      got[k], want[k]);
    memset(gpu, 0xFF, (size_t)ell * ell * 4);
    ck_assert_int_eq(glevo_dsm_gpu_read(g, gpu), GLEVO_OK);
    ck_assert_msg(memcmp(gpu, cpu, (size_t)ell * ell * 4) == 0, "%s n %d ell %d: DSM from packed "
                  "bits differs from the C twin's", name, n, ell);
    glevo_clique_params cp = {.seed = seed, .generation = 5, .lossy = true, .pop_rows = pwant, .pop_n = n};
    glevo_find_clique_cpu(cpu, ell, &cp, ils_c, len_c);
    cp.pop_rows = NULL; /* the GPU must take the bytes */
    cp.pop_bits = pop;
    ck_assert_msg(glevo_dsm_gpu_clique(g, &cp, ils_g, len_g) == GLEVO_OK, "%s: %s", name, glevo_last_error());
    memset(pgot, 0xA5, nr * 4);
    ck_assert_int_eq(glevo_dsm_gpu_read_rows(g, NULL, pgot), GLEVO_OK);
    for (size_t k = 0; k < nr; ++k)
        ck_assert_msg(pgot[k] == pwant[k], "%s n %d ell %d offset %d wide %d: population gene %zu "
                      "word %zu GPU %08x glevo_dsm_pack %08x", name, n, ell, offset, wide,
                      k / words, k % words, pgot[k], pwant[k]);
    ck_assert_msg(memcmp(len_g, len_c, (size_t)ell * 4) == 0 && memcmp(ils_g, ils_c, (size_t)ell * ell * 4) == 0,
                  "%s n %d ell %d: lossy sets from packed bits differ from the C twin's", name, n, ell);
    cp.pop_bits = NULL; /* no population at all: an error naming the fields */
    ck_assert_int_eq(glevo_dsm_gpu_clique(g, &cp, ils_g, len_g), GLEVO_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(glevo_last_error(), "pop_bits"));
    glevo_dsm_gpu_destroy(g);
    free(sel_buf); free(pop_buf); free(want); free(pwant); free(got); free(pgot); free(cpu); free(gpu);
    free(ils_c); free(ils_g); free(len_c); free(len_g);
}

START_TEST(pack_gpu_equals_cpu)
{
    testutil_context();
    glevo_backend b;
    FOR_GPU_BACKENDS(b) {
        compare_bits(b, 1, 1, 1, 0, false);   /* one byte: a texel, 3 bytes of it past the end */
        compare_bits(b, 1, 7, 2, 0, false);
        compare_bits(b, 33, 3, 3, 0, false);  /* n odd, one individual in the second word */
        compare_bits(b, 37, 17, 4, 0, false); /* n x ell odd */
        compare_bits(b, 64, 9, 5, 0, false);
        compare_bits(b, 95, 31, 6, 1, true);  /* bytes not 4-aligned, 1s of every nonzero value */
        /* 19 497 bytes: more than one texture row (4096 words), the last one partial */
        compare_bits(b, 97, 201, 7, 0, false);
        compare_bits(b, 97, 201, 8, 3, true);
        if (testutil_large()) {
            compare_bits(b, 224, 600, 9, 0, false); /* the benchmark's cell (ftrap 600) */
            compare_bits(b, 1001, 401, 10, 2, true); /* 25 texture rows */
        }
    }
}
END_TEST

/* Lossy sets that run the whole length (a population of complementary pairs always has a
 * donor), then short ones, then whole again on one model: the compute driver reads the lossy
 * ILS in growing prefixes of columns, and what one call leaves in the ILS buffer must not
 * leak into the next. With sets_only, entries past a set's end keep what they held. */
START_TEST(clique_lossy_long_then_short)
{
    testutil_context();
    enum { N = 40, ELL = 70 };
    static uint8_t pairs[N * ELL], rnd[N * ELL];
    random_pop(rnd, N, ELL, 21, 1);
    random_pop(pairs, N / 2, ELL, 22, 1);
    for (int i = N / 2; i < N; ++i)
        for (int g = 0; g < ELL; ++g) pairs[i * ELL + g] = 1 - pairs[(i - N / 2) * ELL + g];
    uint32_t rows[ELL * 2], prows[ELL * 2];
    static float mi[ELL * ELL];
    static int32_t ils_c[ELL * ELL], ils_g[ELL * ELL];
    int32_t len_c[ELL], len_g[ELL];
    glevo_dsm_pack(rnd, N, ELL, rows);
    glevo_dsm_mi_cpu(rows, N, ELL, mi);
    glevo_backend b;
    FOR_GPU_BACKENDS(b) {
        const char *name = glevo_backend_name(b);
        glevo_dsm_gpu *g;
        ck_assert_msg(glevo_dsm_gpu_create(ELL, N, b, &g) == GLEVO_OK, "%s: %s", name, glevo_last_error());
        ck_assert_int_eq(glevo_dsm_gpu_build(g, rows), GLEVO_OK);
        const uint8_t *pops[] = {pairs, rnd, pairs, rnd};
        for (int call = 0; call < 4; ++call) {
            glevo_dsm_pack(pops[call], N, ELL, prows);
            glevo_clique_params cp = {.seed = 7, .generation = (uint32_t)call, .lossy = true,
                                      .pop_rows = prows, .pop_n = N, .sets_only = call >= 2};
            for (int k = 0; k < ELL * ELL; ++k) ils_c[k] = ils_g[k] = UNTOUCHED;
            glevo_find_clique_cpu(mi, ELL, &cp, ils_c, len_c);
            cp.pop_bits = pops[call];
            ck_assert_msg(glevo_dsm_gpu_clique(g, &cp, ils_g, len_g) == GLEVO_OK, "%s: %s", name,
                          glevo_last_error());
            int longest = 0;
            for (int s = 0; s < ELL; ++s) {
                ck_assert_msg(len_g[s] == len_c[s], "%s call %d: set %d length GPU %d CPU %d", name,
                              call, s, len_g[s], len_c[s]);
                if (len_c[s] > longest) longest = len_c[s];
                for (int t = 0; t < ELL; ++t) {
                    int32_t want = t < len_c[s] ? ils_c[s * ELL + t] : cp.sets_only ? UNTOUCHED : -1;
                    ck_assert_msg(ils_c[s * ELL + t] == want && ils_g[s * ELL + t] == want,
                                  "%s call %d: set %d step %d GPU %d CPU %d, want %d", name, call,
                                  s, t, ils_g[s * ELL + t], ils_c[s * ELL + t], want);
                }
            }
            /* pairs: every set whole; random: every set stops early */
            if (pops[call] == pairs) ck_assert_int_eq(longest, ELL);
            else ck_assert_int_lt(longest, ELL / 2);
        }
        glevo_dsm_gpu_destroy(g);
    }
}
END_TEST

START_TEST(clique_sets_are_permutations)
{
    int n = 40, ell = 15;
    uint8_t *bits = malloc((size_t)n * ell);
    uint32_t *rows = malloc((size_t)ell * glevo_dsm_words(n) * 4);
    float *mi = malloc((size_t)ell * ell * 4);
    int32_t *ils = malloc((size_t)ell * ell * 4), len[15];
    random_pop(bits, n, ell, 9, 1);
    glevo_dsm_pack(bits, n, ell, rows);
    glevo_dsm_mi_cpu(rows, n, ell, mi);
    glevo_clique_params cp = {.seed = 9};
    glevo_find_clique_cpu(mi, ell, &cp, ils, len);
    for (int s = 0; s < ell; ++s) {
        int seen[15] = {0};
        ck_assert_int_eq(ils[s * ell], s);
        for (int t = 0; t < ell; ++t) ++seen[ils[s * ell + t]];
        for (int g = 0; g < ell; ++g) ck_assert_int_eq(seen[g], 1);
        /* pairs (2k, 2k+1) are linked: the partner comes right after the start gene */
        if (s < ell - 1) ck_assert_int_eq(ils[s * ell + 1], s ^ 1);
    }
    free(bits); free(rows); free(mi); free(ils);
}
END_TEST

/* Where the renderer stops shader loops after a budget of iterations (llvmpipe), a compute
 * FindClique that would need more is refused with a sentence, not run into wrong sets (checked
 * by hand: ell 1200 equals the CPU twin there; 2400 would need twice the budget). */
START_TEST(compute_refuses_what_the_loop_budget_would_cut)
{
    testutil_context();
    glevo_dsm_gpu *g = NULL;
    if (gpu_context_limits()->max_loop_iterations <= 0) {
        ck_assert_int_eq(glevo_dsm_gpu_create(37, 10, GLEVO_BACKEND_COMPUTE, &g), GLEVO_OK);
        glevo_dsm_gpu_destroy(g);
        return; /* no budget on this renderer: nothing to refuse */
    }
    ck_assert_int_eq(glevo_dsm_gpu_create(2400, 40, GLEVO_BACKEND_COMPUTE, &g), GLEVO_ERR_UNSUPPORTED);
    ck_assert_ptr_null(g);
    ck_assert_msg(strstr(glevo_last_error(), "ell 2400") && strstr(glevo_last_error(), "fragment"),
                  "%s", glevo_last_error());
    ck_assert_int_eq(glevo_dsm_gpu_create(2400, 40, GLEVO_BACKEND_FRAGMENT, &g), GLEVO_OK);
    glevo_dsm_gpu_destroy(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dsmga_model");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, mi_log_accuracy);
    tcase_add_test(tc, population_file_ok);
    tcase_add_test(tc, population_file_errors);
    tcase_add_test(tc, mi_known_values);
    tcase_add_test(tc, pack_matches_definition);
    tcase_add_test(tc, clique_sets_are_permutations);
    tcase_add_test(tc, dsm_gpu_equals_cpu);
    tcase_add_test(tc, clique_lossless_gpu_equals_cpu);
    tcase_add_test(tc, clique_lossy_gpu_equals_cpu);
    tcase_add_test(tc, compute_refuses_what_the_loop_budget_would_cut);
    tcase_add_test(tc, pack_gpu_equals_cpu);
    tcase_add_test(tc, clique_lossy_long_then_short);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
