/* libFuzzer harness: shader composition (#include lines, src/gl/shader_library.c) and the
 * driver-log rewriting (src/gl/shader_log.c), on untrusted text: a user's --fitness file.
 * Includes may name embedded library files or the <problem> alias; no GL context is needed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "gl/shader_compose.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    static const char *const aliases[] = {"problem", "problems/sphere.glsl", "self", "fuzz.glsl", NULL};
    shader_text t;
    if (shader_compose_text(&t, "#version 410 core\n", "fuzz.glsl", text, "#define FUZZ 1\n", aliases) == GLEVO_OK) {
        if (!t.text || strlen(t.text) != t.length) FUZZ_FAIL("composed length %zu", t.length);
        if (t.file_count < 2 || t.file_count > SHADER_MAX_FILES) FUZZ_FAIL("%d files", t.file_count);
        /* The same text as a driver log: every "S:L(C):" prefix is mapped or left alone. */
        char *log = shader_log_rewrite(&t, text);
        free(log);
        shader_text_free(&t);
    }
    free(text);
    return 0;
}
