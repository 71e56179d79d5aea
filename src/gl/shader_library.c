/* Shader sources: embedded at build time (cmake/embed_shaders.cmake), overridable from
 * GLEVO_SHADER_DIR for live editing, composed with #include lines. Each composed file gets a
 * source-string number in #line directives, so driver messages can be mapped back to the
 * .glsl file and line (the driver only knows numbers). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/input_file.h"
#include "gl/gpgpu.h"
#include "gl/shader_compose.h"
#include "gl/shader_memory.h"

extern const struct { const char *name; const char *text; } glevo_embedded_shaders[];

static char *read_file(const char *path)
{
    char *text;
    return input_read_text(path, "shader file", INPUT_MAX_SHADER, &text, NULL) == GLEVO_OK ? text : NULL;
}

bool gpu_shader_source_is_not_embedded(const char *name)
{
    for (int i = 0; glevo_embedded_shaders[i].name; ++i)
        if (!strcmp(glevo_embedded_shaders[i].name, name)) return false;
    return true;
}

char *gpu_shader_source(const char *file)
{
    const char *dir = getenv("GLEVO_SHADER_DIR");
    if (dir && *dir) {
        /* A mistyped override directory would otherwise fall back to the embedded shaders
         * silently, and the edits being taught would never show. */
        struct stat sb;
        if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            glevo_fail(GLEVO_ERR_INVALID, "GLEVO_SHADER_DIR '%s' is not a directory", dir);
            return NULL;
        }
        /* Files the directory lacks come from the library: override only what you edit. */
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, file) < (int)sizeof path &&
            stat(path, &sb) == 0)
            return read_file(path);
    }
    for (int i = 0; glevo_embedded_shaders[i].name; ++i)
        if (!strcmp(glevo_embedded_shaders[i].name, file))
            return strdup(glevo_embedded_shaders[i].text);
    glevo_fail(GLEVO_ERR_INVALID, "shader file '%s' is not in the shader library", file);
    return NULL;
}

/* Library files are named by their library name ("problems/sphere.glsl"); any other name is
 * a path on disk, bare names included (--fitness my.glsl). */
static bool is_disk_path(const char *name)
{
    return name[0] == '/' || name[0] == '.' || gpu_shader_source_is_not_embedded(name);
}

