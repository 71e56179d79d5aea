/* The GPGPU machine (internal API for the algorithm folders): textures, programs built from
 * embedded .glsl files, and passes = program + input textures + render targets + uniforms,
 * drawn as one full-screen triangle into an FBO. Knows nothing of genetics.
 *
 * A pass in use:
 *     gpu_pass p = { .name = "cga.select", .program = &e->select };
 *     gpu_pass_input(&p, "t_population", &pop[cur]);
 *     gpu_pass_target(&p, &pop[next]);
 *     gpu_pass_begin(&p);                       // binds FBO, program, textures
 *     gpu_uniform_1f(&p, "u_pc", pc);           // uniforms while bound
 *     st = gpu_pass_draw(&p);                   // draws, checks GL errors with the pass name
 */
#ifndef GLEVO_GPGPU_H
#define GLEVO_GPGPU_H

#include <GL/glew.h>
#include <stdbool.h>
#include <stdint.h>

#include "glevo/status.h"

typedef enum gpu_format {
    GPU_RGBA32F,
    GPU_R32F,
    GPU_R32UI,
    GPU_RGBA32UI,
    GPU_RG32F,
} gpu_format;

typedef struct gpu_texture {
    GLuint id;
    int width, height;
    gpu_format format;
} gpu_texture;

/* Texture of w x h texels, uploaded from `data` (row-major, tightly packed; NULL = zeros). */
glevo_status gpu_texture_create(gpu_texture *t, int w, int h, gpu_format f, const void *data);
void gpu_texture_destroy(gpu_texture *t);
/* Set every texel to zero. */
glevo_status gpu_texture_clear(gpu_texture *t);
glevo_status gpu_texture_upload(gpu_texture *t, const void *data);
/* Upload a sub-rectangle. */
glevo_status gpu_texture_upload_rect(gpu_texture *t, int x, int y, int w, int h,
                                     const void *data);
/* Read the whole texture (or a rectangle) back; a full GPU sync. */
glevo_status gpu_texture_read(const gpu_texture *t, void *out);
glevo_status gpu_texture_read_rect(const gpu_texture *t, int x, int y, int w, int h, void *out);
int gpu_format_channels(gpu_format f);
size_t gpu_format_texel_bytes(gpu_format f);

/* Program: the shared full-screen vertex shader + fragment shader `fragment_file`
 * (a name under shaders/, e.g. "cga/select.glsl"). `defines` (may be NULL) is inserted after
 * #version, e.g. "#define D 4\n". `aliases` maps `#include <name>` to a file: pairs of
 * strings {"problem", "problems/camel.glsl", NULL}; a value that is a path (contains '/' and
 * exists on disk as given, or starts with '/' or '.') is read from disk, so user fitness
 * files work. Compile and link errors name the .glsl file and line. */
typedef struct gpu_program {
    GLuint id;
    char name[96];
    /* Uniform-location cache: looked up once per name. */
    struct { char name[48]; GLint loc; } cache[32];
    int cache_count;
} gpu_program;

glevo_status gpu_program_build(gpu_program *p, const char *fragment_file, const char *defines,
                               const char *const *aliases);
/* The same with another vertex shader than the full-screen triangle (e.g. a line strip). */
glevo_status gpu_program_build_with_vertex(gpu_program *p, const char *vertex_file,
                                           const char *fragment_file, const char *defines,
                                           const char *const *aliases);
void gpu_program_destroy(gpu_program *p);
/* Writes the driver's binary of a linked program to path (best effort, for counting
 * instructions: NVIDIA's embeds its assembly as text). */
void gpu_program_dump_binary(const gpu_program *p, const char *path);

#define GPU_MAX_INPUTS 12
#define GPU_MAX_TARGETS 8

typedef struct gpu_pass {
    const char *name; /* for errors and the --profile table, e.g. "cga.crossover" */
    gpu_program *program;
    const gpu_texture *inputs[GPU_MAX_INPUTS];
    const char *input_names[GPU_MAX_INPUTS];
    int input_count;
    gpu_texture *targets[GPU_MAX_TARGETS];
    int target_count;
    /* Viewport inside the targets; w == 0 means the whole first target. */
    int x, y, w, h;
} gpu_pass;

void gpu_pass_input(gpu_pass *p, const char *sampler_name, const gpu_texture *t);
void gpu_pass_target(gpu_pass *p, gpu_texture *t);
glevo_status gpu_pass_begin(gpu_pass *p);
void gpu_uniform_1f(gpu_pass *p, const char *name, float v);
void gpu_uniform_2f(gpu_pass *p, const char *name, float a, float b);
void gpu_uniform_4f(gpu_pass *p, const char *name, float a, float b, float c, float d);
void gpu_uniform_1i(gpu_pass *p, const char *name, int v);
void gpu_uniform_2i(gpu_pass *p, const char *name, int a, int b);
void gpu_uniform_1ui(gpu_pass *p, const char *name, uint32_t v);
void gpu_uniform_2ui(gpu_pass *p, const char *name, uint32_t a, uint32_t b);
void gpu_uniform_4ui(gpu_pass *p, const char *name, const uint32_t v[4]);
void gpu_uniform_1fv(gpu_pass *p, const char *name, int count, const float *v);
void gpu_uniform_1iv(gpu_pass *p, const char *name, int count, const int *v);
/* Draw the full-screen triangle; GL errors are reported naming the pass. */
glevo_status gpu_pass_draw(gpu_pass *p);

/* Random counter key as the shaders expect it: u_key = (seed, stream). */
void gpu_uniform_key(gpu_pass *p, uint32_t seed, uint32_t stream);

/* GL error check outside passes (e.g. after uploads): names `where`. */
glevo_status gpu_check(const char *where);

/* Wait for the GPU to finish everything submitted (for honest host timing). */
void gpu_finish(void);

/* Shader library (embedded at build time, overridable with GLEVO_SHADER_DIR). Returns the
 * text of a shader file or NULL, with glevo_last_error set. Caller frees. */
char *gpu_shader_source(const char *file);

/* Per-pass timing, active when the current context was created with profile = true. */
bool gpu_profile_enabled(void);
void gpu_profile_begin(const char *pass_name);
void gpu_profile_end(void);

#endif
