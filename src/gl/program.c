/* Program build for both drivers: the shared full-screen vertex shader + one composed fragment
 * shader (GLSL 4.10, `GLEVO_FRAGMENT`), or one composed compute shader (GLSL 4.30,
 * `GLEVO_COMPUTE`), shared on the context by composed text (program_cache.c), compiled and
 * linked, then checked against its C description (program_check.c) at once or, in a batch,
 * later (program_batch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"
#include "gl/shader_compose.h"
#include "glevo/shader.h"
#include "core/args.h"
#include "core/clock.h"

#define VERTEX_FILE "common/fullscreen_vertex.glsl"
#define FRAGMENT_PREAMBLE "#version 410 core\n#define GLEVO_FRAGMENT 1\n"
#define COMPUTE_PREAMBLE "#version 430 core\n#define GLEVO_COMPUTE 1\n"

/* Compiles and links without asking how it went: with GL_KHR_parallel_shader_compile the
 * driver does both on its threads, and only a status query waits (program_link_checked). */
static GLuint compile_start(GLenum type, const shader_text *src)
{
    GLuint shader = glCreateShader(type);
    const char *text = src->text;
    glShaderSource(shader, 1, &text, NULL);
    glCompileShader(shader);
    return shader;
}

/* keep: the binary will be asked for (the disk cache), which some drivers must be told before
 * the link. */
static GLuint link_start(const GLuint *shaders, int count, bool keep)
{
    GLuint prog = glCreateProgram();
    if (keep) glProgramParameteri(prog, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    for (int i = 0; i < count; ++i) glAttachShader(prog, shaders[i]);
    glLinkProgram(prog);
    return prog;
}

/* What two builds must share to be one program: the name, the uniform block's C size and
 * every composed text (defines included). NULL when out of memory: then it is not shared. */
static char *cache_key(const char *name, size_t uniform_size, const shader_text *texts,
                       int stages)
{
    size_t n = strlen(name) + 32;
    for (int i = 0; i < stages; ++i) n += strlen(texts[i].text) + 1;
    char *key = malloc(n);
    if (!key) return NULL;
    int at = snprintf(key, n, "%s\n%zu\n", name, uniform_size);
    for (int i = 0; i < stages; ++i) at += snprintf(key + at, n - (size_t)at, "%s\n", texts[i].text);
    return key;
}

static glevo_status build(gpu_program *p, const gpu_program_desc *d, bool allow_loose)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", d->name ? d->name
                                          : d->compute ? d->compute : d->fragment);
    p->compute = d->compute != NULL;
    p->context = gl_current;
    if (p->compute && !gpu_context_limits()->compute)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "program '%s' is a compute shader: this "
                          "context has no GL 4.3 compute shaders", p->name);
    if (!p->compute && !d->fragment)
        return glevo_fail(GLEVO_ERR_INVALID, "program '%s' names no shader", p->name);
    shader_text texts[2];
    int stages = 0;
    GLenum types[2];
    glevo_status st;
    if (p->compute) {
        st = shader_compose(&texts[0], COMPUTE_PREAMBLE, d->compute, d->defines, d->aliases);
        types[stages++] = GL_COMPUTE_SHADER;
    } else {
        st = shader_compose(&texts[0], FRAGMENT_PREAMBLE, d->fragment, d->defines, d->aliases);
        types[stages++] = GL_FRAGMENT_SHADER;
        if (!st) {
            st = shader_compose(&texts[1], FRAGMENT_PREAMBLE,
                                d->vertex ? d->vertex : VERTEX_FILE, NULL, NULL);
            types[stages++] = GL_VERTEX_SHADER;
            if (st) shader_text_free(&texts[0]);
        }
    }
    if (st) return st;
    /* Pass programs are shared on the context by composed text (program_cache.c); the front
     * ends' own programs (allow_loose) are theirs to delete. */
    char *key = allow_loose ? NULL : cache_key(p->name, d->uniform_size, texts, stages);
    if (key && (program_cache_find(gl_current, key, p) || program_batch_join(gl_current, key, p))) {
        for (int i = 0; i < stages; ++i) shader_text_free(&texts[i]);
        free(key);
        return GLEVO_OK;
    }
    double t0 = core_seconds_now();
    GLuint shaders[2] = {0, 0};
    /* A binary this driver linked from the same text in an earlier run (program_disk.c). */
    p->id = key ? program_disk_load(key) : 0;
    if (p->id) {
        st = program_finish(p, d, texts, stages, shaders, false, key, t0, true);
        free(key);
        return st;
    }
    for (int i = 0; i < stages; ++i) shaders[i] = compile_start(types[i], &texts[i]);
    p->id = link_start(shaders, stages, key != NULL && program_disk_enabled());
    p->uniform_size = d->uniform_size;
    /* In a batch (program_batch.c) the checks wait for the batch's end or the first use,
     * while the driver builds the batch's programs together. */
    if (key && program_batch_defer(gl_current, p, d, texts, stages, shaders, key, t0))
        return GLEVO_OK;
    st = program_finish(p, d, texts, stages, shaders, allow_loose, key, t0, false);
    free(key);
    return st;
}

glevo_status gpu_program_build(gpu_program *p, const gpu_program_desc *desc)
{
    return build(p, desc, false);
}

void gpu_program_destroy(gpu_program *p)
{
    /* Only on its own context, current: an engine destroyed after its context (the API
     * allows it) holds a program that died with the context, whose memory is gone too. */
    struct glevo_context *ctx = (struct glevo_context *)p->context;
    if (p->pending && ctx && ctx == gl_current) program_batch_drop(ctx, p);
    else if (p->id && ctx && ctx == gl_current && !program_cache_release(ctx, p->id))
        glDeleteProgram(p->id);
    p->id = 0;
}

glevo_status glevo_shader_program(const char *vertex_file, const char *fragment_file,
                                  unsigned *program_id)
{
    glevo_clear_error();
    ARG_NOT_NULL(fragment_file);
    ARG_NOT_NULL(program_id);
    gpu_program p;
    /* Front ends set their own loose uniforms with glUniform*: no block required. */
    gpu_program_desc d = {.vertex = vertex_file, .fragment = fragment_file};
    glevo_status st = build(&p, &d, true);
    *program_id = st == GLEVO_OK ? p.id : 0;
    return st;
}

void gpu_program_dump_binary(const gpu_program *p, const char *path)
{
    if (p->pending && gpu_program_ready((gpu_program *)p)) return;
    program_write_binary(p, path);
}
