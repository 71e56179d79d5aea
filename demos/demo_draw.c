/* Drawing for glevo-demo: the engines' textures go straight to the window through one tiny
 * display program (texelFetch, no copies, no readback); points and curves are line strips;
 * the text layer (demo_overlay.c) arrives as one texture blended over everything. The GLSL is
 * in shaders/demo/, from the library's shader table (GLEVO_SHADER_DIR works). */
#include <GL/glew.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "glevo/shader.h"

struct demo_draw {
    GLuint panel, curve, overlay;
    GLint panel_mode, panel_scale, panel_range, panel_rect, panel_tex;
    GLint curve_colour, overlay_tex;
    GLuint vao, vbo, read_fbo, overlay_texture;
    int overlay_w, overlay_h;
};

static GLuint program(const char *vs_file, const char *fs_file)
{
    unsigned id = 0;
    if (glevo_shader_program(vs_file, fs_file, &id) != GLEVO_OK)
        fprintf(stderr, "glevo-demo: %s\n", glevo_last_error());
    return id;
}

demo_draw *demo_draw_create(void)
{
    demo_draw *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->panel = program(NULL, "demo/panel.glsl");
    d->curve = program("demo/curve_vertex.glsl", "demo/curve.glsl");
    d->overlay = program(NULL, "demo/overlay.glsl");
    if (!d->panel || !d->curve || !d->overlay) {
        demo_draw_destroy(d);
        return NULL;
    }
    d->panel_mode = glGetUniformLocation(d->panel, "u_mode");
    d->panel_scale = glGetUniformLocation(d->panel, "u_gene_scale");
    d->panel_range = glGetUniformLocation(d->panel, "u_range");
    d->panel_rect = glGetUniformLocation(d->panel, "u_rect");
    d->panel_tex = glGetUniformLocation(d->panel, "t_view");
    d->curve_colour = glGetUniformLocation(d->curve, "u_colour");
    d->overlay_tex = glGetUniformLocation(d->overlay, "t_overlay");
    GLint library_vao = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &library_vao);
    glGenVertexArrays(1, &d->vao);
    glGenBuffers(1, &d->vbo);
    glBindVertexArray(d->vao);
    glBindBuffer(GL_ARRAY_BUFFER, d->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray((GLuint)library_vao);
    glGenFramebuffers(1, &d->read_fbo);
    return d;
}

void demo_draw_destroy(demo_draw *d)
{
    if (!d) return;
    if (d->panel) glDeleteProgram(d->panel);
    if (d->curve) glDeleteProgram(d->curve);
    if (d->overlay) glDeleteProgram(d->overlay);
    if (d->overlay_texture) glDeleteTextures(1, &d->overlay_texture);
    if (d->vao) glDeleteVertexArrays(1, &d->vao);
    if (d->vbo) glDeleteBuffers(1, &d->vbo);
    if (d->read_fbo) glDeleteFramebuffers(1, &d->read_fbo);
    free(d);
}

void demo_layout(int fb_w, int fb_h, demo_rect *left, demo_rect *right, demo_rect *curve)
{
    /* The curve strip needs about 130 px for its title, axis and labels. */
    int gap = 8, curve_h = fb_h * 3 / 10 >= 130 ? fb_h * 3 / 10 : (fb_h / 2 < 130 ? fb_h / 2 : 130);
    int top_h = fb_h - curve_h - 3 * gap;
    int panel_w = (fb_w - 3 * gap) / 2;
    *left = (demo_rect){gap, curve_h + 2 * gap, panel_w, top_h};
    *right = (demo_rect){2 * gap + panel_w, curve_h + 2 * gap, panel_w, top_h};
    *curve = (demo_rect){gap, gap, fb_w - 2 * gap, curve_h};
}

static void draw_panel(demo_draw *d, GLuint tex, demo_rect r, int mode, const float scale[3],
                       double worst, double best)
{
    if (!tex) return;
    glViewport(r.x, r.y, r.w, r.h);
    glUseProgram(d->panel);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glUniform1i(d->panel_tex, 0);
    glUniform1i(d->panel_mode, mode);
    glUniform3f(d->panel_scale, scale[0], scale[1], scale[2]);
    glUniform2f(d->panel_range, (float)worst, (float)best);
    glUniform4f(d->panel_rect, (float)r.x, (float)r.y, (float)r.w, (float)r.h);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void demo_draw_box(demo_rect r, float grey)
{
    glEnable(GL_SCISSOR_TEST);
    glScissor(r.x, r.y, r.w, r.h);
    glClearColor(grey, grey, grey, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

void demo_draw_clear(int fb_w, int fb_h, bool paused)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w, fb_h);
    float bg = paused ? 0.22f : 0.05f; /* a lighter frame says "paused" */
    glClearColor(bg, bg, bg * 1.4f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

void demo_draw_heat(demo_draw *d, unsigned tex, demo_rect r, double worst, double best)
{
    static const float unused[3] = {0, 0, 0};
    draw_panel(d, tex, r, 1, unused, worst, best);
}

/* Uploads n points (x, y in clip space) and draws them in one colour with the curve program,
 * leaving the library's vertex array and no program bound. */
static void draw_vertices(demo_draw *d, GLenum mode, const float *xy, int n, const float rgb[3])
{
    GLint library_vao = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &library_vao);
    glUseProgram(d->curve);
    glUniform3f(d->curve_colour, rgb[0], rgb[1], rgb[2]);
    glBindVertexArray(d->vao);
    glBindBuffer(GL_ARRAY_BUFFER, d->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)n * 2 * sizeof(float)), xy,
                 GL_STREAM_DRAW);
    glDrawArrays(mode, 0, n);
    glBindVertexArray((GLuint)library_vao);
    glUseProgram(0);
}

