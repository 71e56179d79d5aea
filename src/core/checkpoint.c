/* The checkpoint container (docs/checkpoint.md): writing named, typed entries little-endian
 * behind a header with its own CRC-32 and closing them with zlib's CRC-32; reading checks
 * magic, header, size, checksum, version and structure before any family sees a value. */
#include "core/checkpoint.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "glevo/backend.h"

#include "core/output_file.h"

#define MAX_NAME 255
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IS_BIG_ENDIAN 1
#else
#define IS_BIG_ENDIAN 0
#endif

static const size_t type_sizes[CKPT_TYPE_COUNT] = {0, 8, 8, 1, 1, 4, 8, 4, 4, 8};
static const char *const type_names[CKPT_TYPE_COUNT] = {"end", "i64", "f64", "str", "u8[]",
                                                        "f32[]", "f64[]", "u32[]", "i32[]",
                                                        "u64[]"};

size_t ckpt_type_size(ckpt_type t) { return (unsigned)t < CKPT_TYPE_COUNT ? type_sizes[t] : 0; }
const char *ckpt_type_name(ckpt_type t)
{
    return (unsigned)t < CKPT_TYPE_COUNT ? type_names[t] : "unknown";
}

uint32_t ckpt_crc32(uint32_t crc, const void *data, size_t size)
{
    const Bytef *p = data;
    uLong c = crc;
    /* zlib takes uInt lengths: feed large arrays in slices. */
    while (size > 0) {
        uInt n = size > (1u << 30) ? (1u << 30) : (uInt)size;
        c = crc32(c, p, n);
        p += n, size -= n;
    }
    return (uint32_t)c;
}

glevo_status ckpt_file_crc(const char *path, uint32_t *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return glevo_fail(GLEVO_ERR_INVALID, "'%s' cannot be read: %s", path, strerror(errno));
    uint8_t buf[1 << 16];
    uint32_t crc = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) crc = ckpt_crc32(crc, buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) return glevo_fail(GLEVO_ERR_INVALID, "'%s' could not be read", path);
    *out = crc;
    return GLEVO_OK;
}

