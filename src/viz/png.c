/* PNG files through cairo (which reads and writes them with libpng): written through
 * core/output_file (temporary file, fsync, rename; devices and FIFOs in place), so a crash or a
 * full disk never leaves a half-written image under the requested name. */
#include <stdint.h>
#include <stdio.h>

#include "glevo/sheet.h"
#include "viz/viz.h"
#include "core/args.h"

cairo_status_t viz_stream_write(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

glevo_status viz_finish_file(cairo_surface_t *surface, output_file *out)
{
    cairo_surface_finish(surface);
    cairo_status_t cs = cairo_surface_status(surface);
    if (cs != CAIRO_STATUS_SUCCESS) {
        output_file_abort(out);
        return glevo_fail(GLEVO_ERR_IO, "cannot write '%s' (%s)", out->path, cairo_status_to_string(cs));
    }
    return output_file_commit(out);
}

glevo_status viz_png_write(cairo_surface_t *image, const char *path)
{
    output_file out;
    glevo_status st = output_file_open(&out, path);
    if (st != GLEVO_OK) return st;
    cairo_status_t cs = cairo_surface_write_to_png_stream(image, viz_stream_write, out.f);
    if (cs != CAIRO_STATUS_SUCCESS) {
        output_file_abort(&out);
        return glevo_fail(GLEVO_ERR_IO, "cannot write '%s' (%s)", path, cairo_status_to_string(cs));
    }
    return output_file_commit(&out);
}

glevo_status viz_png_read(const char *path, cairo_surface_t **out)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    cairo_status_t cs = cairo_surface_status(s);
    if (cs != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        *out = NULL;
        return glevo_fail(cs == CAIRO_STATUS_NO_MEMORY ? GLEVO_ERR_NOMEM : GLEVO_ERR_IO,
                          "cannot read PNG '%s' (%s)", path, cairo_status_to_string(cs));
    }
    *out = s;
    return GLEVO_OK;
}

glevo_status glevo_png_size(const char *path, int *width, int *height)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(width);
    ARG_NOT_NULL(height);
    cairo_surface_t *s;
    glevo_status st = viz_png_read(path, &s);
    if (st) return st;
    *width = cairo_image_surface_get_width(s), *height = cairo_image_surface_get_height(s);
    cairo_surface_destroy(s);
    return GLEVO_OK;
}

glevo_status glevo_png_write_rgb(const char *path, const unsigned char *rgb, int w, int h)
{
    glevo_clear_error();
    ARG_NOT_NULL(path);
    ARG_NOT_NULL(rgb);
    if (w < 1 || h < 1) return glevo_fail(GLEVO_ERR_INVALID, "image of %dx%d pixels", w, h);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    if (cairo_surface_status(s)) {
        cairo_surface_destroy(s);
        return glevo_fail(GLEVO_ERR_NOMEM, "out of memory for a %dx%d image", w, h);
    }
    cairo_surface_flush(s);
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    /* GL's row 0 is the bottom; an image's is the top. */
    for (int y = 0; y < h; ++y) {
        const unsigned char *src = rgb + (size_t)(h - 1 - y) * w * 3;
        uint32_t *dst = (uint32_t *)(data + (size_t)y * stride);
        for (int x = 0; x < w; ++x)
            dst[x] = (uint32_t)src[3 * x] << 16 | (uint32_t)src[3 * x + 1] << 8 | src[3 * x + 2];
    }
    cairo_surface_mark_dirty(s);
    glevo_status st = viz_png_write(s, path);
    cairo_surface_destroy(s);
    return st;
}
