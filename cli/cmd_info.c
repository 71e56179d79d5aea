/* glevo info: every EGL device, the GL implementation glevo would pick by default, where its
 * render passes and compute dispatches run (NVIDIA's multiprocessor ids), and what compute
 * shaders can use on each device (work-group count, size, invocations, shared memory, SSBO). */
#include <string.h>

#include "cli.h"
#include "glevo/gp.h"

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

/* The compute-shader limits of EGL device `index` (a short-lived context on it): what
 * --backend compute can use there. False when no context could be made. */
static bool device_features(int index, glevo_features *f)
{
    glevo_context *ctx = NULL;
    glevo_context_params params = {.device_plus_one = index + 1};
    if (glevo_context_create(&params, &ctx) != GLEVO_OK) return false;
    glevo_context_features(ctx, f);
    glevo_context_destroy(ctx);
    return true;
}

static void print_compute_text(const glevo_features *f)
{
    printf("  compute shaders:  %s (GL %d.%d%s)\n", f->compute ? "yes" : "no", f->gl_major,
           f->gl_minor, f->compute ? "" : "; they need 4.3");
    if (!f->compute) return;
    printf("  work-group count: %d x %d x %d\n  work-group size:  %d x %d x %d, %d invocations\n"
           "  shared memory:    %d bytes a work-group\n  SSBO size:        %lld bytes at most\n",
           f->max_work_group_count[0], f->max_work_group_count[1], f->max_work_group_count[2],
           f->max_work_group_size[0], f->max_work_group_size[1], f->max_work_group_size[2],
           f->max_work_group_invocations, f->max_shared_bytes, f->max_ssbo_bytes);
    if (f->subgroup_size) printf("  subgroups:        %d invocations\n", f->subgroup_size);
    else printf("  subgroups:        not offered (GL_KHR_shader_subgroup)\n");
}

static void print_compute_json(json_writer *w, const glevo_features *f)
{
    json_begin_object(w, "compute");
    json_bool(w, "supported", f->compute);
    char version[32];
    snprintf(version, sizeof version, "%d.%d", f->gl_major, f->gl_minor);
    json_string(w, "gl_version", version);
    if (f->compute) {
        json_begin_array(w, "max_work_group_count");
        for (int i = 0; i < 3; ++i) json_int(w, NULL, f->max_work_group_count[i]);
        json_end_array(w);
        json_begin_array(w, "max_work_group_size");
        for (int i = 0; i < 3; ++i) json_int(w, NULL, f->max_work_group_size[i]);
        json_end_array(w);
        json_int(w, "max_work_group_invocations", f->max_work_group_invocations);
        json_int(w, "max_shared_memory_bytes", f->max_shared_bytes);
        json_int(w, "max_ssbo_bytes", f->max_ssbo_bytes);
        json_int(w, "subgroup_size", f->subgroup_size);
    }
    json_end_object(w);
}

static void print_device_json(json_writer *w, const glevo_device_info *d, const glevo_features *f)
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
        if (f) print_compute_json(w, f);
    }
    json_end_object(w);
}

/* Where the default device runs render passes and compute dispatches (glevo_context_sm_usage). */
static void print_sm_usage_text(const glevo_sm_usage *u, const char *error)
{
    if (error[0])
        printf("multiprocessors: not measured (%s)\n\n", error);
    else if (!u->reported)
        printf("multiprocessors: not reported by this driver (GL_NV_shader_thread_group)\n\n");
    else
        printf("multiprocessors: %d; render passes ran on %d, compute dispatches on %d\n\n",
               u->sm_count, u->fragment_sms, u->compute_sms);
}

static void print_sm_usage_json(json_writer *w, const glevo_sm_usage *u, const char *error)
{
    json_begin_object(w, "multiprocessors");
    json_bool(w, "reported", u->reported);
    if (error[0]) json_string(w, "error", error);
    if (u->reported) {
        json_int(w, "count", u->sm_count);
        json_int(w, "render_passes", u->fragment_sms);
        json_int(w, "compute_dispatches", u->compute_sms);
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
                       "Lists EGL devices and the OpenGL implementation on each, and the folder "
                       "where linked programs are kept between runs.", specs);
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
    /* What --backend auto (every command's default) runs on that device; without GL, the
     * CPU engines. */
    const char *auto_pick = glevo_backend_name(glevo_backend_resolve(GLEVO_BACKEND_AUTO));
    const char *auto_gp = glevo_backend_name(glevo_gp_backend_resolve(GLEVO_BACKEND_AUTO));
    char cache[4096] = "";
    bool cache_on = false;
    glevo_sm_usage sms = {0};
    char sms_error[512] = "";
    if (have_default) {
        glevo_context_describe(ctx, &chosen);
        cache_on = glevo_program_cache(ctx, cache, sizeof cache);
        if (glevo_context_sm_usage(ctx, &sms) != GLEVO_OK)
            snprintf(sms_error, sizeof sms_error, "%s", glevo_last_error());
        auto_pick = glevo_backend_name(glevo_backend_resolve(GLEVO_BACKEND_AUTO));
        auto_gp = glevo_backend_name(glevo_gp_backend_resolve(GLEVO_BACKEND_AUTO));
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
            json_string(&w, "auto_backend", auto_pick);
            json_string(&w, "auto_backend_gp", auto_gp);
            json_string(&w, "program_cache", cache);
            json_bool(&w, "program_cache_on", cache_on);
            print_sm_usage_json(&w, &sms, sms_error);
        } else {
            json_null(&w, "default_device");
            json_string(&w, "error", default_error);
        }
        json_begin_array(&w, "devices");
    } else {
        printf("glevo %s, %d EGL device(s)\n", glevo_version_string(), count);
        if (have_default) {
            printf("default: device %d (%s); --backend auto runs %s (gp: %s)\n"
                   "program cache: %s (%s)\n", chosen.index, chosen.renderer, auto_pick,
                   auto_gp, cache[0] ? cache : "none", cache_on ? "on" : "off");
            print_sm_usage_text(&sms, sms_error);
        } else {
            printf("default: none (%s)\n\n", default_error);
        }
    }
    for (int i = 0; i < count; ++i) {
        if (device >= 0 && i != device) continue;
        glevo_device_info d;
        glevo_egl_device_describe(i, &d);
        glevo_features f;
        bool have = !d.error[0] && device_features(i, &f);
        if (json) {
            print_device_json(&w, &d, have ? &f : NULL);
        } else {
            print_device_text(&d);
            if (have) print_compute_text(&f);
        }
    }
    if (json) {
        json_end_array(&w);
        json_end_object(&w);
    }
    return have_default ? 0 : 1;
}