static char *load(const char *name)
{
    char *registered = shader_memory_text(name); /* GLSL a front end gave as text */
    if (registered) return registered;
    if (is_disk_path(name)) {
        return read_file(name); /* the error names the file */
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

/* "#line N S": the next line is line N of source string S (a file number of ours). The file
 * number is also encoded in the line, S · SHADER_LINE_STRIDE + N: Mesa (22.3) reports
 * semantic errors with source string 0 whatever #line said (its parser's default location
 * resets the source), so the string number alone would blame "<defines>". */
static void append_line_directive(shader_text *out, int line, int file)
{
    char text[64];
    int n = snprintf(text, sizeof text, "#line %ld %d\n", (long)file * SHADER_LINE_STRIDE + line, file);
    append(out, text, (size_t)n);
}

static const char *resolve_alias(const char *name, const char *const *aliases)
{
    for (int i = 0; aliases && aliases[i]; i += 2)
        if (!strcmp(aliases[i], name)) return aliases[i + 1];
    return NULL;
}

static int file_id(shader_text *out, const char *name, int parent, int parent_line)
{
    for (int i = 0; i < out->file_count; ++i)
        if (!strcmp(out->files[i], name)) return -1 - i; /* already included */
    if (out->file_count == SHADER_MAX_FILES) return SHADER_MAX_FILES;
    snprintf(out->files[out->file_count], sizeof out->files[0], "%s", name);
    out->parent[out->file_count] = parent;
    out->parent_line[out->file_count] = parent_line;
    return out->file_count++;
}

/* The text a user's macros expand to, bounded: a file of 30 #defines, each naming the one
 * before twice, is 2^30 copies to a driver's preprocessor, which ran out of memory on it. Each
 * macro's expansion is its body plus, for every earlier macro its body names, that macro's
 * expansion (saturating); one past SHADER_MACRO_TEXT_MAX is refused, naming its line. */
#define SHADER_MACRO_TEXT_MAX (1 << 20)
#define SHADER_MACROS_MAX 512
static glevo_status macro_bound(const char *name, const char *body)
{
    struct { const char *name; size_t len; long long expands; } m[SHADER_MACROS_MAX];
    int count = 0, line_no = 0;
    for (const char *line = body; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        line_no++;
        const char *p = line, *stop = line + len;
        while (p < stop && (*p == ' ' || *p == '\t')) ++p;
        if (stop - p > 7 && !strncmp(p, "#define", 7) && (p[7] == ' ' || p[7] == '\t')) {
            p += 7;
            while (p < stop && (*p == ' ' || *p == '\t')) ++p;
            const char *id = p;
            while (p < stop && (isalnum((unsigned char)*p) || *p == '_')) ++p;
            long long expands = stop - p;
            for (const char *q = p; q < stop;) {
                if (!(isalpha((unsigned char)*q) || *q == '_')) {
                    ++q;
                    continue;
                }
                const char *t = q;
                while (q < stop && (isalnum((unsigned char)*q) || *q == '_')) ++q;
                for (int k = 0; k < count; ++k)
                    if (m[k].len == (size_t)(q - t) && !strncmp(m[k].name, t, m[k].len)) {
                        expands += m[k].expands;
                        break;
                    }
                if (expands > SHADER_MACRO_TEXT_MAX)
                    return glevo_fail(GLEVO_ERR_INVALID, "%s:%d: #define %.*s expands to more "
                                      "than %d bytes of text (macros nested in macros): a "
                                      "driver's preprocessor would exhaust memory on it", name,
                                      line_no, (int)(p - id) > 64 ? 64 : (int)(p - id), id,
                                      SHADER_MACRO_TEXT_MAX);
            }
            if (count < SHADER_MACROS_MAX && p > id)
                m[count].name = id, m[count].len = (size_t)(p - id), m[count++].expands = expands;
        }
        line = end ? end + 1 : stop;
    }
    return GLEVO_OK;
}

/* A user's file (not the library's), as the driver would misreport it: an unterminated
 * comment (Mesa places it past the end of the composed text), and, where the file is
 * included into a pass, a main() of its own (blamed on the pass's main). */
static glevo_status lint_user_file(const char *name, const char *body, bool included)
{
    int line = 1, col = 1, open_line = 0, open_col = 0;
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT } state = CODE;
    for (const char *p = body; *p; ++p, ++col) {
        if (*p == '\n') {
            line++, col = 0;
            if (state == LINE_COMMENT) state = CODE;
            continue;
        }
        if (state == BLOCK_COMMENT) {
            if (p[0] == '*' && p[1] == '/') state = CODE, ++p, ++col;
            continue;
        }
        if (state == LINE_COMMENT) continue;
        if (p[0] == '/' && p[1] == '/') {
            state = LINE_COMMENT;
        } else if (p[0] == '/' && p[1] == '*') {
            state = BLOCK_COMMENT, open_line = line, open_col = col, ++p, ++col;
        } else if (included && !strncmp(p, "main", 4) &&
                   (p == body || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
                   !(isalnum((unsigned char)p[4]) || p[4] == '_')) {
            const char *q = p + 4;
            while (*q == ' ' || *q == '\t') ++q;
            if (*q == '(')
                return glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: defines main(): the pass it "
                                  "goes into has its own (define only the functions it calls)",
                                  name, line, col);
        }
    }
    if (state == BLOCK_COMMENT)
        return glevo_fail(GLEVO_ERR_INVALID, "%s:%d:%d: unterminated comment: this /* has no "
                          "*/", name, open_line, open_col);
    return macro_bound(name, body);
}

/* Appends file `name` (its text read here, or given as `loaded`) with its includes expanded. */
static glevo_status expand(shader_text *out, const char *name, const char *loaded,
                           const char *const *aliases, int depth, int parent, int parent_line)
{
    if (depth > 16) return glevo_fail(GLEVO_ERR_INVALID, "shader '%s': #include nested too "
                                      "deeply (a cycle?)", name);
    int id = file_id(out, name, parent, parent_line);
    if (id < 0) return GLEVO_OK; /* include once */
    if (id == SHADER_MAX_FILES)
        return glevo_fail(GLEVO_ERR_INVALID, "shader '%s': too many included files", name);
    char *text = loaded ? NULL : load(name);
    if (!loaded && !text) return GLEVO_ERR_INVALID;
    const char *body = loaded ? loaded : text;
    if (gpu_shader_source_is_not_embedded(name)) {
        glevo_status lint = lint_user_file(name, body, depth > 0);
        if (lint) {
            free(text);
            return lint;
        }
    }
    append_line_directive(out, 1, id);
    int line_no = 0;
    glevo_status st = GLEVO_OK;
    for (const char *line = body; *line && st == GLEVO_OK;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (++line_no >= SHADER_LINE_STRIDE) {
            st = glevo_fail(GLEVO_ERR_INVALID, "shader '%s' has more than %d lines", name,
                            SHADER_LINE_STRIDE - 1);
            break;
        }
        const char *p = line;
        while (*p == ' ' || *p == '\t') ++p;
        if (!strncmp(p, "#include", 8)) {
            p += 8;
            while (*p == ' ' || *p == '\t') ++p;
            char open = *p, close = open == '<' ? '>' : '"';
            /* Search for the closing quote within this line only: the line may be the file's
             * last, with no newline after it. */
            const char *stop = (open == '<' || open == '"') && p < line + len
                                   ? memchr(p + 1, close, (size_t)(line + len - (p + 1))) : NULL;
            if (!stop) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: malformed #include", name, line_no);
                break;
            }
            char target[256], relative[4096];
            if (stop - p - 1 >= (long)sizeof target) {
                st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: #include name is longer than %d characters",
                                name, line_no, (int)sizeof target - 1);
                break;
            }
            snprintf(target, sizeof target, "%.*s", (int)(stop - p - 1), p + 1);
            const char *file = target;
            /* A user's file includes its neighbours as C does: relative to its own folder. */
            const char *slash = strrchr(name, '/');
            if (open == '"' && target[0] != '/' && slash && is_disk_path(name) &&
                gpu_shader_source_is_not_embedded(target)) {
                if (snprintf(relative, sizeof relative, "%.*s/%s", (int)(slash - name), name,
                             target) >= (int)sizeof relative) {
                    st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: #include path is too long", name, line_no);
                    break;
                }
                file = relative;
            }
            if (open == '<') {
                file = resolve_alias(target, aliases);
                if (!file) {
                    st = glevo_fail(GLEVO_ERR_INVALID, "%s:%d: #include <%s> names no alias "
                                    "given to this program", name, line_no, target);
                    break;
                }
            }
            st = expand(out, file, NULL, aliases, depth + 1, id, line_no);
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
    return shader_compose_text(out, preamble, main_file, NULL, defines, aliases);
}

glevo_status shader_compose_text(shader_text *out, const char *preamble, const char *main_file,
                                 const char *main_text, const char *defines,
                                 const char *const *aliases)
{
    memset(out, 0, sizeof *out);
    /* String 0 is the preamble (version and defines); files are numbered from 1. */
    snprintf(out->files[0], sizeof out->files[0], "<defines>");
    out->file_count = 1;
    append(out, preamble, strlen(preamble));
    if (defines) append(out, defines, strlen(defines));
    out->parent[0] = -1;
    glevo_status st = expand(out, main_file, main_text, aliases, 0, -1, -1);
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
