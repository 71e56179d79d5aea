/* Composition of a shader from library files (#include) with a file table for mapping
 * driver messages back to file:line. Internal to src/gl. */
#ifndef GLEVO_SHADER_COMPOSE_H
#define GLEVO_SHADER_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "glevo/status.h"

#define SHADER_MAX_FILES 24

typedef struct shader_text {
    char *text;
    size_t length, capacity;
    char files[SHADER_MAX_FILES][256]; /* source-string number -> file name */
    int file_count;
    bool out_of_memory;
} shader_text;

/* preamble: the #version line and the driver's define ("#version 410 core\n#define
 * GLEVO_FRAGMENT 1\n"), then `defines`, then the main file with its includes. */
glevo_status shader_compose(shader_text *out, const char *preamble, const char *main_file,
                            const char *defines, const char *const *aliases);
void shader_text_free(shader_text *t);
bool gpu_shader_source_is_not_embedded(const char *name);
/* Rewrites a driver info log so that "0:12(5): error" (Mesa) and "0(12) : error" (NVIDIA)
 * read "select.glsl:12: error". Caller frees. */
char *shader_log_rewrite(const shader_text *t, const char *log);

#endif
