/* The context object behind glevo_context and every cross-file internal of src/gl (GLFW's
 * internal.h shape): the platform table that context_egl.c and context_glfw.c install, the
 * pass machinery (FBO cache, empty VAO, uniform stream, pending barrier), the profiler and the
 * log sink. Internal to src/gl. */
#ifndef GLEVO_CONTEXT_INTERNAL_H
#define GLEVO_CONTEXT_INTERNAL_H

#include <GL/glew.h>
#include <EGL/egl.h>
#include <stdbool.h>

#include "gl/gpgpu.h"
#include "gl/shader_compose.h"
#include "glevo/context.h"

#define PROFILE_MAX_PASSES 64
#define PROFILE_MAX_QUERIES 256
#define FBO_CACHE_SIZE 32
/* Uniform blocks are streamed through one buffer: each pass's block is written at the next
 * aligned offset and bound as a range, so no upload waits for the draws still reading the
 * previous ones; when the ring is full the buffer is orphaned (glBufferData(NULL)). */
#define UNIFORM_RING_BYTES (256 * 1024)

typedef struct profile_entry {
    char name[64];
    double total_ms;
    long long draws;
} profile_entry;

typedef struct fbo_entry {
    GLuint fbo;
    GLuint attachments[GPU_MAX_TARGETS];
    int count;
    unsigned long long last_use;
} fbo_entry;

/* A linked program shared by every pass program built from the same composed text on this
 * context (src/gl/program_cache.c): the searches of a GP portfolio, say, build one. */
typedef struct program_cache_entry {
    char *key;    /* name, then the composed texts */
    gpu_program program;
    int refs;
} program_cache_entry;

struct pending_program; /* a build of a batch not yet checked (program_batch.c) */

struct glevo_context;
/* What differs between a headless EGL context and a GLFW window (GLFW's _GLFWcontext). */
typedef struct gl_platform {
    const char *name;
    glevo_status (*make_current)(struct glevo_context *ctx);
    void (*swap)(struct glevo_context *ctx);
    void (*close)(struct glevo_context *ctx);
} gl_platform;

struct glevo_context {
    const gl_platform *platform;
    unsigned long long serial; /* unique per context of the process (gpu_context_serial) */
    EGLDisplay display;
    EGLContext egl_context;
    void *window; /* GLFWwindow* */
    int device_index;
    char device_name[128];
    bool software;
    GLuint empty_vao;
    bool profile;
    bool debug;
    glevo_log_fn log;
    void *log_user;
    gpu_limits limits;
    int gl_major, gl_minor;
    /* uniform stream */
    GLuint uniform_ring;
    /* uploads: a pixel-unpack buffer, orphaned and refilled per upload */
    GLuint unpack_buffer;
    GLint uniform_align;
    size_t uniform_head;
    /* a compute dispatch wrote images or buffers that nothing has fenced yet */
    bool barrier_pending;
    profile_entry profile_entries[PROFILE_MAX_PASSES];
    int profile_count;
    GLuint queries[PROFILE_MAX_QUERIES];
    int query_entry[PROFILE_MAX_QUERIES];
    int query_count;
    bool query_open;
    fbo_entry fbos[FBO_CACHE_SIZE];
    unsigned long long fbo_clock;
    program_cache_entry *programs;
    int program_count, program_cap;
    /* Every compile and link on this context, in order (glevo_context_builds). */
    glevo_program_build *builds;
    int build_count, build_cap;
    /* gpu_program_batch_begin's depth and its builds not yet checked (program_batch.c). */
    int batch_depth;
    struct pending_program **pending;
    int pending_count, pending_cap;
};

/* The program built from key on ctx, shared (*p filled, its count of users raised); false if
 * there is none. */
