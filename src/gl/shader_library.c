/* Shader sources: embedded at build time (cmake/embed_shaders.cmake), overridable from
 * GLEVO_SHADER_DIR for live editing, composed with #include lines. Each composed file gets a
 * source-string number in #line directives, so driver messages can be mapped back to the
 * .glsl file and line (the driver only knows numbers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gl/gpgpu.h"
#include "gl/shader_compose.h"

extern const struct { const char *name; const char *text; } glevo_embedded_shaders[];

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text) text[size] = '\0';
    fclose(f);
    return text;
}

char *gpu_shader_source(const char *file)
{
    const char *dir = getenv("GLEVO_SHADER_DIR");
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        char *text = read_file(path);
        if (text) return text;
    }
    for (int i = 0; glevo_embedded_shaders[i].name; ++i)
        if (!strcmp(glevo_embedded_shaders[i].name, file))
            return strdup(glevo_embedded_shaders[i].text);
    glevo_fail(GLEVO_ERR_INVALID, "shader file '%s' is not in the shader library", file);
    return NULL;
}

/* A user file (e.g. --fitness my.glsl) is named by a path; library files by their name. */
static bool is_disk_path(const char *name)
{
    struct stat st;
    return name[0] == '/' || name[0] == '.' || (strchr(name, '/') && stat(name, &st) == 0 &&
                                                gpu_shader_source_is_not_embedded(name));
}

bool gpu_shader_source_is_not_embedded(const char *name)
{
    for (int i = 0; glevo_embedded_shaders[i].name; ++i)
        if (!strcmp(glevo_embedded_shaders[i].name, name)) return false;
    return true;
}

static char *load(const char *name)
{
    if (is_disk_path(name)) {
        char *text = read_file(name);
        if (!text) glevo_fail(GLEVO_ERR_IO, "cannot read shader file '%s'", name);
        return text;
    }
    return gpu_shader_source(name);
}

static void append(shader_text *out, const char *s, size_t n)
{
    if (out->length + n + 1 > out->capacity) {
        size_t cap = out->capacity ? out->capacity : 4096;
        while (cap < out->length + n + 1) cap *= 2;
        char *grown = realloc(out->text, cap);
        if (!grown) {
            out->out_of_memory = true; /* reported once composition ends */
            return;
        }
        out->text = grown;
        out->capacity = cap;
    }
    memcpy(out->text + out->length, s, n);
    out->length += n;
    out->text[out->length] = '\0';
}

/* "#line N S": the next line is line N of source string S (a file number of ours). */
static void append_line_directive(shader_text *out, int line, int file)
{
    char text[64];
    int n = snprintf(text, sizeof text, "#line %d %d\n", line, file);
    append(out, text, (size_t)n);
}

static const char *resolve_alias(const char *name, const char *const *aliases)
{
    for (int i = 0; aliases && aliases[i]; i += 2)
        if (!strcmp(aliases[i], name)) return aliases[i + 1];
    return NULL;
}

static int file_id(shader_text *out, const char *name)
{
    for (int i = 0; i < out->file_count; ++i)
        if (!strcmp(out->files[i], name)) return -1 - i; /* already included */
    if (out->file_count == SHADER_MAX_FILES) return SHADER_MAX_FILES;
    snprintf(out->files[out->file_count], sizeof out->files[0], "%s", name);
    return out->file_count++;
}

static glevo_status expand(shader_text *out, const char *name, const char *const *aliases,
                           int depth)
{
    if (depth > 16) return glevo_fail(GLEVO_ERR_INVALID, "shader '%s': #include nested too "
                                      "deeply (a cycle?)", name);
    int id = file_id(out, name);
    if (id < 0) return GLEVO_OK; /* include once */
    if (id == SHADER_MAX_FILES)
        return glevo_fail(GLEVO_ERR_INVALID, "shader '%s': too many included files", name);
    char *text = load(name);
    if (!text) return GLEVO_ERR_INVALID;
    append_line_directive(out, 1, id);
    int line_no = 0;
    glevo_status st = GLEVO_OK;
    for (char *line = text; *line && st == GLEVO_OK;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        ++line_no;
        const char *p = line;
        while (*p == ' ' || *p == '\t') ++p;
        if (!strncmp(p, "#include", 8)) {
            p += 8;
            while (*p == ' ' || *p == '\t') ++p;
            char open = *p, close = open == '<' ? '>' : '"';
            const char *stop = (open == '<' || open == '"') ? memchr(p + 1, close, len) : NULL;
            if (!stop || stop > line + len) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: malformed #include", name, line_no);
                break;
            }
            char target[256];
            snprintf(target, sizeof target, "%.*s", (int)(stop - p - 1), p + 1);
            const char *file = target;
            if (open == '<') {
                file = resolve_alias(target, aliases);
                if (!file) {
                    st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: #include <%s> names no alias "
                                    "given to this program", name, line_no, target);
                    break;
                }
            }
            st = expand(out, file, aliases, depth + 1);
            append_line_directive(out, line_no + 1, id);
        } else {
            append(out, line, len);
            append(out, "\n", 1);
        }
        line = end ? end + 1 : line + len;
    }
    free(text);
    return st;
}

glevo_status shader_compose(shader_text *out, const char *preamble, const char *main_file,
                            const char *defines, const char *const *aliases)
{
    memset(out, 0, sizeof *out);
    /* String 0 is the preamble (version and defines); files are numbered from 1. */
    snprintf(out->files[0], sizeof out->files[0], "<defines>");
    out->file_count = 1;
    append(out, preamble, strlen(preamble));
    if (defines) append(out, defines, strlen(defines));
    glevo_status st = expand(out, main_file, aliases, 0);
    if (st == GLEVO_OK && out->out_of_memory)
        st = glevo_fail(GLEVO_ERR_NOMEM, "out of memory composing shader '%s'", main_file);
    if (st != GLEVO_OK) shader_text_free(out);
    return st;
}

void shader_text_free(shader_text *t)
{
    free(t->text);
    t->text = NULL;
    t->length = t->capacity = 0;
}
