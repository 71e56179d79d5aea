/* The context object behind glevo_context, shared by the EGL and GLFW paths, the pass
 * machinery (FBO cache, empty VAO) and the profiler. Internal to src/gl. */
#ifndef GLEVO_CONTEXT_INTERNAL_H
#define GLEVO_CONTEXT_INTERNAL_H

#include <GL/glew.h>
#include <EGL/egl.h>
#include <stdbool.h>

#include "glevo/context.h"

#define PROFILE_MAX_PASSES 64
#define PROFILE_MAX_QUERIES 256
#define FBO_CACHE_SIZE 32

typedef struct profile_entry {
    char name[64];
    double total_ms;
    long long draws;
} profile_entry;

typedef struct fbo_entry {
    GLuint fbo;
    GLuint attachments[8];
    int count;
    unsigned long long last_use;
} fbo_entry;

struct glevo_context {
    bool is_window;
    EGLDisplay display;
    EGLContext egl_context;
    void *window; /* GLFWwindow* */
    int device_index;
    char device_name[128];
    bool software;
    GLuint empty_vao;
    bool profile;
    bool debug;
    profile_entry profile_entries[PROFILE_MAX_PASSES];
    int profile_count;
    GLuint queries[PROFILE_MAX_QUERIES];
    int query_entry[PROFILE_MAX_QUERIES];
    int query_count;
    bool query_open;
    fbo_entry fbos[FBO_CACHE_SIZE];
    unsigned long long fbo_clock;
};

/* The context current on this thread (NULL if none): the one hidden global of glevo. */
extern _Thread_local struct glevo_context *gl_current;

/* Shared set-up once a context is current: GLEW, entry-point check, VAO. */
glevo_status gl_context_finish_setup(struct glevo_context *ctx);
void gl_context_release_objects(struct glevo_context *ctx);
glevo_status egl_context_open(struct glevo_context *ctx, int device_plus_one);
void egl_context_close(struct glevo_context *ctx);
glevo_status glfw_context_open(struct glevo_context *ctx, const glevo_context_params *params);
void glfw_context_close(struct glevo_context *ctx);
void profile_resolve(struct glevo_context *ctx);
/* KHR_debug: every driver message on stderr, naming the pass being drawn (GL 4.3 / KHR_debug). */
void gl_debug_enable(void);
void gl_debug_set_pass(const char *pass_name);

#endif