/* ---- little-endian scalars ---- */
static void le_put(uint8_t *out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) out[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t le_get(const uint8_t *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= (uint64_t)in[i] << (8 * i);
    return v;
}

/* ---- writer ---- */
typedef struct entry {
    ckpt_type type;
    char name[MAX_NAME + 1];
    const void *data;   /* payload (host order for arrays) */
    size_t bytes;
    uint8_t scalar[8];  /* i64 / f64 payload, already little-endian */
    char *text;         /* owned string payload */
} entry;

struct ckpt_writer {
    entry *entries;
    int count, cap;
    bool failed;
    char failure[256];
};

static entry *add(ckpt_writer *w, const char *name, ckpt_type t)
{
    if (w->failed) return NULL;
    size_t n = strlen(name);
    if (n == 0 || n > MAX_NAME) {
        w->failed = true;
        snprintf(w->failure, sizeof w->failure, "checkpoint entry name '%.64s' has %zu bytes "
                 "(1..255)", name, n);
        return NULL;
    }
    if (w->count == w->cap) {
        int cap = w->cap ? w->cap * 2 : 64;
        entry *grown = realloc(w->entries, (size_t)cap * sizeof *grown);
        if (!grown) {
            w->failed = true;
            snprintf(w->failure, sizeof w->failure, "out of memory for checkpoint entries");
            return NULL;
        }
        w->entries = grown, w->cap = cap;
    }
    entry *e = &w->entries[w->count++];
    memset(e, 0, sizeof *e);
    e->type = t;
    memcpy(e->name, name, n + 1);
    return e;
}

ckpt_writer *ckpt_writer_create(const char *algorithm)
{
    ckpt_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    ckpt_put_str(w, "meta.algorithm", algorithm);
    ckpt_put_str(w, "meta.glevo_version", glevo_version_string());
    /* For people reading the file; nothing depends on it. */
    char when[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    ckpt_put_str(w, "meta.created", when);
    return w;
}

void ckpt_writer_destroy(ckpt_writer *w)
{
    if (!w) return;
    for (int i = 0; i < w->count; ++i) free(w->entries[i].text);
    free(w->entries);
    free(w);
}

void ckpt_put_i64(ckpt_writer *w, const char *name, long long v)
{
    entry *e = add(w, name, CKPT_I64);
    if (!e) return;
    le_put(e->scalar, (uint64_t)v, 8);
    e->data = e->scalar, e->bytes = 8;
}

void ckpt_put_f64(ckpt_writer *w, const char *name, double v)
{
    entry *e = add(w, name, CKPT_F64);
    if (!e) return;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    le_put(e->scalar, bits, 8);
    e->data = e->scalar, e->bytes = 8;
}

void ckpt_put_str(ckpt_writer *w, const char *name, const char *v)
{
    entry *e = add(w, name, CKPT_STR);
    if (!e) return;
    if (!v) v = "";
    if (!(e->text = strdup(v))) {
        w->failed = true;
        snprintf(w->failure, sizeof w->failure, "out of memory for checkpoint entry %s", name);
        return;
    }
    e->data = e->text, e->bytes = strlen(v);
}

void ckpt_put_array(ckpt_writer *w, const char *name, ckpt_type t, const void *data, size_t count)
{
    entry *e = add(w, name, t);
    if (!e) return;
    e->data = data, e->bytes = count * ckpt_type_size(t);
}

/* Streams the file into f, CRC-32 on the way. Arrays go out as they lie in memory on a
 * little-endian host; a big-endian one swaps them through a bounce buffer. */
typedef struct sink {
    FILE *f;
    uLong crc;
    bool bad;
} sink;

static void emit(sink *s, const void *p, size_t n)
{
    if (!n || s->bad) return;
    s->crc = ckpt_crc32((uint32_t)s->crc, p, n);
    if (fwrite(p, 1, n, s->f) != n) s->bad = true;
}

static void emit_payload(sink *s, const entry *e)
{
#if IS_BIG_ENDIAN
    size_t es = ckpt_type_size(e->type);
    if (e->type >= CKPT_U8 && es > 1) {
        uint8_t buf[1 << 16];
        const uint8_t *p = e->data;
        for (size_t at = 0; at < e->bytes;) {
            size_t n = e->bytes - at < sizeof buf ? e->bytes - at : sizeof buf;
            for (size_t k = 0; k < n; k += es)
                for (size_t b = 0; b < es; ++b) buf[k + b] = p[at + k + es - 1 - b];
            emit(s, buf, n);
            at += n;
        }
        return;
    }
#endif
    emit(s, e->data, e->bytes);
}

static uint64_t file_size(const ckpt_writer *w)
{
    uint64_t size = CKPT_HEADER_BYTES + 10 + 4; /* header, the end entry, the CRC */
    for (int i = 0; i < w->count; ++i) size += 10 + strlen(w->entries[i].name) + w->entries[i].bytes;
    return size;
}

static glevo_status write_to(ckpt_writer *w, FILE *f)
{
    sink s = {.f = f, .crc = crc32(0L, Z_NULL, 0)};
    uint8_t head[CKPT_HEADER_BYTES];
    memcpy(head, CKPT_MAGIC, 8);
    le_put(head + 8, CKPT_FORMAT_VERSION, 4);
    le_put(head + 12, file_size(w), 8);
    le_put(head + 20, ckpt_crc32(0, head, 20), 4);
    emit(&s, head, sizeof head);
    for (int i = 0; i < w->count; ++i) {
        const entry *e = &w->entries[i];
        uint8_t lead[2 + MAX_NAME + 8];
        size_t n = strlen(e->name);
        lead[0] = (uint8_t)e->type;
        lead[1] = (uint8_t)n;
        memcpy(lead + 2, e->name, n);
        le_put(lead + 2 + n, e->bytes, 8);
        emit(&s, lead, 2 + n + 8);
        emit_payload(&s, e);
    }
    uint8_t end[10] = {CKPT_END, 0};
    emit(&s, end, sizeof end);
    uint8_t crc[4];
    le_put(crc, s.crc, 4);
    if (!s.bad && fwrite(crc, 1, 4, f) != 4) s.bad = true;
    return s.bad ? GLEVO_ERR_IO : GLEVO_OK;
}

/* Through core/output_file: temporary file beside the target, fsync, rename, fsync of the
 * folder, so the file at path is always a whole checkpoint, the previous one until this one
 * is complete; the temporary file is removed on failure and by the CLI's signal handlers. */
glevo_status ckpt_writer_save(ckpt_writer *w, const char *path)
{
    if (w->failed) return glevo_fail(GLEVO_ERR_NOMEM, "%s", w->failure);
    output_file out;
    glevo_status st = output_file_open(&out, path);
    if (st) return st;
    if (write_to(w, out.f)) {
        int err = errno;
        output_file_abort(&out);
        return glevo_fail(GLEVO_ERR_IO, "checkpoint '%s' could not be written: %s", path,
                          strerror(err));
    }
    return output_file_commit(&out);
}

glevo_status ckpt_writer_bytes(ckpt_writer *w, uint8_t **out, size_t *size)
{
    *out = NULL, *size = 0;
    if (w->failed) return glevo_fail(GLEVO_ERR_NOMEM, "%s", w->failure);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
    glevo_status st = write_to(w, f);
    if (fclose(f) != 0 && !st) st = GLEVO_ERR_IO;
    if (st) {
        free(buf);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a checkpoint");
    }
    *out = (uint8_t *)buf, *size = n;
    return GLEVO_OK;
}

/* ---- reader ---- */
typedef struct rentry {
    ckpt_type type;
    const char *name;   /* into names */
    const uint8_t *payload;
    size_t bytes;
    const char *text;   /* strings: a NUL-terminated copy in names */
} rentry;

struct ckpt_reader {
    uint8_t *bytes;
    size_t size;
    rentry *entries;
    int count;
    char *names;        /* NUL-terminated names and strings, back to back */
    unsigned version;
    char source[512];
};

void ckpt_reader_destroy(ckpt_reader *r)
{
    if (!r) return;
    free(r->bytes), free(r->entries), free(r->names);
    free(r);
}

const char *ckpt_reader_source(const ckpt_reader *r) { return r->source; }
int ckpt_reader_count(const ckpt_reader *r) { return r->count; }
unsigned ckpt_reader_version(const ckpt_reader *r) { return r->version; }

const char *ckpt_entry_name(const ckpt_reader *r, int i, ckpt_type *type, size_t *count)
{
    const rentry *e = &r->entries[i];
    if (type) *type = e->type;
    if (count) *count = e->bytes / (ckpt_type_size(e->type) ? ckpt_type_size(e->type) : 1);
    return e->name;
}

static bool name_ok(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        uint8_t c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.'))
            return false;
    }
    return n > 0;
}

static const rentry *find(const ckpt_reader *r, const char *name)
{
    for (int i = 0; i < r->count; ++i)
        if (!strcmp(r->entries[i].name, name)) return &r->entries[i];
    return NULL;
}

/* Walks the entries of a file whose size and checksum are already right: everything here
 * guards against files made by hand (or by a fuzzer), never against damage. */
static glevo_status index_entries(ckpt_reader *r)
{
    const uint8_t *p = r->bytes + CKPT_HEADER_BYTES, *end = r->bytes + r->size - 4;
    int cap = 0;
    size_t names_used = 0;
    /* Names and strings are copied NUL-terminated: each entry adds at most its own size
     * (a name and a payload plus two NULs, against ten bytes of type, length and size). */
    if (!(r->names = malloc(r->size + 1))) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    for (;;) {
        if (end - p < 2)
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: it ends inside an "
                              "entry at byte %zu", r->source, (size_t)(p - r->bytes));
        ckpt_type t = (ckpt_type)p[0];
        size_t n = p[1];
        size_t at = (size_t)(p - r->bytes);
        if ((unsigned)t >= CKPT_TYPE_COUNT)
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: entry type %u at "
                              "byte %zu is unknown", r->source, (unsigned)t, at);
        if ((size_t)(end - p) < 2 + n + 8)
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: it ends inside an "
                              "entry at byte %zu", r->source, at);
        uint64_t bytes = le_get(p + 2 + n, 8);
        if (t == CKPT_END) {
            if (n != 0 || bytes != 0 || p + 10 != end)
                return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: its end entry "
                                  "at byte %zu is not the last thing before the checksum",
                                  r->source, at);
            return GLEVO_OK;
        }
        if (!name_ok(p + 2, n))
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: the entry name at "
                              "byte %zu is not [A-Za-z0-9_.]+", r->source, at);
        const uint8_t *payload = p + 2 + n + 8;
        if (bytes > (uint64_t)(end - payload))
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: entry '%.*s' runs "
                              "past the end of the file", r->source, (int)n, (const char *)p + 2);
        size_t es = ckpt_type_size(t);
        if ((t <= CKPT_F64 && bytes != 8) || bytes % es)
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: entry '%.*s' of "
                              "type %s has %llu bytes", r->source, (int)n, (const char *)p + 2,
                              ckpt_type_name(t), (unsigned long long)bytes);
        if (r->count == cap) {
            cap = cap ? cap * 2 : 64;
            rentry *grown = realloc(r->entries, (size_t)cap * sizeof *grown);
            if (!grown) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
            r->entries = grown;
        }
        char *name = r->names + names_used;
        memcpy(name, p + 2, n);
        name[n] = '\0';
        names_used += n + 1;
        if (find(r, name))
            return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: entry '%s' appears "
                              "twice", r->source, name);
        rentry *e = &r->entries[r->count++];
        *e = (rentry){t, name, payload, (size_t)bytes, NULL};
        if (t == CKPT_STR) {
            if (memchr(payload, 0, (size_t)bytes))
                return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: text entry "
                                  "'%s' holds a NUL byte", r->source, name);
            char *text = r->names + names_used;
            memcpy(text, payload, (size_t)bytes);
            text[bytes] = '\0';
            names_used += (size_t)bytes + 1;
            e->text = text;
        }
        p = payload + bytes;
    }
}

