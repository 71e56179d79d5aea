/* What the checkpoint writer and reader share inside src/core: the longest entry name, the
 * host's byte order and little-endian integers of 1..8 bytes (the format's only order). */
#ifndef GLEVO_CORE_CHECKPOINT_BYTES_H
#define GLEVO_CORE_CHECKPOINT_BYTES_H

#include <stdint.h>

#define MAX_NAME 255
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IS_BIG_ENDIAN 1
#else
#define IS_BIG_ENDIAN 0
#endif

static inline void le_put(uint8_t *out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) out[i] = (uint8_t)(v >> (8 * i));
}
static inline uint64_t le_get(const uint8_t *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= (uint64_t)in[i] << (8 * i);
    return v;
}

#endif
