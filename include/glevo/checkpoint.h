/* Checkpoints (docs/checkpoint.md): every family saves its whole state into one versioned,
 * code-free binary file (glevo_<family>_save) and builds an engine back from it
 * (glevo_<family>_load) that ends bit for bit where the uninterrupted run would have: the
 * random streams are counter-based, so the seed and the counters are all the randomness a
 * run carries. What every family shares is here: what a front end keeps in a checkpoint
 * beside the engine, and a look at a file without loading it. */
#ifndef GLEVO_CHECKPOINT_H
#define GLEVO_CHECKPOINT_H

#include "glevo/export.h"

#include <stddef.h>

#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A front end's own position, stored with the engine's state and given back on resume. */
typedef struct glevo_checkpoint_extra {
    long long trace_bytes; /* bytes of the trace file this state covers (0: no trace) */
    long long goal;        /* the front end's stopping point, e.g. the cGA's --generations */
} glevo_checkpoint_extra;

/* What a checkpoint file says about itself (all checks of a load, none of its work). */
typedef struct glevo_checkpoint_info {
    char algorithm[16];      /* "cga", "de", "gp", "dsmga" */
    unsigned format_version;
    char glevo_version[32];  /* the glevo that wrote it */
    char created[32];        /* UTC, ISO 8601 */
    char backend[16];        /* the backend it ran on */
    char renderer[256];      /* the GL renderer it ran on, "cpu" for the CPU backend */
    long long generation;    /* generations done */
    long long evaluations;
    glevo_checkpoint_extra extra;
} glevo_checkpoint_info;

/* Reads and checks path (magic, size, checksums, format version, structure). Refusals are
 * GLEVO_ERR_INVALID with one sentence naming the file: truncated, damaged, not a checkpoint,
 * written by a newer format. */
GLEVO_API glevo_status glevo_checkpoint_info_read(const char *path, glevo_checkpoint_info *out);
/* One scalar entry of a checkpoint as text ("param.problem" -> "trap", "param.ell" -> "60",
 * numbers as %lld or %.17g), for front ends that rebuild an input the file does not hold
 * (DSMGA-II's problem). GLEVO_ERR_INVALID naming the entry when it is missing or an array. */
GLEVO_API glevo_status glevo_checkpoint_param(const char *path, const char *name, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
