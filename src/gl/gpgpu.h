/* The GPGPU machine (internal API for the algorithm folders): textures and buffers, programs
 * built from embedded .glsl files, and steps = program + inputs + outputs + one uniform block,
 * either drawn as a full-screen triangle into an FBO (the fragment driver, the 2008 way) or
 * dispatched as compute work-groups writing images (the compute driver, the 2012 way). Knows
 * nothing of genetics. docs/architecture.md draws the layers.
 *
 * A pass in use (sokol_gfx's shape: bindings by slot, uniforms as one block from a C struct):
 *     static const gpu_slot samplers[] = {{"t_fitness"}, {"t_genes", 8}, {0}};
 *     gpu_program_build(&prog, &(gpu_program_desc){.name = "cga.select",
 *                       .fragment = "cga/select.glsl", .samplers = samplers,
 *                       .uniform_size = sizeof(cga_uniforms)});
 *     gpu_pass p = {.name = "cga.select", .program = &prog};
 *     gpu_pass_input(&p, SELECT_FITNESS, &fitness);     // slot = index in the unit table
 *     gpu_pass_target(&p, &selected);
 *     gpu_pass_uniforms(&p, &u, sizeof u);              // the std140 block pass_uniforms
 *     st = gpu_pass_draw(&p);                           // or gpu_pass_dispatch(&p)
 */
#ifndef GLEVO_GPGPU_H
#define GLEVO_GPGPU_H

#include <GL/glew.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glevo/status.h"

/* ---- textures ---- */
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
    int host_channels; /* channels a texel has in the host arrays of uploads and reads */
} gpu_texture;

/* Texture of w x h texels, uploaded from `data` (row-major, tightly packed; NULL = zeros). */
glevo_status gpu_texture_create(gpu_texture *t, int w, int h, gpu_format f, const void *data);
/* The same for a float texture that stores fewer channels than its host arrays have
 * (host_channels 4 for an R32F or RG32F texture): uploads drop the channels it lacks, reads
 * give 0 for them. */
glevo_status gpu_texture_create_narrow(gpu_texture *t, int w, int h, gpu_format f,
                                       int host_channels, const void *data);
void gpu_texture_destroy(gpu_texture *t);
/* Set every texel to zero. */
glevo_status gpu_texture_clear(gpu_texture *t);
glevo_status gpu_texture_upload(gpu_texture *t, const void *data);
glevo_status gpu_texture_upload_rect(gpu_texture *t, int x, int y, int w, int h,
                                     const void *data);
/* Read the whole texture (or a rectangle) back; a full GPU sync. */
glevo_status gpu_texture_read(const gpu_texture *t, void *out);
glevo_status gpu_texture_read_rect(const gpu_texture *t, int x, int y, int w, int h, void *out);
int gpu_format_channels(gpu_format f);
size_t gpu_format_texel_bytes(gpu_format f);

/* ---- buffers (shader storage, compute driver) ---- */
typedef struct gpu_buffer {
    GLuint id;
    size_t size;
} gpu_buffer;

glevo_status gpu_buffer_create(gpu_buffer *b, size_t size, const void *data);
void gpu_buffer_destroy(gpu_buffer *b);
glevo_status gpu_buffer_upload(gpu_buffer *b, size_t offset, size_t size, const void *data);
/* Sets every byte to zero (on the GPU, no upload). */
glevo_status gpu_buffer_clear(gpu_buffer *b);
/* Reads size bytes at offset back; a full GPU sync. */
glevo_status gpu_buffer_read(const gpu_buffer *b, size_t offset, size_t size, void *out);

/* ---- programs ---- */
/* One entry of a program's sampler or image table: `count` units (0 counts as 1) for a GLSL
 * array `name[count]`. Slots are assigned in table order, so an algorithm's enum of slots
 * mirrors its table. A name that the composed shader does not contain at all is a build error
 * (a typo); one that the shader declares but this variant does not use is fine. */
typedef struct gpu_slot {
    const char *name;
    int count;
} gpu_slot;

/* Every non-opaque uniform of a program lives in one std140 block named `pass_uniforms`,
 * mirrored by a C struct of `uniform_size` bytes (padded to a multiple of 16): the build fails
 * when the sizes differ or when any other loose uniform exists. */
