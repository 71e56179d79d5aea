/* Program build: the shared full-screen vertex shader + one composed fragment shader.
 * Compile and link logs are rewritten to name our .glsl files and lines. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gpgpu.h"
#include "gl/shader_compose.h"
#include "glevo/shader.h"

#define VERTEX_FILE "common/fullscreen_vertex.glsl"

static GLuint compile(GLenum type, const shader_text *src, const char *program_name,
                      glevo_status *st)
{
    GLuint shader = glCreateShader(type);
    const char *text = src->text;
    glShaderSource(shader, 1, &text, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[8192] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        char *mapped = shader_log_rewrite(src, log);
        /* First line only in the one-sentence error; the whole log on stderr for teaching. */
        char first[1024];
        snprintf(first, sizeof first, "%.1000s", mapped ? mapped : log);
        char *nl = strchr(first, '\n');
        if (nl) *nl = '\0';
        fprintf(stderr, "glevo: shader compile log for program '%s':\n%s", program_name,
                mapped ? mapped : log);
        *st = glevo_fail(GLEVO_ERR_GL, "shader for pass program '%s' failed to compile: %s",
                         program_name, first);
        free(mapped);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

glevo_status gpu_program_build(gpu_program *p, const char *fragment_file, const char *defines,
                               const char *const *aliases)
{
    return gpu_program_build_with_vertex(p, VERTEX_FILE, fragment_file, defines, aliases);
}

glevo_status gpu_program_build_with_vertex(gpu_program *p, const char *vertex_file,
                                           const char *fragment_file, const char *defines,
                                           const char *const *aliases)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", fragment_file);
    shader_text vs_text, fs_text;
    glevo_status st = shader_compose(&vs_text, vertex_file, NULL, NULL);
    if (st != GLEVO_OK) return st;
    st = shader_compose(&fs_text, fragment_file, defines, aliases);
    if (st != GLEVO_OK) {
        shader_text_free(&vs_text);
        return st;
    }
    GLuint vs = compile(GL_VERTEX_SHADER, &vs_text, p->name, &st);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, &fs_text, p->name, &st) : 0;
    shader_text_free(&vs_text);
    shader_text_free(&fs_text);
    if (!vs || !fs) {
        if (vs) glDeleteShader(vs);
        return st;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        glDeleteProgram(prog);
        char *nl = strchr(log, '\n');
        if (nl) *nl = '\0';
        return glevo_fail(GLEVO_ERR_GL, "program '%s' failed to link: %s", p->name, log);
    }
    p->id = prog;
    return gpu_check(p->name);
}

void gpu_program_destroy(gpu_program *p)
{
    if (p->id) glDeleteProgram(p->id);
    p->id = 0;
}

glevo_status glevo_shader_program(const char *vertex_file, const char *fragment_file,
                                  unsigned *program_id)
{
    gpu_program p;
    glevo_status st = gpu_program_build_with_vertex(
        &p, vertex_file ? vertex_file : VERTEX_FILE, fragment_file, NULL, NULL);
    *program_id = st == GLEVO_OK ? p.id : 0;
    return st;
}

void gpu_program_dump_binary(const gpu_program *p, const char *path)
{
    GLint len = 0;
    glGetProgramiv(p->id, GL_PROGRAM_BINARY_LENGTH, &len);
    void *buf = len > 0 ? malloc((size_t)len) : NULL;
    FILE *f = buf ? fopen(path, "wb") : NULL;
    if (f) {
        GLsizei got = 0;
        GLenum format = 0;
        glGetProgramBinary(p->id, len, &got, &format, buf);
        fwrite(buf, 1, (size_t)got, f);
        fclose(f);
    }
    free(buf);
    while (glGetError() != GL_NO_ERROR) {
    }
}
