/* The checkpoint container (src/core/checkpoint.c): entries round-trip bit for bit, and every
 * kind of bad file (truncated, a flipped byte, another magic, a newer format, another
 * algorithm, entries made by hand) is refused with one sentence naming the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/checkpoint.h"
#include "testutil.h"

static ckpt_writer *sample(const float *genes, size_t n)
{
    ckpt_writer *w = ckpt_writer_create("cga");
    ck_assert_ptr_nonnull(w);
    ckpt_put_i64(w, "param.dim", 7);
    ckpt_put_i64(w, "state.evaluations", -123456789012345ll);
    ckpt_put_f64(w, "param.pc", 0.1);
    ckpt_put_f64(w, "state.nan", NAN);
    ckpt_put_str(w, "param.problem", "camel");
    ckpt_put_str(w, "state.empty", "");
    ckpt_put_array(w, "data.genes", CKPT_F32, genes, n);
    return w;
}

static void bytes_of(ckpt_writer *w, uint8_t **b, size_t *n)
{
    ck_assert_msg(ckpt_writer_bytes(w, b, n) == GLEVO_OK, "%s", glevo_last_error());
}

/* CRC and size fixed up after an edit, as a hand-made file would have them. */
static void reseal(uint8_t *b, size_t n)
{
    for (int i = 0; i < 8; ++i) b[12 + i] = (uint8_t)((uint64_t)n >> (8 * i));
    uint32_t crc = ckpt_crc32(0, b, 20);
    for (int i = 0; i < 4; ++i) b[20 + i] = (uint8_t)(crc >> (8 * i));
    crc = ckpt_crc32(0, b, n - 4);
    for (int i = 0; i < 4; ++i) b[n - 4 + i] = (uint8_t)(crc >> (8 * i));
}

static void refused(const uint8_t *b, size_t n, const char *algorithm, const char *words)
{
    ckpt_reader *r = (ckpt_reader *)1;
    glevo_status st = ckpt_parse(b, n, "t.ckpt", algorithm, &r);
    ck_assert_msg(st == GLEVO_ERR_INVALID, "accepted (%d) where '%s' was expected", st, words);
    ck_assert_ptr_null(r);
    const char *e = glevo_last_error();
    ck_assert_msg(strstr(e, words) && strstr(e, "t.ckpt") && !strchr(e, '\n'),
                  "message '%s' lacks '%s' or the file name", e, words);
}

START_TEST(entries_round_trip_bit_for_bit)
{
    float genes[11];
    for (int i = 0; i < 11; ++i) genes[i] = (float)i * 0.37f - 1.0f;
    genes[3] = -0.0f;
    ckpt_writer *w = sample(genes, 11);
    uint8_t *b;
    size_t n;
    bytes_of(w, &b, &n);
    ckpt_reader *r;
    ck_assert_msg(ckpt_parse(b, n, "t.ckpt", "cga", &r) == GLEVO_OK, "%s", glevo_last_error());
    long long v;
    double d;
    const char *s;
    ck_assert(ckpt_get_i64(r, "param.dim", &v) == GLEVO_OK && v == 7);
    ck_assert(ckpt_get_i64(r, "state.evaluations", &v) == GLEVO_OK && v == -123456789012345ll);
    ck_assert(ckpt_get_f64(r, "param.pc", &d) == GLEVO_OK && d == 0.1);
    ck_assert(ckpt_get_f64(r, "state.nan", &d) == GLEVO_OK && isnan(d));
    ck_assert(ckpt_get_str(r, "param.problem", &s) == GLEVO_OK && !strcmp(s, "camel"));
    ck_assert(ckpt_get_str(r, "state.empty", &s) == GLEVO_OK && !strcmp(s, ""));
    ck_assert(ckpt_get_str(r, "meta.algorithm", &s) == GLEVO_OK && !strcmp(s, "cga"));
    ck_assert(ckpt_get_str(r, "meta.glevo_version", &s) == GLEVO_OK &&
              !strcmp(s, glevo_version_string()));
    float back[11];
    ck_assert(ckpt_get_array(r, "data.genes", CKPT_F32, back, 11) == GLEVO_OK);
    ck_assert(!memcmp(back, genes, sizeof genes));
    /* Wrong type, wrong length, missing entry: refused, naming the entry. */
    ck_assert(ckpt_get_f64(r, "param.dim", &d) == GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "param.dim"));
    ck_assert(ckpt_get_array(r, "data.genes", CKPT_F32, back, 10) == GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "data.genes"));
    ck_assert(ckpt_get_i64(r, "param.nope", &v) == GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "param.nope"));
    int k;
    ck_assert(ckpt_get_int(r, "param.dim", 1, 6, &k) == GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), "param.dim = 7"));
    /* Resume comparisons name the field and both values. */
    ck_assert(ckpt_same_i64(r, "param.dim", "glevo_cga_params.dim", false, 3) == GLEVO_OK);
    ck_assert(ckpt_same_i64(r, "param.dim", "glevo_cga_params.dim", true, 7) == GLEVO_OK);
    ck_assert(ckpt_same_i64(r, "param.dim", "glevo_cga_params.dim", true, 3) == GLEVO_ERR_INVALID);
    ck_assert_str_eq(glevo_last_error(), "glevo_cga_params.dim 3 differs from the checkpoint's 7: "
                                         "it would change the run");
    ck_assert(ckpt_same_str(r, "param.problem", "glevo_cga_params.problem", true, "sphere"));
    ck_assert(ckpt_same_f64(r, "param.pc", "glevo_cga_params.pc", true, 0.2));
    ckpt_reader_destroy(r);
    free(b);
    ckpt_writer_destroy(w);
}
END_TEST

