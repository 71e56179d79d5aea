/* The second half of a program build (program.c starts it, program_batch.c may defer it):
 * the link's status (a failed compile named with our .glsl file and line), then the program
 * checked against its C description, once (sokol's validation layer): samplers, images and
 * storage blocks resolved to units by name, the uniform block's size equal to its C struct's,
 * no uniform outside the block, the work-group size within the device's limits. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/context_internal.h"
#include "gl/shader_compose.h"
#include "core/clock.h"

#define BLOCK_NAME "pass_uniforms"

/* The error of a shader that failed to compile, its log mapped to our files and lines. */
static glevo_status compile_error(GLuint shader, const shader_text *src, const char *program_name)
{
    char log[8192] = "";
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    char *mapped = shader_log_rewrite(src, log);
    /* First line only in the one-sentence error; the whole log to the context's log. */
    char first[1024];
    snprintf(first, sizeof first, "%.1000s", mapped ? mapped : log);
    char *nl = strchr(first, '\n');
    if (nl) *nl = '\0';
    gpu_log(GLEVO_LOG_INFO, "shader compile log for program '%s':\n%s", program_name,
            mapped ? mapped : log);
    glevo_status st = glevo_fail(GLEVO_ERR_GL, "shader for pass program '%s' failed to compile: "
                                 "%s", program_name, first);
    free(mapped);
    return st;
}

glevo_status program_link_checked(GLuint prog, const GLuint *shaders, const shader_text *texts,
                                  int count, const char *name)
{
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    glevo_status st = GLEVO_OK;
    for (int i = 0; i < count && !ok && !st; ++i) {
        GLint compiled = GL_FALSE;
        glGetShaderiv(shaders[i], GL_COMPILE_STATUS, &compiled);
        if (!compiled) st = compile_error(shaders[i], &texts[i], name);
    }
    if (!ok && !st) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        gpu_log(GLEVO_LOG_INFO, "link log for program '%s':\n%s", name, log);
        char *nl = strchr(log, '\n');
        if (nl) *nl = '\0';
        st = glevo_fail(GLEVO_ERR_GL, "program '%s' failed to link: %s", name, log);
    }
    for (int i = 0; i < count; ++i) glDeleteShader(shaders[i]);
    if (!ok) glDeleteProgram(prog);
    return st;
}

/* Whether `name` occurs in the composed text as a whole identifier: declared (perhaps unused
 * by this variant) rather than misspelt. */
static bool mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool end = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (start && end) return true;
    }
    return false;
}

/* Sets the unit of every element of every table entry; returns the units used. */
static int assign_units(gpu_program *p, const gpu_slot *table, const char *kind,
                        const char *text, glevo_status *st)
{
    int unit = 0;
    for (const gpu_slot *s = table; s && s->name && *st == GLEVO_OK; ++s) {
        int count = s->count > 0 ? s->count : 1;
        bool any = false;
        for (int k = 0; k < count; ++k, ++unit) {
            char element[128];
            snprintf(element, sizeof element, s->count > 0 ? "%s[%d]" : "%s", s->name, k);
            GLint loc = glGetUniformLocation(p->id, element);
            if (loc < 0) continue;
            glProgramUniform1i(p->id, loc, unit);
            any = true;
        }
        if (!any && !mentions(text, s->name))
            *st = glevo_fail(GLEVO_ERR_INVALID, "program '%s': %s '%s' does not occur in its "
                             "shader (a misspelt name?)", p->name, kind, s->name);
    }
    return unit;
}

static int bind_storage_blocks(gpu_program *p, const gpu_slot *table, const char *text,
                               glevo_status *st)
{
    int slot = 0;
    for (const gpu_slot *s = table; s && s->name && *st == GLEVO_OK; ++s, ++slot) {
        GLuint index = glGetProgramResourceIndex(p->id, GL_SHADER_STORAGE_BLOCK, s->name);
        if (index != GL_INVALID_INDEX)
            glShaderStorageBlockBinding(p->id, index, (GLuint)slot);
        else if (!mentions(text, s->name))
            *st = glevo_fail(GLEVO_ERR_INVALID, "program '%s': storage block '%s' does not "
                             "occur in its shader (a misspelt name?)", p->name, s->name);
    }
    return slot;
}

static bool is_opaque(GLenum type)
{
    switch (type) {
    case GL_SAMPLER_2D: case GL_INT_SAMPLER_2D: case GL_UNSIGNED_INT_SAMPLER_2D:
    case GL_IMAGE_2D: case GL_INT_IMAGE_2D: case GL_UNSIGNED_INT_IMAGE_2D:
        return true;
    default:
        return false;
    }
}

static bool in_table(const gpu_slot *table, const char *name)
{
    size_t n = strcspn(name, "[");
    for (const gpu_slot *s = table; s && s->name; ++s)
        if (strlen(s->name) == n && !strncmp(s->name, name, n)) return true;
    return false;
}

/* The uniform block against its C struct, no loose uniforms (a loose `u_pc` that nothing
 * sets would silently read zero) and no sampler or image outside the tables (it would read
 * unit 0 unnoticed). */
