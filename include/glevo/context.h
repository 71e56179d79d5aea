/* GL contexts: headless through EGL devices (servers, CI on llvmpipe) or a GLFW window
 * (the demo). Everything GPU-side in glevo runs on the context current on this thread. */
#ifndef GLEVO_CONTEXT_H
#define GLEVO_CONTEXT_H

#include <stdbool.h>
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glevo_context glevo_context;

typedef struct glevo_context_params {
    int device;          /* EGL device index; 0 = auto (prefer hardware). Use device_plus_one. */
    int device_plus_one; /* 1-based device pick so that zero means "auto" (sokol style) */
    bool window;         /* true: GLFW window instead of headless EGL */
    int width, height;   /* window size (default 1024x512) */
    const char *title;   /* window title */
    bool hidden;         /* create the window invisible */
    bool profile;        /* collect per-pass GPU times with timer queries */
    bool debug;          /* KHR_debug: check every call */
} glevo_context_params;

typedef struct glevo_device_info {
    int index;
    char name[128];      /* DRM node or "software" */
    bool software;
    char vendor[128];
    char renderer[256];
    char gl_version[128];
    char glsl_version[128];
    int max_texture_size;
    int max_draw_buffers;
    bool usable;         /* a core context of at least 4.1 could be created */
    char error[256];     /* why not, if !usable */
} glevo_device_info;

glevo_status glevo_context_create(const glevo_context_params *params, glevo_context **out);
void glevo_context_destroy(glevo_context *ctx);
/* Make ctx current on this thread (contexts are made current by create). */
glevo_status glevo_context_make_current(glevo_context *ctx);
const char *glevo_context_renderer(const glevo_context *ctx);
/* Fills info about the context's device and GL implementation. */
void glevo_context_describe(const glevo_context *ctx, glevo_device_info *out);
/* Number of EGL devices, or -1 (with glevo_last_error) when EGL device enumeration fails. */
int glevo_egl_device_count(void);
/* Describe EGL device `index` by creating a short-lived context on it. */
glevo_status glevo_egl_device_describe(int index, glevo_device_info *out);

/* Waits until the GPU has finished all submitted work (for honest wall-clock timing). */
void glevo_context_finish(glevo_context *ctx);

/* Window contexts only. */
void *glevo_context_window(glevo_context *ctx); /* the GLFWwindow*, NULL when headless */
void glevo_context_swap(glevo_context *ctx);

/* Per-pass GPU time table (profile = true): one line per pass name on `stream`. */
void glevo_context_print_profile(glevo_context *ctx, void *stdio_file);

#ifdef __cplusplus
}
#endif
#endif
