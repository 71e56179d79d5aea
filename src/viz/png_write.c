/* RGB PNG output through libpng, written through core/output_file (temp, fsync, rename), so a
 * crash or a full disk never leaves a half-written image under the requested name. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/output_file.h"
#include "glevo/snapshot.h"

glevo_status glevo_png_write_rgb(const char *path, const unsigned char *rgb, int w, int h)
{
    output_file out;
    if (output_file_open(&out, path) != GLEVO_OK) return GLEVO_ERR_IO;
    FILE *f = out.f;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        output_file_abort(&out);
        return glevo_fail(GLEVO_ERR_IO, "libpng failed writing '%s'", path);
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    /* Texture row 0 is the bottom in GL; images start at the top. */
    for (int y = h - 1; y >= 0; --y) png_write_row(png, (png_const_bytep)(rgb + (size_t)y * w * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return output_file_commit(&out);
}

void glevo_heat_colour(double t, unsigned char rgb[3])
{
    /* A short viridis-like ramp: perceptually ordered, readable in grey. */
    static const double stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140},
                                       {94, 201, 98}, {253, 231, 37}};
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    double s = t * 4;
    int i = s >= 4 ? 3 : (int)s;
    double f = s - i;
    for (int k = 0; k < 3; ++k)
        rgb[k] = (unsigned char)(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * f + 0.5);
}