glevo_status ckpt_parse(const void *data, size_t size, const char *source, const char *algorithm,
                        ckpt_reader **out)
{
    *out = NULL;
    ckpt_reader *r = calloc(1, sizeof *r);
    if (!r) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory");
    snprintf(r->source, sizeof r->source, "%s", source);
    r->bytes = malloc(size ? size : 1);
    if (!r->bytes) {
        ckpt_reader_destroy(r);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for checkpoint '%s' (%zu bytes)",
                          source, size);
    }
    if (size) memcpy(r->bytes, data, size);
    r->size = size;
    const uint8_t *b = r->bytes;
    glevo_status st = GLEVO_OK;
    size_t m = size < 8 ? size : 8;
    /* The order of these checks is part of the format (docs/checkpoint.md): every version
     * keeps the 24-byte header (magic, version, size, the header's CRC-32) and the CRC-32 at
     * the end, so truncation and damage are told apart from a newer format before the version
     * is trusted. */
    if (memcmp(b, CKPT_MAGIC, m) != 0 || size == 0) {
        st = glevo_fail(GLEVO_ERR_INVALID, "'%s' is not a glevo checkpoint (it does not start "
                        "with %s)", source, CKPT_MAGIC);
    } else if (size < CKPT_HEADER_BYTES) {
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is truncated: %zu bytes, not even a "
                        "header", source, size);
    } else {
        uint32_t version = (uint32_t)le_get(b + 8, 4);
        uint64_t declared = le_get(b + 12, 8);
        uint32_t head_crc = (uint32_t)le_get(b + 20, 4);
        if (head_crc != ckpt_crc32(0, b, 20))
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is damaged: its header's CRC-32 "
                            "does not match", source);
        else if (declared > size)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is truncated: %zu of %llu bytes",
                            source, size, (unsigned long long)declared);
        else if (declared < size || declared < CKPT_HEADER_BYTES + 4)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is damaged: %zu bytes where its "
                            "header says %llu", source, size, (unsigned long long)declared);
        else if ((uint32_t)le_get(b + size - 4, 4) != ckpt_crc32(0, b, size - 4))
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is damaged: its CRC-32 does not "
                            "match its contents", source);
        else if (version > CKPT_FORMAT_VERSION)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' has format version %u, newer than "
                            "the %u this glevo %s reads: resume it with a newer glevo", source,
                            version, CKPT_FORMAT_VERSION, glevo_version_string());
        else if (version == 0)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: format version 0",
                            source);
        else
            r->version = version, st = index_entries(r);
    }
    if (!st && algorithm) {
        const char *a = NULL;
        if (ckpt_get_str(r, "meta.algorithm", &a) == GLEVO_OK && strcmp(a, algorithm) != 0)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is a checkpoint of %s, not of %s",
                            source, a, algorithm);
        else if (!a)
            st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is malformed: it names no "
                            "algorithm (meta.algorithm)", source);
    }
    if (st) {
        ckpt_reader_destroy(r);
        return st;
    }
    *out = r;
    return GLEVO_OK;
}

