/* Composition of a shader from library files (#include) with a file table for mapping
 * driver messages back to file:line. Internal to src/gl. */
#ifndef GLEVO_SHADER_COMPOSE_H
#define GLEVO_SHADER_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "glevo/status.h"

#define SHADER_MAX_FILES 24
/* #line numbers carry the file number too: line N of file S is S * SHADER_LINE_STRIDE + N
 * (see append_line_directive in shader_library.c; 24 files stay below 2^25). */
#define SHADER_LINE_STRIDE (1 << 20)

typedef struct shader_text {
    char *text;
    size_t length, capacity;
    char files[SHADER_MAX_FILES][256]; /* source-string number -> file name */
    /* Who included file i, and on which of its lines (-1: the main file or the preamble):
     * an error in a library file a user's file included is the user's line. */
    int parent[SHADER_MAX_FILES], parent_line[SHADER_MAX_FILES];
    int file_count;
    bool out_of_memory;
} shader_text;

/* preamble: the #version line and the driver's define ("#version 410 core\n#define
 * GLEVO_FRAGMENT 1\n"), then `defines`, then the main file with its includes. */
glevo_status shader_compose(shader_text *out, const char *preamble, const char *main_file,
                            const char *defines, const char *const *aliases);
/* The same, with the main file's text given instead of read (`main_file` names it in errors
 * and resolves its relative includes); the fuzz harness composes untrusted text this way. */
glevo_status shader_compose_text(shader_text *out, const char *preamble, const char *main_file,
                                 const char *main_text, const char *defines,
                                 const char *const *aliases);
void shader_text_free(shader_text *t);
bool gpu_shader_source_is_not_embedded(const char *name);
/* Rewrites a driver info log so that "0:12(5): error" (Mesa) and "0(12) : error" (NVIDIA)
 * read "select.glsl:12: error". Caller frees. */
char *shader_log_rewrite(const shader_text *t, const char *log);

#endif
