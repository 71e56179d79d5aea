/* The checkpoint container (docs/checkpoint.md): a versioned, code-free, little-endian file of
 * named, typed entries ("param.dim", "state.generation", "data.genes") closed by a CRC-32, and
 * the comparisons a resume makes against it. The families write and read their own entries
 * (src/<family>/checkpoint.c); this module knows nothing of genetics. Internal. */
#ifndef GLEVO_CORE_CHECKPOINT_H
#define GLEVO_CORE_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glevo/checkpoint.h"
#include "glevo/status.h"

#define CKPT_MAGIC "GLEVOCKP"
#define CKPT_FORMAT_VERSION 1u
#define CKPT_HEADER_BYTES 24u /* magic, version, file size, the header's CRC-32 */

/* Entry types; the values are part of the format. */
typedef enum ckpt_type {
    CKPT_END = 0,  /* the last entry: no payload */
    CKPT_I64 = 1,  /* one signed 64-bit integer */
    CKPT_F64 = 2,  /* one IEEE-754 double */
    CKPT_STR = 3,  /* UTF-8 text, no terminator */
    CKPT_U8 = 4,   /* arrays of ... */
    CKPT_F32 = 5,
    CKPT_F64S = 6,
    CKPT_U32 = 7,
    CKPT_I32 = 8,
    CKPT_U64 = 9,
    CKPT_TYPE_COUNT
} ckpt_type;

size_t ckpt_type_size(ckpt_type t); /* bytes per element; 1 for strings */
const char *ckpt_type_name(ckpt_type t);

/* ---- writing ---- */
typedef struct ckpt_writer ckpt_writer;
typedef struct ckpt_reader ckpt_reader;

/* A writer for `algorithm` ("cga", "de", "gp", "dsmga"); it records meta.format,
 * meta.glevo_version and meta.algorithm itself. NULL when out of memory. */
ckpt_writer *ckpt_writer_create(const char *algorithm);
void ckpt_writer_destroy(ckpt_writer *w);
/* Entries in the order they are put. Strings are copied; arrays are borrowed until
 * ckpt_writer_save returns (the population is not copied a second time). Failures (out of
 * memory) are remembered and reported by ckpt_writer_save. */
void ckpt_put_i64(ckpt_writer *w, const char *name, long long v);
void ckpt_put_f64(ckpt_writer *w, const char *name, double v);
void ckpt_put_str(ckpt_writer *w, const char *name, const char *v);
void ckpt_put_array(ckpt_writer *w, const char *name, ckpt_type t, const void *data, size_t count);
/* Writes the file atomically: the previous file at path stays valid until the new one is
 * complete on disk. GLEVO_ERR_IO naming path on failure, nothing left behind. */
glevo_status ckpt_writer_save(ckpt_writer *w, const char *path);
/* The file's bytes in memory (tests, fuzz corpus); caller frees *out. */
glevo_status ckpt_writer_bytes(ckpt_writer *w, uint8_t **out, size_t *size);

/* The entries every family writes, that glevo_checkpoint_info_read reads: meta.backend,
 * meta.renderer, state.generation, state.evaluations, front.trace_bytes, front.goal. */
void ckpt_put_run(ckpt_writer *w, const char *backend, const char *renderer, long long generation,
                  long long evaluations, const glevo_checkpoint_extra *extra);
/* The extra a checkpoint holds (zeros where it has none). */
void ckpt_get_extra(const ckpt_reader *r, glevo_checkpoint_extra *out);

/* ---- reading ---- */

/* Reads and checks a whole file: magic, size, CRC-32, format version, entries, and that
 * meta.algorithm is `algorithm` (NULL: any). Every refusal is GLEVO_ERR_INVALID with one
 * sentence naming the file and what is wrong. */
glevo_status ckpt_read_file(const char *path, const char *algorithm, ckpt_reader **out);
/* The same on bytes in memory (copied); `source` names them in messages. */
glevo_status ckpt_parse(const void *data, size_t size, const char *source, const char *algorithm,
                        ckpt_reader **out);
void ckpt_reader_destroy(ckpt_reader *r);
const char *ckpt_reader_source(const ckpt_reader *r);
int ckpt_reader_count(const ckpt_reader *r);
unsigned ckpt_reader_version(const ckpt_reader *r); /* the file's format version */
/* Entry i's name and type, and the number of elements of an array (bytes of a string). */
const char *ckpt_entry_name(const ckpt_reader *r, int i, ckpt_type *type, size_t *count);
bool ckpt_has(const ckpt_reader *r, const char *name);
/* Getters: a missing entry or one of another type is GLEVO_ERR_INVALID naming it. */
glevo_status ckpt_get_i64(const ckpt_reader *r, const char *name, long long *out);
glevo_status ckpt_get_f64(const ckpt_reader *r, const char *name, double *out);
/* *out points into the reader (valid until destroy), NUL-terminated. */
glevo_status ckpt_get_str(const ckpt_reader *r, const char *name, const char **out);
/* Copies exactly `count` elements of type t (an error names a length that differs). */
glevo_status ckpt_get_array(const ckpt_reader *r, const char *name, ckpt_type t, void *out,
                            size_t count);
/* Checks that array `name` exists with type t and exactly `count` elements, before anything
 * is allocated for it (a hand-made file must not make a loader build a huge engine first). */
glevo_status ckpt_expect_count(const ckpt_reader *r, const char *name, ckpt_type t, size_t count);
/* Integer getters that also check a range, naming the entry: a damaged-but-well-checksummed
 * or hand-made file must not drive allocations or loops. */
glevo_status ckpt_get_int(const ckpt_reader *r, const char *name, long long lo, long long hi,
                          int *out);
glevo_status ckpt_get_ll(const ckpt_reader *r, const char *name, long long lo, long long hi,
                         long long *out);

/* ---- resuming: what a caller asks for against what the file holds ---- */
/* A run-changing parameter: `asked` (already resolved; `is_set` false means "as in the file")
 * must equal the file's, else GLEVO_ERR_INVALID "FIELD ASKED differs from the checkpoint's
 * VALUE: it would change the run". field is the params field ("glevo_cga_params.dim"). */
glevo_status ckpt_same_i64(const ckpt_reader *r, const char *entry, const char *field, bool is_set,
                           long long asked);
glevo_status ckpt_same_f64(const ckpt_reader *r, const char *entry, const char *field, bool is_set,
                           double asked);
glevo_status ckpt_same_str(const ckpt_reader *r, const char *entry, const char *field, bool is_set,
                           const char *asked);

/* An enum parameter stored by its name: *out gets the file's value; `asked` follows the zero
 * rule (0: as in the file, GLEVO_ZERO: the value 0) and must equal it. */
glevo_status ckpt_same_enum(const ckpt_reader *r, const char *entry, const char *field, int asked,
                            const char *(*name_of)(int), int (*parse)(const char *), int *out);

/* An enum parameter a resume may change (the backend, DE's kernel): the file's value, or
 * `asked` when it is not 0 (GLEVO_ZERO: the value 0). */
glevo_status ckpt_take_enum(const ckpt_reader *r, const char *entry, int asked,
                            int (*parse)(const char *), int *out);

/* CRC-32 (zlib's) of bytes, for fingerprints of inputs a checkpoint does not store (GP's data,
 * DSMGA-II's spin instance). */
uint32_t ckpt_crc32(uint32_t crc, const void *data, size_t size);
/* CRC-32 of a whole file (a user GLSL problem's source); GLEVO_ERR_INVALID naming it when it
 * cannot be read. */
glevo_status ckpt_file_crc(const char *path, uint32_t *out);

#endif