glevo_status ckpt_read_file(const char *path, const char *algorithm, ckpt_reader **out)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' cannot be read: %s", path,
                          strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' is not a regular file", path);
    }
    size_t size = (size_t)sb.st_size;
    uint8_t *data = malloc(size ? size : 1);
    if (!data) {
        fclose(f);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for checkpoint '%s' (%zu bytes)", path,
                          size);
    }
    size_t got = fread(data, 1, size, f);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        return glevo_fail(GLEVO_ERR_IO, "checkpoint '%s' could not be read", path);
    }
    glevo_status st = ckpt_parse(data, got, path, algorithm, out);
    free(data);
    return st;
}

bool ckpt_has(const ckpt_reader *r, const char *name) { return find(r, name) != NULL; }

static glevo_status typed(const ckpt_reader *r, const char *name, ckpt_type t, const rentry **out)
{
    const rentry *e = find(r, name);
    if (!e)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s' has no entry %s", r->source, name);
    if (e->type != t)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': entry %s is %s, not %s", r->source,
                          name, ckpt_type_name(e->type), ckpt_type_name(t));
    *out = e;
    return GLEVO_OK;
}

glevo_status ckpt_get_i64(const ckpt_reader *r, const char *name, long long *out)
{
    const rentry *e;
    glevo_status st = typed(r, name, CKPT_I64, &e);
    if (!st) *out = (long long)le_get(e->payload, 8);
    return st;
}

