/* Shared by the libFuzzer harnesses: the input as a NUL-terminated string (parsers of text
 * take C strings), and a failed invariant reported as a crash so libFuzzer keeps the input. */
#ifndef GLEVO_FUZZ_COMMON_H
#define GLEVO_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of data with a NUL appended; inputs holding a NUL are cut there, as the file readers
 * reject them (src/core/input_file.c) before any parser sees them. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#define FUZZ_FAIL(...)                                                                        \
    do {                                                                                      \
        fprintf(stderr, "fuzz invariant failed: " __VA_ARGS__);                              \
        fputc('\n', stderr);                                                                  \
        abort();                                                                              \
    } while (0)

#endif
