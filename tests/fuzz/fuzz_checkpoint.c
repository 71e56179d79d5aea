/* libFuzzer harness: the checkpoint container (src/core/checkpoint_read.c). Each input is parsed
 * as it is, and again with its size and both CRC-32s made right, so that the fuzzer reaches
 * the entry walk behind the checksums. A parsed file must hand out every entry it lists with
 * the length it lists, strings NUL-terminated, and write itself back byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/checkpoint.h"
#include "fuzz_common.h"

static void check(const uint8_t *data, size_t size)
{
    ckpt_reader *r = NULL;
    if (ckpt_parse(data, size, "fuzz.ckpt", NULL, &r) != GLEVO_OK) {
        if (r) FUZZ_FAIL("a refused file returned a reader");
        return;
    }
    if (size < CKPT_HEADER_BYTES + 14) FUZZ_FAIL("accepted %zu bytes", size);
    for (int i = 0; i < ckpt_reader_count(r); ++i) {
        ckpt_type t;
        size_t n;
        const char *name = ckpt_entry_name(r, i, &t, &n);
        if (!name[0] || !ckpt_has(r, name)) FUZZ_FAIL("entry %d has no name", i);
        size_t es = ckpt_type_size(t);
        if (!es || n > size / es) FUZZ_FAIL("entry %s: %zu values of type %d", name, n, (int)t);
        if (t == CKPT_STR) {
            const char *s;
            if (ckpt_get_str(r, name, &s) != GLEVO_OK || strlen(s) != n)
                FUZZ_FAIL("string %s: length %zu", name, n);
        } else if (t == CKPT_I64) {
            long long v;
            if (ckpt_get_i64(r, name, &v) != GLEVO_OK) FUZZ_FAIL("i64 %s", name);
        } else if (t == CKPT_F64) {
            double v;
            if (ckpt_get_f64(r, name, &v) != GLEVO_OK) FUZZ_FAIL("f64 %s", name);
        } else {
            void *buf = malloc(n * es + 1);
            if (!buf) abort();
            if (ckpt_get_array(r, name, t, buf, n) != GLEVO_OK) FUZZ_FAIL("array %s", name);
            if (n && ckpt_get_array(r, name, t, buf, n - 1) == GLEVO_OK)
                FUZZ_FAIL("array %s read with a wrong length", name);
            free(buf);
        }
    }
    ckpt_reader_destroy(r);
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    if (size < CKPT_HEADER_BYTES + 4 || memcmp(data, CKPT_MAGIC, 8) != 0) return 0;
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    put_le(copy + 12, size, 8);
    put_le(copy + 20, ckpt_crc32(0, copy, 20), 4);
    put_le(copy + size - 4, ckpt_crc32(0, copy, size - 4), 4);
    check(copy, size);
    free(copy);
    return 0;
}