static glevo_status check_uniforms(gpu_program *p, const gpu_program_desc *d, const char *text,
                                   bool allow_loose)
{
    GLuint block = glGetUniformBlockIndex(p->id, BLOCK_NAME);
    if (block != GL_INVALID_INDEX) {
        GLint size = 0;
        glGetActiveUniformBlockiv(p->id, block, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        if (d->uniform_size == 0 || (size_t)size != d->uniform_size)
            return glevo_fail(GLEVO_ERR_INVALID, "program '%s': its uniform block %s is %d "
                              "bytes, the C struct given is %zu (std140 layouts differ?)",
                              p->name, BLOCK_NAME, size, d->uniform_size);
        glUniformBlockBinding(p->id, block, 0);
    } else if (d->uniform_size && !mentions(text, BLOCK_NAME)) {
        return glevo_fail(GLEVO_ERR_INVALID, "program '%s' declares no uniform block %s",
                          p->name, BLOCK_NAME);
    }
    if (allow_loose) return GLEVO_OK;
    GLint active = 0;
    glGetProgramiv(p->id, GL_ACTIVE_UNIFORMS, &active);
    for (GLuint i = 0; i < (GLuint)active; ++i) {
        GLint in_block = -1, type = 0;
        glGetActiveUniformsiv(p->id, 1, &i, GL_UNIFORM_BLOCK_INDEX, &in_block);
        glGetActiveUniformsiv(p->id, 1, &i, GL_UNIFORM_TYPE, &type);
        if (in_block >= 0) continue;
        char name[128] = "";
        glGetActiveUniformName(p->id, i, sizeof name, NULL, name);
        /* The driver's own (NVIDIA lists gl_SMCountNV of GL_NV_shader_thread_group): set
         * by the driver, not by a pass. */
        if (!strncmp(name, "gl_", 3)) continue;
        if (!is_opaque((GLenum)type))
            return glevo_fail(GLEVO_ERR_INVALID, "program '%s': uniform '%s' is outside the "
                              "%s block", p->name, name, BLOCK_NAME);
        if (!in_table(d->samplers, name) && !in_table(d->images, name))
            return glevo_fail(GLEVO_ERR_INVALID, "program '%s': sampler or image '%s' is in "
                              "none of its unit tables", p->name, name);
    }
    return GLEVO_OK;
}

static glevo_status check_work_group(gpu_program *p)
{
    glGetProgramiv(p->id, GL_COMPUTE_WORK_GROUP_SIZE, p->local_size);
    const gpu_limits *l = gpu_context_limits();
    long long total = (long long)p->local_size[0] * p->local_size[1] * p->local_size[2];
    for (int i = 0; i < 3; ++i)
        if (p->local_size[i] > l->max_work_group_size[i])
            return glevo_fail(GLEVO_ERR_UNSUPPORTED, "program '%s': work-group size %d along "
                              "axis %d exceeds this device's %d", p->name, p->local_size[i], i,
                              l->max_work_group_size[i]);
    if (total > l->max_work_group_invocations)
        return glevo_fail(GLEVO_ERR_UNSUPPORTED, "program '%s': %lld invocations a work-group "
                          "exceed this device's %d", p->name, total,
                          l->max_work_group_invocations);
    return GLEVO_OK;
}

/* GLEVO_DUMP_PROGRAMS=DIR: each program built, as the driver's binary DIR/NAME.N.bin (N
 * counts the builds of a process). NVIDIA's embeds its assembly as text: the shared memory
 * (SHARED_MEMORY) and local memory (TEMP lmem) a kernel takes, for measuring. */
static void dump_if_asked(const gpu_program *p)
{
    static int builds;
    const char *dir = getenv("GLEVO_DUMP_PROGRAMS");
    if (!dir || !*dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%d.bin", dir, p->name, builds++);
    program_write_binary(p, path);
}

glevo_status program_finish(gpu_program *p, const gpu_program_desc *d, shader_text *texts,
                            int stages, const GLuint *shaders, bool allow_loose, const char *key,
                            double t0, bool loaded)
{
    glevo_status st = program_link_checked(p->id, shaders, texts, stages, p->name);
    if (st) p->id = 0;
    if (!st) p->sampler_units = assign_units(p, d->samplers, "sampler", texts[0].text, &st);
    if (!st) p->image_units = assign_units(p, d->images, "image", texts[0].text, &st);
    if (!st) p->buffer_units = bind_storage_blocks(p, d->buffers, texts[0].text, &st);
    if (!st && p->sampler_units > (p->compute ? gpu_context_limits()->max_compute_texture_units
                                              : gpu_context_limits()->max_texture_units))
        st = glevo_fail(GLEVO_ERR_UNSUPPORTED, "program '%s' samples %d textures: this device "
                        "has %d texture units", p->name, p->sampler_units,
                        gpu_context_limits()->max_texture_units);
    if (!st) st = check_uniforms(p, d, texts[0].text, allow_loose);
    if (!st && p->compute) st = check_work_group(p);
    p->uniform_size = d->uniform_size;
    p->pending = false;
    for (int i = 0; i < stages; ++i) shader_text_free(&texts[i]);
    if (!st) st = gpu_check(p->name);
    if (st) {
        /* Not in the cache yet, nor shared: a failed build's program is deleted here. */
        if (p->id) glDeleteProgram(p->id);
        p->id = 0;
    } else {
        dump_if_asked(p);
        if (key && !loaded) program_disk_store(p->id, key);
        program_build_record(gl_current, p->name, core_seconds_now() - t0);
        if (key) program_cache_add(gl_current, key, p);
    }
    return st;
}

void program_write_binary(const gpu_program *p, const char *path)
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