glevo_status ckpt_get_f64(const ckpt_reader *r, const char *name, double *out)
{
    const rentry *e;
    glevo_status st = typed(r, name, CKPT_F64, &e);
    if (!st) {
        uint64_t bits = le_get(e->payload, 8);
        memcpy(out, &bits, 8);
    }
    return st;
}

glevo_status ckpt_get_str(const ckpt_reader *r, const char *name, const char **out)
{
    const rentry *e;
    glevo_status st = typed(r, name, CKPT_STR, &e);
    if (st) return st;
    *out = e->text;
    return GLEVO_OK;
}

glevo_status ckpt_get_array(const ckpt_reader *r, const char *name, ckpt_type t, void *out,
                            size_t count)
{
    const rentry *e;
    glevo_status st = typed(r, name, t, &e);
    if (st) return st;
    size_t es = ckpt_type_size(t);
    if (e->bytes / es != count)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': entry %s holds %zu values where "
                          "%zu are needed", r->source, name, e->bytes / es, count);
#if IS_BIG_ENDIAN
    uint8_t *o = out;
    for (size_t k = 0; k < e->bytes; k += es)
        for (size_t b = 0; b < es; ++b) o[k + b] = e->payload[k + es - 1 - b];
#else
    if (e->bytes) memcpy(out, e->payload, e->bytes);