void demo_draw_strip(demo_draw *d, demo_rect r, const float *xy, int n, const float rgb[3])
{
    glViewport(r.x, r.y, r.w, r.h);
    glEnable(GL_SCISSOR_TEST); /* values beyond the panel are clipped to it */
    glScissor(r.x, r.y, r.w, r.h);
    draw_vertices(d, GL_LINE_STRIP, xy, n, rgb);
    glDisable(GL_SCISSOR_TEST);
}

void demo_draw_points(demo_draw *d, demo_rect r, const float *xy, int n)
{
    static const float dark[3] = {0.0f, 0.0f, 0.0f}, white[3] = {1.0f, 1.0f, 1.0f};
    glViewport(r.x, r.y, r.w, r.h);
    glPointSize(7.0f); /* a dark disc under a white one: visible on any heat colour */
    draw_vertices(d, GL_POINTS, xy, n, dark);
    glPointSize(4.0f);
    draw_vertices(d, GL_POINTS, xy, n, white);
    glPointSize(1.0f);
}

void demo_draw_genes(demo_draw *d, unsigned tex, demo_rect r, const float scale[3])
{
    draw_panel(d, tex, r, 0, scale, 0, 1);
    glUseProgram(0);
}

void demo_draw_overlay(demo_draw *d, const unsigned char *bgra, int w, int h)
{
    if (!d->overlay_texture) {
        glGenTextures(1, &d->overlay_texture);
        glBindTexture(GL_TEXTURE_2D, d->overlay_texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, d->overlay_texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (w != d->overlay_w || h != d->overlay_h) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_BGRA, GL_UNSIGNED_BYTE, bgra);
        d->overlay_w = w, d->overlay_h = h;
    } else {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_BGRA, GL_UNSIGNED_BYTE, bgra);
    }
    glViewport(0, 0, w, h);
    glUseProgram(d->overlay);
    glUniform1i(d->overlay_tex, 0);
    glEnable(GL_BLEND); /* cairo's pixels are premultiplied by alpha */
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
    glUseProgram(0);
}

bool demo_read_texel(demo_draw *d, const glevo_cga *cga, glevo_cga_stage stage, int x, int y,
                     float *genes, float *fitness)
{
    const glevo_cga_params *p = glevo_cga_params_of(cga);
    int textures = (p->dim + 3) / 4;
    if (stage == GLEVO_CGA_STAGE_FITNESS) stage = GLEVO_CGA_STAGE_POPULATION;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, d->read_fbo);
    bool ok = true;
    for (int t = 0; t <= textures && ok; ++t) {
        GLuint tex = t < textures ? glevo_cga_texture(cga, stage, t)
                                  : glevo_cga_texture(cga, GLEVO_CGA_STAGE_FITNESS, 0);
        if (!tex) {
            ok = false;
            break;
        }
        glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        if (t < textures)
            glReadPixels(x, y, 1, 1, GL_RGBA, GL_FLOAT, genes + 4 * t);
        else
            glReadPixels(x, y, 1, 1, GL_RED, GL_FLOAT, fitness);
    }
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok && glGetError() == GL_NO_ERROR;
}

void demo_curve_add(demo_curve *c, double gen, double value)
{
    if (c->count > 0 && c->gen[c->count - 1] == gen) {
        c->value[c->count - 1] = value;
        return;
    }
    if (c->count == c->capacity) {
        if (c->capacity >= 4096) { /* keep it bounded: drop every other old sample */
            int k = 0;
            for (int i = 0; i < c->count; i += 2, ++k) c->gen[k] = c->gen[i], c->value[k] = c->value[i];
            c->count = k;
        } else {
            int cap = c->capacity ? 2 * c->capacity : 256;
            double *g = realloc(c->gen, (size_t)cap * sizeof *g);
            if (!g) return;
            c->gen = g;
            double *v = realloc(c->value, (size_t)cap * sizeof *v);
            if (!v) return;
            c->value = v, c->capacity = cap;
        }
    }
    c->gen[c->count] = gen, c->value[c->count] = value;
    c->count++;
}

void demo_curve_clear(demo_curve *c) { c->count = 0; }