/* Enough scalar entries that the writer's entry array grows (it starts at 64) more than once:
 * every value written before a growth is still the one read back (a GP portfolio's checkpoint
 * has ~70 entries; values pointing into the old array were read after it was freed). */
START_TEST(scalars_survive_the_entries_growing)
{
    ckpt_writer *w = ckpt_writer_create("gp");
    char name[32];
    for (int i = 0; i < 300; ++i) {
        snprintf(name, sizeof name, "state.i%d", i);
        ckpt_put_i64(w, name, 1000003ll * i - 7);
        snprintf(name, sizeof name, "state.f%d", i);
        ckpt_put_f64(w, name, 0.1 * i - 3.0);
    }
    uint8_t *b;
    size_t n;
    bytes_of(w, &b, &n);
    ckpt_reader *r;
    ck_assert_msg(ckpt_parse(b, n, "t.ckpt", "gp", &r) == GLEVO_OK, "%s", glevo_last_error());
    for (int i = 0; i < 300; ++i) {
        long long v;
        double d;
        snprintf(name, sizeof name, "state.i%d", i);
        ck_assert(ckpt_get_i64(r, name, &v) == GLEVO_OK && v == 1000003ll * i - 7);
        snprintf(name, sizeof name, "state.f%d", i);
        ck_assert(ckpt_get_f64(r, name, &d) == GLEVO_OK && d == 0.1 * i - 3.0);
    }
    ckpt_reader_destroy(r);
    free(b);
    ckpt_writer_destroy(w);
}
END_TEST

START_TEST(bad_files_are_refused_in_one_sentence)
{
    float genes[5] = {1, 2, 3, 4, 5};
    ckpt_writer *w = sample(genes, 5);
    uint8_t *b;
    size_t n;
    bytes_of(w, &b, &n);
    uint8_t *c = malloc(n + 16);
    /* Truncated anywhere: the header's size says so. */
    for (size_t cut = 0; cut < n; cut += cut < 40 ? 1 : 13)
        refused(b, cut, "cga", cut == 0 ? "not a glevo checkpoint" : "truncated");
    /* Any flipped bit past the magic, the header's included: damaged. */
    for (size_t i = 8; i < n; ++i) {
        memcpy(c, b, n);
        c[i] ^= (uint8_t)(1u << (i % 8));
        refused(c, n, "cga", "damaged");
    }
    /* Bytes appended. */
    memcpy(c, b, n);
    c[n] = 0;
    refused(c, n + 1, "cga", "damaged");
    /* Another magic. */
    memcpy(c, b, n);
    memcpy(c, "GLEVOCKQ", 8);
    refused(c, n, "cga", "not a glevo checkpoint");
    refused((const uint8_t *)"generation,best\n1,2\n", 20, "cga", "not a glevo checkpoint");
    /* A newer format, well sealed: refused by version, naming both. */
    memcpy(c, b, n);
    c[8] = 2;
    reseal(c, n);
    refused(c, n, "cga", "format version 2, newer than the 1");
    /* Another algorithm. */
    refused(b, n, "de", "is a checkpoint of cga, not of de");
    free(c);
    free(b);
    ckpt_writer_destroy(w);
}
END_TEST

