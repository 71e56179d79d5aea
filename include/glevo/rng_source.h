/* C twin of shaders/rng/source.glsl: the random words a pass draws for one texel, from Philox
 * (default) or from the 2008 paper's random texture read at per-generation offsets. */
#ifndef GLEVO_RNG_SOURCE_H
#define GLEVO_RNG_SOURCE_H

#include "glevo/export.h"

#include <stdint.h>

#include "glevo/rng.h"
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_rng_mode { GLEVO_RNG_PHILOX = 0, GLEVO_RNG_TEXTURE = 1 } glevo_rng_mode;

#define GLEVO_RNG_TABLE_SIDE 1024

/* "philox", "texture"; parse returns -1 for an unknown name. */
GLEVO_API const char *glevo_rng_mode_name(glevo_rng_mode m);
GLEVO_API int glevo_rng_mode_parse(const char *name);

typedef struct glevo_rng_source {
    glevo_rng_mode mode;
    uint32_t seed, stream;
    uint32_t generation;
    uint32_t *table;      /* texture mode: side*side*4 words (RGBA32UI), owned */
    uint32_t offset[4];   /* texture mode: (i, j, p, q) for this generation */
} glevo_rng_source;

GLEVO_API glevo_status glevo_rng_source_init(glevo_rng_source *s, glevo_rng_mode mode, uint32_t seed,
                                   uint32_t stream);
GLEVO_API void glevo_rng_source_free(glevo_rng_source *s);
/* Sets the generation (and, in texture mode, draws that generation's offsets). */
GLEVO_API void glevo_rng_source_set_generation(glevo_rng_source *s, uint32_t generation);
GLEVO_API glevo_u32x4 glevo_rng_words(const glevo_rng_source *s, uint32_t x, uint32_t y, uint32_t texel,
                            uint32_t pass, uint32_t draw);

#ifdef __cplusplus
}
#endif
#endif
