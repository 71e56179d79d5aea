/* The checkpoint container (docs/checkpoint.md), writing side: named, typed entries written
 * little-endian behind a header with its own CRC-32 and closed with zlib's CRC-32 of the whole
 * file. Reading is checkpoint_read.c, resume comparisons checkpoint_resume.c. */
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

/* ---- writer ---- */
typedef struct entry {
    ckpt_type type;
    char name[MAX_NAME + 1];
    const void *data;   /* payload (host order for arrays); NULL for i64 / f64, whose
                         * payload is scalar: the entries array moves as it grows */
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
    e->bytes = 8;
}

void ckpt_put_f64(ckpt_writer *w, const char *name, double v)
{
    entry *e = add(w, name, CKPT_F64);
    if (!e) return;
    uint64_t bits;
    memcpy(&bits, &v, 8);
    le_put(e->scalar, bits, 8);
    e->bytes = 8;
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
    bool scalar = e->type == CKPT_I64 || e->type == CKPT_F64;
    emit(s, scalar ? e->scalar : e->data, e->bytes);
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