/* Hand-made files with a right checksum: the structure walk refuses them. */
START_TEST(malformed_structure_is_refused)
{
    ckpt_writer *w = ckpt_writer_create("gp");
    ckpt_put_i64(w, "a", 1);
    uint8_t *b;
    size_t n;
    bytes_of(w, &b, &n);
    uint8_t *c = malloc(n + 64);
    /* Find entry "a": type 1, name length 1, 'a'. */
    size_t at = 0;
    for (size_t i = 24; i + 2 < n; ++i)
        if (b[i] == CKPT_I64 && b[i + 1] == 1 && b[i + 2] == 'a') at = i;
    ck_assert(at > 0);
    memcpy(c, b, n), c[at] = 77, reseal(c, n);
    refused(c, n, NULL, "type 77");
    memcpy(c, b, n), c[at + 2] = '-', reseal(c, n);
    refused(c, n, NULL, "name");
    memcpy(c, b, n), c[at + 3] = 9, reseal(c, n);
    refused(c, n, NULL, "has 9 bytes");
    memcpy(c, b, n), c[at + 3] = 0xFF, reseal(c, n);
    refused(c, n, NULL, "runs past the end");
    /* An entry twice. */
    size_t len = 2 + 1 + 8 + 8;
    memcpy(c, b, at + len);
    memcpy(c + at + len, b + at, n - at);
    reseal(c, n + len);
    refused(c, n + len, NULL, "appears twice");
    /* Version 0. */
    memcpy(c, b, n), c[8] = 0, reseal(c, n);
    refused(c, n, NULL, "format version 0");
    free(c);
    free(b);
    ckpt_writer_destroy(w);
}
END_TEST

START_TEST(save_replaces_the_file_atomically)
{
    char dir[] = "/tmp/glevo-ckpt-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/run.ckpt", dir);
    float genes[3] = {1, 2, 3};
    ckpt_writer *w = sample(genes, 3);
    ck_assert_msg(ckpt_writer_save(w, path) == GLEVO_OK, "%s", glevo_last_error());
    ckpt_reader *r;
    ck_assert_msg(ckpt_read_file(path, "cga", &r) == GLEVO_OK, "%s", glevo_last_error());
    ckpt_reader_destroy(r);
    /* A folder that does not exist: an error naming the path, nothing written. */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/no/such/run.ckpt", dir);
    ck_assert(ckpt_writer_save(w, bad) == GLEVO_ERR_IO);
    ck_assert(strstr(glevo_last_error(), bad));
    ck_assert(ckpt_read_file(bad, "cga", &r) == GLEVO_ERR_INVALID);
    ck_assert(strstr(glevo_last_error(), bad));
    ckpt_writer_destroy(w);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls -A %s", dir);
    char out[512];
    ck_assert_int_eq(testutil_run(cmd, out, sizeof out), 0);
    ck_assert_msg(!strcmp(out, "run.ckpt\n"), "left behind: %s", out);
    unlink(path);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("checkpoint");
    TCase *tc = tcase_create("container");
    tcase_add_test(tc, entries_round_trip_bit_for_bit);
    tcase_add_test(tc, scalars_survive_the_entries_growing);
    tcase_add_test(tc, bad_files_are_refused_in_one_sentence);
    tcase_add_test(tc, malformed_structure_is_refused);
    tcase_add_test(tc, save_replaces_the_file_atomically);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