typedef struct gpu_program_desc {
    const char *name;              /* for errors, e.g. "cga.select" */
    const char *fragment;          /* fragment file under shaders/ (with the full-screen
                                    * triangle, or `vertex`), or NULL for a compute program */
    const char *vertex;            /* NULL: common/fullscreen_vertex.glsl */
    const char *compute;           /* compute file: GLSL 4.30, `#define GLEVO_COMPUTE 1` */
    const char *defines;           /* inserted after #version, e.g. "#define DIM 4\n" */
    const char *const *aliases;    /* `#include <name>` -> file pairs, NULL-terminated */
    const gpu_slot *samplers;      /* {0}-terminated, may be NULL */
    const gpu_slot *images;        /* compute: image units, {0}-terminated, may be NULL */
    const gpu_slot *buffers;       /* compute: shader-storage blocks by block name */
    size_t uniform_size;           /* sizeof the C struct of pass_uniforms; 0: no block */
} gpu_program_desc;

#define GPU_MAX_INPUTS 32
#define GPU_MAX_TARGETS 8
#define GPU_MAX_IMAGES 8
#define GPU_MAX_BUFFERS 8

typedef struct gpu_program {
    GLuint id;
    char name[96];
    bool compute;
    int sampler_units, image_units, buffer_units;
    size_t uniform_size;
    int local_size[3];             /* compute: the shader's work-group size */
    const struct glevo_context *context; /* the context it was built on (passes check it) */
    bool pending;                  /* built in a batch, not yet checked (gpu_program_ready) */
} gpu_program;

glevo_status gpu_program_build(gpu_program *p, const gpu_program_desc *desc);
/* A batch of builds: between begin and end, gpu_program_build starts each compile and link
 * and returns, and the driver builds the batch's programs together (GL_KHR_parallel_shader_
 * compile, where offered); a program's checks and errors come at its first use
 * (gpu_program_ready, which passes call) or at the batch's end, whichever is first. end
 * returns the first error of the programs it finished. Batches nest; builds outside one are
 * checked at once, as before. */
void gpu_program_batch_begin(void);
glevo_status gpu_program_batch_end(void);
/* A pending program checked now (waiting for its link): GLEVO_OK, or its build's error. */
glevo_status gpu_program_ready(gpu_program *p);
void gpu_program_destroy(gpu_program *p);
/* Writes the driver's binary of a linked program to path (best effort, for counting
 * instructions: NVIDIA's embeds its assembly as text). */
void gpu_program_dump_binary(const gpu_program *p, const char *path);

/* ---- passes: one step descriptor, two drivers ---- */
typedef enum gpu_blend {
    GPU_BLEND_NONE = 0, /* targets receive the fragment's values */
    GPU_BLEND_ADD = 1,  /* targets += values (float targets; long evaluations in chunks) */
} gpu_blend;

typedef enum gpu_access { GPU_READ_ONLY = 0, GPU_WRITE_ONLY, GPU_READ_WRITE } gpu_access;

typedef struct gpu_pass {
    const char *name;              /* for errors, --profile and --gl-debug, e.g. "cga.select" */
    gpu_program *program;
    const gpu_texture *inputs[GPU_MAX_INPUTS];   /* by sampler slot */
    /* Fragment driver: colour attachments in order. Compute driver: the images, by image
     * slot (write-only unless images_access says otherwise). */
    gpu_texture *targets[GPU_MAX_TARGETS];
    int target_count;
    gpu_access access[GPU_MAX_TARGETS];          /* compute: per image slot */
    gpu_buffer *buffers[GPU_MAX_BUFFERS];        /* compute: by buffer slot */
    /* Fragment: viewport inside the targets (w == 0: the whole first target). */
    int x, y, w, h;
    gpu_blend blend;
    /* Compute: work-groups to dispatch. */
    int groups[3];
    const void *uniforms;                        /* the pass_uniforms block, set by */
    size_t uniform_size;                         /* gpu_pass_uniforms */
    const char *error;                           /* first binding error, reported at run */
} gpu_pass;

/* Bindings: bounds-checked against the program's tables (an error is reported, naming the
 * pass, by the draw or dispatch that follows). */
void gpu_pass_input(gpu_pass *p, int slot, const gpu_texture *t);
void gpu_pass_inputs(gpu_pass *p, int first_slot, const gpu_texture *t, int count);
void gpu_pass_target(gpu_pass *p, gpu_texture *t);
void gpu_pass_targets(gpu_pass *p, gpu_texture *t, int count);
void gpu_pass_image(gpu_pass *p, int slot, gpu_texture *t, gpu_access access);
void gpu_pass_buffer(gpu_pass *p, int slot, gpu_buffer *b);
/* The uniform block's contents (copied at the draw or dispatch; size must equal the
 * program's uniform_size). */
