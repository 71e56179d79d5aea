/* What a command writes (issue 23): no output shares its file with another output or an
 * input, a fresh run never replaces an existing checkpoint without --overwrite, and a
 * picture's extension decides its format (.png or .svg) or is refused. CPU backend, tiny
 * grids: cheap on CI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16];
static char dir[64];

#define lines testutil_lines

/* Runs `glevo ARGS` in the test's folder, stderr joined to stdout. */
#define glevo(...) testutil_glevo(dir, out, sizeof out, __VA_ARGS__)

static long file_size(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void read_head(const char *name, char *buf, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s missing", path);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

#define CGA "cga --backend cpu --grid 8x5 --generations 2 --quiet"

START_TEST(one_path_two_outputs_is_refused)
{
    /* The trace used to overwrite the checkpoint, exit 0. */
    ck_assert_int_eq(glevo(CGA " --trace same --checkpoint same"), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "'same'") && strstr(out, "--trace") &&
                  strstr(out, "--checkpoint"), "%s", out);
    ck_assert_int_eq(file_size("same"), -1);
    /* Spelled differently, still one file. */
    ck_assert_int_eq(glevo(CGA " --snapshot-final x.png --snapshot snaps --sheet ./x.png"), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "--snapshot-final") && strstr(out, "--sheet"), "%s", out);
    /* An output over an input: the trace would replace the data it learns from. */
    char path[256];
    snprintf(path, sizeof path, "%s/d.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("x,y\n1,2\n2,4\n3,6\n", f);
    fclose(f);
    ck_assert_int_eq(glevo("gp --backend cpu --data d.csv --pop 8 --generations 1 --checkpoint d.csv"), 2);
    ck_assert_msg(strstr(out, "--data") && strstr(out, "--checkpoint"), "%s", out);
    ck_assert_int_eq(file_size("d.csv"), 16);
    ck_assert_int_eq(glevo("de --backend cpu --max-evals 400 --trace t --checkpoint ./t --quiet"), 2);
    ck_assert_msg(strstr(out, "--trace") && strstr(out, "--checkpoint"), "%s", out);
    /* --resume and --checkpoint on one file continue a run in place: still allowed. */
    ck_assert_int_eq(glevo(CGA " --checkpoint c.ckpt"), 0);
    ck_assert_int_eq(glevo(CGA " --resume c.ckpt --checkpoint c.ckpt --generations 3"), 0);
}
END_TEST

START_TEST(fresh_run_keeps_existing_checkpoint)
{
    ck_assert_int_eq(glevo(CGA " --checkpoint keep.ckpt"), 0);
    long size = file_size("keep.ckpt");
    ck_assert_int_gt(size, 0);
    char before[64], after[64];
    read_head("keep.ckpt", before, sizeof before);
    /* Another algorithm's fresh run used to replace it silently. */
    ck_assert_int_eq(glevo("de --backend cpu --max-evals 400 --checkpoint keep.ckpt --quiet"), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "keep.ckpt") && strstr(out, "--overwrite") &&
                  strstr(out, "cga"), "%s", out);
    ck_assert_int_eq(glevo(CGA " --checkpoint keep.ckpt"), 2);
    ck_assert_int_eq(file_size("keep.ckpt"), size);
    read_head("keep.ckpt", after, sizeof after);
    ck_assert(!memcmp(before, after, sizeof before));
    /* Asked for: replaced. */
    ck_assert_int_eq(glevo("de --backend cpu --max-evals 400 --checkpoint keep.ckpt --overwrite --quiet"), 0);
    ck_assert_int_eq(glevo("de --backend cpu --resume keep.ckpt --quiet"), 0);
}
END_TEST

START_TEST(picture_extension_decides_format)
{
    /* .svg used to hold PNG bytes. */
    ck_assert_int_eq(glevo(CGA " --snapshot-final final.svg"), 0);
    char head[256];
    read_head("final.svg", head, sizeof head);
    ck_assert_msg(strstr(head, "<svg") && !strstr(head, "PNG"), "%s", head);
    ck_assert_int_eq(glevo(CGA " --snapshot-final final.png --snapshot-scale 2"), 0);
    read_head("final.png", head, 5);
    ck_assert(!memcmp(head, "\x89PNG", 4));
    ck_assert_int_eq(glevo(CGA " --snapshot-final raw.svg --snapshot-scale 3"), 0);
    read_head("raw.svg", head, sizeof head);
    ck_assert_msg(strstr(head, "<svg"), "%s", head);
    ck_assert_int_eq(glevo("cga --backend cpu --grid 8x5 --generations 4 --quiet --snapshot s "
                           "--every 2 --sheet sheet.svg"), 0);
    read_head("sheet.svg", head, sizeof head);
    ck_assert_msg(strstr(head, "<svg"), "%s", head);
    /* Any other extension: refused before the run, nothing written. */
    ck_assert_int_eq(glevo(CGA " --snapshot-final final.jpg"), 2);
    ck_assert_msg(lines(out) == 1 && strstr(out, "final.jpg") && strstr(out, "--snapshot-final"), "%s", out);
    ck_assert_int_eq(file_size("final.jpg"), -1);
    ck_assert_int_eq(glevo(CGA " --snapshot s2 --sheet sheet"), 2);
    ck_assert_msg(strstr(out, "--sheet"), "%s", out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_outputs");
    TCase *tc = tcase_create("cli_outputs");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, one_path_two_outputs_is_refused);
    tcase_add_test(tc, fresh_run_keeps_existing_checkpoint);
    tcase_add_test(tc, picture_extension_decides_format);
    suite_add_tcase(s, tc);
    return testutil_run_suite_in_tmp(s, dir, sizeof dir, "outputs");
}