#endif
    return GLEVO_OK;
}

glevo_status ckpt_expect_count(const ckpt_reader *r, const char *name, ckpt_type t, size_t count)
{
    const rentry *e;
    glevo_status st = typed(r, name, t, &e);
    if (!st && e->bytes / ckpt_type_size(t) != count)
        st = glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': entry %s holds %zu values where its "
                        "parameters need %zu", r->source, name, e->bytes / ckpt_type_size(t), count);
    return st;
}

glevo_status ckpt_get_ll(const ckpt_reader *r, const char *name, long long lo, long long hi,
                         long long *out)
{
    glevo_status st = ckpt_get_i64(r, name, out);
    if (!st && (*out < lo || *out > hi))
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': entry %s = %lld is outside "
                          "%lld..%lld", r->source, name, *out, lo, hi);
    return st;
}

glevo_status ckpt_get_int(const ckpt_reader *r, const char *name, long long lo, long long hi,
                          int *out)
{
    long long v = 0;
    glevo_status st = ckpt_get_ll(r, name, lo, hi, &v);
    if (!st) *out = (int)v;
    return st;
}

/* ---- resume comparisons ---- */
glevo_status ckpt_same_i64(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, long long asked)
{
    long long have;
    glevo_status st = ckpt_get_i64(r, entry_name, &have);
    if (st || !is_set || asked == have) return st;
    return glevo_fail(GLEVO_ERR_INVALID, "%s %lld differs from the checkpoint's %lld: it would "
                      "change the run", field, asked, have);
}

/* The shortest text that reads back as v (0.1, not 0.10000000000000001). */
static void shortest(double v, char *out, size_t size)
{
    for (int digits = 6; digits <= 17; ++digits) {
        snprintf(out, size, "%.*g", digits, v);
        if (strtod(out, NULL) == v) return;
    }
}

glevo_status ckpt_same_f64(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, double asked)
{
    double have;
    glevo_status st = ckpt_get_f64(r, entry_name, &have);
    if (st || !is_set || asked == have || (isnan(asked) && isnan(have))) return st;
    char a[32], h[32];
    shortest(asked, a, sizeof a);
    shortest(have, h, sizeof h);
    return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would change "
                      "the run", field, a, h);
}

glevo_status ckpt_same_enum(const ckpt_reader *r, const char *entry, const char *field, int asked,
                            const char *(*name_of)(int), int (*parse)(const char *), int *out)
{
    const char *have;
    glevo_status st = ckpt_get_str(r, entry, &have);
    if (st) return st;
    int v = parse(have);
    if (v < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': %s '%s' is unknown", r->source,
                          entry, have);
    int want = asked == GLEVO_ZERO ? 0 : asked;
    if (asked != 0 && want != v)
        return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would "
                          "change the run", field, name_of(want), have);
    *out = v;
    return GLEVO_OK;
}

glevo_status ckpt_take_enum(const ckpt_reader *r, const char *entry, int asked,
                            int (*parse)(const char *), int *out)
{
    const char *have;
    glevo_status st = ckpt_get_str(r, entry, &have);
    if (st) return st;
    int v = parse(have);
    if (v < 0)
        return glevo_fail(GLEVO_ERR_INVALID, "checkpoint '%s': %s '%s' is unknown", r->source,
                          entry, have);
    *out = asked == 0 ? v : asked == GLEVO_ZERO ? 0 : asked;
    return GLEVO_OK;
}

glevo_status ckpt_same_str(const ckpt_reader *r, const char *entry_name, const char *field,
                           bool is_set, const char *asked)
{
    const char *have;
    glevo_status st = ckpt_get_str(r, entry_name, &have);
    if (st || !is_set || !strcmp(asked, have)) return st;
    return glevo_fail(GLEVO_ERR_INVALID, "%s %s differs from the checkpoint's %s: it would change "
                      "the run", field, asked, have);
}
