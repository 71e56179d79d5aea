/* glevo info: every EGL device, and the GL implementation glevo would pick by default. */
#include <string.h>

#include "cli.h"

static void print_device_text(const glevo_device_info *d)
{
    printf("device %d: %s%s\n", d->index, d->name, d->software ? " (software)" : "");
    if (d->error[0]) {
        printf("  not usable: %s\n", d->error);
        return;
    }
    printf("  vendor:           %s\n  renderer:         %s\n  GL version:       %s\n"
           "  GLSL version:     %s\n  max texture size: %d\n  max draw buffers: %d\n",
           d->vendor, d->renderer, d->gl_version, d->glsl_version, d->max_texture_size,
           d->max_draw_buffers);
}

static void print_device_json(json_writer *w, const glevo_device_info *d)
{
    json_begin_object(w, NULL);
    json_int(w, "index", d->index);
    json_string(w, "name", d->name);
    json_bool(w, "software", d->software);
    json_bool(w, "usable", d->error[0] == '\0');
    if (d->error[0]) {
        json_string(w, "error", d->error);
    } else {
        json_string(w, "vendor", d->vendor);
        json_string(w, "renderer", d->renderer);
        json_string(w, "gl_version", d->gl_version);
        json_string(w, "glsl_version", d->glsl_version);
        json_int(w, "max_texture_size", d->max_texture_size);
        json_int(w, "max_draw_buffers", d->max_draw_buffers);
    }
    json_end_object(w);
}

int cmd_info(int argc, char **argv)
{
    bool json = false, help = false;
    int device = -1;
    opt_spec specs[] = {{"json", OPT_FLAG, &json, "print one JSON object on stdout"},
                        {"device", OPT_INT, &device, "describe only this EGL device"},
                        {0}};
    int rc = opt_parse("info", specs, argc, argv, 1, &help, NULL, 0, NULL);
    if (rc) return rc;
    if (help) {
        opt_print_help(stdout, "glevo info [--json] [--device N]",
                       "Lists EGL devices and the OpenGL implementation on each.", specs);
        return 0;
    }
    int count = glevo_egl_device_count();
    if (count < 0) return cli_fail("info", GLEVO_ERR_NO_DEVICE);
    if (device >= count || device < -1)
        return cli_bad_input("info", "--device %d does not exist: EGL lists %d device(s)",
                             device, count);
    /* The default pick, as every command would make it. */
    glevo_context *ctx = NULL;
    glevo_context_params params = {.device_plus_one = device >= 0 ? device + 1 : 0};
    glevo_device_info chosen;
    bool have_default = glevo_context_create(&params, &ctx) == GLEVO_OK;
    char default_error[512] = "";
    if (have_default) {
        glevo_context_describe(ctx, &chosen);
        glevo_context_destroy(ctx);
    } else {
        snprintf(default_error, sizeof default_error, "%s", glevo_last_error());
    }
    json_writer w = {0};
    if (json) {
        json_begin_object(&w, NULL);
        json_string(&w, "glevo_version", glevo_version_string());
        json_int(&w, "egl_device_count", count);
        if (have_default) {
            json_int(&w, "default_device", chosen.index);
            json_string(&w, "renderer", chosen.renderer);
        } else {
            json_null(&w, "default_device");
            json_string(&w, "error", default_error);
        }
        json_begin_array(&w, "devices");
    } else {
        printf("glevo %s, %d EGL device(s)\n", glevo_version_string(), count);
        if (have_default)
            printf("default: device %d (%s)\n\n", chosen.index, chosen.renderer);
        else
            printf("default: none (%s)\n\n", default_error);
    }
    for (int i = 0; i < count; ++i) {
        if (device >= 0 && i != device) continue;
        glevo_device_info d;
        glevo_egl_device_describe(i, &d);
        if (json)
            print_device_json(&w, &d);
        else
            print_device_text(&d);
    }
    if (json) {
        json_end_array(&w);
        json_end_object(&w);
    }
    return have_default ? 0 : 1;
}
