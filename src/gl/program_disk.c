/* Linked programs kept on disk between runs (glGetProgramBinary / glProgramBinary): a first
 * run compiles, every later run on the same driver loads. A GP process served by NVIDIA's own
 * shader disk cache took 0.07-0.2 s longer than one loading binaries (H200, 2026-11-29,
 * docs/performance.md, first run). Entries live under $GLEVO_PROGRAM_CACHE, else $XDG_CACHE_HOME/glevo/programs,
 * else ~/.cache/glevo/programs, one file a composed text and driver:
 *   "GLVPBIN1", then four uint32 (the driver's strings' bytes, the key's bytes, the binary's
 *   format, the binary's bytes) and the CRC-32 of all that follows, then the driver's strings
 *   (vendor, renderer, version), the key (the pass name and the whole composed source), the
 *   binary.
 * An entry is used only when its CRC, driver strings and key match and the driver accepts the
 * binary; anything else (a truncated file, another driver's, a collision of file names) is
 * ignored and replaced by the next compile. Writes are atomic (core/output_file); a folder
 * that cannot be written costs one warning a process, never a run. The cache is off where the
 * user turned the driver's off (__GL_SHADER_DISK_CACHE=0, MESA_SHADER_CACHE_DISABLE=true: a
 * cold start measured so stays cold), with GLEVO_PROGRAM_CACHE=0, and where the driver offers
 * no binary format. It holds at most GLEVO_PROGRAM_CACHE_MB (default 256) MiB: past that the
 * entries least recently used go first. */
#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>
#include <zlib.h>

#include "gl/context_internal.h"
#include "core/output_file.h"

#define MAGIC "GLVPBIN1"
#define HEADER_WORDS 5
#define HEADER_BYTES (8 + 4 * HEADER_WORDS)
#define ENTRY_MAX_BYTES (256u << 20) /* larger files are not ours */
#define DEFAULT_LIMIT_MB 256

static atomic_flag warned = ATOMIC_FLAG_INIT;

/* A store that failed: said once a process, and the error it left forgotten (the run that
 * asked for the program goes on). */
static void warn_once(const char *dir, const char *why)
{
    if (!atomic_flag_test_and_set(&warned))
        gpu_log(GLEVO_LOG_WARNING, "program cache %s: %s; programs are compiled each run "
                "(GLEVO_PROGRAM_CACHE=0 turns the cache off)", dir, why);
    glevo_clear_error();
}

static bool env_is(const char *name, const char *a, const char *b)
{
    const char *v = getenv(name);
    return v && (!strcmp(v, a) || !strcmp(v, b));
}

/* The folder the cache uses, from the environment, into dir; false with GLEVO_PROGRAM_CACHE=0
 * or nowhere to put it. */
