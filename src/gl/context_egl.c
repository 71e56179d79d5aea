/* Headless contexts through EGL devices (EGL_EXT_device_enumeration + platform_device):
 * works on NVIDIA's driver and on Mesa, where llvmpipe is the "software" device. A surfaceless
 * core context is made current with EGL_NO_SURFACE; all rendering goes to FBOs anyway. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdio.h>
#include <string.h>

#include "gl/context_internal.h"
#include "core/args.h"

#define MAX_DEVICES 16

static PFNEGLQUERYDEVICESEXTPROC query_devices;
static PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string;
static PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display;

static glevo_status load_egl_extensions(void)
{
    if (query_devices) return GLEVO_OK;
    query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    query_device_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!query_devices || !query_device_string || !get_platform_display)
        return glevo_fail(GLEVO_ERR_NO_DEVICE,
                          "EGL has no device enumeration (EGL_EXT_device_enumeration); install "
                          "Mesa's EGL with llvmpipe: apt-get install libegl1 libegl-mesa0 "
                          "libgl1-mesa-dri");
    return GLEVO_OK;
}

static int list_devices(EGLDeviceEXT *devices)
{
    if (load_egl_extensions() != GLEVO_OK) return -1;
    EGLint count = 0;
    if (!query_devices(MAX_DEVICES, devices, &count)) {
        glevo_fail(GLEVO_ERR_NO_DEVICE, "eglQueryDevicesEXT failed (0x%x)", eglGetError());
        return -1;
    }
    return count;
}

static bool device_is_software(EGLDeviceEXT device)
{
    const char *ext = query_device_string(device, EGL_EXTENSIONS);
    return ext && strstr(ext, "EGL_MESA_device_software");
}

static void device_name(EGLDeviceEXT device, char *out, size_t size)
{
    const char *drm = query_device_string(device, EGL_DRM_DEVICE_FILE_EXT);
    if (drm)
        snprintf(out, size, "%s", drm);
    else
        snprintf(out, size, "%s", device_is_software(device) ? "software" : "unknown");
    eglGetError(); /* the DRM query fails on the software device; that is expected */
}

int glevo_egl_device_count(void)
{
    EGLDeviceEXT devices[MAX_DEVICES];
    return list_devices(devices);
}

int glevo_egl_hardware_devices(int *out, int capacity)
{
    ARG_NOT_NULL_OR(out, -1);
    EGLDeviceEXT devices[MAX_DEVICES];
    int n = list_devices(devices), count = 0;
    for (int i = 0; i < n; ++i)
        if (!device_is_software(devices[i]) && count < capacity) out[count++] = i;
    return n < 0 ? -1 : count;
}

/* Displays stay initialised for the life of the process: EGL displays are process-wide, and
 * Mesa 22's eglTerminate unloads its driver while leaking 112 bytes that LeakSanitizer can then
 * attribute to no module (so no suppression can name them). The driver is torn down at exit. */
static void display_release(EGLDisplay display) { (void)display; }

static glevo_status egl_make_current(struct glevo_context *ctx)
{
    if (!eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx->egl_context))
        return glevo_fail(GLEVO_ERR_GL, "eglMakeCurrent failed (0x%x)", eglGetError());
    return GLEVO_OK;
}

static void egl_swap(struct glevo_context *ctx) { (void)ctx; /* headless: nothing shown */ }

static void egl_close(struct glevo_context *ctx)
{
    eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(ctx->display, ctx->egl_context);
    display_release(ctx->display);
}

static const gl_platform egl_platform = {"egl", egl_make_current, egl_swap, egl_close};

