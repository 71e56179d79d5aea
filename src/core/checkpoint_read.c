/* The checkpoint container, reading side: checks magic, header, size, checksum, version and
 * structure before any family sees a value, then typed, range-checked access to the entries. */
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

#include "core/checkpoint_bytes.h"
#include "core/output_file.h"

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
