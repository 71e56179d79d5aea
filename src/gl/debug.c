/* --gl-debug / GLEVO_GL_DEBUG=1: a debug context whose driver messages (KHR_debug, core in
 * GL 4.3) are printed as they happen, synchronously, with the pass being drawn, so a bad call
 * is found at the call rather than at the next pass boundary's glGetError. */
#include "gl/context_internal.h"

static _Thread_local const char *current_pass = "(outside passes)";

void gl_debug_set_pass(const char *pass_name) { current_pass = pass_name; }

static void GLAPIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity,
                                  GLsizei length, const GLchar *message, const void *user)
{
    (void)source, (void)id, (void)length, (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
    gpu_log(type == GL_DEBUG_TYPE_ERROR ? GLEVO_LOG_ERROR : GLEVO_LOG_WARNING,
            "GL debug [%s, pass %s]: %s",
            type == GL_DEBUG_TYPE_ERROR ? "error" : severity == GL_DEBUG_SEVERITY_HIGH ? "high" : "note",
            current_pass, message);
}

void gl_debug_enable(void)
{
    if (!glDebugMessageCallback) {
        gpu_log(GLEVO_LOG_WARNING, "debug context: this context has no KHR_debug; errors are "
                "still checked at every pass");
        return;
    }
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(on_message, NULL);
}