/* Core context on one device: 4.3 first, 4.1 as the floor (docs/architecture.md, "Contracts"). */
static glevo_status open_on_device(struct glevo_context *ctx, EGLDeviceEXT device, int index)
{
    EGLDisplay display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, device, NULL);
    EGLint major, minor;
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor))
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "EGL device %d: eglInitialize failed (0x%x)",
                          index, eglGetError());
    if (!eglBindAPI(EGL_OPENGL_API)) {
        display_release(display);
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "EGL device %d has no desktop OpenGL", index);
    }
    /* EGL_SURFACE_TYPE defaults to windows, which a device display has none of. */
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = (EGLConfig)0; /* EGL_NO_CONFIG_KHR, accepted with KHR_no_config_context */
    EGLint configs = 0;
    if (!eglChooseConfig(display, config_attribs, &config, 1, &configs) || configs < 1) {
        const char *ext = eglQueryString(display, EGL_EXTENSIONS);
        if (!ext || !strstr(ext, "EGL_KHR_no_config_context")) {
            display_release(display);
            return glevo_fail(GLEVO_ERR_NO_DEVICE, "EGL device %d offers no OpenGL config",
                              index);
        }
        config = (EGLConfig)0;
    }
    static const int versions[][2] = {{4, 3}, {4, 1}};
    EGLContext context = EGL_NO_CONTEXT;
    for (size_t v = 0; v < 2 && context == EGL_NO_CONTEXT; ++v) {
        const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, versions[v][0],
                                  EGL_CONTEXT_MINOR_VERSION, versions[v][1],
                                  EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                  EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                  EGL_CONTEXT_OPENGL_DEBUG, ctx->debug ? EGL_TRUE : EGL_FALSE,
                                  EGL_NONE};
        context = eglCreateContext(display, config, EGL_NO_CONTEXT, attribs);
    }
    if (context == EGL_NO_CONTEXT) {
        display_release(display);
        return glevo_fail(GLEVO_ERR_NO_DEVICE,
                          "EGL device %d: no OpenGL 4.1 core context (0x%x)", index,
                          eglGetError());
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        eglDestroyContext(display, context);
        display_release(display);
        return glevo_fail(GLEVO_ERR_NO_DEVICE, "EGL device %d: surfaceless eglMakeCurrent "
                          "failed (0x%x)", index, eglGetError());
    }
    ctx->platform = &egl_platform;
    ctx->display = display;
    ctx->egl_context = context;
    ctx->device_index = index;
    ctx->software = device_is_software(device);
    device_name(device, ctx->device_name, sizeof ctx->device_name);
    return GLEVO_OK;
}

glevo_status egl_context_open(struct glevo_context *ctx, int device_plus_one)
{
    EGLDeviceEXT devices[MAX_DEVICES];
    int count = list_devices(devices);
    if (count < 0) return GLEVO_ERR_NO_DEVICE;
    if (count == 0)
        return glevo_fail(GLEVO_ERR_NO_DEVICE,
                          "EGL lists no devices; install Mesa's llvmpipe: apt-get install "
                          "libegl1 libegl-mesa0 libgl1-mesa-dri");
    if (device_plus_one > 0) {
        int index = device_plus_one - 1;
        if (index >= count)
            return glevo_fail(GLEVO_ERR_INVALID, "glevo_context_params.device_plus_one %d: "
                              "EGL device %d does not exist, EGL lists %d device(s), 0..%d",
                              device_plus_one, index, count, count - 1);
        return open_on_device(ctx, devices[index], index);
    }
    /* Auto: hardware devices first, the software rasterizer last. */
    char tried[512] = "";
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < count; ++i) {
            if (device_is_software(devices[i]) != (pass == 1)) continue;
            if (open_on_device(ctx, devices[i], i) == GLEVO_OK) return GLEVO_OK;
            size_t used = strlen(tried);
            snprintf(tried + used, sizeof tried - used, "%s%s", used ? "; " : "",
                     glevo_last_error());
        }
    return glevo_fail(GLEVO_ERR_NO_DEVICE,
                      "no usable EGL device among %d (%s); for software rendering install "
                      "Mesa's llvmpipe: apt-get install libegl-mesa0 libgl1-mesa-dri",
                      count, tried);
}

glevo_status egl_device_identify(int index, glevo_device_info *out)
{
    EGLDeviceEXT devices[MAX_DEVICES];
    int count = list_devices(devices);
    if (count < 0) return GLEVO_ERR_NO_DEVICE;
    if (index < 0 || index >= count)
        return glevo_fail(GLEVO_ERR_INVALID, "EGL device %d does not exist", index);
    device_name(devices[index], out->name, sizeof out->name);
    out->software = device_is_software(devices[index]);
    return GLEVO_OK;
}
