/* Window contexts through GLFW, for the interactive demo: GL 4.1 core is enough to draw the
 * population textures (macOS and older drivers stop there), 4.3 is asked for first. */
#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <stdio.h>

#include "gl/context_internal.h"

static const gl_platform glfw_platform;
static bool glfw_initialised;
static char glfw_error_text[256];

static void on_glfw_error(int code, const char *text)
{
    snprintf(glfw_error_text, sizeof glfw_error_text, "GLFW error 0x%x: %s", code, text);
}

glevo_status glfw_context_open(struct glevo_context *ctx, const glevo_context_params *params)
{
    glfwSetErrorCallback(on_glfw_error);
    if (!glfw_initialised && !glfwInit())
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "no window system (%s); is DISPLAY set? Use "
                          "Xvfb for a virtual display, or the headless commands",
                          glfw_error_text);
    glfw_initialised = true;
    static const int versions[][2] = {{4, 3}, {4, 1}};
    GLFWwindow *window = NULL;
    for (int v = 0; v < 2 && !window; ++v) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, versions[v][0]);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, versions[v][1]);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, ctx->debug ? GLFW_TRUE : GLFW_FALSE);
        glfwWindowHint(GLFW_VISIBLE, params->hidden ? GLFW_FALSE : GLFW_TRUE);
        window = glfwCreateWindow(params->width ? params->width : 1024,
                                  params->height ? params->height : 512,
                                  params->title ? params->title : "glevo", NULL, NULL);
    }
    if (!window) {
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "could not open an OpenGL 4.1 core window (%s)",
                          glfw_error_text);
    }
    glfwMakeContextCurrent(window);
    ctx->platform = &glfw_platform;
    ctx->window = window;
    ctx->device_index = -1;
    snprintf(ctx->device_name, sizeof ctx->device_name, "window");
    return GLEVO_OK;
}

static glevo_status glfw_make_current(struct glevo_context *ctx)
{
    glfwMakeContextCurrent(ctx->window);
    return GLEVO_OK;
}

static void glfw_swap(struct glevo_context *ctx) { glfwSwapBuffers(ctx->window); }

/* GLFW stays initialised once used, like the EGL displays (context_egl.c): glfwTerminate
 * closes the X display, and Mesa then unloads its driver leaking 112 bytes that LeakSanitizer
 * can attribute to no module. The window itself is destroyed here. */
static void glfw_close(struct glevo_context *ctx) { glfwDestroyWindow(ctx->window); }

static const gl_platform glfw_platform = {"glfw", glfw_make_current, glfw_swap, glfw_close};
