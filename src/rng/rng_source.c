/* C twin of shaders/rng/source.glsl (see include/glevo/rng_source.h). */
#include "glevo/rng_source.h"

#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/args.h"

static const char *const mode_names[] = {"philox", "texture"};
const char *glevo_rng_mode_name(glevo_rng_mode m) { return names_get(mode_names, 2, (int)m); }
int glevo_rng_mode_parse(const char *name) {
    ARG_NOT_NULL_OR(name, -1);
    return names_find(mode_names, 2, name);
}

glevo_status glevo_rng_source_init(glevo_rng_source *s, glevo_rng_mode mode, uint32_t seed,
                                   uint32_t stream)
{
    glevo_clear_error();
    ARG_NOT_NULL(s);
    ARG_ENUM(mode, GLEVO_RNG_PHILOX, GLEVO_RNG_TEXTURE);
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->seed = seed;
    s->stream = stream;
    if (mode == GLEVO_RNG_TEXTURE) {
        const size_t words = (size_t)GLEVO_RNG_TABLE_SIDE * GLEVO_RNG_TABLE_SIDE * 4;
        s->table = malloc(words * sizeof(uint32_t));
        if (!s->table) return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for the random table");
        for (size_t i = 0; i < words / 4; ++i) {
            glevo_u32x4 r = glevo_philox4x32((uint32_t)i, 0x2008u, 0, 0, seed, stream ^ 0x7AB1Eu);
            memcpy(s->table + 4 * i, r.v, sizeof r.v);
        }
    }
    glevo_rng_source_set_generation(s, 0);
    return GLEVO_OK;
}

void glevo_rng_source_free(glevo_rng_source *s)
{
    if (!s) return;
    free(s->table);
    s->table = NULL;
}

void glevo_rng_source_set_generation(glevo_rng_source *s, uint32_t generation)
{
    ARG_NOT_NULL_OR(s, );
    s->generation = generation;
    if (s->mode == GLEVO_RNG_TEXTURE) {
        /* The host's per-generation draw of the offset (i, j) and the jitter (p, q). */
        glevo_u32x4 r = glevo_philox4x32(generation, 0x0FF5E7u, 0, 0, s->seed, s->stream);
        s->offset[0] = r.v[0] & 1023u;
        s->offset[1] = r.v[1] & 1023u;
        s->offset[2] = r.v[2] & 15u;
        s->offset[3] = r.v[3] & 15u;
    }
}

glevo_u32x4 glevo_rng_words(const glevo_rng_source *s, uint32_t x, uint32_t y, uint32_t texel,
                            uint32_t pass, uint32_t draw)
{
    ARG_NOT_NULL_OR(s, (glevo_u32x4){0});
    if (s->mode == GLEVO_RNG_PHILOX)
        return glevo_philox4x32(texel, s->generation, pass, draw, s->seed, s->stream);
    uint32_t ox = s->offset[0] + pass * 131u + draw * 7919u;
    uint32_t oy = s->offset[1] + pass * 197u + draw * 104729u;
    const uint32_t *here = s->table + 4 * ((size_t)(y & 1023u) * GLEVO_RNG_TABLE_SIDE + (x & 1023u));
    uint32_t px = (x + ox + s->offset[2] * (here[0] >> 28)) & 1023u;
    uint32_t py = (y + oy + s->offset[3] * (here[1] >> 28)) & 1023u;
    glevo_u32x4 out;
    memcpy(out.v, s->table + 4 * ((size_t)py * GLEVO_RNG_TABLE_SIDE + px), sizeof out.v);
    return out;
}