static bool folder_of(char *dir, size_t n)
{
    if (env_is("GLEVO_PROGRAM_CACHE", "0", "off")) return false;
    const char *own = getenv("GLEVO_PROGRAM_CACHE"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int k = own && *own   ? snprintf(dir, n, "%s", own)
            : xdg && *xdg ? snprintf(dir, n, "%s/glevo/programs", xdg)
            : home && *home ? snprintf(dir, n, "%s/.cache/glevo/programs", home)
                            : -1;
    return k > 0 && (size_t)k < n;
}

/* The cache's folder into dir; false where the cache is off (see the top of this file). */
static bool cache_dir(char *dir, size_t n)
{
    if (env_is("__GL_SHADER_DISK_CACHE", "0", "false") ||
        env_is("MESA_SHADER_CACHE_DISABLE", "true", "1") || !folder_of(dir, n))
        return false;
    GLint formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    return formats > 0;
}

bool program_disk_enabled(void)
{
    char dir[4096];
    return cache_dir(dir, sizeof dir);
}

bool glevo_program_cache(const glevo_context *ctx, char *folder, size_t size)
{
    char dir[4096] = "";
    bool on = (ctx || gl_current) && cache_dir(dir, sizeof dir);
    if (!on && !folder_of(dir, sizeof dir)) dir[0] = '\0';
    if (folder && size > 0) snprintf(folder, size, "%s", dir);
    return on;
}

/* The entry's path: the pass name (letters, digits, '.', '-' and '_' kept) and two CRC-32s of
 * the key and the driver's strings (a host with two kinds of GPU keeps an entry for each rather
 * than replacing one with the other), so that a listing says what is cached; the key and the
 * strings themselves are checked on load. */
static bool entry_path(const char *dir, const char *key, const char *driver, char *path, size_t n)
{
    char name[64];
    size_t k = 0;
    for (const char *s = key; *s && *s != '\n' && k + 1 < sizeof name; ++s)
        name[k++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                            (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_'
                        ? *s
                        : '_';
    name[k] = '\0';
    uInt len = (uInt)strlen(key), dlen = (uInt)strlen(driver);
    unsigned long a = crc32(crc32(0L, (const Bytef *)key, len), (const Bytef *)driver, dlen);
    unsigned long b = crc32(crc32(0x9e3779b9UL, (const Bytef *)key, len), (const Bytef *)driver, dlen);
    int w = snprintf(path, n, "%s/%s-%08lx%08lx.bin", dir, name, a, b);
    return w > 0 && (size_t)w < n;
}

/* The driver's strings an entry must match. */
static void driver_strings(char *s, size_t n)
{
    const char *v = (const char *)glGetString(GL_VENDOR), *r = (const char *)glGetString(GL_RENDERER),
               *ver = (const char *)glGetString(GL_VERSION);
    snprintf(s, n, "%s\n%s\n%s", v ? v : "", r ? r : "", ver ? ver : "");
}

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t get32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The file's bytes (NULL when it is missing, unreadable or too large to be ours). */
static unsigned char *read_entry(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat sb;
    unsigned char *buf = NULL;
    if (fstat(fileno(f), &sb) == 0 && sb.st_size >= HEADER_BYTES && sb.st_size <= ENTRY_MAX_BYTES)
        buf = malloc((size_t)sb.st_size);
    if (buf && fread(buf, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = buf ? (size_t)sb.st_size : 0;
    return buf;
}

GLuint program_disk_load(const char *key)
{
    char dir[4096], path[4200], driver[1024];
    if (!cache_dir(dir, sizeof dir)) return 0;
    driver_strings(driver, sizeof driver);
    if (!entry_path(dir, key, driver, path, sizeof path)) return 0;
    size_t size = 0;
    unsigned char *buf = read_entry(path, &size);
    if (!buf) return 0;
    size_t dlen = strlen(driver), klen = strlen(key);
    uint32_t w[HEADER_WORDS];
    for (int i = 0; i < HEADER_WORDS; ++i) w[i] = get32(buf + 8 + 4 * i);
    const unsigned char *body = buf + HEADER_BYTES;
    size_t body_len = size - HEADER_BYTES;
    GLuint prog = 0;
    /* Every check before the driver sees a byte: the sizes, the CRC, the driver, the key. */
    if (!memcmp(buf, MAGIC, 8) && w[0] == dlen && w[1] == klen &&
        (size_t)w[0] + w[1] + w[3] == body_len &&
        crc32(0L, body, (uInt)body_len) == w[4] && !memcmp(body, driver, dlen) &&
        !memcmp(body + dlen, key, klen)) {
        prog = glCreateProgram();
        glProgramBinary(prog, (GLenum)w[2], body + dlen + klen, (GLsizei)w[3]);
        GLint ok = GL_FALSE;
        glGetProgramiv(prog, GL_LINK_STATUS, &ok);
        if (!ok) { /* the driver's own refusal (an update it did not announce): recompile */
            glDeleteProgram(prog);
            prog = 0;
        }
        while (glGetError() != GL_NO_ERROR) {
        }
    }
    free(buf);
    if (prog) utime(path, NULL); /* used now: the last to be evicted */
    return prog;
}

typedef struct cached_file {
    char name[256];
    time_t used;
    long long bytes;
} cached_file;

static int by_use(const void *a, const void *b)
{
    time_t x = ((const cached_file *)a)->used, y = ((const cached_file *)b)->used;
    return (x > y) - (x < y);
}

/* Removes the least recently used entries of dir until they hold at most the limit. */
static void evict(const char *dir)
{
    const char *mb = getenv("GLEVO_PROGRAM_CACHE_MB");
    long long limit = (mb && atoll(mb) > 0 ? atoll(mb) : DEFAULT_LIMIT_MB) << 20;
    DIR *d = opendir(dir);
    if (!d) return;
    cached_file *files = NULL;
    int n = 0, cap = 0;
    long long total = 0;
    char path[4400];
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        struct stat sb;
        if (len < 5 || len >= sizeof files->name || strcmp(e->d_name + len - 4, ".bin")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        if (n == cap) {
            cached_file *more = realloc(files, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *files);
            if (!more) break;
            files = more;
        }
        snprintf(files[n].name, sizeof files[n].name, "%s", e->d_name);
        files[n].used = sb.st_mtime;
        files[n].bytes = sb.st_size;
        total += sb.st_size;
        n++;
    }
    closedir(d);
    if (total > limit) qsort(files, (size_t)n, sizeof *files, by_use);
    for (int i = 0; i < n && total > limit; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        if (unlink(path) == 0) total -= files[i].bytes;
    }
    free(files);
}

/* mkdir -p of dir (0700, as XDG asks of a cache); false with errno set when it fails. */
static bool make_dirs(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; ++s) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST) return false;
            if (end) break;
            *s = '/';
        }
    }
    struct stat sb;
    return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
}

void program_disk_store(GLuint prog, const char *key)
{
    char dir[4096], path[4200], driver[1024];
    if (!cache_dir(dir, sizeof dir)) return;
    driver_strings(driver, sizeof driver);
    if (!entry_path(dir, key, driver, path, sizeof path)) return;
    GLint len = 0;
    glGetProgramiv(prog, GL_PROGRAM_BINARY_LENGTH, &len);
    size_t dlen = strlen(driver), klen = strlen(key);
    size_t body_len = dlen + klen + (size_t)(len > 0 ? len : 0);
    unsigned char *buf = len > 0 ? malloc(HEADER_BYTES + body_len) : NULL;
    GLsizei got = 0;
    GLenum format = 0;
    if (buf) {
        unsigned char *body = buf + HEADER_BYTES;
        memcpy(body, driver, dlen);
        memcpy(body + dlen, key, klen);
        glGetProgramBinary(prog, len, &got, &format, body + dlen + klen);
        body_len = dlen + klen + (size_t)got;
        memcpy(buf, MAGIC, 8);
        uint32_t w[HEADER_WORDS] = {(uint32_t)dlen, (uint32_t)klen, (uint32_t)format,
                                    (uint32_t)got, (uint32_t)crc32(0L, body, (uInt)body_len)};
        for (int i = 0; i < HEADER_WORDS; ++i) put32(buf + 8 + 4 * i, w[i]);
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    if (!buf || got <= 0) {
        free(buf);
        return; /* the driver gave no binary: nothing to keep */
    }
    output_file o;
    if (!make_dirs(dir)) {
        warn_once(dir, strerror(errno));
    } else if (output_file_open(&o, path) != GLEVO_OK) {
        warn_once(dir, glevo_last_error());
    } else {
        fwrite(buf, 1, HEADER_BYTES + body_len, o.f);
        if (output_file_commit(&o) != GLEVO_OK) warn_once(dir, glevo_last_error());
        else evict(dir);
    }
    free(buf);
}
