/* Which engine runs an algorithm: GLSL fragment passes on the GPU, or the CPU engine built
 * from the passes' C twins. Shared by every algorithm family. */
#ifndef GLEVO_BACKEND_H
#define GLEVO_BACKEND_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum glevo_backend {
    GLEVO_BACKEND_FRAGMENT = 0, /* default: render passes on the current GL context */
    GLEVO_BACKEND_CPU = 1
} glevo_backend;

#ifdef __cplusplus
}
#endif
#endif
