/* GL contexts: headless through EGL devices (servers, CI on llvmpipe) or a GLFW window
 * (the demo). Everything GPU-side in glevo runs on the context current on this thread. */
#ifndef GLEVO_CONTEXT_H
#define GLEVO_CONTEXT_H

#include "glevo/export.h"

#include <stdbool.h>
#include "glevo/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct glevo_context glevo_context;

typedef enum glevo_log_level {
    GLEVO_LOG_INFO = 0,    /* e.g. the whole shader compile log behind a one-line error */
    GLEVO_LOG_WARNING = 1, /* driver debug messages (--gl-debug), fallbacks taken */
    GLEVO_LOG_ERROR = 2
} glevo_log_level;

/* Receives every message the library has for a person (the library itself never writes to
 * stderr). message is one or more complete lines without a trailing newline. */
typedef void (*glevo_log_fn)(void *user, glevo_log_level level, const char *message);

typedef struct glevo_context_params {
    int device_plus_one; /* 1-based EGL device pick so that zero means "auto" (prefer
                          * hardware, sokol style): device N is N + 1 */
    bool window;         /* true: GLFW window instead of headless EGL */
    int width, height;   /* window size (default 1024x512) */
    const char *title;   /* window title */
    bool hidden;         /* create the window invisible */
    bool profile;        /* collect per-pass GPU times with timer queries */
    bool debug;          /* KHR_debug: check every call */
    glevo_log_fn log;    /* NULL: messages are dropped (the one-line error remains) */
    void *log_user;
} glevo_context_params;

/* What the context can run: the capability check before choosing a backend (sokol's
 * sg_features.compute, rlgl's ExtSupported.computeShader). */
typedef struct glevo_features {
    int gl_major, gl_minor;
    bool compute;                    /* GL 4.3 compute shaders: GLEVO_BACKEND_COMPUTE */
    int max_work_group_size[3];
    int max_work_group_invocations;
    int max_work_group_count[3];
    int max_shared_bytes;            /* shared memory per work-group */
    int max_texture_size;
    int max_draw_buffers;
    long long max_ssbo_bytes;        /* GL_MAX_SHADER_STORAGE_BLOCK_SIZE (0 without compute) */
    int subgroup_size;               /* GL_KHR_shader_subgroup's, for compute (0: not offered) */
    bool software;                   /* a software rasterizer (llvmpipe) */
} glevo_features;

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

GLEVO_API glevo_status glevo_context_create(const glevo_context_params *params, glevo_context **out);
GLEVO_API void glevo_context_destroy(glevo_context *ctx);
/* Make ctx current on this thread (contexts are made current by create). */
GLEVO_API glevo_status glevo_context_make_current(glevo_context *ctx);
GLEVO_API const char *glevo_context_renderer(const glevo_context *ctx);
/* Fills info about the context's device and GL implementation. */
GLEVO_API void glevo_context_describe(const glevo_context *ctx, glevo_device_info *out);
/* Number of EGL devices, or -1 (with glevo_last_error) when EGL device enumeration fails. */
GLEVO_API int glevo_egl_device_count(void);
/* Indices of the EGL devices that are not software rasterizers, in EGL order, without
 * creating a context (what islands spread their ranks over); returns how many were written,
 * or -1 when enumeration fails. */
GLEVO_API int glevo_egl_hardware_devices(int *out, int capacity);
/* Describe EGL device `index` by creating a short-lived context on it. */
GLEVO_API glevo_status glevo_egl_device_describe(int index, glevo_device_info *out);

/* Capabilities of ctx (the context current on this thread when ctx is NULL). */
GLEVO_API void glevo_context_features(const glevo_context *ctx, glevo_features *out);

/* Waits until the GPU has finished all submitted work (for honest wall-clock timing). NULL:
 * the calling thread's current context, if it has one (otherwise returns at once). */
GLEVO_API void glevo_context_finish(glevo_context *ctx);

/* Window contexts only. */
GLEVO_API void *glevo_context_window(glevo_context *ctx); /* the GLFWwindow*, NULL when headless */
GLEVO_API void glevo_context_swap(glevo_context *ctx);

/* One GL program compiled and linked on a context (glevo bench compile): its pass name and the
 * wall time of the compile and link, waited for (a program shared from the context's cache
 * is built once and listed once). */
typedef struct glevo_program_build {
    char name[96];
    double seconds;
} glevo_program_build;
/* The programs built on ctx so far, in order: up to capacity written to out (may be NULL),
 * the count returned. */
GLEVO_API int glevo_context_builds(const glevo_context *ctx, glevo_program_build *out, int capacity);
/* The disk cache of linked programs, where a run loads what an earlier run on the same driver
 * compiled: its folder written to folder (size bytes; NULL and 0 for none), and whether it is
 * on for ctx (NULL: the current context). GLEVO_PROGRAM_CACHE=DIR puts it in DIR (default
 * $XDG_CACHE_HOME/glevo/programs, else ~/.cache/glevo/programs), GLEVO_PROGRAM_CACHE=0 turns it
 * off, as does turning the driver's own shader cache off (__GL_SHADER_DISK_CACHE=0,
 * MESA_SHADER_CACHE_DISABLE=true) or a driver without program binaries; it keeps at most
 * GLEVO_PROGRAM_CACHE_MB (256) MiB, the least recently used entries leaving first. */
GLEVO_API bool glevo_program_cache(const glevo_context *ctx, char *folder, size_t size);

/* Where each kind of pass runs: the GPU's multiprocessors, and how many of them the
 * invocations of a render pass and of a compute dispatch of probe work ran on, each invocation
 * noting its multiprocessor (GL_NV_shader_thread_group, NVIDIA's). A data-centre GPU need not
 * shade pixels everywhere: on the H200 render passes ran on 4 of its 132 (docs/performance.md,
 * "Where render passes run"). reported is false, with the counts 0, where the driver does
 * not say (every other driver). */
typedef struct glevo_sm_usage {
    bool reported;
    int sm_count;        /* the GPU's multiprocessors (gl_SMCountNV) */
    int fragment_sms;    /* those a render pass's invocations ran on */
    int compute_sms;     /* those a compute dispatch's invocations ran on (0 without compute) */
} glevo_sm_usage;
/* Runs the probe on ctx (which it makes current): a draw and a dispatch of 512 x 512
 * invocations, read back. GLEVO_OK with reported false where the driver offers no way to ask. */
GLEVO_API glevo_status glevo_context_sm_usage(glevo_context *ctx, glevo_sm_usage *out);

/* Per-pass GPU time table (profile = true): one line per pass name on `stdio_file` (a FILE *),
 * or to the log callback when it is NULL. */
GLEVO_API void glevo_context_print_profile(glevo_context *ctx, void *stdio_file);

#ifdef __cplusplus
}
#endif
#endif