void gpu_pass_uniforms(gpu_pass *p, const void *block, size_t size);
/* Fragment driver: bind the targets as an FBO, the inputs, the block; draw the full-screen
 * triangle. GL errors are reported naming the pass. */
glevo_status gpu_pass_draw(gpu_pass *p);
/* Compute driver: bind inputs, images, buffers and the block; glDispatchCompute(groups).
 * Later reads of what it wrote (any driver, readbacks) are fenced by a memory barrier. */
glevo_status gpu_pass_dispatch(gpu_pass *p);
/* Work-groups of `local` invocations covering n (ceil division). */
int gpu_groups(long long n, int local);

/* GL error check outside passes (e.g. after uploads): names `where`. */
glevo_status gpu_check(const char *where);
/* Wait for the GPU to finish everything submitted (for honest host timing, long chunks). */
void gpu_finish(void);

/* ---- the context's capabilities ---- */
typedef struct gpu_limits {
    int max_texture_size;
    int max_texture_units;         /* fragment stage */
    int max_compute_texture_units;
    bool compute;                  /* GL 4.3 compute shaders */
    int max_work_group_size[3];
    int max_work_group_invocations;
    int max_work_group_count[3];
    int max_shared_bytes;
    /* Invocations a subgroup where GL_KHR_shader_subgroup offers its basic functions
     * (subgroupBarrier) to compute shaders, else 0. */
    int subgroup_size;
    /* Whether those subgroups also offer shuffles (GL_KHR_shader_subgroup_shuffle). */
    bool subgroup_shuffle;
    /* GL_NV_shader_thread_group: shaders can read their multiprocessor (gl_SMIDNV). */
    bool sm_ids;
    /* Loop iterations one shader invocation may run in all its loops together before the
     * driver cuts them short without an error, or 0 where none is known: llvmpipe's gallivm
     * loop limiter (LP_MAX_TGSI_LOOP_ITERATIONS = 65535 in Mesa's lp_bld_limits.h, one counter
     * per function, decremented at the end of every loop iteration in lp_exec_endloop,
     * lp_bld_ir_common.c; GLSL functions are inlined into main, so the whole invocation
     * shares it). */
    long long max_loop_iterations;
    /* Memory for up-front size checks (gpu_memory_check): a software renderer keeps textures
     * in host memory; hardware reports its free memory where GL_NVX_gpu_memory_info exists
     * (bytes at context creation; 0: not known). */
    bool software;
    long long device_memory;
    /* Bytes one texture may hold where the driver has a limit beyond GL_MAX_TEXTURE_SIZE (0:
     * none known). llvmpipe (Mesa 22.3) gave GL_OUT_OF_MEMORY for an RGBA32F texture of
     * 8192x16000 (2.0 GB) and created 8192x12000 (1.57 GB): 1.5 GiB is taken as its limit. */
    long long max_texture_bytes;
} gpu_limits;
const gpu_limits *gpu_context_limits(void);
/* Which context is current on this thread: a number unique to each context the process
 * created (0: none). A GPU engine keeps the one it was created on, and every public entry
 * that touches GL asks gpu_context_check first: an engine used after its context was
 * destroyed, or from a thread where another or no context is current, is refused
 * (GLEVO_ERR_GL naming `function`, in the words of the pass-level check of bind.c) instead
 * of reaching GL with names of another context. */
unsigned long long gpu_context_serial(void);
/* GLEVO_OK when `bytes` of textures and buffers can be expected to fit the current context's
 * device: host memory for a software renderer (core/memory.h), the reported free memory of a
 * hardware one where known, and the largest texture against max_texture_bytes; otherwise
 * GLEVO_ERR_INVALID "<request> needs X GiB of GPU memory, above ...". Asked before creating
 * anything. */
glevo_status gpu_memory_check(double bytes, double largest_texture, const char *request);
glevo_status gpu_context_check(unsigned long long serial, const char *function);

/* Shader library (embedded at build time, overridable with GLEVO_SHADER_DIR). Returns the
 * text of a shader file or NULL, with glevo_last_error set. Caller frees. */
char *gpu_shader_source(const char *file);

/* Per-pass timing, active when the current context was created with profile = true. */
bool gpu_profile_enabled(void);
void gpu_profile_begin(const char *pass_name);
void gpu_profile_end(void);

/* Messages for the user (shader logs, driver debug output) go to the context's log
 * callback; nothing in the library writes to stderr itself. */
void gpu_log(int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