bool program_cache_find(struct glevo_context *ctx, const char *key, gpu_program *p);
/* Keeps a newly linked program under key (best effort: out of memory only stops sharing). */
void program_cache_add(struct glevo_context *ctx, const char *key, const gpu_program *p);
/* Notes a compile and link of `seconds` (glevo_context_builds; best effort). */
void program_build_record(struct glevo_context *ctx, const char *name, double seconds);
/* One user fewer of the program with this id; true when it was shared and others remain
 * (the caller must not delete it). */
bool program_cache_release(struct glevo_context *ctx, GLuint id);
void program_cache_free(struct glevo_context *ctx);

/* program.c's two halves of a build, for program_batch.c: the link's status (a failed compile
 * named as such; the shaders deleted, and the program too when it failed) and the whole
 * finish (that, the checks against the description, the build record and the cache entry,
 * and the disk cache's unless the program was `loaded` from it; texts freed). */
glevo_status program_link_checked(GLuint prog, const GLuint *shaders, const shader_text *texts,
                                  int count, const char *name);
glevo_status program_finish(gpu_program *p, const gpu_program_desc *d, shader_text *texts,
                            int stages, const GLuint *shaders, bool allow_loose, const char *key,
                            double t0, bool loaded);
/* The driver's binary of a linked program to path (best effort; program_check.c). */
void program_write_binary(const gpu_program *p, const char *path);
/* Linked programs kept on disk between runs (program_disk.c): whether the cache is on for the
 * current context; the program of key loaded and linked from it (0 when there is none, or it
 * is not this driver's); a linked program kept under key (best effort, one warning a process
 * where the folder cannot be written). */
bool program_disk_enabled(void);
GLuint program_disk_load(const char *key);
void program_disk_store(GLuint prog, const char *key);
/* In a batch: keeps the started build of p for later (texts and key taken over) and returns
 * true; outside one, false (the caller finishes it). */
bool program_batch_defer(struct glevo_context *ctx, gpu_program *p, const gpu_program_desc *d,
                         shader_text *texts, int stages, const GLuint *shaders, char *key,
                         double t0);
/* A pending build of key: p shares it (true), else false. */
bool program_batch_join(struct glevo_context *ctx, const char *key, gpu_program *p);
/* p no longer wants its pending build (deleted when no one does). */
void program_batch_drop(struct glevo_context *ctx, gpu_program *p);
/* Forgets every pending build (the context is going). */
void program_batch_free(struct glevo_context *ctx);

/* The context current on this thread (NULL if none): the one hidden global of glevo
 * (current.c). */
extern _Thread_local struct glevo_context *gl_current;

/* Platforms (context_egl.c, context_glfw.c): open a context on ctx, install ctx->platform,
 * leave it current. */
glevo_status egl_context_open(struct glevo_context *ctx, int device_plus_one);
/* EGL device index's name and whether it is software into out (glevo_egl_device_describe
 * makes a context on it for the rest). */
glevo_status egl_device_identify(int index, glevo_device_info *out);
glevo_status glfw_context_open(struct glevo_context *ctx, const glevo_context_params *params);

/* Shared set-up once a context is current: GLEW, entry-point check, limits, VAO, ring. */
glevo_status gl_context_finish_setup(struct glevo_context *ctx);
void gl_context_release_objects(struct glevo_context *ctx);

/* Pass machinery shared by pass.c, texture.c and dispatch.c. */
GLuint gpu_fbo_for(gpu_texture *const *targets, int count);
void gpu_fbo_forget(GLuint texture);
/* Issues the memory barrier a previous dispatch left pending (before draws, dispatches,
 * uploads and readbacks). */
void gpu_fence_compute_writes(void);
/* Binds the pass's textures to their units and its uniform block; checks counts. */
glevo_status gpu_bind_common(gpu_pass *p);
const char *gl_error_name(GLenum e);

void profile_resolve(struct glevo_context *ctx);
/* KHR_debug: every driver message to the log, naming the pass being drawn (GL 4.3). */
void gl_debug_enable(void);
void gl_debug_set_pass(const char *pass_name);

#endif
