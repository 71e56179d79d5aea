/* Shader-storage buffers (src/gl/buffer.c): a new buffer reads as zeros, an upload issued right
 * after its creation or after a clear lands (on the H100 an upload right after
 * glClearBufferData was once overtaken by the clear), and a clear zeroes what was uploaded. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gpgpu.h"
#include "testutil.h"

enum { WORDS = 3 * (1 << 18) + 5 }; /* over one of the clear's 1 MiB chunks, not a multiple */

static void expect(const uint32_t *got, uint32_t from, uint32_t to, uint32_t base)
{
    for (uint32_t i = 0; i < WORDS; ++i) {
        uint32_t want = i >= from && i < to ? base + i : 0u;
        ck_assert_msg(got[i] == want, "word %u: %u, expected %u", i, got[i], want);
    }
}

START_TEST(uploads_after_create_and_clear_land)
{
    testutil_context();
    uint32_t *words = malloc(4 * (size_t)WORDS), *got = malloc(4 * (size_t)WORDS);
    ck_assert_ptr_nonnull(words);
    ck_assert_ptr_nonnull(got);
    for (uint32_t i = 0; i < WORDS; ++i) words[i] = 7u + i;
    gpu_buffer b;
    ck_assert_int_eq(gpu_buffer_create(&b, 4 * (size_t)WORDS, NULL), GLEVO_OK);
    /* No wait between the creation's zeros and these words. */
    ck_assert_int_eq(gpu_buffer_upload(&b, 4 * 100, 4 * 1000, words + 100), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_read(&b, 0, 4 * (size_t)WORDS, got), GLEVO_OK);
    expect(got, 100, 1100, 7u);
    ck_assert_int_eq(gpu_buffer_upload(&b, 0, 4 * (size_t)WORDS, words), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_clear(&b), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_upload(&b, 4 * (WORDS - 9), 4 * 9, words + WORDS - 9), GLEVO_OK);
    ck_assert_int_eq(gpu_buffer_read(&b, 0, 4 * (size_t)WORDS, got), GLEVO_OK);
    expect(got, WORDS - 9, WORDS, 7u);
    gpu_buffer_destroy(&b);
    free(words), free(got);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gl");
    TCase *tc = tcase_create("buffer");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, uploads_after_create_and_clear_land);
    suite_add_tcase(s, tc);
    return testutil_run_suite(s);
}
